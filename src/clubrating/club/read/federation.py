"""The federation-wide rating list: the established players of every public club on one list,
read in pages by keyset (the page after the last rating and member id shown), so that a deep
page costs what the first does: the index ``rating_order`` on the current ratings (list,
rating descending, member) is walked from that place, never counted from the top (no OFFSET).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Max, Min, Q

from clubrating.club.read.players import fetch
from clubrating.club.store.models import (
    AuditEntry,
    CurrentRating,
    Lineage,
    RebuildLog,
    Visibility,
)


class Listed(NamedTuple):
    """One established player of a public club, as the federation list reads them."""

    member_id: int
    name: str
    junior: bool
    consent: bool
    club_id: int
    rating: float
    games: int
    last_played: dt.date | None


def established_after(
    rating_list: str, after: tuple[float, int] | None, limit: int
) -> list[Listed]:
    """At most ``limit`` established (not provisional) current members of public clubs on
    ``rating_list``, by rating descending then member id, after the place ``after`` (a
    rating and member id; None: from the top). Members merged into another or who left are
    off every list, as on their club's own."""
    qs = CurrentRating.objects.filter(
        rating_list=rating_list,
        provisional=False,
        member__merged_into=None,
        member__left=None,
        member__club__visibility=Visibility.PUBLIC,
    )
    if after is not None:
        rating, member_id = after
        # rating <= the last one lets the index start there; the rest breaks the tie
        qs = qs.filter(rating__lte=rating).filter(
            Q(rating__lt=rating) | Q(rating=rating, member_id__gt=member_id)
        )
    rows = fetch(
        qs.order_by("-rating", "member_id").values_list(
            "member_id",
            "member__name",
            "member__junior",
            "member__full_name_consent",
            "member__club_id",
            "rating",
            "games",
            "last_played",
        )[:limit]
    )
    return [
        Listed(m, n, bool(j), bool(c), club, r, g, last) for m, n, j, c, club, r, g, last in rows
    ]


def list_days(club_ids: list[int], rating_list: str) -> dict[int, tuple[Any, Any]]:
    """Club id -> (the first, the latest day anyone played) on each club's own ``rating_list``
    (its current members, as the club's list has them): what its inactive rule reads."""
    return {
        club_id: (first, latest)
        for club_id, first, latest in CurrentRating.objects.filter(
            rating_list=rating_list,
            member__club_id__in=club_ids,
            member__merged_into=None,
            member__left=None,
        )
        .order_by()
        .values("member__club_id")
        .annotate(first=Min("last_played"), latest=Max("last_played"))
        .values_list("member__club_id", "first", "latest")
    }


def federation_version() -> str:
    """Changes whenever a club's list can change: every write of history, privacy and members
    leaves an audit entry, every rebuild a log row (as web/access.history_version, for every
    club at once), and the database's lineage token, which a restore draws anew (ids repeat
    after it). One plain statement."""
    latest = [
        f"(SELECT MAX({m._meta.pk.column}) FROM {m._meta.db_table})"
        for m in (AuditEntry, RebuildLog)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {Lineage.sql()}, {latest[0]}, {latest[1]}")
        lineage, audit, rebuilt = cursor.fetchone()
    return f"{lineage}:{audit}:{rebuilt}"
