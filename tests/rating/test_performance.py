"""Performance ratings against FIDE's table 8.1.1 (Rp = Ra + dp) and the logistic inverse."""

from __future__ import annotations

import math

import pytest

from clubrating.rating.performance import PerformanceMethod, logistic_dp, performance
from clubrating.rating.policy import club_policy, fide_policy

FIDE = PerformanceMethod.FIDE_TABLE


@pytest.mark.parametrize(
    ("case", "ratings", "scores", "rp", "dp"),
    [
        ("all draws: p = .50, dp 0", [2000] * 9, [0.5] * 9, 2000, 0),
        ("a perfect score: p = 1.00, dp 800", [1800, 1900, 2000, 2100, 2200], [1] * 5, 2800, 800),
        ("one game lost: p = 0, dp -800", [1500], [0], 700, -800),
        ("7 of 9 against 2450: p = .78, dp 220", [2450] * 9, [1] * 7 + [0] * 2, 2670, 220),
        ("6 of 8: p = .75, dp 193", [2000] * 8, [1] * 6 + [0] * 2, 2193, 193),
        ("2 of 8: p = .25, dp -193", [2000] * 8, [1] * 2 + [0] * 6, 1807, -193),
        ("1 of 3: p = .333 rounds to .33, dp -125", [2000] * 3, [1, 0, 0], 1875, -125),
        ("2 of 3: p = .667 rounds to .67, dp 125", [2000] * 3, [1, 1, 0], 2125, 125),
        ("5½ of 9: p = .611 rounds to .61, dp 80", [2000] * 9, [1] * 5 + [0.5] + [0] * 3, 2080, 80),
        ("Ra 2000.5 rounds half away to 2001", [2000, 2001], [1, 0], 2001, 0),
        ("p = .99: dp 677", [2000] * 100, [1] * 99 + [0], 2677, 677),
        ("p = .01: dp -677", [2000] * 100, [1] + [0] * 99, 1323, -677),
    ],
)
def test_fide_performance_is_the_average_plus_dp_of_table_8_1_1(
    case: str, ratings: list[float], scores: list[float], rp: int, dp: int
) -> None:
    result = performance(ratings, scores, FIDE)
    assert result is not None
    assert (result.rating, result.dp) == (rp, dp), case
    assert result.games == len(scores) and result.score == sum(scores)


@pytest.mark.parametrize(
    ("case", "p", "dp"),
    [
        ("even", 0.5, 0.0),
        ("three in four: 400 log10 3", 0.75, 400 * math.log10(3)),
        ("one in four", 0.25, -400 * math.log10(3)),
        ("perfect: bounded", 1.0, 800.0),
        ("nothing: bounded", 0.0, -800.0),
        ("99 in 100 is inside the bound", 0.99, 400 * math.log10(99)),
    ],
)
def test_logistic_dp_inverts_the_expected_score(case: str, p: float, dp: float) -> None:
    assert logistic_dp(p) == pytest.approx(dp, abs=1e-9), case


def test_logistic_performance_is_the_exact_average_plus_dp() -> None:
    result = performance([1900, 2100], [1, 0.5], PerformanceMethod.LOGISTIC)
    assert result is not None
    assert result.average_opponent == 2000
    assert result.rating == pytest.approx(2000 + 400 * math.log10(3), abs=1e-9)


def test_no_games_no_performance_and_mismatched_lists_are_refused() -> None:
    assert performance([], []) is None
    with pytest.raises(ValueError, match="one score per opponent"):
        performance([2000], [])


def test_the_policy_presets_say_which_method() -> None:
    assert fide_policy().performance is PerformanceMethod.FIDE_TABLE
    assert club_policy().performance is PerformanceMethod.LOGISTIC
