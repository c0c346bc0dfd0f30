"""Coach by CPI (spec C6): the player's weakest factor and exercises built from
the player's own analysed games. Pure: facts in, exercises out.

The weakest factor is the one that costs the most ΔCPI per game against a perfect score,
weighed by how often it was measured (B2, B3 and Br are no weakness, so never chosen; they
can be asked for by name). :func:`clubrating.club.derived.ledger.weakest_of` applies it for
every place that names it (``clubrating cpi``, ``clubrating coach``, the player page, the CPI
page). Exercises are the positions before the
player's moves that went wrong in that factor, the costliest first, one a game before a
second, never the same position twice. The rules per factor are in ``docs/cpi.md``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clubrating.cpi.facts import BookStatus, Color, GameFacts, PlyFacts, Score
from clubrating.cpi.factors import (
    NOT_WORSE_CP,
    OPENING_MOVES,
    SACRIFICE_CP,
    centipawn_loss,
    hangs,
    increment_seconds,
    mating_attacks,
)
from clubrating.cpi.index import Weights, cpi_per_point
from clubrating.cpi.registry import (
    COUNTS,
    FACTORS as SPECS,
    LABELS,
    NAMES,
    SHARES,
    PlayerFactors,
    player_factors,
)
from clubrating.words import N_

DEFAULT_LIMIT = 10  # brief: at most N exercises, default 10
CLEAR_LOSS_CP = 100  # lila's former CpAdvice: 50 inaccuracy, 100 mistake, 300 blunder
MISSED_SACRIFICE_CP = 50  # ours: half a pawn, the sacrifice was clearly better than the move played
HASTY_SHARE = 1.0  # ours: a hasty move took less than the player's mean time in the game
FACTORS = NAMES
WEAKEST_CANDIDATES = tuple(spec.name for spec in SPECS if spec.drill)  # see the module's docstring
FACTOR_NAMES = LABELS
if TYPE_CHECKING:
    import chess

    Exchange = Callable[[chess.Board, chess.Move], int]  # material won (> 0) or given up (< 0), cp


@dataclass(frozen=True, slots=True)
class CoachGame:
    """One analysed game of the player: which colour they had, and the stored facts
    (with the club's result: a corrected result counts, as in the ledger)."""

    game_id: Hashable
    color: Color
    facts: GameFacts
    date: dt.date | None = None


@dataclass(frozen=True, slots=True)
class FactorAverage:
    """A factor over the player's games: the mean where available (share factors) or the
    rate per game (H, Br); ``available`` games out of ``games``."""

    factor: str
    average: float | None
    available: int
    games: int


@dataclass(frozen=True, slots=True)
class Shortfall:
    factor: str
    cost_per_game: float  # ΔCPI a game the factor costs against a perfect score
    average: float | None


def factor_averages(per_game: Sequence[PlayerFactors]) -> dict[str, FactorAverage]:
    """Each factor over the games: share factors averaged where available, H and Br per game."""
    games = len(per_game)
    out: dict[str, FactorAverage] = {}
    for name in SHARES:
        values = [v for f in per_game if (v := f.share(name).value) is not None]
        out[name] = FactorAverage(
            name, sum(values) / len(values) if values else None, len(values), games
        )
    for name in COUNTS:
        total = sum(f.count(name).count for f in per_game)
        out[name] = FactorAverage(name, total / games if games else None, games, games)
    return out


def shortfalls(
    averages: dict[str, FactorAverage], weights: Weights = Weights()
) -> dict[str, Shortfall]:
    """The cost per game of each candidate factor that was measured (see the docstring), in
    the ledger's ΔCPI a game: the score's points times :func:`~clubrating.cpi.index.cpi_per_point`
    (1 under the spec; k/β under fitted settings, once the player's CPI has settled)."""
    unit = cpi_per_point(weights)
    out = {}
    for name in WEAKEST_CANDIDATES:
        figures = averages[name]
        if figures.average is None or not figures.games:
            continue
        if name in COUNTS:
            cost = abs(weights.weight(name)) * figures.average
        else:
            cost = weights.weight(name) * (1 - figures.average) * figures.available / figures.games
        out[name] = Shortfall(name, unit * cost, figures.average)
    return out


def weakest_factor(
    averages: dict[str, FactorAverage], weights: Weights = Weights()
) -> Shortfall | None:
    """The candidate with the largest cost per game; None when nothing was measured."""
    costs = shortfalls(averages, weights)
    if not costs:
        return None
    # Rounded before comparing so that 20·0.3 and 30·0.2 tie as they do on paper.
    return max(
        costs.values(),
        key=lambda s: (round(s.cost_per_game, 9), -WEAKEST_CANDIDATES.index(s.factor)),
    )


# --- exercises -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exercise:
    """A position from the player's game: find the best move (or, for T, plan the time)."""

    factor: str
    game_id: Hashable
    ply: int
    fen: str
    side_to_move: Color
    played_san: str
    played_uci: str
    best_san: str | None
    best_uci: str | None
    best_score: Score | None  # the engine's best line, the mover's point of view
    hint: str
    date: dt.date | None = None

    @property
    def move_number(self) -> int:
        return (self.ply + 1) // 2

    @property
    def task(self) -> str:
        side = self.side_to_move.value.capitalize()
        if self.factor == "T":
            return f"{side} to move: take your time here"
        return f"Find the best move for {side}"

    def to_dict(self, *, solution: bool = True) -> dict[str, Any]:
        document: dict[str, Any] = {
            "factor": self.factor,
            "game_id": self.game_id,
            "ply": self.ply,
            "move_number": self.move_number,
            "date": self.date.isoformat() if self.date else None,
            "fen": self.fen,
            "side_to_move": self.side_to_move.value,
            "task": self.task,
            "hint": self.hint,
        }
        if solution:
            document.update(
                {
                    "played": self.played_san,
                    "played_uci": self.played_uci,
                    "best": self.best_san,
                    "best_uci": self.best_uci,
                    "best_score": score_text(self.best_score) if self.best_score else None,
                }
            )
        return document


def score_text(score: Score) -> str:
    """Mover's view: ``+0.45``, ``-1.20``, ``mate in 2``, ``mated in 3``."""
    if score.mate is not None:
        return (
            Hint(N_("mate in %(moves)s"), moves=score.mate)
            if score.mate > 0
            else Hint(N_("mated in %(moves)s"), moves=-score.mate)
        )
    return f"{(score.cp or 0) / 100:+.2f}"


class Hint(str):
    """A hint in English (it is the ``str``), keeping its words (marked with N_ for the catalogue)
    and the figures put into them, so that the web layer can say it in the page's language."""

    words: str
    figures: dict[str, Any]

    def __new__(cls, words: str, **figures: Any) -> Hint:
        hint = super().__new__(cls, words % figures)
        hint.words, hint.figures = words, figures
        return hint

    def __getnewargs_ex__(
        self,
    ) -> tuple[tuple[str], dict[str, Any]]:  # pickled and copied with its words
        return (self.words,), self.figures


@dataclass(frozen=True, slots=True)
class _Candidate:
    severity: float  # larger: a better exercise
    order: int  # the game's index in the given sequence
    ply: PlyFacts
    hint: str


def positions(facts: GameFacts) -> Iterator[tuple[PlyFacts, chess.Board]]:
    """Each ply with the board before it (from the ``FEN`` header when the game was set up);
    stops at a move the board does not accept (facts that do not fit their game)."""
    # boards only for the exercises: a command's start (the CPI's re-scoring) does without
    import chess

    board = chess.Board(
        facts.headers.get("FEN") or chess.STARTING_FEN,
        chess960=facts.headers.get("Variant", "").lower() in ("chess960", "fischerandom"),
    )
    for ply in facts.plies:
        yield ply, board
        try:
            board.push_uci(ply.uci)
        except ValueError:
            return


def _mistakes(game: CoachGame) -> Iterator[tuple[float, PlyFacts, str]]:
    """E, B1-B3: moves losing ≥ 100 cp where the engine's first choice was not played."""
    for ply in game.facts.plies:
        loss = centipawn_loss(ply)
        if (
            ply.color is game.color
            and loss is not None
            and loss >= CLEAR_LOSS_CP
            and ply.choice != 1
        ):
            yield loss, ply, Hint(N_("the move played lost %(loss)s cp"), loss=loss)


def _missed_mates(game: CoachGame, distance: int) -> Iterator[tuple[float, PlyFacts, str]]:
    by_ply = {ply.ply: ply for ply in game.facts.plies}
    for attack in mating_attacks(game.facts.plies, game.color, game.facts.outcome):
        if attack.distance == distance and not attack.found:
            words = (
                N_("White has a mate in %(distance)s")
                if game.color is Color.WHITE
                else N_("Black has a mate in %(distance)s")
            )
            yield -distance, by_ply[attack.start_ply], Hint(words, distance=distance)


def _hangs(game: CoachGame) -> Iterator[tuple[float, PlyFacts, str]]:
    by_ply = {ply.ply: ply for ply in game.facts.plies}
    for number in hangs(game.facts.plies, game.color).plies:
        loss = centipawn_loss(by_ply[number]) or 0
        yield (
            loss,
            by_ply[number],
            Hint(
                N_("the move played hung %(loss)s cp: find a move that keeps the balance"),
                loss=loss,
            ),
        )


def _left_book(game: CoachGame) -> Iterator[tuple[float, PlyFacts, str]]:
    for ply in game.facts.plies:
        if (
            ply.color is game.color
            and ply.move_number <= OPENING_MOVES
            and ply.book in (BookStatus.BOOK, BookStatus.OUT)
        ):
            yield (
                (centipawn_loss(ply) or 0),
                ply,
                Hint(
                    N_("move %(number)s left the opening book's %(moves)s main moves"),
                    number=ply.move_number,
                    moves=OPENING_MOVES,
                ),
            )
            return


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(round(seconds % 60)):02d}"


