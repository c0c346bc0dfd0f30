"""What the store holds, read straight from its rows: the oracle of the views' crawl (crawl.py).

It reads the models (members, entries, games, byes, rating changes, current ratings, CPI
entries) and follows merges by walking ``merged_into`` itself: none of the product's read
functions (club.read, club.derived.card, club.derived.ledger) is used, so a defect in
them cannot hide in the oracle too.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from clubrating.club.store.models import (
    Bye,
    Club,
    CpiEntry,
    CurrentRating,
    Entry,
    Game,
    Member,
    RatingChange,
    Tournament,
    TournamentStatus,
)


@dataclasses.dataclass(frozen=True)
class Change:
    """A person's stored rating change in one tournament."""

    before: float
    after: float
    games: int


@dataclasses.dataclass(frozen=True)
class Truth:
    """The club's figures as stored, for the person each member stands for now."""

    person: dict[int, int]  # member id -> the member it stands for now
    current: dict[tuple[int, str], tuple[float, int]]  # (person, list) -> (rating, games)
    lists: list[str]
    published: list[int]  # tournament ids, by date, sequence, id
    changes: dict[tuple[int, int], Change]  # (tournament, person) -> change
    entries: dict[
        int, dict[int, int | None]
    ]  # tournament -> start number -> person (None: no member)
    points: dict[
        int, dict[int, int]
    ]  # tournament -> start number -> half-points (the file's, if written)
    games: dict[
        int, list[tuple[int, int, int, int, int, bool]]
    ]  # tournament -> (id, round, white no., black no., white half-points, played)
    cpi: dict[
        int, tuple[float, int, list[int]]
    ]  # person -> (CPI now, games, game ids in ledger order)
    black_points: dict[int, int]  # game id -> Black's half-points
    left: frozenset[int] = frozenset()  # persons who left the club: off the current list

    def listed(self, rating_list: str) -> dict[int, tuple[float, int]]:
        """The persons on a current list, with their rating and games."""
        return {
            m: rg
            for (m, lst), rg in self.current.items()
            if lst == rating_list and m not in self.left
        }

    def person_points(self, tournament_id: int, person: int) -> int:
        """The person's half-points in a tournament (every name of theirs in it)."""
        return sum(
            p
            for n, p in self.points[tournament_id].items()
            if self.entries[tournament_id][n] == person
        )

    def history(self, person: int) -> list[int]:
        """The published tournaments the person played in, in the history's order."""
        return [t for t in self.published if person in self.entries[t].values()]


def persons(club: Club) -> dict[int, int]:
    parent = dict(Member.objects.filter(club=club).values_list("id", "merged_into_id"))
    out = {}
    for member in parent:
        seen, at = {member}, member
        while parent[at] is not None:
            at = parent[at]
            assert at not in seen, f"merge cycle through member {at}"
            seen.add(at)
        out[member] = at
    return out


def read_truth(club: Club) -> Truth:
    person = persons(club)
    current = {
        (m, lst): (r, g)
        for m, lst, r, g in CurrentRating.objects.filter(member__club=club).values_list(
            "member_id", "rating_list", "rating", "games"
        )
    }
    published = list(
        Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
        .order_by("date", "sequence", "id")
        .values_list("id", flat=True)
    )
    changes = {
        (t, m): Change(b, a, n)
        for t, m, b, a, n in RatingChange.objects.filter(tournament__club=club).values_list(
            "tournament_id", "member_id", "rating_before", "rating_after", "games_rated"
        )
    }
    entries: dict[int, dict[int, int | None]] = {
        t: {} for t in Tournament.objects.filter(club=club).values_list("id", flat=True)
    }  # a tournament may have no entry (an evening published empty)
    number, written = {}, {}
    for eid, tid, n, member, points_written in Entry.objects.filter(
        tournament__club=club
    ).values_list("id", "tournament_id", "number", "member_id", "points"):
        entries[tid][n] = None if member is None else person[member]
        number[eid] = n
        if points_written is not None:
            written[tid, n] = points_written
    points: dict[int, dict[int, int]] = {t: {n: 0 for n in e} for t, e in entries.items()}
    games: dict[int, list[tuple[int, int, int, int, int, bool]]] = defaultdict(list)
    black_points = {}
    for gid, tid, rnd, white, black, wp, bp, played in (
        Game.objects.filter(tournament__club=club)
        .order_by("id")
        .values_list(
            "id",
            "tournament_id",
            "round",
            "white_id",
            "black_id",
            "white_points",
            "black_points",
            "played",
        )
    ):
        points[tid][number[white]] += wp
        points[tid][number[black]] += bp
        games[tid].append((gid, rnd, number[white], number[black], wp, played))
        black_points[gid] = bp
    for tid, eid, pts in Bye.objects.filter(tournament__club=club).values_list(
        "tournament_id", "entry_id", "points"
    ):
        points[tid][number[eid]] += pts
    for (
        tid,
        by_number,
    ) in points.items():  # the file's own points where it writes them (docs/formats.md)
        given = {n: written[tid, n] for n in by_number if (tid, n) in written}
        if any(given.values()) or not any(
            by_number.values()
        ):  # a column all zero beside results: none written
            by_number.update(given)
    ledger: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for member, after, gid in (
        CpiEntry.objects.filter(member__club=club)
        .order_by("ordinal", "id")
        .values_list("member_id", "cpi_after", "game_id")
    ):
        ledger[person[member]].append((after, gid))
    cpi = {m: (rows[-1][0], len(rows), [g for _, g in rows]) for m, rows in ledger.items()}
    lists = sorted({lst for _, lst in current}) or ["standard"]
    return Truth(
        person,
        current,
        lists,
        published,
        changes,
        dict(entries),
        points,
        dict(games),
        cpi,
        black_points,
        frozenset(
            Member.objects.filter(club=club, merged_into=None)
            .exclude(left=None)
            .values_list("id", flat=True)
        ),
    )
