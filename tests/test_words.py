"""Counts agree with their nouns in every message: "1 tournament", "2 tournaments"."""

from __future__ import annotations

import pytest

from clubrating.club.ratings import RebuildReport
from clubrating.words import plural


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (0, "name", "0 names"),
        (1, "name", "1 name"),
        (2, "name", "2 names"),
        (1, "entry", "1 entry"),
        (3, "entry", "3 entries"),
        (1, "stored rating change", "1 stored rating change"),
        (2, "stored rating change", "2 stored rating changes"),
    ],
)
def test_a_count_takes_the_nouns_number(count: int, noun: str, expected: str) -> None:
    assert plural(count, noun) == expected


def test_a_rebuild_of_one_tournament_says_tournament() -> None:
    assert str(RebuildReport(1, 0, 1, False)) == "rebuilt 1 tournament, 1 rating changed"
    assert str(RebuildReport(2, 0, 0, True)) == "rebuilt 2 tournaments, 0 ratings changed"
