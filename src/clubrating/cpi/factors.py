"""The eleven CPI factors (spec C3), pure functions of the per-ply facts.

Each factor of one player in one game is computed from the plies where that player was to
move: E (eval loss), T (time management: the Gini of the seconds per move), O (opening: book
moves), B1/B2/B3 (the engine's first, second, third choice played), M1/M2/M3 (mates in 1, 2,
3 found), H (hangs: a drop of 15 points of lichess win %) and Br (sound sacrifices). A factor
that cannot be measured (no clocks, no mate available, no book position) is *unavailable*:
``None``, reported with ``available: false``, never 0 %; one measured and failed is 0. How ΔCPI
treats an unavailable factor is :mod:`clubrating.cpi.index`'s business.

Every threshold is a named constant below with its source. The definitions in full
(version :data:`DEFINITIONS_VERSION`) and the measurements behind each choice, with the
commands that reproduce them, are in ``docs/cpi.md``.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clubrating.cpi.facts import (
    CP_CEILING,
    BookStatus,
    Color,
    GameFacts,
    PlyFacts,
    Score,
    lost,
    won,
)
from clubrating.formats.results import GameResult

# The version of the definitions below, recorded with every analysis (analyze --json):
# 1 = the first definitions; 2: a mate on the board is found whatever the Result tag; O counts only
# moves from book positions; Br only from positions not already won, on raw scores; T is the Gini
# coefficient of the seconds per move (0 after a loss on time); H is a drop of >= 15 win % points
# from an undecided position; 3: E may also be exp(−CPL′/50) on losses capped at 500 cp
# a move (the fitted presets' form, EvalLossForm). A new number changes the golden scores and
# with them clubrating.cpi.version.SCORING_VERSION (stored ledgers are re-scored at first start).
DEFINITIONS_VERSION = 3

E_CPL_SCALE = 200  # spec C3: E = max(0, 1 − CPL/200)


@dataclass(frozen=True, slots=True)
class EvalLossForm:
    """How E reads the losses: the spec's max(0, 1 − CPL/200) (``exp_scale`` 0), or
    exp(−CPL′/exp_scale) with each move's loss counted at most ``cap`` cp (0: no cap)."""

    exp_scale: float = 0.0
    cap: float = 0.0


SPEC_E = EvalLossForm()
FITTED_E = EvalLossForm(exp_scale=50.0, cap=500.0)  # ours: see E above
MIN_TIMED_MOVES = 2  # a spread needs two moves
OPENING_MOVES = 10  # spec C3: moves before move 10 / "first_10"
OPENING_TOP = 10  # spec C3: the 10 most played moves
MATE_DISTANCES = (1, 2, 3)  # spec C3: M1, M2, M3
# H: lichess's "blunder" is a drop of winning chances >= 0.3 on the [-1, 1] scale,
# i.e. 15 points of win % (lila modules/analyse/src/main/Advice.scala, Judgement.Blunder).
HANG_WIN_DROP = 15.0
# Decided: a mate, or a score at lichess's ceiling (±CP_CEILING = 1000 cp, win % 97.5 / 2.5), where
# win % stops moving. The earlier bound (±500 cp) flipped hangs with the engine's depth:
# Spearman 0.855 with it vs 0.905 with the ceiling (benchmarks/measure_hang_stability.py).
DECIDED_CP = CP_CEILING
SACRIFICE_CP = -200  # ours: at least a minor piece for a pawn, or the exchange
BEST_TOLERANCE_CP = 10  # ours: "within a few centipawns" of the first choice, raw scores
# Not already won: +200 cp is a win % of 67.6 (lila WinPercent.scala, see win_percent), the
# last step before lichess's "winning" band; 31 of 39 Br found by the earlier definition came from
# +300 cp or more (trading down), none of them a sacrifice a player would call one.
WINNING_CP = 200
NOT_WORSE_CP = -50  # ours: half a pawn, still equal

# lila modules/analyse/src/main/WinPercent.scala: winningChances multiplier.
WIN_MULTIPLIER = -0.00368208
# lila modules/analyse/src/main/AccuracyPercent.scala: fit of accuracy vs win % lost.
ACC_A, ACC_K, ACC_B = 103.1668100711649, 0.04354415386753951, -3.166924740191411
INITIAL_CP = 15  # scalachess chess.eval: Cp.initial, the start position


