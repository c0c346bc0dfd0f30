"""The eleven CPI factors (spec C3), pure functions of the per-ply facts.

Every factor of one player in one game is computed from the plies where that
player was to move. A factor that cannot be measured (no clocks, no mate
available, no book position) is *unavailable*: its value is ``None`` and it is
reported with ``available: false``, never as 0 %; a factor measured
and failed (a mate missed) is 0. How ΔCPI treats an unavailable factor is the
scoring's business (:mod:`clubrating.cpi.index`).

Definitions, version :data:`DEFINITIONS_VERSION` (the code below follows them
line by line; every threshold is a named constant with its source):

E  eval-loss = max(0, 1 − CPL/200) (spec C3), or in the fitted presets'
   form (:data:`FITTED_E`, definitions 3) exp(−CPL′/50), CPL′ the
   mean of the per-move losses each counted at most 500 cp. A move's loss = max(0, before − after), both from the
   mover's point of view and clipped to ±1000 cp, a mate for the mover being
   +1000 and a mate against −1000 — as lichess's ACPL (lila
   ``modules/analyse/src/main/AccuracyCP.scala``: ``forceAsCp`` then
   ``Cp.ceiled``; ``diffsList`` clamps each loss at 0). numerator = summed
   loss in cp (capped in the fitted form), denominator = moves. Why the fitted
   form (``benchmarks/fit_presets.py``,
   cross-validated by players; eleven forms compared on the same held-out
   sets): one blunder of a piece weighed as much as twenty careful moves, and
   the spec's line spent its range where club players are (CPL 100-200) and
   none where masters differ (15-40). Fitted ΔCPI against Elo, per game:
   FIDE classical r 0.542 → 0.562, lichess blitz 0.666 → 0.683; 10-game MAE
   143 → 134 and 194 → 180 Elo. The ACPL shown beside it is uncapped
   (lichess's), and so is lichess's accuracy % (see :func:`game_accuracy`).
T  time management = the Gini coefficient of the seconds the player spent per
   move: 0 when every move took the same time, towards 1 when the
   time went to a few moves — thinking at the key moments and playing the
   rest quickly; 0 as well when the player lost on time (:func:`lost_on_time`).
   numerator = half the mean absolute difference between two moves' times
   (Σ|tᵢ − tⱼ| / 2n²), denominator = the mean, value = their ratio. Seconds
   spent = clock before − clock after + increment (``TimeControl``
   "base+inc"); the player's first move has no clock before and is skipped; a
   negative result (a time bonus the header does not describe, e.g. +30 min
   at move 40) is dropped. Unavailable with fewer than 2 timed moves.
   Why (``benchmarks/measure_time_factor.py``): the spec's 1 − stddev/mean
   rewarded equal time per move and was 0 for 440 of 485 OTB sides. On the
   493 sides of a FIDE 90'+30" open (Lezcano memorial 2025, Elo 1409–2496)
   the Gini rises with rating: r = +0.31 (Spearman +0.40), value strictly
   inside (0, 1) for 489 sides; the spec's formula gives r = −0.18 (97
   non-degenerate), "no time trouble" (1 − share of moves started with
   < 10 % of the base time) −0.14 (strong players use their clock), "never
   lost on time" is 1 for all but 4 sides, and "time on engine-critical
   moves" (first and second line ≥ 10 win % apart, 5,000 nodes, 237 sides)
   −0.20: those are mostly recaptures, played fast. On chess.com 3+2/5+5
   (2,098 sides, 400–1,100) the Gini gives r = +0.18, on 10' beginners
   (2,946 sides, median 860) +0.04.
O  opening = hits / the player's moves among their first 10 whose position is
   in the Polyglot book; a hit is a move among the 10 heaviest book moves of
   that position (spec C3, "hits / first_10" in the original). Positions the
   book does not know (after the opponent's or one's own deviation) are no
   misses: only a move played from a book position can miss.
   Unavailable when no book was probed or none of those positions is in it.
B1/B2/B3 = share of the player's moves equal to the engine's first / second /
   third MultiPV choice, counting only positions with at least 1 / 2 / 3
   legal moves (and as many engine lines).
M1/M2/M3 = mating attacks found / available, by the mate distance at the
   attack's first position; value ``None`` when the player had no such
   attack, 0 when every one was missed. An attack starts at the player's
   first position where the engine reports a forced mate for them, and is
   counted once there. It is *found* when every move of the player from there
   keeps a forced mate (score after the move is a mate for them) until a move
   mates, or the game ends after such a move with the player's win (the
   opponent resigned). A move mates when the position after it is mate on the
   board (the shell scores it ``mate 0`` by the rules; facts stored before
   the old facts kept the line's ``mate 1``, so a SAN ending in ``#`` counts too):
   a delivered mate never depends on the Result tag. A move that lets the
   mate go ends the attack unfound; a later mate starts a new attack. Attacks
   starting with a mate in more than 3 count for none.
H  hangs = moves that cost the player at least ``HANG_WIN_DROP`` = 15 points
   of lichess win % (:func:`win_percent`, lila ``WinPercent.scala``) from a
   position that was not decided: no mate on the board for either side and
   |eval before| < ``DECIDED_CP`` = 1000 cp, lichess's ceiling (``Cp.CEILING``),
   where win % stops moving (97.5 % / 2.5 %). 15 points is lichess's
   "blunder": a drop of winning chances ≥ 0.3 on the [−1, 1] scale (lila
   ``modules/analyse/src/main/Advice.scala``); from equality it is about
   170 cp, from +500 cp about 300. Win % rather than centipawns:
   the spec's "300 cp from |eval| ≤ 500" flipped with the engine's depth
   (rank correlation of the hang counts of 80 sides between 10,000 and
   100,000 nodes: 0.825; win % drop ≥ 15: 0.905,
   ``benchmarks/measure_hang_stability.py``): win % saturates where engine
   scores of won or lost positions swing without changing the result, so
   a hung queen (win % near 2.5 after it) is counted once.
Br brilliancies = sound sacrifices in a position that was not already won,
   judged on raw (unclipped) scores: (1) the move gives up material by static
   exchange (``exchange`` ≤ ``SACRIFICE_CP`` = −200 cp, at least a minor piece
   for a pawn or the exchange, computed by the shell); (2) the position
   before was not already won: the engine's best line ≤ ``WINNING_CP`` =
   +200 cp (win % 67.6) and no mate for the player — giving material back
   when well ahead is trading down; (3) the move is the engine's first
   choice or within ``BEST_TOLERANCE_CP`` = 10 cp of it on raw scores, a
   mate score only equalling the same mate (:func:`move_loss`; before issue
   11 both scores were clipped at ±1000, so +1500 and +1200 were "equal");
   (4) the result is not worse than ``NOT_WORSE_CP`` = −50 cp; and (5) it
   was not obvious: a tiny separate search (the shell's ``shallow_best``,
   run only for moves meeting 1–4, :func:`is_sacrifice_candidate`) preferred
   another move.
R  +10 / +5 / 0 for a win / draw / loss (spec C1).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clubrating.cpi.facts import CP_CEILING, BookStatus, Color, GameFacts, PlyFacts, Score

# The version of the definitions below, recorded with every analysis (analyze --json):
# 1 = the first definitions; 2: a mate on the board is found whatever the Result tag; O counts only
# moves from book positions; Br only from positions not already won, on raw scores; T is the Gini
# coefficient of the seconds per move (0 after a loss on time); H is a drop of >= 15 win % points
# from an undecided position; 3: E may also be exp(−CPL′/50) on losses capped at 500 cp
# a move (the fitted presets' form, EvalLossForm).
DEFINITIONS_VERSION = 3

E_CPL_SCALE = 200          # spec C3: E = max(0, 1 − CPL/200)


@dataclass(frozen=True, slots=True)
class EvalLossForm:
    """How E reads the losses: the spec's max(0, 1 − CPL/200) (``exp_scale`` 0), or
    exp(−CPL′/exp_scale) with each move's loss counted at most ``cap`` cp (0: no cap)."""

    exp_scale: float = 0.0
    cap: float = 0.0


