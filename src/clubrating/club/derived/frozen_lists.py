"""The rating lists as they stood at the start of a day, from the replay: what a monthly list
freezes (club/services/monthly_lists.py; docs/ratings.md, "Monthly lists").

A list on day D holds the standings after every published rated tournament dated before D (the
stored rating changes are the replay's, so these are the standings a replay of that history
alone gives), the club's initial list for members who had not played yet, and only members who
had not left the club before D. Ranked as the live list ranks (web/pages.py): established
players by rating, provisional and inactive ones listed without a rank.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clubrating.club.derived.ratings import (
    Snapshot,
    history_lists,
    initial_list_standings,
    reached_from_initial,
    snapshot_before,
)
from clubrating.club.read.policy import policy_for
from clubrating.club.store.models import (
    Club,
    FrozenList,
    FrozenRow,
    Member,
    Tournament,
    TournamentStatus,
)
from clubrating.identity import collation
from clubrating.rating import activity

BEFORE_EVERY_EVENT = -(2**31)  # a sequence below any event's: the snapshot before day D's first


@dataclass(frozen=True)
class ListedRow:
    """A member's line of a list on a day."""

    member_id: int
    name: str
    rating: float
    games: int
    provisional: bool
    inactive: bool
    rank: int | None
    last_played: dt.date | None


def lists_on(club: Club, day: dt.date) -> dict[str, list[ListedRow]]:
    """Every rating list of ``club`` as it stood at the start of ``day``, by list name, each in
    its order; a list with neither a rated game before ``day`` nor an initial list is absent."""
    policy = policy_for(club)
    snapshots = snapshot_before(club, (day, BEFORE_EVERY_EVENT, 0))
    initial = initial_list_standings(club, policy)
    controls = (
        Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED, date__lt=day)
        .exclude(kind="bughouse")
        .order_by()
        .values_list("time_control", flat=True)
        .distinct()
    )  # one event of each time control stands for them all: a few rows, not every event
    earlier = [Tournament(club=club, time_control=control) for control in controls]
    names = sorted(
        history_lists(club, earlier) | set(snapshots) | ({"standard"} if initial else set())
    )
    members = {
        member_id: name
        for member_id, name, left in Member.objects.filter(club=club, merged_into=None)
        .order_by()
        .values_list("id", "name", "left")
        if left is None or left >= day
    }
    found = {}
    for name in names:
        held = snapshots.get(name, Snapshot({}, {}))
        standings = {**initial, **reached_from_initial(held.standings, initial)}
        rows = [
            (m, s.rating, s.games, held.last_played.get(m))
            for m, s in standings.items()
            if m in members
        ]
        found[name] = _ranked(club, rows, members, policy.provisional_below)
    return found


def _ranked(
    club: Club,
    rows: list[tuple[int, float, int, dt.date | None]],
    members: dict[int, str],
    provisional_below: int,
) -> list[ListedRow]:
    """The rows in the live list's order, inactive members (rating/activity.py) unranked."""
    rows.sort(
        key=lambda r: (
            r[2] < provisional_below,
            -r[1],
            collation.sort_key(members[r[0]], club.language),
            r[0],
        )
    )
    days = [r[3] for r in rows]
    rule = activity.cutoff(days, club.inactive_months)
    first = min((d for d in days if d), default=None)
    listed, rank = [], 0
    for member_id, rating, games, last in rows:
        provisional = games < provisional_below
        inactive = rule is not None and activity.is_inactive(last, first, rule[1])
        ranked = not (provisional or inactive)
        rank += ranked
        listed.append(
            ListedRow(
                member_id,
                members[member_id],
                rating,
                games,
                provisional,
                inactive,
                rank if ranked else None,
                last,
            )
        )
    return listed


def live_list(frozen: FrozenList) -> list[ListedRow]:
    """The frozen list's list on its own stored day as today's history gives it (not the
    club's list day of today: a list keeps the day it was published for)."""
    return lists_on(frozen.club, frozen.day).get(frozen.rating_list, [])


def differs_from_replay(frozen: FrozenList, today: list[ListedRow] | None = None) -> bool:
    """Whether the list on the frozen list's day, as today's history gives it (``today``, or
    replayed here), is not the one published (a later correction, a merge, a member's leaving
    day): the pages say so."""
    today = live_list(frozen) if today is None else today
    stored = list(
        FrozenRow.objects.filter(frozen_list=frozen)
        .order_by("position")
        .values_list("member_id", "rating", "games", "rank")
    )
    return stored != [(r.member_id, r.rating, r.games, r.rank) for r in today]


@dataclass(frozen=True)
class Move:
    """A member whose rating or rank on the list of the frozen list's day is not the published
    one; None where the member is on one of the two lists only."""

    member_id: int
    name: str
    rating_then: float | None
    rating_now: float | None
    rank_then: int | None
    rank_now: int | None


SAME_RATING = 0.05  # the lists show one decimal at most: a smaller drift is no move


def moves(frozen: FrozenList, today: list[ListedRow]) -> list[Move]:
    """Who moved between the published list and ``today`` (its day's list replayed now), in
    the published list's order, then those only on today's."""
    now = {r.member_id: r for r in today}
    found = []
    then_ids = set()
    for member_id, name, rating, rank in (
        FrozenRow.objects.filter(frozen_list=frozen)
        .order_by("position")
        .values_list("member_id", "name", "rating", "rank")
    ):
        then_ids.add(member_id)
        row = now.get(member_id)
        if row is None:
            found.append(Move(member_id, name, rating, None, rank, None))
        elif abs(row.rating - rating) >= SAME_RATING or row.rank != rank:
            found.append(Move(member_id, name, rating, row.rating, rank, row.rank))
    found += [
        Move(r.member_id, r.name, None, r.rating, None, r.rank)
        for r in today
        if r.member_id not in then_ids
    ]
    return found
