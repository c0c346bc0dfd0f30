"""FIDE's published tables and rules, as numbers (FIDE Rating Regulations
effective 1 March 2024, amended 1 October 2025; handbook.fide.com chapter B02).

Expected scores are kept in hundredths (``int``) so that the per-tournament
rounding of 8.3.4 is exact: FIDE computes with the two-decimal table values.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

# Table 8.1.2: the upper bound of each band of |D| (rating difference) and the
# higher rated player's expected score PD(H) in hundredths: 0-3 -> .50,
# 4-10 -> .51, ..., 620-735 -> .99, above 735 -> 1.00 (the lower rated player
# gets PD(L) = 1 - PD(H)). Cross-checked in tests/rating/test_rules.py against
# round(100 * Phi(D / (2000/7))), which it equals except at D = 54, 343, 344,
# 358, 392, 620 (misc_vectors.json "fide_table_8_1_2_model").
TABLE_8_1_2_UPPER_BOUNDS: tuple[int, ...] = (
    3,
    10,
    17,
    25,
    32,
    39,
    46,
    53,
    61,
    68,
    76,
    83,
    91,
    98,
    106,
    113,
    121,
    129,
    137,
    145,
    153,
    162,
    170,
    179,
    188,
    197,
    206,
    215,
    225,
    235,
    245,
    256,
    267,
    278,
    290,
    302,
    315,
    328,
    344,
    357,
    374,
    391,
    411,
    432,
    456,
    484,
    517,
    559,
    619,
    735,
)
TABLE_8_1_2_FIRST_PD_H = 50  # hundredths in the band 0-3; +1 per band, 100 above 735

# Table 8.1.1: dp (rating difference) for a fractional score p = 1.00, 0.99 ... 0.50;
# below 0.50, dp(p) = -dp(1 - p). Used for first ratings (8.2.2).
TABLE_8_1_1_DP: tuple[int, ...] = (
    800,
    677,
    589,
    538,
    501,
    470,
    444,
    422,
    401,
    383,
    366,
    351,
    336,
    322,
    309,
    296,
    284,
    273,
    262,
    251,
    240,
    230,
    220,
    211,
    202,
    193,
    184,
    175,
    166,
    158,
    149,
    141,
    133,
    125,
    117,
    110,
    102,
    95,
    87,
    80,
    72,
    65,
    57,
    50,
    43,
    36,
    29,
    21,
    14,
    7,
    0,
)

DIFFERENCE_CAP = 400  # 8.3.1: a difference above 400 counts as 400 ...
CAP_EXEMPT_FROM = 2650  # ... except for a player rated 2650 or more (amended 2024)
K_NEW, K_NEW_GAMES = 40, 30  # 8.3.3: K 40 until 30 games are completed
K_JUNIOR, K_JUNIOR_BELOW = (
    40,
    2300,
)  # 8.3.3: juniors (to the end of the year they turn 18) below 2300
K_STANDARD = 20  # 8.3.3: as long as the rating remains under 2400
K_HIGH, K_HIGH_FROM = 10, 2400  # 8.3.3: once the published rating has reached 2400
K_GAMES_CAP = 700  # 8.3.3: if K x n > 700, K is the largest whole number with K x n <= 700
FIRST_RATING_FICTIONAL = (1800, 1800)  # 8.2.2: two hypothetical draws against 1800-rated opponents


def pd_higher_hundredths(difference: float) -> int:
    """PD(H) of table 8.1.2 for an absolute rating difference, in hundredths."""
    band = bisect.bisect_left(TABLE_8_1_2_UPPER_BOUNDS, abs(difference))
    return TABLE_8_1_2_FIRST_PD_H + band


def expected_hundredths(own: float, opponent: float) -> int:
    """The expected score of 8.1.2 in hundredths, after the 400-point rule of 8.3.1.

    The cap is applied from each player's own side: a 2813 against a 2400 uses
    D = 413 (exempt from 2650), the 2400 sees the 2813 as a 2800.
    """
    difference = own - opponent
    if own < CAP_EXEMPT_FROM:
        difference = max(-DIFFERENCE_CAP, min(DIFFERENCE_CAP, difference))
    pd_h = pd_higher_hundredths(difference)
    return pd_h if difference >= 0 else 100 - pd_h


def round_half_away(value: float) -> int:
    """8.3.4: rounded to the nearest whole number, .5 away from zero (-2.50 -> -3)."""
    magnitude = int(abs(value) + 0.5)
    return magnitude if value >= 0 else -magnitude


def dp_for_fraction(p_hundredths: int) -> int:
    """dp of table 8.1.1 for a fractional score given in hundredths (0..100)."""
    if not 0 <= p_hundredths <= 100:
        raise ValueError(f"fractional score out of range: {p_hundredths}/100")
    if p_hundredths >= 50:
        return TABLE_8_1_1_DP[100 - p_hundredths]
    return -TABLE_8_1_1_DP[p_hundredths]


def first_rating(opponent_ratings: Sequence[float], scores: Sequence[float]) -> int:
    """A first FIDE rating (8.2.2): Ru = Ra + dp, with two hypothetical draws
    against 1800-rated opponents counted in both Ra and p; p rounded to hundredths.

    Only the pure rule: the replay does not give first ratings (see rating/README).
    """
    if len(opponent_ratings) != len(scores) or not scores:
        raise ValueError("one score per rated opponent, at least one")
    ratings = [*opponent_ratings, *FIRST_RATING_FICTIONAL]
    total = sum(scores) + 0.5 * len(FIRST_RATING_FICTIONAL)
    average = sum(ratings) / len(ratings)
    p_hundredths = round_half_away(100 * total / len(ratings))
    return round_half_away(average + dp_for_fraction(p_hundredths))
