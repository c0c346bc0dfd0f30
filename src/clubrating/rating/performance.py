"""Performance rating of one tournament: the rating the results were worth.

Both methods are "average opponent rating + dp(p)", p the fractional score:

- ``FIDE_TABLE``: FIDE's Rp = Ra + dp, dp from table 8.1.1 (FIDE Rating
  Regulations, handbook B02 8.1.1; Title Regulations B01 1.48), p rounded to
  hundredths, Ra and Rp rounded to whole numbers, ±800 at 100 % and 0 %.
- ``LOGISTIC``: the inverse of the club's expected score (spec R1),
  dp = 400 log10(p / (1 - p)), bounded by the same ±800 so that a perfect
  score has a finite figure.

Which one a club uses is part of its rating policy (:mod:`clubrating.rating.policy`).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from clubrating.rating import fide

DP_BOUND = fide.TABLE_8_1_1_DP[0]  # 800: table 8.1.1 at p = 1.00


class PerformanceMethod(enum.Enum):
    """How the dp of a performance rating is found from the fractional score."""

    FIDE_TABLE = "fide-table"  # table 8.1.1
    LOGISTIC = "logistic"  # the inverse of R1's expected score


@dataclass(frozen=True, slots=True)
class Performance:
    """A performance rating and what it was computed from."""

    rating: float
    average_opponent: float
    games: int
    score: float  # points
    dp: float


def performance(
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    method: PerformanceMethod = PerformanceMethod.FIDE_TABLE,
) -> Performance | None:
    """The performance over games against ``opponent_ratings`` with ``scores`` (1, ½, 0 each);
    ``None`` without games."""
    if len(opponent_ratings) != len(scores):
        raise ValueError("one score per opponent rating")
    if not scores:
        return None
    games, total = len(scores), float(sum(scores))
    average = sum(opponent_ratings) / games
    if method is PerformanceMethod.FIDE_TABLE:
        ra = fide.round_half_away(average)
        dp = fide.dp_for_fraction(fide.round_half_away(100 * total / games))
        return Performance(float(ra + dp), float(ra), games, total, float(dp))
    dp_logistic = logistic_dp(total / games)
    return Performance(average + dp_logistic, average, games, total, dp_logistic)


def logistic_dp(p: float) -> float:
    """400 log10(p / (1 - p)) within ±800: the difference at which R1 expects the score ``p``."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"fractional score out of range: {p}")
    if p in (0.0, 1.0):
        return DP_BOUND if p else -DP_BOUND
    return max(-DP_BOUND, min(DP_BOUND, 400.0 * math.log10(p / (1.0 - p))))