def _hasty_mistakes(game: CoachGame) -> Iterator[tuple[float, PlyFacts, str]]:
    """T: moves losing ≥ 100 cp played in less than the player's mean time (seconds as factor
    T counts them): where time kept for the decisive moments was missing."""
    increment = increment_seconds(game.facts.time_control)
    spent = [
        (ply, ply.clock_before - ply.clock_after + increment)
        for ply in game.facts.plies
        if ply.color is game.color and ply.clock_before is not None and ply.clock_after is not None
    ]
    spent = [(ply, seconds) for ply, seconds in spent if seconds >= 0]
    if len(spent) < 2:
        return
    mean = sum(seconds for _, seconds in spent) / len(spent)
    for ply, seconds in spent:
        loss = centipawn_loss(ply)
        if (
            loss is not None
            and loss >= CLEAR_LOSS_CP
            and ply.choice != 1
            and seconds < HASTY_SHARE * mean
        ):
            yield (
                loss,
                ply,
                Hint(
                    N_(
                        "%(spent)s spent here against a mean of %(mean)s, and the move played lost "
                        "%(loss)s cp: a moment to take your time"
                    ),
                    spent=_minutes(seconds),
                    mean=_minutes(mean),
                    loss=loss,
                ),
            )


def _missed_sacrifices(
    game: CoachGame, exchange: Exchange | None
) -> Iterator[tuple[float, PlyFacts, str]]:
    if exchange is None:
        return
    import chess  # as positions()

    for ply, board in positions(game.facts):
        best = ply.best[0] if ply.best else None
        loss = centipawn_loss(ply)
        if (
            ply.color is not game.color
            or best is None
            or loss is None
            or ply.choice == 1
            or loss < MISSED_SACRIFICE_CP
            or best.score.clipped() < NOT_WORSE_CP
        ):
            continue
        try:
            move = chess.Move.from_uci(best.uci)
        except ValueError:
            continue
        if move in board.legal_moves and exchange(board, move) <= SACRIFICE_CP:
            yield (
                loss,
                ply,
                Hint(
                    N_("a sacrifice is the strongest move here; the move played lost %(loss)s cp"),
                    loss=loss,
                ),
            )


