"""The monthly lists read back: the club's frozen lists by month, one list's rows, and what
changed since the list before it (docs/ratings.md, "Monthly lists"). Names as stored that day;
the pages and commands show them as the viewer may see them now (web/access.py)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils.translation import gettext_noop

from clubrating.club.store.models import (
    AuditEntry,
    Club,
    FrozenList,
    FrozenRow,
    Member,
    Tournament,
)
from clubrating.errors import InputError, NotFound

MONTH_TEXT_LENGTH = 7  # 2026-12


def month_of(text: str) -> dt.date:
    """``2026-12`` as the first day of that month, or an InputError naming what was expected."""
    try:
        if len(text) != MONTH_TEXT_LENGTH or text[4] != "-":
            raise ValueError
        return dt.date(int(text[:4]), int(text[5:]), 1)
    except ValueError:
        raise InputError(
            gettext_noop("%(text)s is not a month: expected YYYY-MM (2026-12)"),
            text=repr(text[:40]),
        ) from None


def months(club: Club) -> list[dict[str, Any]]:
    """The months with a frozen list, newest first, with the day their lists stand at:
    ``{"month": "2026-12", "day": "2026-12-15", "lists": [...]}``."""
    found: dict[dt.date, list[str]] = {}
    days: dict[dt.date, dt.date] = {}
    for month, day, name in (
        FrozenList.objects.filter(club=club)
        .order_by("-month", "rating_list")
        .values_list("month", "day", "rating_list")
    ):
        found.setdefault(month, []).append(name)
        days.setdefault(month, day)
    return [
        {"month": f"{m:%Y-%m}", "day": days[m].isoformat(), "lists": names}
        for m, names in found.items()
    ]


def frozen_list(club: Club, month: dt.date, rating_list: str | None = None) -> FrozenList:
    """The list of ``month`` (``rating_list``, or the first the month has), or NotFound."""
    found = FrozenList.objects.filter(club=club, month=month).order_by("rating_list")
    if rating_list is not None:
        found = found.filter(rating_list=rating_list)
    frozen = found.first()
    if frozen is None:
        raise NotFound(
            gettext_noop("no monthly list of %(month)s was published (clubrating monthly list)"),
            month=f"{month:%Y-%m}",
        )
    return frozen


def lists_of_month(frozen: FrozenList) -> list[str]:
    """The rating lists published for the frozen list's month."""
    return list(
        FrozenList.objects.filter(club_id=frozen.club_id, month=frozen.month)
        .order_by("rating_list")
        .values_list("rating_list", flat=True)
    )


ROW_FIELDS = (
    "position",
    "rank",
    "member_id",
    "name",
    "rating",
    "games",
    "provisional",
    "inactive",
    "last_played",
    "member__junior",
    "member__full_name_consent",
)


def rows(frozen: FrozenList) -> list[dict[str, Any]]:
    """The frozen list's lines in their order, with the member's privacy flags of today."""
    found = []
    for values in (
        FrozenRow.objects.filter(frozen_list=frozen).order_by("position").values_list(*ROW_FIELDS)
    ):
        row = dict(zip(ROW_FIELDS, values))
        last = row["last_played"]
        found.append(
            {
                **{k: v for k, v in row.items() if not k.startswith("member__")},
                "provisional": bool(row["provisional"]),
                "inactive": bool(row["inactive"]),
                "last_played": last.isoformat() if last else None,
                "junior": bool(row["member__junior"]),
                "full_name_consent": bool(row["member__full_name_consent"]),
            }
        )
    return found


def previous(frozen: FrozenList) -> FrozenList | None:
    """The same rating list's frozen list of the latest month before this one."""
    return (
        FrozenList.objects.filter(
            club_id=frozen.club_id, rating_list=frozen.rating_list, month__lt=frozen.month
        )
        .order_by("-month")
        .first()
    )


def changes(frozen: FrozenList, rows_now: list[dict[str, Any]]) -> dict[str, Any]:
    """What changed between the previous frozen list and this one (``rows_now``, its rows):
    each line's rating change and rank change (None where there is nothing to compare), the
    players new on the list, and those of the previous list no longer on it (left, merged)."""
    before = previous(frozen)
    if before is None:
        return {"previous": None, "rows": rows_now, "gone": []}
    then = {
        member: (rating, rank)
        for member, rating, rank in FrozenRow.objects.filter(frozen_list=before).values_list(
            "member_id", "rating", "rank"
        )
    }
    annotated = []
    for row in rows_now:
        old = then.get(row["member_id"])
        annotated.append(
            {
                **row,
                "new": old is None,
                "rating_change": None if old is None else row["rating"] - old[0],
                "rank_change": old[1] - row["rank"] if old and old[1] and row["rank"] else None,
            }
        )
    present = {r["member_id"] for r in rows_now}
    gone = FrozenRow.objects.filter(frozen_list=before).exclude(member_id__in=present)
    return {
        "previous": f"{before.month:%Y-%m}",
        "rows": annotated,
        "gone": [
            {
                "member_id": r.member_id,
                "name": r.name,
                "junior": r.member.junior,
                "full_name_consent": r.member.full_name_consent,
            }
            for r in gone.select_related("member").order_by("position")
        ],
    }


