"""The evening on the wall: a running evening in public, and the pages an arbiter prints.

A running evening is a draft evening paired here with at least one round paired: its
tournament page shows the current round's pairings and the standings so far, marked as not
rated yet; it is rated only when published (``club.services.evening.publish_evening``). Any other
draft stays the arbiters' (404 for everyone else).

The printable pages (pairings by board, pairings by name as posted on the wall, the standings
wall chart) are plain pages with ``@media print`` styles; names follow the same privacy rules
as the tournament page (``pages.entry_name``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from clubrating.club.store.models import (
    Bye,
    Entry,
    Evening,
    EveningBoard,
    Game,
    Tournament,
    TournamentStatus,
)
from clubrating.formats.bounds import whole_number
from clubrating.formats.records import ByeKind
from clubrating.formats.results import result_text
from clubrating.web import pages
from clubrating.web.access import ClubAccess, club_view
from clubrating.web.language import in_name_order
from clubrating.web.links import game_href

BYE_WORDS = {
    ByeKind.PAIRING.value: gettext_lazy("pairing bye"),
    ByeKind.HALF_POINT.value: gettext_lazy("half-point bye"),
    ByeKind.FULL_POINT.value: gettext_lazy("full-point bye"),
    ByeKind.ZERO_POINT.value: gettext_lazy("zero-point bye"),
    ByeKind.ABSENT.value: gettext_lazy("absent"),
}
ROUND_OFF_WORDS = gettext_lazy("sits out this round")
"""A round robin's zero-point bye is no bye the player took: the odd player's round off (C.05
Annex 1)."""


def bye_words(kind: str, system: str) -> str:
    """What a round's bye is called on the public pages: a round robin's round off by what it is."""
    if kind == ByeKind.ZERO_POINT.value and system == "round_robin":
        return str(ROUND_OFF_WORDS)
    return str(BYE_WORDS.get(kind, gettext_lazy("bye")))


def running_evening(t: Tournament) -> Evening | None:
    """The evening row of a draft evening being played, else None (published, or not paired yet)."""
    if t.status != TournamentStatus.DRAFT:
        return None
    return Evening.objects.filter(tournament=t, paired_rounds__gte=1).first()


def shown_tournament(access: ClubAccess, tournament_id: int) -> Tournament:
    """The tournament, if this viewer may see its page; 404 otherwise."""
    found = Tournament.objects.filter(
        pages.shown_tournaments(access), club=access.club, id=tournament_id
    ).first()
    if found is None:
        raise Http404("no such tournament")
    return found


# --- what the pages show -----------------------------------------------------------------------


def _points_before(data: dict[str, Any], rnd: int) -> dict[int, float]:
    """Start number -> points scored before round ``rnd`` (games and byes)."""
    return {
        p["number"]: sum(c["score"] for c in p["rounds"] if c["round"] < rnd)
        for p in data["players"]
    }


def _boards(t: Tournament, rnd: int) -> list[tuple[int, Entry, Entry, str, Game | None]]:
    """(board, white, black, result or "", the game once stored) of the round: an evening's
    boards are paired before any result exists; an imported tournament's are its games."""
    if Evening.objects.filter(tournament=t).exists():
        return [
            (
                b.board,
                b.white,
                b.black,
                ""
                if b.game is None
                else result_text(b.game.white_points, b.game.black_points, b.game.played),
                b.game,
            )
            for b in EveningBoard.objects.filter(tournament=t, round=rnd).select_related(
                "white", "black", "game"
            )
        ]
    games = (
        Game.objects.filter(tournament=t, round=rnd)
        .order_by("board", "id")
        .select_related("white", "black")
    )
    return [
        (g.board or i, g.white, g.black, result_text(g.white_points, g.black_points, g.played), g)
        for i, g in enumerate(games, 1)
    ]


