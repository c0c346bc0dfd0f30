"""The federation-wide rating list (``/ratings/``): the established players of every public
club on one list per time control, a page at a time by keyset (``after=<rating>,<member id>``
of the last row shown; club/read/federation.py). Each name is the one the club's own list
shows an anonymous visitor (web/access: ClubAccess.name), and a member the club's inactive
rule lists apart is left out here as there (web/pages.inactive_rule)."""

from __future__ import annotations

import datetime as dt
import math
import re
import time
from typing import Any, cast

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from clubrating.club.read import federation as read
from clubrating.club.store.models import Club
from clubrating.formats.records import TimeControl
from clubrating.rating import activity
from clubrating.web import tables
from clubrating.web.access import ClubAccess, juniors_event_members_among
from clubrating.web.labels import label
from clubrating.web.pages import inactive_rule

PAGE = 100  # players a page
KEPT_SECONDS = 600  # the key changes with any club's history: this only bounds memory use
BATCH = 200  # rows read at a time: a few members of each batch may be inactive, left out
LISTS = [t.value for t in TimeControl]
# a rating as Python writes it (repr: exact) and a member id
_PLACE = re.compile(r"(-?\d{1,6}(?:\.\d{1,20})?(?:e-?\d{1,3})?),(\d{1,18})")


class Refused(ValueError):
    """A query string this page cannot read: its one line says why."""


def place(text: str | None) -> tuple[float, int] | None:
    """``after=<rating>,<member id>``: the place after which the page starts; None: the top."""
    if text is None:
        return None
    found = _PLACE.fullmatch(text)
    if found is None or not math.isfinite(float(found[1])):
        raise Refused(
            gettext(
                "The address names no place in the list: the place is a rating and a member's "
                "number, as the page's link to the next page gives them."
            )
        )
    return float(found[1]), int(found[2])


def shown_page(rating_list: str, after: tuple[float, int] | None) -> tuple[list[Any], bool]:
    """The page's rows (member, name, club, rating, games) and whether more follow; kept in the
    shared cache until any club's history changes, as the clubs' own pages keep their tables
    (web/views.kept): the same page at another address (its query string) is not read again."""
    version = read.federation_version()
    where = "top" if after is None else f"{after[0]!r},{after[1]}"
    key = f"clubrating.federation:{version}:{rating_list}:{where}"
    if (found := cache.get(key)) is not None:
        return cast(tuple[list[Any], bool], found)
    page = read_page(version, rating_list, after)
    cache.set(key, page, KEPT_SECONDS)
    return page


def read_page(
    version: str, rating_list: str, after: tuple[float, int] | None
) -> tuple[list[Any], bool]:
    """:func:`shown_page` read from the database."""
    rows: list[read.Listed] = []
    clubs: dict[int, Club] = {}
    rules: dict[int, tuple[dt.date | None, dt.date | None]] = {}  # club -> first day, since
    while len(rows) <= PAGE:
        batch = read.established_after(rating_list, after, BATCH)
        new = sorted({r.club_id for r in batch} - clubs.keys())
        if new:
            clubs |= Club.objects.in_bulk(new)
            for club_id, (first, latest) in club_days(version, new, rating_list).items():
                rule = inactive_rule(clubs[club_id], [latest])
                rules[club_id] = (first, rule["since"] if rule else None)
        for r in batch:
            first, since = rules.get(r.club_id, (None, None))
            if since is None or not activity.is_inactive(r.last_played, first, since):
                rows.append(r)
        if len(batch) < BATCH:
            break
        after = (batch[-1].rating, batch[-1].member_id)
    shown = rows[:PAGE]
    juniors = juniors_among(version, [r.member_id for r in shown])
    access = {
        c.id: ClubAccess(c, False, f"/c/{c.slug}/", f"/api/c/{c.slug}/", juniors)
        for c in clubs.values()
    }  # each name as the club's own list shows it to a visitor
    return [
        {
            "member_id": r.member_id,
            "name": access[r.club_id].name(
                r.name, junior=r.junior, consent=r.consent, member_id=r.member_id
            ),
            "club": clubs[r.club_id].name,
            "base": access[r.club_id].base,
            "rating": r.rating,
            "rating_text": f"{r.rating:.0f}",
            "games": r.games,
            "after": f"{r.rating!r},{r.member_id}",
        }
        for r in shown
    ], len(rows) > PAGE


def club_days(version: str, club_ids: list[int], rating_list: str) -> dict[int, tuple[Any, Any]]:
    """read.list_days, kept in the shared cache until any club's history changes (``version``,
    read.federation_version): a page's players come from a hundred clubs or more, whose lists
    the read would aggregate whole."""
    keys = {f"clubrating.days:{version}:{rating_list}:{c}": c for c in club_ids}
    days = {keys[k]: tuple(v) for k, v in cache.get_many(list(keys)).items()}
    missing = [c for c in club_ids if c not in days]
    if missing:
        found = read.list_days(missing, rating_list)
        days |= found
        cache.set_many(
            {k: found.get(c, (None, None)) for k, c in keys.items() if c in found}, KEPT_SECONDS
        )
    return days


def juniors_among(version: str, member_ids: list[int]) -> frozenset[int]:
    """access.juniors_event_members_among, each member's answer kept as :func:`club_days` are."""
    keys = {f"clubrating.junior:{version}:{m}": m for m in member_ids}
    known = {keys[k]: v for k, v in cache.get_many(list(keys)).items()}
    missing = [m for m in member_ids if m not in known]
    if missing:
        found = juniors_event_members_among(missing)
        known |= {m: m in found for m in missing}
        cache.set_many({k: m in found for k, m in keys.items() if m in missing}, KEPT_SECONDS)
    return frozenset(m for m, junior in known.items() if junior)


@require_safe
def rating_list(request: HttpRequest) -> HttpResponse:
    started = time.perf_counter()
    wanted = request.GET.get("list", TimeControl.STANDARD.value)
    try:
        if wanted not in LISTS:
            raise Refused(
                gettext("The address names no rating list of this site: the lists are %(lists)s.")
                % {"lists": ", ".join(label(lst) for lst in LISTS)}
            )
        after = place(request.GET.get("after"))
    except Refused as refused:
        return render(request, "refused_input.html", {"why": str(refused)}, status=400)
    rows, more = shown_page(wanted, after)
    response = render(
        request,
        "web/federation.html",
        {
            "rating_list": wanted,
            "lists": LISTS,
            "rows": rows,
            "rows_html": tables.federation_rows(rows),
            "next": rows[-1]["after"] if more else None,
            "paged": after is not None,
        },
    )
    # Server-Timing (W3C), as club_view gives it: the benchmark reads the view's own time
    response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
    return response
