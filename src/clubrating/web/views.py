"""Read-side pages and exports: club, player, tournament; CSV, JSON, TRF, PGN.

Every view takes the viewer's :class:`~clubrating.web.access.ClubAccess` (the
``club_view`` decorator resolves it, answers 404 where the viewer may not see
the club and marks non-public pages ``noindex``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable
from typing import Any, cast

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from clubrating.club.read import audit_log, clubs, tournaments
from clubrating.club.store.models import Club, Member, Visibility
from clubrating.formats.csv import spreadsheet_cell
from clubrating.formats.pgn import write_pgn
from clubrating.formats.trf import write_trf
from clubrating.web import card, cpi_views, pages, tables, wall
from clubrating.web.access import ClubAccess, club_view


def _page(request: HttpRequest, access: ClubAccess, template: str, **context: Any) -> HttpResponse:
    return render(
        request, template, {"access": access, "club": access.club, "base": access.base, **context}
    )


def _download(content: str | bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _list_name(request: HttpRequest, access: ClubAccess) -> tuple[str, list[str]]:
    lists = clubs.rating_lists(access.club)
    wanted = request.GET.get("list", "")
    return (wanted if wanted in lists else lists[0]), lists


# --- site ------------------------------------------------------------------------------------


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The public clubs, a page at a time and found by name, and the clubs of a logged-in
    arbiter; the only one opens directly."""
    search = request.GET.get("q", "").strip()
    listed, public = pages.public_clubs(search, request.GET.get("page"), translation.get_language())
    own = list(request.user.clubs.order_by("name")) if request.user.is_authenticated else []
    shown = {slug for _, slug in public} | {club.slug for club in own}
    if not search and listed <= 1 and len(shown) == 1:
        return redirect(f"/c/{shown.pop()}/")
    return render(
        request,
        "web/index.html",
        {"listed": listed, "public": public, "own": own, "search": search},
    )


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    # Not "Disallow: /u/": a crawler that may not fetch an unlisted page never reads its noindex,
    # and may still list the bare address it found elsewhere (Google Search Central, "robots.txt").
    lines = [
        "User-agent: *",
        "Disallow: /api/c/",
        "Disallow: /accounts/",
        "Disallow: /c/*/arbiter/",
        f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


@require_safe
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    """Public clubs only (R15): never an unlisted or arbiter-only club."""
    urls = []
    for club in Club.objects.filter(visibility=Visibility.PUBLIC).order_by("slug"):
        urls.append(request.build_absolute_uri(f"/c/{club.slug}/"))
        urls.append(request.build_absolute_uri(f"/c/{club.slug}/t/"))
    body = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>\n'
    )
    return HttpResponse(xml, content_type="application/xml")


# --- club ------------------------------------------------------------------------------------


@require_safe
@club_view
def club_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = kept(
        access,
        "club",
        lambda: {
            "lists": clubs.rating_lists(access.club),
            "tournaments": pages.recent_tournaments(access),
        },
    )
    wanted = request.GET.get("list", "")
    rating_list = wanted if wanted in club["lists"] else club["lists"][0]
    search = request.GET.get("q", "")[:100]
    main = kept(
        access,
        f"club:{rating_list}:{search}",
        lambda: {"html": club_main(access, rating_list, search, club)},
    )
    return _page(request, access, "web/club.html", main_html=main["html"])


TABLE_CACHE_SECONDS = 600  # as the page cache: the key changes with the history


def club_main(access: ClubAccess, rating_list: str, search: str, club: dict[str, Any]) -> str:
    """The club page below its header (web/club_main.html), made once for each version of the
    club's history, list and search (:func:`kept`): a page whose address differs by its query
    string (a visitor's own link, a crawler's parameters) would otherwise read its 1,500 rows
    and render them anew. Only the header (the language form names the address) is rendered for
    each request."""
    rows = pages.club_ratings(access, rating_list, search, translation.get_language())
    established = [r for r in rows if not r["provisional"] and not r["inactive"]]
    provisional = [r for r in rows if r["provisional"] and not r["inactive"]]
    inactive = [r for r in rows if r["inactive"]]
    days = [r["last_played"] and dt.date.fromisoformat(r["last_played"]) for r in rows]
    context = {
        "access": access,
        "club": access.club,
        "base": access.base,
        "rating_list": rating_list,
        "lists": club["lists"],
        "search": search,
        "established": len(established),
        "provisional": len(provisional),
        "inactive": len(inactive),
        "inactive_rule": pages.inactive_rule(access.club, days) if rows else None,
        "established_html": tables.rating_rows(established, access.base, provisional=False),
        "provisional_html": tables.rating_rows(provisional, access.base, provisional=True),
        "inactive_html": tables.rating_rows(inactive, access.base, provisional=False),
        "tournaments": club["tournaments"],
        "last_rebuild": audit_log.last_rebuild(access.club) if access.is_arbiter else None,
    }
    return mark_safe(render_to_string("web/club_main.html", context))


