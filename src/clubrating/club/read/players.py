"""A player's history and the rating list, for the busiest pages and the CLI.

Built from ORM objects with several joins per row they took about 100 ms for a
player with 500 games. These let the ORM write the SQL (so it stays portable
between SQLite and PostgreSQL) but fetch plain tuples straight from the cursor
(:func:`fetch`), in a fixed number of queries whatever the number of rows. The
plain ORM readings are kept in the tests as the oracle (tests/web/test_reads.py
compares both on the same data).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from functools import lru_cache
from itertools import groupby
from typing import Any

from django.db import connection
from django.db.models import Max, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import Length

from clubrating.club.store.models import (
    Bye,
    Club,
    CurrentRating,
    Entry,
    Game,
    InitialEntry,
    Member,
    RatingChange,
    TournamentStatus,
)
from clubrating.club.read.members import member_ids_of
from clubrating.formats.results import result_text
from clubrating.identity import collation

PUBLISHED = TournamentStatus.PUBLISHED
ORDER = ("tournament__date", "tournament__sequence", "tournament_id")
Flags = dict[int, tuple[str, bool, bool]]  # member id -> (name, junior, full-name consent)


def fetch(qs: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query straight from the cursor (see :func:`_run`). The ORM
    compiles the query each time: caching the SQL saved well under a millisecond a query and no
    page's p95 needed it (docs/benchmarks.md, "Website")."""
    sql, params = qs.query.sql_with_params()
    return _run(sql, list(params))


