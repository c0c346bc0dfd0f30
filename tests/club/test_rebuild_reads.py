"""What a rebuild from a tournament on reads: the newest stored standing of each member
before it and the games from its day on, not the whole history (a correction in a
50,000-game club stays within its time: benchmarks/bench_federation.py, docs/benchmarks.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest

from clubrating.club.derived import ratings
from clubrating.club.derived.rebuild import rebuild_derived
from clubrating.club.store.models import Club, CurrentRating, Member, RatingChange

from .conftest import ARBITER
from .test_services import FOUR, ROUND_ROBIN, snapshot
from clubrating.club.services.tournaments import correct_result, find_game

D1 = dt.date(2026, 1, 7)
EVENINGS = 6


@pytest.fixture
def rows_read(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """(the statement's first words, rows it returned) of every read of the ratings' rebuild."""
    seen: list[tuple[str, int]] = []
    fetch = ratings._fetch

    def counting(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        rows = fetch(sql, params)
        seen.append((sql, len(rows)))
        return rows

    monkeypatch.setattr(ratings, "_fetch", counting)
    return seen


def test_a_correction_in_the_newest_tournament_reads_one_standing_a_member_and_its_games(
    club: Club, publish: Any, rows_read: list[tuple[str, int]]
) -> None:
    tournaments = [
        publish(f"Evening {i}", D1 + dt.timedelta(days=7 * i), FOUR, ROUND_ROBIN)
        for i in range(EVENINGS)
    ]
    assert RatingChange.objects.filter(tournament__club=club).count() == EVENINGS * len(FOUR)
    rows_read.clear()
    correct_result(find_game(tournaments[-1], 2, "Dan Eng"), "1-0", who=ARBITER)
    standings = [n for sql, n in rows_read if "rating_after" in sql and "ROW_NUMBER" in sql]
    games = [n for sql, n in rows_read if "white_points" in sql]
    assert standings == [len(FOUR)]  # not the 20 rows of the five evenings before
    assert games == [len(ROUND_ROBIN)]  # not the 36 games of all six
    incremental = snapshot(club)
    assert rebuild_derived(club, reason="check", expect_difference=False).changes_differing == 0
    assert snapshot(club) == incremental


def test_a_standing_that_once_reached_2400_keeps_its_mark_in_the_snapshot(
    club: Club, publish: Any
) -> None:
    tournaments = [
        publish(f"Evening {i}", D1 + dt.timedelta(days=7 * i), FOUR, ROUND_ROBIN) for i in range(3)
    ]
    anna = Member.objects.get(club=club, name="Anna Berg")
    first = RatingChange.objects.get(tournament=tournaments[0], member=anna)
    RatingChange.objects.filter(id=first.id).update(
        rating_after=2450
    )  # reached 2400 once, then fell
    snap = ratings.snapshot_before(club, ratings.order_key(tournaments[2]))["standard"]
    later = RatingChange.objects.get(tournament=tournaments[1], member=anna)
    assert snap.standings[anna.id].rating == later.rating_after < 2400
    assert snap.standings[anna.id].peak_reached_2400
    assert snap.standings[anna.id].games == later.games_before + later.games_rated
    assert snap.last_played[anna.id] == tournaments[1].date
    others = [m for m in snap.standings if m != anna.id]
    assert len(others) == 3 and not any(snap.standings[m].peak_reached_2400 for m in others)


def test_a_correction_writes_again_only_the_current_ratings_it_changes(
    club: Club, publish: Any
) -> None:
    others = ["Eva Fox", "Finn Gray", "Gus Hall", "Hana Ito"]
    renamed = [(r, others[FOUR.index(w)], others[FOUR.index(b)], x) for r, w, b, x in ROUND_ROBIN]
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    newest = publish("Evening 2", D1 + dt.timedelta(days=7), others, renamed)
    before = dict(CurrentRating.objects.filter(member__club=club).values_list("member__name", "id"))
    correct_result(find_game(newest, 1, "Eva Fox"), "0-1", who=ARBITER)
    after = dict(CurrentRating.objects.filter(member__club=club).values_list("member__name", "id"))
    assert set(after) == set(FOUR) | set(others)
    assert all(after[name] == before[name] for name in FOUR)  # not played since: untouched
    assert all(
        after[name] != before[name] for name in ("Eva Fox", "Finn Gray")
    )  # the corrected game's players
    incremental = snapshot(club)
    assert rebuild_derived(club, reason="check", expect_difference=False).changes_differing == 0
    assert snapshot(club) == incremental
