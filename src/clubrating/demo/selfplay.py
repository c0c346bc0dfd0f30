"""Engine self-play for the demo club: games between simulated members, with clocks.

A member's strength sets how the engine plays for them (:func:`side_for`): a Stockfish *Skill
Level* 0-20 and a node budget per move, applied as Stockfish applies it (``Skill::pick_best``
in Stockfish 15.1 ``search.cpp``) but with the random push drawn from the game's seed and every
search bounded by nodes and depth, so the same seed plays the same game move for move. Clocks
are written as ``[%clk h:mm:ss]`` for :data:`TIME_CONTROL`; a game ends by the rules, by
resignation, by an agreed draw or at a move cap. The details: ``docs/architecture.md``.
"""

from __future__ import annotations

import io
import math
import multiprocessing
import multiprocessing.util
import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from types import TracebackType

import chess
import chess.pgn
import chess.polyglot

from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings, SearchLine
from clubrating.analysis.rawuci import RawUciSearcher
from clubrating.analysis.runner import (
    DEFAULT_BOOK,
    AnalysisConfig,
    Analyzer,
    start_pool_worker,
    stop_pool,
)
from clubrating.cpi.facts import GameFacts, Score
from clubrating.formats.results import GameResult

# --- the players ---------------------------------------------------------------------------

MAX_SKILL = 20  # Stockfish's "Skill Level" option: 0-20, 20 = not weakened
TOP_SKILL = 19  # ours: the demo's strongest level; 20 would play one game whatever the seed
SKILL_MULTIPV = 4  # Stockfish search.cpp: a skill below 20 searches at least MultiPV 4
DEFAULT_NODES = (
    2_000  # ours: the node budget per move of the demo's players (benchmarks/bench_demo.py)
)
# ours: a member's strength (the simulator's hidden Elo, mostly 700-2200) to a skill level:
# level 0 at 700, one level per 75 points, TOP_SKILL from about 2100 up. The mean centipawn
# loss falls with the level up to about 9, then levels off at this node budget
# (benchmarks/measure_selfplay_strength.py, 4 games a level, 2,000 nodes to play and to analyse:
# level 0: 138, 3: 66, 6: 64, 9: 38, 12: 45, 15: 38, 19: 41); in the default demo the members'
# ACPL follows their club rating at r = -0.72 (benchmarks/bench_demo.py); tests/test_demo.py
# checks that a stronger member's setting loses fewer centipawns.
SKILL_ZERO_STRENGTH = 700.0
STRENGTH_PER_SKILL = 75.0


@dataclass(frozen=True, slots=True)
class Side:
    """How the engine plays one member: a skill level and a node budget per move."""

    skill: int
    nodes: int = DEFAULT_NODES

    def __post_init__(self) -> None:
        if not 0 <= self.skill <= MAX_SKILL or self.nodes < 1:
            raise ValueError(
                f"a side needs a skill level 0-{MAX_SKILL} and a positive node budget, not {self}"
            )


def side_for(strength: float, nodes: int = DEFAULT_NODES) -> Side:
    """The engine setting for a player of ``strength`` (see SKILL_ZERO_STRENGTH)."""
    level = round((strength - SKILL_ZERO_STRENGTH) / STRENGTH_PER_SKILL)
    return Side(min(TOP_SKILL, max(0, level)), nodes)


# ours: a player knows the opening book (weighted by its Polyglot weights) for 4 plies at
# skill 0 and one more per level (23 plies, 12 moves, at the top level).
BOOK_PLIES_AT_ZERO = 4
BOOK_PLIES_PER_SKILL = 1


def book_plies(side: Side) -> int:
    return BOOK_PLIES_AT_ZERO + BOOK_PLIES_PER_SKILL * side.skill


def score_cp(score: Score) -> int:
    """A score in centipawns for comparing moves: a mate is worth more than any material."""
    if score.mate is None:
        return score.cp or 0
    return (100_000 - 100 * abs(score.mate)) * (1 if score.mate > 0 else -1)


