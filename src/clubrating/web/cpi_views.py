"""The player's CPI dashboard (spec C6, DESIGN.md "Player / coach"): the CPI over time, the
factor averages beside the club's, the ΔCPI of the latest games, and Coach by CPI — exercises
from the player's own games for the weakest factor, each on a board drawn by python-chess.

Same privacy as the player page: the ``club_view`` decorator answers 404 where the viewer
may not see the club and marks non-public pages ``noindex`` / ``same-origin`` referrers; names are
shown as this viewer may see them (initials for juniors without consent). A fixed number of
queries whatever the number of games (tests/web/test_cpi_pages.py counts them).
"""

from __future__ import annotations

from typing import Any

import chess
import chess.svg
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from clubrating.club.coach import cpi_brief, exercises_for
from clubrating.club.cpi import cpi_summary
from clubrating.club.models import Member
from clubrating.cpi.registry import COUNTS
from clubrating.web import pages
from clubrating.web.access import ClubAccess, club_view
from clubrating.web.cpi_charts import cpi_line, delta_bars, factor_bars

RECENT_GAMES = 20      # ours: the ΔCPI chart and table show the latest 20 analysed games
BOARD_PIXELS = 280     # ours: two boards side by side on a 60rem page
COACH_GAMES = 20       # ours: the page's exercises come from the latest 20 games (the CLI looks at 40)


def board_svg(fen: str, side_to_move: str) -> str:
    """The exercise's position from the mover's side, inline SVG (python-chess ``chess.svg``)."""
    orientation = chess.WHITE if side_to_move == "white" else chess.BLACK
    return chess.svg.board(chess.Board(fen), orientation=orientation, size=BOARD_PIXELS, coordinates=True)


def player_cpi(access: ClubAccess, member: Member) -> dict[str, Any] | None:
    """The short CPI block of the player page: current CPI, games analysed, weakest factor and
    the dashboard's address; None before the first analysed game. Two queries."""
    brief = cpi_brief(member, access.club)
    if brief is None:
        return None
    return {**brief, "url": f"{access.base}p/{member.id}/cpi/"}


def _recent(access: ClubAccess, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The latest games, oldest first, opponents named as this viewer may see them (one query)."""
    flags = pages.member_flags(row["opponent_member_id"] for row in rows)
    recent = []
    for row in reversed(rows):
        oid = row["opponent_member_id"]
        if oid in flags:
            oname, junior, consent = flags[oid]
            opponent = access.name(oname, junior=junior, consent=consent, member_id=oid)
        else:
            opponent = access.name(row["opponent"], junior=True)
        recent.append({**row, "opponent": opponent, "delta_text": f"{row['delta']:+.1f}",
                       "cpi_text": f"{row['cpi_after']:.1f}"})
    return recent


def dashboard(access: ClubAccess, member: Member) -> dict[str, Any]:
    """Everything the dashboard shows, as plain values and SVG text."""
    member.club = access.club          # the same club, already read: saves the weights' query
    summary = cpi_summary(member, last=RECENT_GAMES)
    coach = exercises_for(member, recent=COACH_GAMES)
    name = access.name(member.name, junior=member.junior, consent=member.full_name_consent, member_id=member.id)
    recent = _recent(access, summary["last_games"])
    averages = coach["averages"]
    rows = [{"factor": n, **a, "average_text": _figure(n, a["average"]), "club_text": _figure(n, a["club_average"])}
            for n, a in averages.items()]
    exercises = [{**e, "board": board_svg(e["fen"], e["side_to_move"])} for e in coach["exercises"]]
    return {
        "member": member, "name": name, "cpi": summary["cpi"], "games": summary["games"],
        "strength": summary["strength"],
        "weakest": coach["weakest"], "factor": coach["factor"], "factor_label": coach["label"],
        "games_coached": coach["games_coached"], "factor_rows": rows, "recent": list(reversed(recent)),
        "exercises": exercises,
        "cpi_chart": cpi_line(summary["chart"], start=access.club.cpi_start, title=f"CPI of {name}"),
        "factor_chart": factor_bars(averages, title=f"Factor averages of {name} and the club")
        if summary["games"] else "",
        "delta_chart": delta_bars([(f"{r['date'].isoformat()} vs {r['opponent']}", r["delta"]) for r in recent],
                                  title=f"ΔCPI of the latest games of {name}"),
    }


def _figure(name: str, value: float | None) -> str:
    if value is None:
        return "not available"
    return f"{value:.2f} a game" if name in COUNTS else f"{value:.0%}"


@require_safe
@club_view
def cpi_dashboard(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = pages.member_or_redirect(access, member_id, "cpi/")
    if isinstance(member, HttpResponse):
        return member
    return render(request, "web/cpi/dashboard.html",
                  {"access": access, "club": access.club, "base": access.base, **dashboard(access, member)})