def _run(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query without Django's per-value converters: the
    database driver already gives dates and booleans (SQLite: Django's registered
    converters by declared column type; PostgreSQL: natively). A third of the time
    of 500 rows. Annotations must come last in ``values_list`` (Django selects them
    after the fields)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def _rating_list(club_id: int, rating_list: str) -> QuerySet[Any]:
    return (
        CurrentRating.objects.filter(
            member__club_id=club_id,
            member__merged_into=None,
            member__left=None,  # members who left keep their rating off the list
            rating_list=rating_list,
        )
        .order_by()
        .values_list(
            "member_id",
            "member__name",
            "rating",
            "games",
            "provisional",
            "last_played",
            "member__junior",
            "member__full_name_consent",
        )
    )


def in_list_order(rows: list[tuple[Any, ...]], language: str) -> list[tuple[Any, ...]]:
    """Rows of :func:`_rating_list` established first, by rating, equal ratings by name in the
    order of ``language``, then by member id: sorted by rating and id, then each run of equal
    ratings by name, so that only names sharing a rating get their collation key (1,500 keys
    took 36 ms of a club page's first render)."""
    ranked = sorted(rows, key=lambda r: (bool(r[4]), -r[2], r[0]))
    out: list[tuple[Any, ...]] = []
    for _, same in groupby(ranked, key=lambda r: (bool(r[4]), r[2])):
        tied = list(same)
        if len(tied) > 1:
            tied.sort(key=lambda r: (collation.sort_key(r[1], language), r[0]))
        out += tied
    return out


def rating_list(
    club: Club, rating_list: str = "standard", language: str | None = None
) -> list[dict[str, Any]]:
    """Established players first by rating, provisional ones below (spec R6); equal ratings by
    name in the alphabet of ``language`` (the club's language by default), then by member id.
    Sorted here, not in SQL: SQLite's and PostgreSQL's collations differ (identity/collation)."""
    rows = in_list_order(fetch(_rating_list(club.id, rating_list)), language or club.language)
    result, rank = [], 0
    for member_id, name, rating, games, provisional, last, junior, consent in rows:
        if not provisional:
            rank += 1
        result.append(
            {
                "rank": None if provisional else rank,
                "member_id": member_id,
                "name": name,
                "rating": rating,
                "games": games,
                "provisional": bool(provisional),
                "last_played": last.isoformat() if last else None,
                "junior": bool(junior),
                "full_name_consent": bool(consent),
            }
        )
    return result


def _side(ids: list[int], me: str, other: str) -> list[tuple[Any, ...]]:
    """The member's games with colour ``me`` in any tournament (the caller keeps the published
    ones): one join through the entries' member index, the opponent's entry and member."""
    # The member's entries as a subquery on the indexed entry column: a plan that stays an
    # index lookup even before the database has statistics (a join on member_id did not).
    return fetch(
        Game.objects.filter(
            **{f"{me}_id__in": Entry.objects.filter(member_id__in=ids).values("id")}
        )
        .annotate(moves_length=Length("moves"))
        .order_by()
        .values_list(
            "tournament_id",
            "round",
            "board",
            "id",
            "white_id",
            "white_points",
            "black_points",
            "played",
            f"{other}__name",
            f"{other}__member_id",
            f"{other}__member__name",
            f"{other}__member__junior",
            f"{other}__member__full_name_consent",
            "unplayed",
            "colours_known",
            "moves_length",
        )
    )


@lru_cache(maxsize=64)
def _result(white: int, black: int, played: bool) -> str:
    return result_text(white, black, played)


def _game_rows(
    ids: list[int],
    mine: set[int],
    order: dict[int, tuple[Any, ...]],
    points: dict[int, int],
    flags: Flags,
) -> list[dict[str, Any]]:
    """Games of published tournaments (``order``: tournament id -> its sort key) in the order of
    the shared query; a game between two merged identities of the member counts once, as white."""
    rows = [r for r in _side(ids, "white", "black") if r[0] in order]
    rows += [r for r in _side(ids, "black", "white") if r[0] in order and r[4] not in mine]
    rows.sort(key=lambda r: (order[r[0]], r[1], r[2], r[3]))
    out = []
    for (
        tid,
        rnd,
        _,
        gid,
        white,
        wp,
        bp,
        played,
        oname,
        omember,
        mname,
        junior,
        consent,
        unplayed,
        known,
        moves,
    ) in rows:
        is_white = white in mine
        scored = wp if is_white else bp
        points[tid] += scored
        if omember is not None:
            flags[omember] = (mname, bool(junior), bool(consent))
        out.append(
            {
                "game_id": gid,
                "tournament_id": tid,
                "round": rnd,
                "colour": "white" if is_white else "black",
                "opponent": oname,
                "opponent_member_id": omember,
                "result": _result(wp, bp, bool(played)),
                "score": scored / 2,
                "rated": bool(played),
                "has_moves": bool(moves),
                "unplayed": unplayed or "",
                "colours_known": bool(known),
            }
        )
    return out


def player_history(member: Member) -> dict[str, Any]:
    """A member's lifetime history: every published tournament and every game, and the ratings."""
    return player_history_and_opponents(member)[0]


def player_history_and_opponents(member: Member) -> tuple[dict[str, Any], Flags]:
    """:func:`player_history`, and the name and privacy flags of every opponent who is a member."""
    ids = member_ids_of(member)
    entries = fetch(
        Entry.objects.filter(member_id__in=ids, tournament__status=PUBLISHED)
        .order_by(*ORDER)
        .values_list(
            "id",
            "tournament_id",
            "name",
            "tournament__name",
            "tournament__date",
            "tournament__sequence",
            "tournament__kind",
            "points",
        )
    )
    changes = {
        row[0]: row[1:]
        for row in fetch(
            RatingChange.objects.filter(member_id=member.id)
            .order_by()
            .values_list(
                "tournament_id",
                "rating_list",
                "rating_before",
                "rating_after",
                "games_rated",
                "score_rated",
                "k",
                "provisional_before",
            )
        )
    }
    mine = {e[0] for e in entries}
    points: dict[int, int] = defaultdict(int)
    flags: Flags = {}
    order = {e[1]: (e[4], e[5], e[1]) for e in entries}  # the shared query's ORDER
    games = _game_rows(ids, mine, order, points, flags)
    byes = [
        {"tournament_id": tid, "round": rnd, "points": pts / 2, "kind": kind}
        for tid, rnd, pts, kind in sorted(
            fetch(
                Bye.objects.filter(entry__member_id__in=ids, entry__tournament__status=PUBLISHED)
                .order_by()
                .values_list("tournament_id", "round", "points", "kind")
            ),
            key=lambda b: (order[b[0]], b[1]),
        )
    ]
    for b in byes:
        points[b["tournament_id"]] += round(b["points"] * 2)
    points |= _written_points(entries)
    document = {
        "member_id": member.id,
        "name": member.name,
        "junior": member.junior,
        "merged_into": member.merged_into_id,
        "ratings": _ratings(member),
        "aliases": sorted({e[2] for e in entries} - {member.name}),
        "initial": _initial(ids),
        "tournaments": [_history_row(e, changes.get(e[1]), points[e[1]]) for e in entries],
        "games": games,
        "byes": byes,
    }
    return document, flags


def _written_points(entries: list[tuple[Any, ...]]) -> dict[int, int]:
    """Tournament id -> the member's points written in its file, which are the standings' points
    (:func:`clubrating.tournament.file_points`): where the file wrote them and its points column
    is not all zero (then the results' points stand). One query."""
    written = {e[1]: e[7] for e in entries if e[7] is not None}
    columns = (
        {
            row[0]
            for row in fetch(
                Entry.objects.filter(tournament_id__in=list(written), points__gt=0)
                .order_by()
                .values_list("tournament_id")
                .distinct()
            )
        }
        if written
        else set()
    )
    return {tid: points for tid, points in written.items() if tid in columns}


def _history_row(entry: tuple[Any, ...], c: tuple[Any, ...] | None, points: int) -> dict[str, Any]:
    _, tid, written, name, date, _, kind, _ = entry
    lst, before, after, rated, score, k, provisional = c if c else (None,) * 7
    return {
        "tournament_id": tid,
        "tournament": name,
        "date": _iso(date),
        "name_as_written": written,
        "kind": kind,
        "score": points / 2,
        "rated": c is not None,
        "rating_list": lst,
        "rating_before": before,
        "rating_after": after,
        "change": after - before if c else None,
        "games_rated": rated if c else 0,
        "score_rated": score / 2 if c else 0.0,
        "k": k,
        "provisional_before": None if c is None else bool(provisional),
    }


def _initial(ids: list[int]) -> dict[str, Any] | None:
    """The member's row of the club's initial list (the start of the history), if linked."""
    rows = fetch(
        InitialEntry.objects.filter(member_id__in=ids)
        .order_by("number")
        .values_list("name", "rating", "games")
    )
    if not rows:
        return None
    name, rating, games = rows[0]
    return {"name_as_written": name, "rating": rating, "games": games}


def _iso(day: dt.date | str) -> str:
    return day if isinstance(day, str) else day.isoformat()


def _ratings(member: Member) -> dict[str, dict[str, Any]]:
    """The member's current ratings, each with the first and latest day anyone of the club last
    played on that list (what :mod:`clubrating.rating.activity` counts inactivity from)."""

    def on_list(extreme: Any) -> Subquery:
        return Subquery(
            CurrentRating.objects.filter(
                member__club_id=OuterRef("member__club_id"),
                member__merged_into=None,
                rating_list=OuterRef("rating_list"),
            )
            .order_by()
            .values("rating_list")
            .annotate(day=extreme("last_played"))
            .values("day")[:1]
        )

    rows = fetch(
        CurrentRating.objects.filter(member_id=member.id)
        .order_by()
        .annotate(list_first=on_list(Min), list_latest=on_list(Max))
        .values_list(
            "rating_list",
            "rating",
            "games",
            "provisional",
            "last_played",
            "list_first",
            "list_latest",
        )
    )
    return {
        lst: {
            "rating": r,
            "games": g,
            "provisional": bool(p),
            "last_played": _iso_or_none(d),
            "list_first": _iso_or_none(first),
            "list_latest": _iso_or_none(latest),
        }
        for lst, r, g, p, d, first, latest in sorted(rows)
    }


def _iso_or_none(day: dt.date | str | None) -> str | None:
    return None if day is None else _iso(day)
