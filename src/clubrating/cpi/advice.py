"""Inaccuracies, mistakes and blunders as lichess marks them, from the stored per-ply facts.

lila ``modules/tree/src/main/Advice.scala`` judges a move by the mover's loss of *winning
chances* (:func:`winning_chances`, on the [−1, +1] scale) between the engine's evaluation
before the move and after it: 0.1 an inaccuracy, 0.2 a mistake, 0.3 a blunder (``CpAdvice``),
that is 5, 10 and 15 points of win % (50 + 50 · winning chances). When a mate appears or is
lost, ``MateAdvice`` judges by the centipawns on the other side of the change instead.
Pure: facts in, judgements out (the evidence is in docs/website.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from clubrating.cpi.facts import PlyFacts, Score

# lila modules/analyse/src/main/WinPercent.scala (scalachess eval.scala): the logistic's
# multiplier, fitted in lila pull request 11148.
WIN_MULTIPLIER = -0.00368208


class Judgement(Enum):
    """lila's ``Advice.Judgement``: the name and the PGN glyph of each mark."""

    INACCURACY = ("inaccuracy", "?!")
    MISTAKE = ("mistake", "?")
    BLUNDER = ("blunder", "??")

    @property
    def label(self) -> str:
        return self.value[0]

    @property
    def glyph(self) -> str:
        return self.value[1]


# lila CpAdvice.winningChanceJudgements: the mover's drop of winning chances, [-1, +1] scale.
CHANCE_DROPS = ((0.3, Judgement.BLUNDER), (0.2, Judgement.MISTAKE), (0.1, Judgement.INACCURACY))
# lila MateAdvice: a mate allowed from a position already this bad (mover's cp) is a smaller
# mistake;
# a mate missed that still leaves this much is one too.
MATE_LOST_ANYWAY_CP = 999
MATE_NEARLY_LOST_CP = 700


def winning_chances(cp: int) -> float:
    """lila ``WinPercent.winningChances``: 2 / (1 + e^(−0.00368208·cp)) − 1, within [−1, +1]."""
    return max(-1.0, min(1.0, 2 / (1 + math.exp(WIN_MULTIPLIER * cp)) - 1))


def win_percent(score: Score) -> float:
    """lila ``WinPercent.fromEval``: 50 + 50 · winning chances, a mate counted as ±1000 cp."""
    return 50 + 50 * winning_chances(score.clipped())


def judge(before: Score, after: Score) -> Judgement | None:
    """The mark of a move whose position the engine scored ``before`` and ``after`` it, both
    from the mover's point of view (lila ``Advice.apply``: ``CpAdvice`` orElse ``MateAdvice``)."""
    if before.cp is not None and after.cp is not None:
        drop = winning_chances(before.cp) - winning_chances(after.cp)
        return next((judgement for threshold, judgement in CHANCE_DROPS if drop >= threshold), None)
    was_mating = before.mate is not None and before.mate > 0
    now_mated = after.mate is not None and after.mate < 0
    if now_mated and before.mate is None:  # MateCreated: the mover now gets mated
        return _by_cp(-(before.cp or 0))
    if was_mating and (after.mate is None or now_mated):  # MateLost
        return _by_cp(after.cp or 0)
    return None


def _by_cp(cp: int) -> Judgement:
    """MateAdvice's scale: ``cp`` is how much the mover keeps (MateLost) or had already lost,
    negated."""
    if cp > MATE_LOST_ANYWAY_CP:
        return Judgement.INACCURACY
    if cp > MATE_NEARLY_LOST_CP:
        return Judgement.MISTAKE
    return Judgement.BLUNDER


@dataclass(frozen=True, slots=True)
class Advice:
    """One marked move: the mark, the mover's win % before and after, the engine's choice."""

    ply: int
    judgement: Judgement
    win_before: float
    win_after: float
    best_san: str | None


def game_advice(plies: Sequence[PlyFacts]) -> dict[int, Advice]:
    """Ply number -> its mark, for every move of the game lila would mark."""
    marked: dict[int, Advice] = {}
    for ply in plies:
        before = ply.score_before
        if before is None:  # no engine line for this position
            continue
        judgement = judge(before, ply.score_after)
        if judgement is not None:
            marked[ply.ply] = Advice(
                ply.ply,
                judgement,
                win_percent(before),
                win_percent(ply.score_after),
                ply.best[0].san if ply.best else None,
            )
    return marked