def kept(access: ClubAccess, what: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A part of a page (``make``'s), made once for each version of the club's history
    (``access.history``, web/access.history_version), language and address, and kept in the
    cache the pages share, for the visitors the page cache serves (no arbiter: drafts, full
    names): that cache keys on the whole address, so a page at a new address (its query
    string) is otherwise made anew."""
    if not access.history:  # a page made for this viewer alone
        return make()
    key = f"clubrating.part:{access.history}:{translation.get_language()}:{access.base}:{what}"
    if (found := cache.get(key)) is not None:
        return cast(dict[str, Any], found)
    part = make()
    cache.set(key, part, TABLE_CACHE_SECONDS)
    return part


@require_safe
@club_view
def tournament_list(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    def listed() -> dict[str, Any]:
        rows = pages.tournament_rows(access)
        return {"rows": rows, "rows_html": tables.tournament_rows(rows, access.base)}

    return _page(
        request,
        access,
        "web/tournaments.html",
        **kept(access, "tournaments", listed),
    )


FIDE_COLUMNS = ["Rank", "ID", "Name", "Rtg", "Gms", "Flag", "Last played", "List"]
# Rtg, Gms and Flag are the FIDE rating list's column names (players_list.txt, ratings.fide.com
# download); "Flag" holds "p" for a provisional rating here, and FIDE's "i" for an inactive member.


@require_safe
@club_view
def ratings_csv(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    rating_list, _ = _list_name(request, access)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIDE_COLUMNS)
    for r in pages.club_ratings(access, rating_list):
        writer.writerow(
            [
                spreadsheet_cell(c)
                for c in (
                    r["rank"] or "",
                    r["member_id"],
                    r["name"],
                    f"{r['rating']:.1f}",
                    r["games"],
                    ("p" if r["provisional"] else "") + ("i" if r["inactive"] else ""),
                    r["last_played"] or "",
                    rating_list,
                )
            ]
        )
    return _download(
        out.getvalue(), "text/csv; charset=utf-8", f"{access.club.slug}-{rating_list}.csv"
    )


PLAYER_KEYS = (
    "rank",
    "member_id",
    "name",
    "rating",
    "games",
    "provisional",
    "inactive",
    "last_played",
)
"""A listed player's keys in ratings.json (and a monthly list's JSON)."""


def ratings_document(access: ClubAccess, rating_list: str) -> dict[str, Any]:
    players = [{k: r[k] for k in PLAYER_KEYS} for r in pages.club_ratings(access, rating_list)]
    return {
        "club": {"slug": access.club.slug, "name": access.club.name},
        "list": rating_list,
        "players": players,
    }


@require_safe
@club_view
def ratings_json(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    rating_list, _ = _list_name(request, access)
    return JsonResponse(
        ratings_document(access, rating_list), json_dumps_params={"ensure_ascii": False}
    )


# --- player ----------------------------------------------------------------------------------


@require_safe
@club_view
def player_page(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = pages.member_or_redirect(access, member_id)
    if isinstance(member, HttpResponse):
        return member
    vs = request.GET.get("vs", "")
    against = clubs.parse_id(vs)  # never int(): of "²" or 5,000 digits it raises
    main = kept(
        access,
        f"player:{member.id}:vs:{against}",
        lambda: player_main(access, member, against),
    )
    return _page(request, access, "web/player.html", name=main["name"], main_html=main["html"])


def player_main(access: ClubAccess, member: Member, against: int | None) -> dict[str, Any]:
    """The player page below its header (web/player_main.html), and the name of its title: made
    once for each version of the club's history and opponent shown (``?vs=``, :func:`kept`), from
    the page's data, kept too (a page with another opponent reads it)."""
    data = kept(
        access,
        f"player:{member.id}",
        lambda: {**pages.player(access, member), "cpi": cpi_views.player_cpi(access, member)},
    )
    shown = next((h for h in data["card"]["head_to_head"] if h["opponent_id"] == against), None)
    context = {
        "access": access,
        "club": access.club,
        "base": access.base,
        **data,
        "history_html": tables.history_rows(
            data["history"], access.base, is_arbiter=access.is_arbiter
        ),
        "games_html": card.game_rows(
            data["card"],
            access.base,
            shown["opponent_id"] if shown else None,
            frozenset(g["game_id"] for g in data["games"] if g["has_moves"]),
        ),
        "against": shown,
        "head_to_head_html": card.head_to_head_rows(data["card"], access.base),
    }
    return {
        "name": data["name"],
        "html": mark_safe(render_to_string("web/player_main.html", context)),
    }


@require_safe
@club_view
def player_csv(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = pages.member_or_redirect(access, member_id, "history.csv")
    if isinstance(member, HttpResponse):
        return member
    data = pages.player(access, member)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "Date",
            "Tournament",
            "Score",
            "Games rated",
            "Rating before",
            "Rating after",
            "Change",
            "List",
        ]
    )
    if data["initial"]:  # the start of the history: the club's initial list
        writer.writerow(
            [
                "",
                "Initial list",
                "",
                "" if data["initial"]["games"] is None else data["initial"]["games"],
                "",
                f"{data['initial']['rating']:.1f}",
                "",
                "",
            ]
        )
    for t in data["history"]:
        writer.writerow(
            [
                spreadsheet_cell(c)
                for c in (
                    t["date"],
                    t["tournament"],
                    t["score"],
                    t["games_rated"],
                    "" if t["rating_before"] is None else f"{t['rating_before']:.1f}",
                    "" if t["rating_after"] is None else f"{t['rating_after']:.1f}",
                    "" if t["change"] is None else f"{t['change']:+.1f}",
                    t["rating_list"] or "",
                )
            ]
        )
    return _download(out.getvalue(), "text/csv; charset=utf-8", f"player-{member.id}-history.csv")


