"""The position-difficulty candidates (cpi.difficulty), one table row a case."""

from __future__ import annotations

import math

import pytest

from clubrating.cpi.difficulty import difficulty_values
from clubrating.cpi.facts import Color
from tests.cpi.helpers import ply

ONLY = [("e2e4", 0), ("d2d4", -300)]  # one saving move: the second line is 300 cp worse
EASY = [("e2e4", 20), ("d2d4", 10), ("c2c4", 0)]
BLACK_QUIET = ply(2, "e7e5", [("e7e5", 0), ("c7c5", -5)])


@pytest.mark.parametrize(
    ("white", "q1", "q2"),
    [
        pytest.param(
            [ply(1, "e2e4", ONLY), ply(3, "d2d4", ONLY, after=-300)],
            0.5,
            math.exp(-150 / 50),
            id="one only move found, one missed",
        ),
        pytest.param(
            [ply(1, "e2e4", EASY), ply(3, "c2c4", EASY)], None, None, id="no hard position"
        ),
        pytest.param(
            [ply(1, "d2d4", ONLY, after=-900)],
            0.0,
            math.exp(-500 / 50),
            id="a missed only move counts its loss at most 500 cp",
        ),
        pytest.param(
            [ply(1, "e2e4", [("e2e4", 0)])], None, None, id="one line only: nothing to compare"
        ),
    ],
)
def test_only_moves_found_and_e_in_hard_positions(white, q1, q2) -> None:
    values = difficulty_values([*white, BLACK_QUIET], Color.WHITE)
    assert values["Q1"] == q1
    assert values["Q2"] == (None if q2 is None else pytest.approx(q2, abs=1e-12))