def pick_line(lines: Sequence[SearchLine], skill: int, rng: random.Random) -> int:
    """Stockfish 15.1 ``Skill::pick_best``: the index of the line a player of ``skill`` plays.

    weakness = 120 - 2 * level; every line gets a push of (weakness * its loss
    against the best + delta * random % weakness) / 128, delta the spread of the
    lines capped at a pawn; the line whose score plus push is highest is played.
    Scores are in UCI centipawns here (Stockfish uses its internal units).
    """
    if skill >= MAX_SKILL or len(lines) < 2:
        return 0
    scores = [score_cp(score) for _, score in lines]
    top = scores[0]
    delta = min(top - scores[-1], 100)  # Stockfish: std::min(topScore - last, PawnValueMg)
    weakness = 120 - 2 * skill
    best, best_value = 0, -math.inf
    for index, score in enumerate(scores):
        push = (weakness * (top - score) + delta * rng.randrange(weakness)) // 128
        if score + push >= best_value:
            best, best_value = index, score + push
    return best


# --- the clock -----------------------------------------------------------------------------

TIME_CONTROL = (
    900,
    10,
)  # ours: 15 minutes + 10 s a move, a club rapid (FIDE Laws A.1: rapid 10-60 min)
BOOK_SECONDS = (2, 8)  # ours: a book move takes a few seconds
OPENING_MOVES = 8  # ours: the first moves are known and played in a few seconds
# ours: a player budgets the clock for about 50 more moves less half the moves played, at least 20,
# plus 60 % of the increment. Fitted with a clock-only simulation of 2,000 sides (about 10 % of the
# sides fall under a minute, mostly weaker players who overspend; 23 s a move on average).
MOVES_HORIZON = 50
MIN_MOVES_LEFT = 20
INCREMENT_SHARE = 0.6
OVERSPEND = 0.3  # ours: chance that a skill-0 player overspends in a game (less as skill grows) ...
OVERSPEND_PACE = (0.6, 1.4)  # ... by 60-140 % of the budget
TROUBLE_SECONDS = 60  # ours: under a minute a player is in time trouble ...
TROUBLE_SKILL_DROP = 4  # ... and plays four levels weaker
CLOSE_CP = 30  # ours: two moves this close make a position hard to judge (more time)


@dataclass(frozen=True, slots=True)
class Temper:
    """How one player handles the clock in one game (drawn from the game's seed)."""

    pace: float  # > 1: spends more than the budget in the middlegame (weaker players, sometimes)
    spread: float  # the lognormal sigma of the time per move (weaker players: less regular)


def temper_for(side: Side, rng: random.Random) -> Temper:
    """Weaker players more often overspend (and so meet time trouble) and vary more."""
    weak = 1.0 - side.skill / MAX_SKILL
    pace = 1.0 + (
        rng.uniform(*OVERSPEND_PACE) if rng.random() < OVERSPEND * weak else rng.uniform(-0.2, 0.2)
    )
    return Temper(pace=pace, spread=0.45 + 0.35 * weak)


