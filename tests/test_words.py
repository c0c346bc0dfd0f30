"""Counts agree with their nouns in every message: "1 tournament", "2 tournaments"."""

from __future__ import annotations

from clubrating.club.derived.ratings import RebuildReport


def test_a_rebuild_of_one_tournament_says_tournament() -> None:
    assert str(RebuildReport(1, 0, 1, False)) == "rebuilt 1 tournament, 1 rating changed"
    assert str(RebuildReport(2, 0, 0, True)) == "rebuilt 2 tournaments, 0 ratings changed"
