"""The monthly lists on the web: the club's frozen lists by month, one list with what changed
since the month before, its CSV and JSON, and the arbiter's form that publishes a month's list
(docs/ratings.md, "Monthly lists"). Names as the viewer may see them now, exactly as on the live
list (web/access.py)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from clubrating.club.derived.frozen_lists import Move, differs_from_replay, live_list, moves
from clubrating.club.read import frozen_lists
from clubrating.club.services.monthly_lists import publish_month
from clubrating.club.services.outcome import Outcome
from clubrating.club.store.models import FrozenList
from clubrating.errors import InputError, NotFound
from clubrating.formats import zones
from clubrating.formats.csv import spreadsheet_cell
from clubrating.web import reading, tables
from clubrating.web.access import ClubAccess, club_view
from clubrating.web.arbiter import act, arbiter_view, who
from clubrating.web.views import FIDE_COLUMNS, PLAYER_KEYS, _download, _page


def _frozen(request: HttpRequest, access: ClubAccess, month: str) -> FrozenList:
    wanted = request.GET.get("list") or None
    try:
        day = frozen_lists.month_of(month)
        return frozen_lists.frozen_list(access.club, day, wanted[:20] if wanted else None)
    except (InputError, NotFound):
        raise Http404("no such monthly list") from None


def _shown(access: ClubAccess, row: dict[str, Any]) -> dict[str, Any]:
    name = access.name(
        row["name"],
        junior=row["junior"],
        consent=row["full_name_consent"],
        member_id=row["member_id"],
    )
    moved = row.get("rank_change") or 0
    change = row.get("rating_change")
    return {
        **row,
        "name": name,
        "rank_up": max(moved, 0),
        "rank_down": max(-moved, 0),
        "rating_change_text": f"{change:+.0f}" if change and round(change) else "",
    }


@require_safe
@club_view
def month_index(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    return _page(request, access, "web/monthly_lists.html", months=frozen_lists.months(access.club))


@require_safe
@club_view
def month_page(request: HttpRequest, access: ClubAccess, month: str) -> HttpResponse:
    frozen = _frozen(request, access, month)
    changed = frozen_lists.changes(frozen, frozen_lists.rows(frozen))
    rows = [_shown(access, r) for r in changed["rows"]]
    return _page(
        request,
        access,
        "web/monthly_list.html",
        frozen=frozen,
        month=f"{frozen.month:%Y-%m}",
        lists=frozen_lists.lists_of_month(frozen),
        previous=changed["previous"],
        rows=rows,
        rows_html=tables.frozen_rows(rows, access.base, compared=bool(changed["previous"])),
        gone=[_shown(access, g) for g in changed["gone"]],
        **_since_publication(access, frozen),
    )


def _since_publication(access: ClubAccess, frozen: FrozenList) -> dict[str, Any]:
    """Who moved on the live list of the frozen list's day, and the audit entries that moved
    them (docs/ratings.md, "Monthly lists")."""
    today = live_list(frozen)
    moved = moves(frozen, today)
    corrections = frozen_lists.corrections_since(frozen) if moved else []
    named = frozen_lists.members_named(
        {m.member_id for m in moved} | {c["member_id"] for c in corrections if "member_id" in c}
    )

    def shown(member_id: int, name: str) -> str:
        flags = named.get(member_id, {"junior": False, "full_name_consent": False})
        return access.name(
            name,
            junior=flags["junior"],
            consent=flags["full_name_consent"],
            member_id=member_id,
        )

    for c in corrections:
        c["what"] = gettext(frozen_lists.ACTIONS[c["action"]])
        c["day"] = zones.local_text(c["when"], access.club.time_zone)[:10]
        if "member_id" in c:
            c["member_name"] = shown(c["member_id"], named.get(c["member_id"], {}).get("name", ""))
    return {
        "differs": differs_from_replay(frozen, today),
        "moved": [_move_shown(m, shown(m.member_id, m.name)) for m in moved],
        "corrections": corrections,
    }


def _move_shown(move: Move, name: str) -> dict[str, Any]:
    def rating(value: float | None) -> str:
        return "–" if value is None else reading.figure(value, ".1f")

    return {
        "member_id": move.member_id,
        "name": name,
        "rating": f"{rating(move.rating_then)} → {rating(move.rating_now)}",
        "rank": f"{move.rank_then or '–'} → {move.rank_now or '–'}",
    }


@require_safe
@club_view
def month_csv(request: HttpRequest, access: ClubAccess, month: str) -> HttpResponse:
    frozen = _frozen(request, access, month)
    name = f"{frozen.month:%Y-%m}"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*FIDE_COLUMNS, "Month", "Day"])
    for r in _players(access, frozen):
        cells = (
            r["rank"] or "",
            r["member_id"],
            r["name"],
            f"{r['rating']:.1f}",
            r["games"],
            ("p" if r["provisional"] else "") + ("i" if r["inactive"] else ""),
            r["last_played"] or "",
            frozen.rating_list,
            name,
            frozen.day.isoformat(),
        )
        writer.writerow([spreadsheet_cell(c) for c in cells])
    filename = f"{access.club.slug}-{frozen.rating_list}-{name}.csv"
    return _download(out.getvalue(), "text/csv; charset=utf-8", filename)


def _players(access: ClubAccess, frozen: FrozenList) -> list[dict[str, Any]]:
    """The frozen list's lines as the viewer may see them, the CSV's and the JSON's rows."""
    return [_shown(access, r) for r in frozen_lists.rows(frozen)]


@require_safe
@club_view
def month_json(request: HttpRequest, access: ClubAccess, month: str) -> HttpResponse:
    """The frozen list in the live list's ratings.json shape, with its month, the day it stands
    at and its day of publication."""
    frozen = _frozen(request, access, month)
    document = {
        "club": {"slug": access.club.slug, "name": access.club.name},
        "list": frozen.rating_list,
        "month": f"{frozen.month:%Y-%m}",
        "day": frozen.day.isoformat(),
        "published_at": frozen.published_at.isoformat(),
        "players": [{k: r[k] for k in PLAYER_KEYS} for r in _players(access, frozen)],
    }
    return JsonResponse(document, json_dumps_params={"ensure_ascii": False})


@require_POST
@arbiter_view
def publish(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """The dashboard's form: the month typed (this month when blank) published, or refused in
    one message (docs/ratings.md, "Monthly lists")."""

    def publish_it() -> Outcome:
        text = request.POST.get("month", "").strip()[:20]
        today = zones.today(access.club.time_zone)
        month = frozen_lists.month_of(text) if text else today.replace(day=1)
        replace = request.POST.get("replace") == "on"
        return publish_month(access.club, month, who=who(request), replace=replace)

    return act(request, publish_it, f"{access.base}arbiter/")
