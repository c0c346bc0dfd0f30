"""The stored ratings against the independent oracle (``tests/oracle/ratings.py``).

Reads the plain facts of a club from the store (raw values, no product logic: no
replay, no policy, no merge resolution) and compares every stored rating change and
current rating with what the oracle computes from them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from clubrating.club.read import players
from clubrating.club.store.models import (
    Club,
    CurrentRating,
    Game,
    InitialEntry,
    Member,
    RatingChange,
    Tournament,
    TournamentStatus,
)

from ..oracle import ratings as oracle

TOLERANCE = 1e-6


def club_facts(club: Club) -> oracle.Facts:
    club.refresh_from_db()
    settings = oracle.Settings(
        policy=club.policy,
        start=club.start_rating,
        k_new=club.k_new,
        k_new_games=club.k_new_games,
        k_established=club.k_established,
        provisional_games=club.provisional_games,
        separate_lists=club.separate_lists,
    )
    members = Member.objects.filter(club=club).values_list("id", "merged_into_id", "junior", "left")
    games: dict[int, list[oracle.Game]] = {}
    for tournament_id, white, black, points, played in Game.objects.filter(
        tournament__club=club
    ).values_list(
        "tournament_id", "white__member_id", "black__member_id", "white_points", "played"
    ):
        games.setdefault(tournament_id, []).append(oracle.Game(white, black, points, played))
    tournaments = [
        oracle.Tournament(
            t_id,
            date,
            sequence,
            control,
            status == TournamentStatus.PUBLISHED,
            kind == "bughouse",
            tuple(games.get(t_id, ())),
        )
        for t_id, date, sequence, control, status, kind in Tournament.objects.filter(
            club=club
        ).values_list("id", "date", "sequence", "time_control", "status", "kind")
    ]
    initial = [
        oracle.InitialRow(member, rating, count)
        for member, rating, count in InitialEntry.objects.filter(club=club)
        .order_by("number")
        .values_list("member_id", "rating", "games")
    ]
    return oracle.Facts(
        settings,
        {m: into for m, into, _, _ in members},
        {m for m, _, junior, _ in members if junior},
        initial,
        tournaments,
        {m for m, _, _, left in members if left is not None},
    )


def _day(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def _differ(stored: tuple[Any, ...], expected: tuple[Any, ...]) -> bool:
    for a, b in zip(stored, expected, strict=True):
        if isinstance(b, float) and not isinstance(b, bool):
            if abs(float(a) - b) > TOLERANCE:
                return True
        elif a != b:
            return True
    return False


def oracle_differences(club: Club) -> list[str]:
    """Each stored rating change or current rating that is not the oracle's, and each list whose
    persons are not the oracle's, one line each."""
    facts = club_facts(club)
    changes, current = oracle.rate(facts)
    return (
        _change_differences(club, changes)
        + _current_differences(club, current)
        + _listed_differences(club, facts, current)
    )


def _listed_differences(
    club: Club, facts: oracle.Facts, current: dict[tuple[int, str], oracle.Current]
) -> list[str]:
    found = []
    for lst in sorted({lst for _, lst in current}):
        shown = {row["member_id"] for row in players.rating_list(club, lst)}
        want = oracle.listed(facts, current, lst)
        found += [
            f"list {lst}: member {m} {'listed' if m in shown else 'missing'}, oracle "
            f"{'listed' if m in want else 'not listed'}"
            for m in sorted(shown ^ want)
        ]
    return found


def _change_differences(club: Club, changes: dict[tuple[int, int], oracle.Change]) -> list[str]:
    stored_changes = {
        (t, m): (lst, before, after, k, games_before, rated, half, expected, bool(provisional))
        for (
            t,
            m,
            lst,
            before,
            after,
            k,
            games_before,
            rated,
            half,
            expected,
            provisional,
        ) in RatingChange.objects.filter(tournament__club=club).values_list(
            "tournament_id",
            "member_id",
            "rating_list",
            "rating_before",
            "rating_after",
            "k",
            "games_before",
            "games_rated",
            "score_rated",
            "expected",
            "provisional_before",
        )
    }
    found = []
    for key in sorted(stored_changes.keys() | changes.keys()):
        want = changes.get(key)
        row = (
            (
                want.rating_list,
                want.rating_before,
                want.rating_after,
                want.k,
                want.games_before,
                want.games_rated,
                want.half_points,
                want.expected,
                want.provisional_before,
            )
            if want
            else None
        )
        got = stored_changes.get(key)
        if got is None or row is None or _differ(got, row):
            found.append(
                f"rating change of tournament {key[0]}, member {key[1]}: stored {got}, oracle {row}"
            )
    return found


def _current_differences(club: Club, current: dict[tuple[int, str], oracle.Current]) -> list[str]:
    found = []
    stored_current = {
        (m, lst): (rating, games, bool(provisional), _day(last))
        for m, lst, rating, games, provisional, last in CurrentRating.objects.filter(
            member__club=club
        ).values_list("member_id", "rating_list", "rating", "games", "provisional", "last_played")
    }
    for key in sorted(stored_current.keys() | current.keys()):
        now = current.get(key)
        row = (now.rating, now.games, now.provisional, now.last_played) if now else None
        got = stored_current.get(key)
        if got is None or row is None or _differ(got, row):
            found.append(
                f"current rating of member {key[0]} on list {key[1]}: stored {got}, oracle {row}"
            )
    return found