def think_seconds(
    clock: float,
    move_number: int,
    lines: Sequence[SearchLine],
    legal: int,
    temper: Temper,
    rng: random.Random,
) -> int:
    """Whole seconds a move takes: a share of the clock, more in a hard position, never all of
    it."""
    if legal == 1:
        return rng.randint(1, 3)
    if clock < TROUBLE_SECONDS:
        return min(int(clock) - 1, rng.randint(2, 8)) if clock > 3 else 1
    if move_number <= OPENING_MOVES:
        return rng.randint(2, 12)
    scores = [score_cp(score) for _, score in lines]
    close = sum(1 for s in scores[1:] if scores[0] - s <= CLOSE_CP)
    hardness = 0.6 + 0.25 * close + min(legal, 40) / 80
    budget = (
        clock / max(MIN_MOVES_LEFT, MOVES_HORIZON - move_number // 2)
        + TIME_CONTROL[1] * INCREMENT_SHARE
    )
    noise = rng.lognormvariate(-(temper.spread**2) / 2, temper.spread)  # mean 1
    seconds = budget * hardness * temper.pace * noise
    return max(1, min(int(seconds), int(clock * 0.5)))


# --- the game ------------------------------------------------------------------------------

# The adjudication rules of fishtest's cutechess-cli runs ("-resign movecount=3 score=400
# -draw movenumber=34 movecount=8 score=20"), made human: a club player resigns later the
# weaker they are (ours: up to 700 cp at skill 0), and a draw is agreed only without queens.
RESIGN_MOVES = 3
RESIGN_CP = 400
RESIGN_CP_PER_WEAK_LEVEL = 15
DRAW_FROM_MOVE = 34
DRAW_PLIES = 8
DRAW_CP = 20
MOVE_CAP = 150  # ours: the arbiter adjudicates a game still going after 150 moves ...
ADJUDICATE_CP = 200  # ... as a win for a side this far ahead, else a draw
POINTS = {chess.WHITE: 2, chess.BLACK: 0}
BookReader = chess.polyglot.MemoryMappedReader


@dataclass(frozen=True, slots=True)
class GameOrder:
    """One game to play: who plays how, and the seed that makes it reproducible."""

    white: Side
    black: Side
    seed: int


@dataclass(frozen=True, slots=True)
class PlayedGame:
    moves: str  # PGN movetext with [%clk] comments and the result
    white_points: int  # half-points: 2, 1 or 0
    plies: int
    ending: str  # "checkmate", "resignation", "agreed draw", "threefold repetition", ...

    @property
    def game_result(self) -> GameResult:
        return result_of(self.white_points)

    @property
    def result(self) -> str:
        """The PGN Result tag."""
        return self.game_result.value


def result_of(white_points: int) -> GameResult:
    """The result of a finished game in which white scored ``white_points`` half-points (2, 1 or
    0)."""
    found = GameResult.of(white_points, 2 - white_points)
    if found is None:
        raise ValueError(f"a finished game gives white 0, 1 or 2 half-points, not {white_points}")
    return found


class SelfPlayEngine(RawUciSearcher):
    """The project's lean UCI client, asked for a depth- and node-bounded MultiPV search,
    with the opening book the players know (None: no book)."""

    def __init__(self, path: str = DEFAULT_ENGINE, book: str | None = None) -> None:
        super().__init__(EngineSettings(path=path, nodes=DEFAULT_NODES, multipv=SKILL_MULTIPV))
        self.book: BookReader | None = chess.polyglot.open_reader(book) if book else None

    def close(self) -> None:
        super().close()
        if self.book is not None:
            self.book.close()

    def lines(
        self, board: chess.Board, game: object, side: Side, skill: int
    ) -> tuple[SearchLine, ...]:
        if skill >= MAX_SKILL:
            self._prepare(board, game, 1)
            return self._go(f"go nodes {side.nodes}")
        self._prepare(board, game, SKILL_MULTIPV)
        return self._go(
            f"go depth {1 + skill} nodes {side.nodes}"
        )  # Stockfish: picks at depth 1 + level


class _Game:
    """The state of one game being played."""

    def __init__(self, order: GameOrder) -> None:
        self.order = order
        self.rng = random.Random(order.seed)
        self.board = chess.Board()
        self.pgn = chess.pgn.Game()
        self.node: chess.pgn.GameNode = self.pgn
        self.clock = {chess.WHITE: float(TIME_CONTROL[0]), chess.BLACK: float(TIME_CONTROL[0])}
        self.temper = {
            chess.WHITE: temper_for(order.white, self.rng),
            chess.BLACK: temper_for(order.black, self.rng),
        }
        self.hopeless = {chess.WHITE: 0, chess.BLACK: 0}
        self.level: list[int] = []  # |score| of the latest searches

    def side(self) -> Side:
        return self.order.white if self.board.turn == chess.WHITE else self.order.black

    def finish(self, white_points: int, ending: str) -> PlayedGame:
        self.pgn.headers["Result"] = result_of(white_points).value
        exporter = chess.pgn.StringExporter(headers=False, variations=False, comments=True)
        return PlayedGame(self.pgn.accept(exporter), white_points, self.board.ply(), ending)

    def ending_before_move(self, lines: Sequence[SearchLine]) -> PlayedGame | None:
        """Resignation, an agreed draw or the move cap, judged on the mover's search."""
        turn, value = self.board.turn, score_cp(lines[0][1])
        resign_at = RESIGN_CP + RESIGN_CP_PER_WEAK_LEVEL * (MAX_SKILL - self.side().skill)
        self.hopeless[turn] = self.hopeless[turn] + 1 if value <= -resign_at else 0
        if self.hopeless[turn] >= RESIGN_MOVES:
            return self.finish(POINTS[not turn], "resignation")
        self.level.append(abs(value))
        level = len(self.level) >= DRAW_PLIES and max(self.level[-DRAW_PLIES:]) <= DRAW_CP
        no_queens = not self.board.pieces(chess.QUEEN, chess.WHITE) | self.board.pieces(
            chess.QUEEN, chess.BLACK
        )
        if level and no_queens and self.board.fullmove_number >= DRAW_FROM_MOVE:
            return self.finish(1, "agreed draw")
        if self.board.fullmove_number > MOVE_CAP:
            white_view = value if turn == chess.WHITE else -value
            points = 1 if abs(white_view) < ADJUDICATE_CP else (2 if white_view > 0 else 0)
            return self.finish(points, "adjudicated")
        return None

    def book_move(self, book: BookReader | None) -> chess.Move | None:
        """A book move (Polyglot weights, the game's seed) while this player knows the opening."""
        if book is None or self.board.ply() >= book_plies(self.side()):
            return None
        try:
            return book.weighted_choice(self.board, random=self.rng).move
        except IndexError:  # python-chess: no entry for this position
            return None

    def play_move(self, move: chess.Move, seconds: int) -> None:
        turn = self.board.turn
        self.clock[turn] = self.clock[turn] - seconds + TIME_CONTROL[1]
        self.board.push(move)
        self.node = self.node.add_variation(move)
        self.node.set_clock(self.clock[turn])


def rules_ending(board: chess.Board) -> tuple[int, str] | None:
    """The result the rules give, if any: mate, stalemate, dead material, 75 moves, fivefold
    repetition, or a threefold repetition or fifty moves claimed as soon as they stand (FIDE
    Laws 9.2, 9.3; checked on the board as it is, which is cheaper than python-chess's claim
    test of every legal move)."""
    outcome = board.outcome(claim_draw=False)
    if outcome is not None:
        points = 1 if outcome.winner is None else POINTS[outcome.winner]
        return points, outcome.termination.name.lower().replace("_", " ")
    if board.halfmove_clock >= 100:
        return 1, "fifty moves"
    if board.is_repetition(3):
        return 1, "threefold repetition"
    return None


def play_game(engine: SelfPlayEngine, order: GameOrder) -> PlayedGame:
    """One game from the initial position to its end (see the module's docstring)."""
    game, token = _Game(order), object()  # a new token: the engine starts a new game (a clean hash)
    while True:
        ruled = rules_ending(game.board)
        if ruled is not None:
            return game.finish(*ruled)
        known = game.book_move(engine.book)
        if known is not None:
            game.play_move(known, game.rng.randint(*BOOK_SECONDS))
            continue
        side = game.side()
        trouble = game.clock[game.board.turn] < TROUBLE_SECONDS
        skill = (
            max(0, side.skill - TROUBLE_SKILL_DROP)
            if trouble and side.skill < MAX_SKILL
            else side.skill
        )
        lines = engine.lines(game.board, token, side, skill)
        ended = game.ending_before_move(lines)
        if ended is not None:
            return ended
        move = chess.Move.from_uci(lines[pick_line(lines, skill, game.rng)][0])
        turn = game.board.turn
        game.play_move(
            move,
            think_seconds(
                game.clock[turn],
                game.board.fullmove_number,
                lines,
                game.board.legal_moves.count(),
                game.temper[turn],
                game.rng,
            ),
        )


# --- many games over several engine processes ------------------------------------------------


class RecordingCache:
    """An engine worker's search cache for many games (a dict), noting the searches made
    since :meth:`take_new` was last called, to hand back to the parent."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str], tuple[SearchLine, ...]] = {}
        self.new: dict[tuple[str, str], tuple[SearchLine, ...]] = {}

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        return self.known.get((position, settings))

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self.known[position, settings] = self.new[position, settings] = lines

    def take_new(self) -> dict[tuple[str, str], tuple[SearchLine, ...]]:
        new, self.new = self.new, {}
        return new


@dataclass(frozen=True)
class AnalysedGame:
    """A played game's analysis, made in the process that played it: ``facts`` are those of
    its movetext alone (no headers but the result); ``searches`` are the engine searches
    made for it (cache key -> lines), for the club's search cache."""

    moves: str
    facts: GameFacts
    searches: dict[tuple[str, str], tuple[SearchLine, ...]]


class _Worker:
    """The engine that plays, and (with an analysis config) the analyser of what it played."""

    def __init__(self, path: str, book: str | None, analysis: AnalysisConfig | None) -> None:
        self.engine = SelfPlayEngine(path, book)
        self.cache = RecordingCache()
        try:
            self.analyzer = Analyzer(analysis, cache=self.cache) if analysis is not None else None
        except BaseException:
            self.engine.close()
            raise

    def analyse(self, moves: str) -> AnalysedGame:
        assert self.analyzer is not None, "no analysis config"
        game = chess.pgn.read_game(io.StringIO(moves))
        assert game is not None, "a played game has moves"
        facts = self.analyzer.analyse(game)
        return AnalysedGame(moves, facts, self.cache.take_new())

    def close(self) -> None:
        self.engine.close()
        if self.analyzer is not None:
            self.analyzer.close()


_WORKER: _Worker | None = None


def _start_worker(
    path: str, book: str | None, analysis: AnalysisConfig | None, parent: int
) -> None:
    global _WORKER
    start_pool_worker(parent)  # dies with the demo, engines and all
    _WORKER = _Worker(path, book, analysis)
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _play(order: GameOrder) -> PlayedGame:
    assert _WORKER is not None, "worker not started"
    return play_game(_WORKER.engine, order)


def _analyse(moves: str) -> AnalysedGame:
    assert _WORKER is not None, "worker not started"
    return _WORKER.analyse(moves)


class Referee:
    """Plays rounds of games over ``jobs`` engine processes (one engine in this process for 1).

    ``with Referee(path, jobs) as referee: played = referee.play(orders)`` gives the
    games in the order of ``orders``; the same orders always give the same games.

    With ``analysis``, each game is also analysed (a task of its own, in the process
    that is free first) as soon as it is played, while the round's other games are
    still going; :meth:`analyses` gives those analyses as they are done. Analysis is
    deterministic (one thread, a clean hash and a node budget a search), so which
    process analyses a game changes nothing but the cache hits.
    """

    def __init__(
        self,
        engine: str = DEFAULT_ENGINE,
        jobs: int = 1,
        book: str | None = DEFAULT_BOOK,
        analysis: AnalysisConfig | None = None,
    ) -> None:
        self.engine_path, self.jobs, self.analysis = engine, jobs, analysis
        self.book = (
            book if book and os.path.isfile(book) else None
        )  # no book here: openings from the engine
        self._worker: _Worker | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._analysed: list[AnalysedGame] = []  # done in this process
        self._analysing: list[Future[AnalysedGame]] = []  # given to the pool
        self.games = 0
        self.plies = 0

    def __enter__(self) -> Referee:
        self._worker = _Worker(
            self.engine_path, self.book, self.analysis
        )  # a bad path: one clear line, here
        if self.jobs > 1:
            self._worker.close()
            self._worker = None
            # "spawn", as analysis.runner does: a fork of a threaded parent is not safe
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                initializer=_start_worker,
                initargs=(self.engine_path, self.book, self.analysis, os.getpid()),
                mp_context=multiprocessing.get_context("spawn"),
            )
        return self

    def play(self, orders: Sequence[GameOrder]) -> list[PlayedGame]:
        if self._worker is not None:
            played = [play_game(self._worker.engine, order) for order in orders]
            if self.analysis is not None:
                self._analysed += [self._worker.analyse(game.moves) for game in played]
        elif self._pool is not None:
            played = self._play_in_pool(self._pool, orders)
        else:
            raise RuntimeError("use the Referee in a with block")
        self.games += len(played)
        self.plies += sum(game.plies for game in played)
        return played

    def _play_in_pool(
        self, pool: ProcessPoolExecutor, orders: Sequence[GameOrder]
    ) -> list[PlayedGame]:
        playing = [pool.submit(_play, order) for order in orders]
        if self.analysis is not None:
            for done in as_completed(playing):
                self._analysing.append(pool.submit(_analyse, done.result().moves))
        return [future.result() for future in playing]

    def analyses(self) -> Iterator[AnalysedGame]:
        """The analyses of the games played so far, each as soon as it is done (call after
        the last :meth:`play` has returned)."""
        yield from self._analysed
        yield from (future.result() for future in as_completed(self._analysing))

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._worker is not None:
            self._worker.close()
        if self._pool is not None and error is not None:
            stop_pool(self._pool)  # an error or Ctrl-C: kill the engines now, not after their games
        elif self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