def _candidates(
    game: CoachGame, factor: str, exchange: Exchange | None
) -> Iterator[tuple[float, PlyFacts, str]]:
    if factor in ("E", "B1", "B2", "B3"):
        return _mistakes(game)
    if factor in ("M1", "M2", "M3"):
        return _missed_mates(game, int(factor[1]))
    finders: dict[str, Callable[[], Iterator[tuple[float, PlyFacts, str]]]] = {
        "H": lambda: _hangs(game),
        "O": lambda: _left_book(game),
        "T": lambda: _hasty_mistakes(game),
        "Br": lambda: _missed_sacrifices(game, exchange),
    }
    if factor not in finders:
        return iter(())  # a registry factor the coach has no exercises for (yet): none
    return finders[factor]()


def _position_key(fen: str) -> str:
    """The position without the move counters: the same position reached twice is one exercise."""
    return " ".join(fen.split()[:4])


def choose_exercises(
    games: Sequence[CoachGame],
    factor: str,
    limit: int = DEFAULT_LIMIT,
    exchange: Exchange | None = None,
) -> tuple[Exercise, ...]:
    """At most ``limit`` exercises for ``factor`` from the player's games (see the docstring)."""
    if factor not in FACTORS:
        raise ValueError(f"unknown factor {factor!r}: expected one of {', '.join(FACTORS)}")
    found = [
        (_Candidate(severity, order, ply, hint), game)
        for order, game in enumerate(games)
        for severity, ply, hint in _candidates(game, factor, exchange)
    ]
    found.sort(key=lambda pair: (-pair[0].severity, pair[0].order, pair[0].ply.ply))
    first_of_game: dict[int, int] = {}
    for index, (candidate, _) in enumerate(found):
        first_of_game.setdefault(candidate.order, index)
    chosen_first = sorted(first_of_game.values())
    taken = set(chosen_first)
    ranked = chosen_first + [i for i in range(len(found)) if i not in taken]
    plies_of: dict[int, set[int]] = {}
    for candidate, _ in found:
        plies_of.setdefault(candidate.order, set()).add(candidate.ply.ply)
    fens: dict[tuple[int, int], str] = {}
    exercises: list[Exercise] = []
    seen: set[str] = set()
    for index in ranked:
        candidate, game = found[index]
        if candidate.order in plies_of:  # replay a game only when one of its positions is needed
            fens.update(_fens_before(game.facts, candidate.order, plies_of.pop(candidate.order)))
        fen = fens.get((candidate.order, candidate.ply.ply))
        if fen is None or _position_key(fen) in seen:
            continue
        seen.add(_position_key(fen))
        exercises.append(_exercise(factor, game, candidate, fen))
        if len(exercises) >= limit:
            break
    return tuple(exercises)