SPEC_E = EvalLossForm()
FITTED_E = EvalLossForm(exp_scale=50.0, cap=500.0)   # ours: see E above
MIN_TIMED_MOVES = 2        # a spread needs two moves
OPENING_MOVES = 10         # spec C3: moves before move 10 / "first_10"
OPENING_TOP = 10           # spec C3: the 10 most played moves
MATE_DISTANCES = (1, 2, 3)  # spec C3: M1, M2, M3
# H: lichess's "blunder" is a drop of winning chances >= 0.3 on the [-1, 1] scale,
# i.e. 15 points of win % (lila modules/analyse/src/main/Advice.scala, Judgement.Blunder).
HANG_WIN_DROP = 15.0
# Decided: a mate, or a score at lichess's ceiling (±CP_CEILING = 1000 cp, win % 97.5 / 2.5), where
# win % stops moving. The earlier bound (±500 cp) flipped hangs with the engine's depth:
# Spearman 0.855 with it vs 0.905 with the ceiling (benchmarks/measure_hang_stability.py).
DECIDED_CP = CP_CEILING
SACRIFICE_CP = -200        # ours: at least a minor piece for a pawn, or the exchange
BEST_TOLERANCE_CP = 10     # ours: "within a few centipawns" of the first choice, raw scores
# Not already won: +200 cp is a win % of 67.6 (lila WinPercent.scala, see win_percent), the
# last step before lichess's "winning" band; 31 of 39 Br found by the earlier definition came from
# +300 cp or more (trading down), none of them a sacrifice a player would call one.
WINNING_CP = 200
NOT_WORSE_CP = -50         # ours: half a pawn, still equal

