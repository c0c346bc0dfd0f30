"""Games -> per-ply facts: exactly one engine search per position.

Every position the players moved from is searched once (MultiPV 3, a node budget); terminal
positions are scored by the rules, not searched, and the score after a move comes from the
rules, the move's MultiPV line or the next position's search, never from a second search of
the same position. The few moves that look like sacrifices get one tiny separate search
(depth 2, a fresh hash), counted apart (``GameFacts.shallow_searches``) and cached under its
own key. Each rule in full: ``docs/cpi.md``.

A game's engine time is capped: a game longer than ``formats.movetext.MAX_PLIES`` is refused
before any search, and the analysis stops (:class:`OverBudget`) once its searches have taken
more than the budget given (``engine.game_budget``): every way in refuses such a game already,
so this is the second fence, for games stored before the cap or an engine far slower than
measured (docs/moves.md, "Analysis").
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import chess
import chess.pgn
import chess.polyglot

from clubrating.analysis.cache import SearchCache, SearchLine, position_key
from clubrating.analysis.engine import SHALLOW_DEPTH, Searcher
from clubrating.analysis.see import exchange
from clubrating.cpi.facts import (
    BookStatus,
    Color,
    Depths,
    EngineInfo,
    EngineMove,
    GameFacts,
    PlyFacts,
    Score,
)
from clubrating.cpi.factors import OPENING_MOVES, OPENING_TOP, is_sacrifice_candidate
from clubrating.errors import InputError
from clubrating.formats.movetext import MAX_PLIES, MoveError, after_the_end, too_long
from clubrating.words import N_

BookReader = chess.polyglot.MemoryMappedReader


def _seconds(value: float) -> str:
    """Seconds as a person reads them: whole above 10 (2,118), three digits below (0.214)."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


class OverBudget(InputError):
    """The engine spent more than a game's budget on it: the analysis stopped, nothing kept."""

    def __init__(
        self, seconds: float, budget: float, nodes: int, searched: int, plies: int
    ) -> None:
        super().__init__(
            N_(
                "the engine spent %(seconds)s s on this game, more than its budget of %(budget)s s "
                "at %(nodes)s nodes a position; stopped after %(searched)s of %(plies)s half-moves"
            ),
            seconds=_seconds(seconds),
            budget=_seconds(budget),
            nodes=format(nodes, ","),
            searched=format(searched, ","),
            plies=format(plies, ","),
        )


def book_status(book: BookReader, board: chess.Board, move: chess.Move) -> BookStatus:
    """Where ``move`` stands among the Polyglot entries of ``board``."""
    entries = sorted(book.find_all(board), key=lambda e: (-e.weight, e.move.uci()))
    if not entries:
        return BookStatus.NO_POSITION
    if move in {entry.move for entry in entries[:OPENING_TOP]}:
        return BookStatus.TOP10
    if move in {entry.move for entry in entries}:
        return BookStatus.BOOK
    return BookStatus.OUT


def shallow_settings_key(info: EngineInfo) -> str:
    """The cache key of the tiny brilliancy search: the engine and the depth."""
    return f"{info.name} {info.version}|depth={SHALLOW_DEPTH}|multipv=1"


def terminal_score(board: chess.Board) -> Score | None:
    """The rules' score of a finished position (side to move's view), None if play goes on."""
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return None
    return Score(mate=0) if outcome.winner is not None else Score(cp=0)


class _GameSearch:
    """The searches of one game: lazy, cached, one per position.

    Each search is a new "game" for the engine (``ucinewgame``: a clean
    hash), so its lines depend on the position and the settings alone, as
    the cache's key says: a resumed analysis, whatever it found cached,
    gives the facts of an uninterrupted one.
    """

    def __init__(
        self,
        searcher: Searcher,
        cache: SearchCache | None,
        settings_key: str,
        budget: float | None = None,
        plies: int = 0,
    ) -> None:
        self.searcher, self.cache, self.settings_key = searcher, cache, settings_key
        self.searches = self.hits = self.shallow = 0
        self.depths: list[int] = []  # depth reached by each search run (not the cached ones)
        self._lines: dict[int, tuple[SearchLine, ...]] = {}
        self.budget, self.plies, self.seconds = budget, plies, 0.0  # the engine's time on this game

    def lines(self, index: int, board: chess.Board) -> tuple[SearchLine, ...]:
        if index not in self._lines:
            self._lines[index] = self._cached(board, self.settings_key, lambda: self._search(board))
        return self._lines[index]

    def _search(self, board: chess.Board) -> tuple[SearchLine, ...]:
        lines = self.searcher.search(board, object())
        depth = getattr(self.searcher, "last_depth", None)  # optional: not every Searcher tells
        if isinstance(depth, int):
            self.depths.append(depth)
        return lines

    def shallow_best(self, board: chess.Board, shallow_key: str) -> str | None:
        def run() -> tuple[SearchLine, ...]:
            self.shallow += 1
            best = self.searcher.shallow_best(board, object())  # its own fresh hash
            return ((best, Score(cp=0)),) if best else ()

        lines = self._cached(board, shallow_key, run, count=False)
        return lines[0][0] if lines else None

    def _cached(
        self,
        board: chess.Board,
        key: str,
        run: Callable[[], tuple[SearchLine, ...]],
        count: bool = True,
    ) -> tuple[SearchLine, ...]:
        position = position_key(board) if self.cache is not None else ""
        if self.cache is not None:
            found = self.cache.get(position, key)
            if found is not None:
                self.hits += count
                return found
        started = time.monotonic()
        lines = run()
        self.seconds += time.monotonic() - started
        if self.budget is not None and self.seconds > self.budget:
            raise OverBudget(
                self.seconds, self.budget, self.searcher.info.nodes, len(self._lines), self.plies
            )
        self.searches += count
        if self.cache is not None:
            self.cache.put(position, key, lines)
        return lines