def pairings(access: ClubAccess, t: Tournament, rnd: int) -> dict[str, Any]:
    """The round's boards (numbers, names as this viewer may see them, points before the round,
    result) and its byes; ``by_name``: each player once, alphabetically, with board and colour."""
    data = pages.tournament(access, t)
    shown = {p["number"]: p["name"] for p in data["players"]}
    before = _points_before(data, rnd)

    def side(e: Entry) -> dict[str, Any]:
        return {
            "number": e.number,
            "name": shown[e.number],
            "points": pages.points_text(before[e.number]),
        }

    boards: list[dict[str, Any]] = [
        {
            "board": n,
            "white": side(w),
            "black": side(b),
            "result": res,
            "href": game_href(access.base, g.id, t.id)
            if g is not None and g.moves.strip()
            else None,
        }
        for n, w, b, res, g in _boards(t, rnd)
    ]
    byes = [
        {**side(b.entry), "why": bye_words(b.kind, data["system"])}
        for b in Bye.objects.filter(tournament=t, round=rnd)
        .select_related("entry")
        .order_by("entry__number")
    ]
    by_name = [
        {
            **row["white"],
            "board": row["board"],
            "colour": gettext("White"),
            "opponent": row["black"]["name"],
        }
        for row in boards
    ]
    by_name += [
        {
            **row["black"],
            "board": row["board"],
            "colour": gettext("Black"),
            "opponent": row["white"]["name"],
        }
        for row in boards
    ]
    by_name += [{**b, "board": None, "colour": "", "opponent": b["why"]} for b in byes]
    by_name = in_name_order(sorted(by_name, key=lambda r: r["number"]), lambda r: r["name"])
    return {"round": rnd, "boards": boards, "byes": byes, "by_name": by_name}


def progress(t: Tournament) -> dict[str, Any] | None:
    """A running evening's round being played (or the last one, all its results in) and its
    rounds."""
    ev = running_evening(t)
    if ev is None:
        return None
    playing = EveningBoard.objects.filter(tournament=t, round=ev.paired_rounds, game=None).count()
    return {"round": ev.paired_rounds, "planned": ev.planned_rounds, "open_boards": playing}


def _round_asked(request: HttpRequest, t: Tournament, current: int) -> int:
    text = request.GET.get("round", "")
    if not text:
        return current
    asked = whole_number(text, current)  # never int(): of "²" it raises
    if not asked:
        raise Http404("no such round")
    return asked


def _current_round(t: Tournament) -> int:
    ev = Evening.objects.filter(tournament=t).first()
    return ev.paired_rounds if ev is not None and ev.paired_rounds else max(t.rounds, 1)


def _print_page(
    request: HttpRequest, access: ClubAccess, template: str, t: Tournament, **context: Any
) -> HttpResponse:
    rounds = range(1, _current_round(t) + 1)
    return render(
        request,
        template,
        {
            "access": access,
            "club": access.club,
            "base": access.base,
            "tournament": t,
            "progress": progress(t),
            "round_links": list(rounds),
            **context,
        },
    )


# --- the printable pages -------------------------------------------------------------------------


@require_safe
@club_view
def pairings_by_board(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """One round's pairings by board (``?round=N``; the round being played by default)."""
    t = shown_tournament(access, tournament_id)
    rnd = _round_asked(request, t, _current_round(t))
    return _print_page(
        request, access, "web/print/pairings.html", t, pairings=pairings(access, t, rnd)
    )


@require_safe
@club_view
def pairings_by_name(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """One round's pairings by name, as posted on the wall: each player once, with board and
    colour."""
    t = shown_tournament(access, tournament_id)
    rnd = _round_asked(request, t, _current_round(t))
    return _print_page(
        request, access, "web/print/names.html", t, pairings=pairings(access, t, rnd)
    )


@require_safe
@club_view
def wall_chart(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The standings wall chart: the crosstable so far, printed in landscape."""
    t = shown_tournament(access, tournament_id)
    return _print_page(
        request, access, "web/print/wallchart.html", t, **pages.tournament(access, t)
    )