@dataclass(frozen=True, slots=True)
class Factor:
    """A share-like factor: value = f(numerator, denominator), or unavailable."""

    value: float | None
    numerator: float
    denominator: float

    @property
    def available(self) -> bool:
        return self.value is not None

    @property
    def contribution(self) -> float:
        """What the factor adds to ΔCPI before weighting: 0 when unavailable."""
        return self.value if self.value is not None else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "numerator": self.numerator,
            "denominator": self.denominator,
            "available": self.available,
        }

    @classmethod
    def share(cls, hits: int, total: int) -> Factor:
        return cls(hits / total if total else None, hits, total)


@dataclass(frozen=True, slots=True)
class Count:
    """A counted factor (H, Br) with the plies where it happened."""

    count: int
    plies: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "plies": list(self.plies)}


@dataclass(frozen=True, slots=True)
class MateAttack:
    start_ply: int
    distance: int
    found: bool


def own_plies(plies: Sequence[PlyFacts], color: Color) -> list[PlyFacts]:
    return [ply for ply in plies if ply.color is color]


def centipawn_loss(ply: PlyFacts) -> int | None:
    """max(0, before − after) on the clipped scale; None without an evaluation."""
    before = ply.score_before
    if before is None:
        return None
    return max(0, before.clipped() - ply.score_after.clipped())


def _losses(plies: Sequence[PlyFacts], color: Color) -> list[int]:
    return [loss for ply in own_plies(plies, color) if (loss := centipawn_loss(ply)) is not None]


def eval_loss(plies: Sequence[PlyFacts], color: Color, form: EvalLossForm = SPEC_E) -> Factor:
    """E in the given form (spec: max(0, 1 − CPL/200)); numerator = summed loss in cp, each
    move capped at ``form.cap`` when it has one; denominator = moves."""
    losses = _losses(plies, color)
    counted = [min(loss, int(form.cap)) for loss in losses] if form.cap > 0 else losses
    if not counted:
        return Factor(None, 0, 0)
    return Factor(eval_loss_from_cpl(sum(counted) / len(counted), form), sum(counted), len(counted))


def eval_loss_from_cpl(cpl: float, form: EvalLossForm = SPEC_E) -> float:
    """E for a given CPL (spec C5 quotes CPL directly), in the given form."""
    if form.exp_scale > 0:
        return math.exp(-max(0.0, cpl) / form.exp_scale)
    return max(0.0, 1 - cpl / E_CPL_SCALE)


def acpl(plies: Sequence[PlyFacts], color: Color) -> float | None:
    """lichess's average centipawn loss: every loss in full (clipped evaluations, no cap)."""
    losses = _losses(plies, color)
    return sum(losses) / len(losses) if losses else None


def increment_seconds(time_control: str | None) -> float:
    """The increment of a PGN ``TimeControl`` ("300+5" -> 5; first period of
    "40/5400+30:1800+30")."""
    if not time_control:
        return 0.0
    match = re.match(r"^(?:\d+/)?\d+(?:\.\d+)?\+(\d+(?:\.\d+)?)", time_control.strip())
    return float(match.group(1)) if match else 0.0


def timed_moves(
    plies: Sequence[PlyFacts], color: Color, time_control: str | None
) -> list[tuple[PlyFacts, float]]:
    """The player's moves with a clock before and after, and the seconds each took."""
    increment = increment_seconds(time_control)
    timed = []
    for ply in own_plies(plies, color):
        if ply.clock_before is None or ply.clock_after is None:
            continue
        seconds = ply.clock_before - ply.clock_after + increment
        if seconds >= 0:
            timed.append((ply, seconds))
    return timed


def seconds_spent(plies: Sequence[PlyFacts], color: Color, time_control: str | None) -> list[float]:
    return [seconds for _, seconds in timed_moves(plies, color, time_control)]


def half_mean_difference(values: Sequence[float]) -> float:
    """Σ|x_i − x_j| / (2n²) over all ordered pairs: the Gini coefficient's numerator."""
    ordered = sorted(values)
    n = len(ordered)
    # Σ_{i<j} (x_j − x_i) = Σ_k x_k·(2k − n + 1) for 0-based k on the sorted values
    pairs = sum(x * (2 * k - n + 1) for k, x in enumerate(ordered))
    return pairs / (n * n)


def lost_on_time(game: GameFacts, color: Color) -> bool:
    """The player lost and the record says on time: a Termination tag naming time (chess.com
    "won on time", lichess "Time forfeit") or the player's clock at 0 after their last move."""
    if not lost(game.outcome, color):
        return False
    if "time" in game.headers.get("Termination", "").lower():
        return True
    clocks = [
        ply.clock_after for ply in own_plies(game.plies, color) if ply.clock_after is not None
    ]
    return bool(clocks) and clocks[-1] <= 0


