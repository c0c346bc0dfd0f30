"""The arbiter's rating setup: the settings page (the club's rating rules, each change
replayed and audited) and the initial list (ratings carried over, names confirmed).

The settings are :data:`clubrating.club.services.club_settings.SETTINGS`; the initial
list's writes are :mod:`clubrating.club.services.initial_list`.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from clubrating.club.store.models import Club, InitialEntry, Member
from clubrating.club.derived.ledger import club_overrides, club_preset
from clubrating.club.services import club_settings
from clubrating.club.services import initial_list as il
from clubrating.club.read.matching import initial_rows
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.cpi.index import PRESET_POOLS, PRESETS, Weights, fitted_nodes
from clubrating.errors import InputError, NotFound
from clubrating.formats.common import decode_text
from clubrating.formats.ratinglist import read_rating_list
from clubrating.web.access import ClubAccess
from clubrating.web.language import in_name_order
from clubrating.web.arbiter import MAX_UPLOAD_BYTES, _member, _page, act, arbiter_view, who
from clubrating.club.read.clubs import parse_id


@arbiter_view
def settings_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club, back = access.club, f"{access.base}arbiter/settings/"
    if request.method == "POST" and "cpi-preset" in request.POST:
        preset = request.POST["cpi-preset"]
        return act(
            request, lambda: set_cpi_weights(club, {}, who=who(request), preset=preset).text, back
        )
    if request.method == "POST":
        texts = {
            s.key: request.POST[s.key] for s in club_settings.SETTINGS if s.key in request.POST
        }
        return act(
            request,
            lambda: club_settings.change_settings(
                club, club_settings.parse_settings(texts), who=who(request)
            ),
            back,
        )
    values = club_settings.current_settings(club)
    fields = [
        {"key": s.key, "help": gettext(s.help), "value": _shown(values[s.key])}
        for s in club_settings.SETTINGS
    ]
    presets = [
        {
            "name": name,
            "pool": gettext(PRESET_POOLS.get(name, name)),
            "nodes": number_format(nodes, force_grouping=True)
            if (nodes := fitted_nodes(name))
            else None,
        }
        for name in PRESETS
    ]
    return _page(
        request,
        access,
        "web/arbiter/settings.html",
        fields=fields,
        presets=presets,
        preset=club_preset(club),
        own_weights=len(club_overrides(club)) + (club.cpi_start != Weights().model.start),
    )


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# --- the initial list ------------------------------------------------------------------------


def _row(club: Club, request: HttpRequest) -> InitialEntry:
    number = parse_id(request.POST.get("row"))
    found = (
        None
        if number is None
        else InitialEntry.objects.filter(club=club, id=number)
        .select_related("club", "member")
        .first()
    )
    if found is None:
        raise NotFound(gettext("no such row in the initial list"))
    return found


InitialAction = Callable[[HttpRequest, Club, str], Any]
INITIAL_ACTIONS: dict[str, InitialAction] = {
    "link": lambda r, c, w: il.link_initial(
        _row(c, r), _member(c, r.POST.get("member", "")), who=w
    ),
    "new-member": lambda r, c, w: il.new_member_initial(_row(c, r), who=w),
    "unlink": lambda r, c, w: il.unlink_initial(_row(c, r), who=w),
    "accept-exact": lambda r, c, w: il.accept_exact_initial(c, who=w),
    "all-new": lambda r, c, w: il.all_new_initial(c, who=w),
    "upload": lambda r, c, w: _seed(r, c, w),
}


def _seed(request: HttpRequest, club: Club, who_: str) -> Any:
    upload_file = request.FILES.get("file")
    if upload_file is None:
        raise InputError(
            gettext("choose a file: a CSV with name, rating and optionally games, or a TRF")
        )
    name = upload_file.name or "upload"
    if upload_file.size and upload_file.size > MAX_UPLOAD_BYTES:
        raise InputError(
            gettext("the file is larger than %(mb)s MB") % {"mb": MAX_UPLOAD_BYTES // 1024 // 1024},
            file=name,
        )
    listed = read_rating_list(io.StringIO(decode_text(upload_file.read(), name), newline=""), name)
    return il.seed_ratings(club, listed, who=who_, source=name)


@require_safe
@arbiter_view
def initial_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    rows = initial_rows(access.club)
    members = in_name_order(
        Member.objects.filter(club=access.club, merged_into=None)
        .order_by("id")
        .values_list("id", "name"),
        lambda m: m[1],
    )
    return _page(
        request,
        access,
        "web/arbiter/initial.html",
        rows=rows,
        members=list(members),
        unlinked=sum(1 for r, _ in rows if r.member_id is None),
    )


@require_POST
@arbiter_view
def initial_action(request: HttpRequest, access: ClubAccess, action: str) -> HttpResponse:
    if action not in INITIAL_ACTIONS:
        raise Http404("no such action")
    club = access.club
    return act(
        request,
        lambda: INITIAL_ACTIONS[action](request, club, who(request)),
        f"{access.base}arbiter/initial-list/",
    )