# lila modules/analyse/src/main/WinPercent.scala: winningChances multiplier.
WIN_MULTIPLIER = -0.00368208
# lila modules/analyse/src/main/AccuracyPercent.scala: fit of accuracy vs win % lost.
ACC_A, ACC_K, ACC_B = 103.1668100711649, 0.04354415386753951, -3.166924740191411
INITIAL_CP = 15            # scalachess chess.eval: Cp.initial, the start position


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
        return {"value": self.value, "numerator": self.numerator,
                "denominator": self.denominator, "available": self.available}

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


@dataclass(frozen=True, slots=True)
class PlayerFactors:
    """The eleven factors of one player in one game, plus lichess-style figures."""

    E: Factor
    T: Factor
    O: Factor
    B1: Factor
    B2: Factor
    B3: Factor
    M1: Factor
    M2: Factor
    M3: Factor
    H: Count
    Br: Count
    acpl: float | None = None
    accuracy: float | None = None

    def to_dict(self) -> dict[str, Any]:
        shares = ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")
        out: dict[str, Any] = {name: getattr(self, name).to_dict() for name in shares}
        out["H"] = self.H.to_dict()
        out["Br"] = self.Br.to_dict()
        return out


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
    """The increment of a PGN ``TimeControl`` ("300+5" -> 5; first period of "40/5400+30:1800+30")."""
    if not time_control:
        return 0.0
    match = re.match(r"^(?:\d+/)?\d+(?:\.\d+)?\+(\d+(?:\.\d+)?)", time_control.strip())
    return float(match.group(1)) if match else 0.0


def timed_moves(plies: Sequence[PlyFacts], color: Color,
                time_control: str | None) -> list[tuple[PlyFacts, float]]:
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
    if game.result != ("0-1" if color is Color.WHITE else "1-0"):
        return False
    if "time" in game.headers.get("Termination", "").lower():
        return True
    clocks = [ply.clock_after for ply in own_plies(game.plies, color) if ply.clock_after is not None]
    return bool(clocks) and clocks[-1] <= 0