def time_management(
    plies: Sequence[PlyFacts], color: Color, time_control: str | None, flagged: bool = False
) -> Factor:
    """T = Gini coefficient of the seconds per move (numerator: half the mean absolute
    difference, denominator: the mean); 0 when the player lost on time (``flagged``)."""
    spent = seconds_spent(plies, color, time_control)
    if len(spent) < MIN_TIMED_MOVES or sum(spent) <= 0:
        return Factor(None, 0, 0)
    mean = statistics.fmean(spent)
    if flagged:
        return Factor(0.0, 0, mean)
    spread = half_mean_difference(spent)
    return Factor(min(1.0, spread / mean), spread, mean)


def opening(plies: Sequence[PlyFacts], color: Color) -> Factor:
    """O = hits among the 10 heaviest book moves / the player's first 10 moves from book
    positions."""
    in_book = [
        ply
        for ply in own_plies(plies, color)
        if ply.move_number <= OPENING_MOVES
        and ply.book is not None
        and ply.book is not BookStatus.NO_POSITION
    ]
    return Factor.share(sum(1 for ply in in_book if ply.book is BookStatus.TOP10), len(in_book))


def engine_choice(plies: Sequence[PlyFacts], color: Color, rank: int) -> Factor:
    """B<rank> = moves equal to the engine's choice <rank> / positions with ≥ rank legal moves."""
    counted = [
        ply for ply in own_plies(plies, color) if ply.legal_moves >= rank and len(ply.best) >= rank
    ]
    return Factor.share(sum(1 for ply in counted if ply.choice == rank), len(counted))


def _has_mate(ply: PlyFacts) -> bool:
    before = ply.score_before
    return before is not None and before.mate is not None and before.mate > 0


def _keeps_mate(ply: PlyFacts) -> bool:
    return ply.delivers_mate or (ply.score_after.mate is not None and ply.score_after.mate > 0)


def mating_attacks(
    plies: Sequence[PlyFacts], color: Color, result: GameResult | None
) -> list[MateAttack]:
    """Each mating attack of the player, at its first position (see M above); ``result`` None:
    the game is not finished."""
    player_won = won(result, color)
    own = own_plies(plies, color)
    attacks: list[MateAttack] = []
    index = 0
    while index < len(own):
        start = own[index]
        if not _has_mate(start):
            index += 1
            continue
        found = False
        while index < len(own):
            ply = own[index]
            index += 1
            if not _keeps_mate(ply):
                found = False
                break
            if ply.delivers_mate:
                found = True
                break
            found = index == len(own) and player_won  # kept to the end: the opponent resigned
        assert start.score_before is not None and start.score_before.mate is not None
        attacks.append(MateAttack(start.ply, start.score_before.mate, found))
    return attacks


def mates(plies: Sequence[PlyFacts], color: Color, result: GameResult | None) -> dict[int, Factor]:
    """M1, M2, M3: attacks found / attacks available by mate distance."""
    attacks = mating_attacks(plies, color, result)
    return {
        distance: Factor.share(
            sum(1 for a in attacks if a.distance == distance and a.found),
            sum(1 for a in attacks if a.distance == distance),
        )
        for distance in MATE_DISTANCES
    }


def win_drop(ply: PlyFacts) -> float | None:
    """How many points of lichess win % the move cost its player (negative: it gained)."""
    if ply.score_before is None:
        return None
    return win_percent(ply.score_before.clipped()) - win_percent(ply.score_after.clipped())


def is_undecided(score: Score) -> bool:
    """Neither side has the game in hand: no mate and |score| < 1000 cp (win % in (2.5, 97.5))."""
    return score.mate is None and abs(score.clipped()) < DECIDED_CP


def hangs(plies: Sequence[PlyFacts], color: Color) -> Count:
    """H: moves costing ≥ HANG_WIN_DROP points of win % from an undecided position."""
    found = [
        ply.ply
        for ply in own_plies(plies, color)
        if ply.score_before is not None
        and is_undecided(ply.score_before)
        and (drop := win_drop(ply)) is not None
        and drop >= HANG_WIN_DROP
    ]
    return Count(len(found), tuple(found))


def _rank(score: Score) -> tuple[int, float]:
    """An order on raw scores: any mate for the mover (sooner is better) > any centipawns >
    any mate against (later is better)."""
    if score.mate is None:
        assert score.cp is not None
        return 1, score.cp
    return (2, -score.mate) if score.mate >= 0 else (0, -score.mate)