# What each audit action that can move a published list is called where the list is shown.
ACTIONS = {
    "correct-result": gettext_noop("a result corrected"),
    "delete": gettext_noop("a tournament deleted"),
    "change-date": gettext_noop("a tournament's date changed"),
    "publish": gettext_noop("a tournament published"),
    "unpublish": gettext_noop("a tournament unpublished"),
    "merge": gettext_noop("two members merged"),
    "unmerge": gettext_noop("a merge undone"),
    "member-left": gettext_noop("a member's leaving day"),
    "member-returned": gettext_noop("a member's return"),
    "settings": gettext_noop("the list's rules changed"),
}

# The audit actions that rebuild the history from a tournament on, and the members' ones that
# change who is on a list: what can move a published list's day (club/services/).
TOURNAMENT_ACTIONS = ("correct-result", "delete", "change-date", "publish", "unpublish")
MEMBER_ACTIONS = ("merge", "unmerge", "member-left", "member-returned")
TOURNAMENT_TARGET = re.compile(r"tournament (\d+)")
# The settings no published list depends on (club/services/club_settings.py): a list keeps the
# day it was published for, whatever the list day says later.
NO_LIST_SETTINGS = {"time-zone", "moves-link-days", "slug", "list-day"}
MEMBER_TARGET = re.compile(r"member (\d+)")


def corrections_since(frozen: FrozenList) -> list[dict[str, Any]]:
    """The audit entries after the list's publication that changed its day's list, oldest
    first: a tournament's correction, deletion, new date or (un)publication when the
    tournament is dated before the list's day (either date, for a new one), a merge, and a
    member's leaving or return before that day, a change of the rules a list follows. Each with its
    ``action``, ``when``, and its ``tournament`` (id, name, date; None when deleted: ``name``
    only), ``member_id`` or ``settings`` (the keys changed)."""
    entries = AuditEntry.objects.filter(
        club_id=frozen.club_id,
        when__gt=frozen.published_at,
        action__in=(*TOURNAMENT_ACTIONS, *MEMBER_ACTIONS, "settings"),
    ).order_by("when", "id")
    found = []
    for entry in entries:
        if entry.action == "settings":
            about = _settings_part(entry)
        elif entry.action in TOURNAMENT_ACTIONS:
            about = _tournament_part(entry)
        else:
            about = _member_part(entry)
        if about is not None:
            found.append({"action": entry.action, "when": entry.when, **about})
    _known_tournaments(found)
    return [f for f in found if any(d < frozen.day for d in f.pop("dates")) or f.pop("always")]


def _dates(entry: AuditEntry, key: str) -> list[dt.date]:
    """The entry's old and new ``key`` dates (a tournament's date, a member's leaving day)."""
    found = ((entry.old or {}).get(key), (entry.new or {}).get(key))
    return [dt.date.fromisoformat(d) for d in found if isinstance(d, str)]


def _tournament_part(entry: AuditEntry) -> dict[str, Any] | None:
    match = TOURNAMENT_TARGET.match(entry.target)
    if match is None:
        return None
    name = (entry.old or {}).get("name")
    return {
        "tournament_id": int(match[1]),
        "dates": _dates(entry, "date"),
        "name": name,
        "always": False,
    }


def _member_part(entry: AuditEntry) -> dict[str, Any] | None:
    match = MEMBER_TARGET.match(entry.target)
    if match is None:
        return None
    merge = entry.action in ("merge", "unmerge")
    return {"member_id": int(match[1]), "dates": _dates(entry, "left"), "always": merge}


def _settings_part(entry: AuditEntry) -> dict[str, Any] | None:
    """A change of the rating rules (replayed), of the inactive months or the language (the
    ranks and the order of equal ratings); not one of the settings no list depends on."""
    keys = sorted(set(entry.new or {}) - NO_LIST_SETTINGS)
    return {"settings": keys, "dates": [], "always": True} if keys else None


def _known_tournaments(found: list[dict[str, Any]]) -> None:
    """Each tournament entry's tournament (None when deleted since) and its date today."""
    ids = {f["tournament_id"] for f in found if "tournament_id" in f}
    known = {t.id: t for t in Tournament.objects.filter(id__in=ids)}
    for f in found:
        if "tournament_id" in f:
            t = known.get(f["tournament_id"])
            f["tournament"] = t
            f["name"] = t.name if t else f["name"]
            f["dates"] += [t.date] if t else []


def members_named(ids: set[int]) -> dict[int, dict[str, Any]]:
    """The members' names and privacy flags of today, by id."""
    return {
        m_id: {"name": name, "junior": junior, "full_name_consent": consent}
        for m_id, name, junior, consent in Member.objects.filter(id__in=ids).values_list(
            "id", "name", "junior", "full_name_consent"
        )
    }