@require_safe
@club_view
def player_json(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = pages.member_or_redirect(access, member_id, "history.json")
    if isinstance(member, HttpResponse):
        return member
    return HttpResponse(
        json.dumps(pages.lichess_history(access, member)), content_type="application/json"
    )


_SCORE = {1.0: "1", 0.5: "½", 0.0: "0"}  # a forfeit's "+" would be read as a formula and escaped
CARD_COLUMNS = [
    "Date",
    "Tournament",
    "Round",
    "Colour",
    "Opponent",
    "Opponent rating",
    "Result",
    "Status",
    "Expected",
    "Change",
    "Performance",
]


@require_safe
@club_view
def player_card_csv(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    """The card's games, one a row; a tournament's performance on each of its rows."""
    member = pages.member_or_redirect(access, member_id, "card.csv")
    if isinstance(member, HttpResponse):
        return member
    doc = pages.player_card(access, member)["card"]
    perf = {p["tournament_id"]: f"{p['rating']:.0f}" for p in doc["performances"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CARD_COLUMNS)
    for g in doc["games"]:
        writer.writerow(
            [
                spreadsheet_cell(c)
                for c in (
                    g["date"],
                    g["tournament"],
                    g["round"],
                    g["colour"] or "",
                    g["opponent"],
                    "" if g["opponent_rating"] is None else f"{g['opponent_rating']:.1f}",
                    _SCORE[g["score"]],
                    g["status"],
                    "" if g["expected"] is None else f"{g['expected']:.3f}",
                    "" if g["change"] is None else f"{g['change']:+.2f}",
                    perf.get(g["tournament_id"], ""),
                )
            ]
        )
    return _download(out.getvalue(), "text/csv; charset=utf-8", f"player-{member.id}-card.csv")


@require_safe
@club_view
def player_card_json(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    """Every figure of the card (the API's ``card``)."""
    member = pages.member_or_redirect(access, member_id, "card.json")
    if isinstance(member, HttpResponse):
        return member

    def document() -> dict[str, Any]:
        # kept as its text (JsonResponse's): unpickling the whole card and writing it again as
        # JSON was most of a request's time
        data = pages.player_card(access, member)
        doc = {"member_id": member.id, "name": data["name"], "card": data["card"]}
        return {"json": json.dumps(doc, cls=DjangoJSONEncoder, ensure_ascii=False)}

    return HttpResponse(
        kept(access, f"card.json:{member.id}", document)["json"], content_type="application/json"
    )


# --- tournament ------------------------------------------------------------------------------


TOURNAMENT_PAGE_KEYS = (
    "tournament_id",
    "name",
    "date",
    "status",
    "time_control",
    "rated",
    "round_numbers",
    "has_unrated",
    "teams",
    "tiebreak_columns",
    "ranked_by_words",
    "rule",
)
"""What web/tournament.html reads of pages.tournament beside the crosstable's HTML: the standings
kept without their rows (unpickling 300 players' rows and cells took 25 ms a request)."""


@require_safe
@club_view
def tournament_page(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """A published tournament; for everyone, also a running evening (its pairings and standings so
    far, not rated yet); any draft for its arbiters."""
    t = wall.shown_tournament(access, tournament_id)
    progress = wall.progress(t)
    current = wall.pairings(access, t, progress["round"]) if progress else None

    def standings() -> dict[str, Any]:
        shown = pages.tournament(access, t)
        return {
            **{key: shown[key] for key in TOURNAMENT_PAGE_KEYS},
            "players_html": tables.crosstable_rows(
                shown["players"], access.base, teams=bool(shown["teams"]), progress=bool(progress)
            ),
        }

    def main() -> dict[str, Any]:
        # below the header, made once for each history version (kept) but while it is played
        data = kept(access, f"tournament:{t.id}", standings)
        context = {
            "access": access,
            "club": access.club,
            "base": access.base,
            **data,
            "progress": progress,
            "current": current,
        }
        html = mark_safe(render_to_string("web/tournament_main.html", context))
        return {"name": data["name"], "html": html}

    shown = main() if progress else kept(access, f"tournament:{t.id}:main", main)
    return _page(
        request,
        access,
        "web/tournament.html",
        name=shown["name"],
        main_html=shown["html"],
        progress=progress,
    )


@require_safe
@club_view
def tournament_trf(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The tournament as TRF-16; ``?ratings=club`` fills the rating column with the club ratings,
    for
    Swiss-Manager or Vega to pair the next round."""
    t = pages.get_tournament(access, tournament_id)
    choice = request.GET.get("ratings", "")
    if choice not in ("", "club"):
        return HttpResponse(
            "ratings= takes 'club' (the club ratings in the rating column) or nothing\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    out = io.StringIO()
    write_trf(
        pages.export_record(access, t),
        out,
        tournaments.club_ratings(t) if choice == "club" else None,
    )
    return _download(out.getvalue(), "text/plain; charset=utf-8", f"tournament-{t.id}.trf")


@require_safe
@club_view
def tournament_csv(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The standings as the page shows them: place, start number, name, points, each tie-break."""
    data = pages.tournament(access, pages.get_tournament(access, tournament_id))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    team = ["Team"] if data["teams"] else []  # a team event: each player's team
    writer.writerow(
        [
            "Place",
            "No.",
            "Name",
            *team,
            "Points",
            *(t["short"] for t in data["tiebreaks"]),
            "Rating before",
            "Rating after",
        ]
    )
    for p in data["players"]:
        writer.writerow(
            [
                spreadsheet_cell(c)
                for c in (
                    p["place"] or "",
                    p["number"],
                    p["name"],
                    *([p["team"] or ""] if team else []),
                    p["points_text"],
                    *("" if v is None else f"{v:g}" for v in p["tiebreaks"]),  # not the page's
                    "" if p["rating_before"] is None else f"{p['rating_before']:.1f}",
                    "" if p["rating_after"] is None else f"{p['rating_after']:.1f}",
                )
            ]
        )
    return _download(
        out.getvalue(), "text/csv; charset=utf-8", f"tournament-{tournament_id}-standings.csv"
    )


@require_safe
@club_view
def tournament_pgn(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The games with moves; when no game has moves, every played game with its result."""
    t = pages.get_tournament(access, tournament_id)
    record = pages.export_record(access, t)
    out = io.StringIO()
    write_pgn(record, out, results_only=not any(p.moves for p in record.pairings))
    return _download(
        out.getvalue(), "application/x-chess-pgn; charset=utf-8", f"tournament-{t.id}.pgn"
    )
