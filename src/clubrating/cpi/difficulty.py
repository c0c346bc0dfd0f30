"""Position-difficulty features from the MultiPV lines already searched (no new search).

Candidates for the fit, tried in its nested cross-validation (``cpi/nested.py``) and kept only
if the held-out players say so (``docs/cpi.md``):

- ``Q1``, only moves found: of the player's positions where the engine's best move is at least
  :data:`ONLY_MOVE_WIN_GAP` points of lichess win % better than its second, the share where
  the best move was played (a position with one saving move is hard);
- ``Q2``, E in hard positions: E's fitted form over the moves played from positions where only
  the best of the engine's lines is within :data:`NEAR_BEST_CP` of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubrating.cpi.facts import Color, PlyFacts
from clubrating.cpi.factors import (
    FITTED_E,
    centipawn_loss,
    eval_loss_from_cpl,
    own_plies,
    win_percent,
)

ONLY_MOVE_WIN_GAP = 10.0  # ours: lichess's "inaccuracy" is 10 points of win % (Advice.scala)
NEAR_BEST_CP = 50  # ours: a line within half a pawn of the best is a fair alternative
DIFFICULTY = ("Q1", "Q2")


def _only_move(ply: PlyFacts) -> bool:
    if len(ply.best) < 2:
        return False
    first, second = (win_percent(line.score.clipped()) for line in ply.best[:2])
    return first - second >= ONLY_MOVE_WIN_GAP


def _hard(ply: PlyFacts) -> bool:
    if len(ply.best) < 2:
        return False
    top = ply.best[0].score.clipped()
    return sum(1 for line in ply.best if top - line.score.clipped() <= NEAR_BEST_CP) == 1


def difficulty_values(plies: Sequence[PlyFacts], color: Color) -> dict[str, float | None]:
    """Q1 and Q2 of one player in one game; None where the game had no such position."""
    own = own_plies(plies, color)
    only = [ply for ply in own if _only_move(ply)]
    found = sum(1 for ply in only if ply.uci == ply.best[0].uci)
    losses = [
        min(loss, int(FITTED_E.cap))
        for ply in own
        if _hard(ply)
        if (loss := centipawn_loss(ply)) is not None
    ]
    return {
        "Q1": found / len(only) if only else None,
        "Q2": eval_loss_from_cpl(sum(losses) / len(losses), FITTED_E) if losses else None,
    }