def move_loss(before: Score, after: Score) -> float:
    """What a move lost on raw (unclipped) scores: centipawns between two cp scores; between
    a mate and anything else (or two different mates) 0 or less when ``after`` is at least
    as good, else infinite — a mate score only equals a mate score."""
    if before.cp is not None and after.cp is not None:
        return before.cp - after.cp
    rank_before, rank_after = _rank(before), _rank(after)
    if rank_after == rank_before:
        return 0.0
    return -math.inf if rank_after > rank_before else math.inf


def is_sacrifice_candidate(ply: PlyFacts) -> bool:
    """Conditions 1–4 of Br: the shell runs its tiny extra search only for these."""
    before, after = ply.score_before, ply.score_after
    if before is None or ply.exchange > SACRIFICE_CP:
        return False
    if (
        before.mate is not None
        and before.mate > 0
        or before.cp is not None
        and before.cp > WINNING_CP
    ):
        return False  # already won: giving material back is trading down
    near_best = ply.choice == 1 or move_loss(before, after) <= BEST_TOLERANCE_CP
    return near_best and _rank(after) >= _rank(Score(cp=NOT_WORSE_CP))


def brilliancies(plies: Sequence[PlyFacts], color: Color) -> Count:
    """Br: sacrifice candidates the shallow search did not choose (condition 4)."""
    found = [
        ply.ply
        for ply in own_plies(plies, color)
        if is_sacrifice_candidate(ply)
        and ply.shallow_best is not None
        and ply.shallow_best != ply.uci
    ]
    return Count(len(found), tuple(found))


def win_percent(cp: int) -> float:
    """lichess Win% = 50 + 50·(2/(1+e^(−0.00368208·cp)) − 1), cp clipped to ±1000
    (WinPercent.scala)."""
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(WIN_MULTIPLIER * cp)) - 1)


def move_accuracy(win_before: float, win_after: float) -> float:
    """lichess per-move accuracy % from the mover's Win% before and after (AccuracyPercent.scala).

    100 when the move did not lose; else 103.1668·e^(−0.04354·diff) − 3.1669,
    plus lila's 1-point "uncertainty bonus", clipped to [0, 100].
    """
    if win_after >= win_before:
        return 100.0
    raw = ACC_A * math.exp(-ACC_K * (win_before - win_after)) + ACC_B
    return min(100.0, max(0.0, raw + 1))


def _white_cps(plies: Sequence[PlyFacts]) -> list[int]:
    """Clipped evaluation after each ply, from White's point of view."""
    cps = []
    for ply in plies:
        cp = ply.score_after.clipped()
        cps.append(cp if ply.color is Color.WHITE else -cp)
    return cps


def population_sd(values: Sequence[float]) -> float:
    """The population standard deviation, in floats: ``statistics.pstdev`` gives the same
    figure to the last bit or two through exact fractions, which cost most of a game's scoring
    time (docs/benchmarks.md, "The CPI ledger")."""
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


def game_accuracy(plies: Sequence[PlyFacts], color: Color) -> float | None:
    """lichess game accuracy: mean of the volatility-weighted mean and the harmonic mean
    of the per-move accuracies (lila ``modules/analyse/src/main/AccuracyPercent.scala``,
    ``gameAccuracy``): windows of size clamp(n/10, 2, 8) over the Win% sequence
    (starting from ``Cp.initial`` = 15), weight = stddev of the window clamped to
    [0.5, 12]; harmonic mean with each accuracy at least 1 (lila ``Maths``).
    """
    if not plies:
        return None
    wins = [win_percent(cp) for cp in [INITIAL_CP, *_white_cps(plies)]]
    size = min(8, max(2, len(plies) // 10))
    windows = [wins[:size]] * max(0, min(size, len(wins)) - 2)
    windows += [wins[i : i + size] for i in range(0, len(wins) - size + 1)]
    weights = [min(12.0, max(0.5, population_sd(w))) for w in windows]
    pairs = []
    for i, ply in enumerate(plies):
        if ply.color is not color or i >= len(weights):
            continue
        before, after = wins[i], wins[i + 1]
        if color is Color.BLACK:
            before, after = 100 - before, 100 - after
        pairs.append((move_accuracy(before, after), weights[i]))
    if not pairs:
        return None
    weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
    harmonic = len(pairs) / sum(1 / max(1.0, a) for a, _ in pairs)
    return (weighted + harmonic) / 2