def time_management(plies: Sequence[PlyFacts], color: Color, time_control: str | None,
                    flagged: bool = False) -> Factor:
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
    """O = hits among the 10 heaviest book moves / the player's first 10 moves from book positions."""
    in_book = [ply for ply in own_plies(plies, color) if ply.move_number <= OPENING_MOVES
               and ply.book is not None and ply.book is not BookStatus.NO_POSITION]
    return Factor.share(sum(1 for ply in in_book if ply.book is BookStatus.TOP10), len(in_book))


def engine_choice(plies: Sequence[PlyFacts], color: Color, rank: int) -> Factor:
    """B<rank> = moves equal to the engine's choice <rank> / positions with ≥ rank legal moves."""
    counted = [ply for ply in own_plies(plies, color)
               if ply.legal_moves >= rank and len(ply.best) >= rank]
    return Factor.share(sum(1 for ply in counted if ply.choice == rank), len(counted))


def _has_mate(ply: PlyFacts) -> bool:
    before = ply.score_before
    return before is not None and before.mate is not None and before.mate > 0


def _keeps_mate(ply: PlyFacts) -> bool:
    return ply.delivers_mate or (ply.score_after.mate is not None and ply.score_after.mate > 0)


def mating_attacks(plies: Sequence[PlyFacts], color: Color, result: str) -> list[MateAttack]:
    """Each mating attack of the player, at its first position (see M above)."""
    won = result == ("1-0" if color is Color.WHITE else "0-1")
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
            found = index == len(own) and won  # kept to the end: the opponent resigned
        assert start.score_before is not None and start.score_before.mate is not None
        attacks.append(MateAttack(start.ply, start.score_before.mate, found))
    return attacks


def mates(plies: Sequence[PlyFacts], color: Color, result: str) -> dict[int, Factor]:
    """M1, M2, M3: attacks found / attacks available by mate distance."""
    attacks = mating_attacks(plies, color, result)
    return {
        distance: Factor.share(sum(1 for a in attacks if a.distance == distance and a.found),
                               sum(1 for a in attacks if a.distance == distance))
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
    found = [ply.ply for ply in own_plies(plies, color)
             if ply.score_before is not None and is_undecided(ply.score_before)
             and (drop := win_drop(ply)) is not None and drop >= HANG_WIN_DROP]
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
    if before.mate is not None and before.mate > 0 or before.cp is not None and before.cp > WINNING_CP:
        return False  # already won: giving material back is trading down
    near_best = ply.choice == 1 or move_loss(before, after) <= BEST_TOLERANCE_CP
    return near_best and _rank(after) >= _rank(Score(cp=NOT_WORSE_CP))


def brilliancies(plies: Sequence[PlyFacts], color: Color) -> Count:
    """Br: sacrifice candidates the shallow search did not choose (condition 4)."""
    found = [ply.ply for ply in own_plies(plies, color)
             if is_sacrifice_candidate(ply) and ply.shallow_best is not None
             and ply.shallow_best != ply.uci]
    return Count(len(found), tuple(found))


def win_percent(cp: int) -> float:
    """lichess Win% = 50 + 50·(2/(1+e^(−0.00368208·cp)) − 1), cp clipped to ±1000 (WinPercent.scala)."""
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
    windows += [wins[i:i + size] for i in range(0, len(wins) - size + 1)]
    weights = [min(12.0, max(0.5, statistics.pstdev(w))) for w in windows]
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


def player_factors(game: GameFacts, color: Color, e_form: EvalLossForm = SPEC_E) -> PlayerFactors:
    """All factors of one player in one analysed game (E in the given form)."""
    plies = game.plies
    mate = mates(plies, color, game.result)
    return PlayerFactors(
        E=eval_loss(plies, color, e_form),
        T=time_management(plies, color, game.time_control, lost_on_time(game, color)),
        O=opening(plies, color),
        B1=engine_choice(plies, color, 1), B2=engine_choice(plies, color, 2),
        B3=engine_choice(plies, color, 3),
        M1=mate[1], M2=mate[2], M3=mate[3],
        H=hangs(plies, color), Br=brilliancies(plies, color),
        acpl=acpl(plies, color), accuracy=game_accuracy(plies, color),
    )