def _fens_before(facts: GameFacts, order: int, plies: set[int]) -> dict[tuple[int, int], str]:
    """(game index, ply) -> FEN before that ply, replaying the game up to the last one wanted."""
    fens: dict[tuple[int, int], str] = {}
    last = max(plies)
    for ply, board in positions(facts):
        if ply.ply in plies:
            fens[order, ply.ply] = board.fen()
        if ply.ply >= last:
            break
    return fens


def _exercise(factor: str, game: CoachGame, candidate: _Candidate, fen: str) -> Exercise:
    ply = candidate.ply
    best = ply.best[0] if ply.best else None
    return Exercise(
        factor=factor,
        game_id=game.game_id,
        ply=ply.ply,
        fen=fen,
        side_to_move=ply.color,
        played_san=ply.san,
        played_uci=ply.uci,
        best_san=best.san if best else None,
        best_uci=best.uci if best else None,
        best_score=best.score if best else None,
        hint=candidate.hint,
        date=game.date,
    )


# --- the whole coach -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CoachReport:
    averages: dict[str, FactorAverage]
    weakest: Shortfall | None
    factor: str | None  # the factor the exercises train: the weakest, or the one asked for
    exercises: tuple[Exercise, ...]


def coach(
    games: Sequence[CoachGame],
    weights: Weights = Weights(),
    factor: str | None = None,
    limit: int = DEFAULT_LIMIT,
    exchange: Exchange | None = None,
) -> CoachReport:
    """The player's averages, weakest factor and exercises for it (or for ``factor``)."""
    averages = factor_averages([player_factors(game.facts, game.color) for game in games])
    weakest = weakest_factor(averages, weights)
    chosen = factor or (weakest.factor if weakest else None)
    exercises = choose_exercises(games, chosen, limit, exchange) if chosen else ()
    return CoachReport(averages, weakest, chosen, exercises)