def _engine_moves(board: chess.Board, lines: tuple[SearchLine, ...]) -> tuple[EngineMove, ...]:
    return tuple(
        EngineMove(uci, board.san(chess.Move.from_uci(uci)), score) for uci, score in lines
    )


def _score_after(
    search: _GameSearch,
    index: int,
    after: chess.Board,
    best: tuple[EngineMove, ...],
    move: chess.Move,
) -> Score:
    terminal = terminal_score(after)
    if terminal is not None:  # the rules first: a line's "mate 1" after the mating move is not it
        return terminal
    for line in best:
        if line.uci == move.uci():
            return line.score
    following = search.lines(index + 1, after)
    if not following:
        raise RuntimeError(f"the engine returned no line for {after.fen()}")
    return following[0][1].negated()


def game_boards(
    game: chess.pgn.Game, where: str = ""
) -> list[tuple[chess.Board, chess.pgn.ChildNode]]:
    """Each position (with its move stack) and the node of the move played from it."""
    if game.errors:
        raise InputError(
            N_("unreadable game (%(error)s)"), file=where or None, error=str(game.errors[0])
        )
    if (
        sum(1 for _ in game.mainline()) > MAX_PLIES
    ):  # counted first: each board below copies its move stack
        raise too_long(file=where or None)

    board = game.board()
    out = []
    for node in game.mainline():
        over = after_the_end(board)  # stored before the rule was checked: refused, not walked back
        if over is not None:
            raise MoveError(
                board.fullmove_number, board.turn, board.san(node.move), board.fen(), over
            )
        out.append((board.copy(), node))
        board.push(node.move)
    return out


def analyse_game(
    game: chess.pgn.Game,
    searcher: Searcher,
    cache: SearchCache | None = None,
    book: BookReader | None = None,
    budget: float | None = None,
) -> GameFacts:
    """The per-ply facts of one game (see the module's docstring for the rules); ``budget``:
    the seconds its engine searches may take (None: no limit)."""
    positions = game_boards(game)  # refuses a game longer than MAX_PLIES
    search = _GameSearch(searcher, cache, searcher.info.key, budget, len(positions))
    clocks: list[float | None] = [node.clock() for _, node in positions]
    plies = []
    for index, (board, node) in enumerate(positions):
        move = node.move
        best = _engine_moves(board, search.lines(index, board))
        if index + 1 < len(positions):
            after = positions[index + 1][0]
        else:
            after = board.copy()
            after.push(move)
        number = board.ply() + 1
        plies.append(
            PlyFacts(
                ply=number,
                color=Color.WHITE if board.turn == chess.WHITE else Color.BLACK,
                uci=move.uci(),
                san=board.san(move),
                legal_moves=board.legal_moves.count(),
                best=best,
                score_after=_score_after(search, index, after, best, move),
                clock_before=clocks[index - 2] if index >= 2 else None,
                clock_after=clocks[index],
                book=book_status(book, board, move)
                if book and (number + 1) // 2 <= OPENING_MOVES
                else None,
                exchange=exchange(board, move),
            )
        )
    shallow_key = shallow_settings_key(searcher.info)
    for index, ply in enumerate(plies):
        if is_sacrifice_candidate(ply):
            plies[index] = dataclasses.replace(
                ply, shallow_best=search.shallow_best(positions[index][0], shallow_key)
            )
    return GameFacts(
        headers=dict(game.headers),
        result=game.headers.get("Result", "*"),
        engine=searcher.info,
        plies=tuple(plies),
        searches=search.searches,
        cache_hits=search.hits,
        shallow_searches=search.shallow,
        depth=Depths.of(search.depths),
    )
