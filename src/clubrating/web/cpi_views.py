"""The player's CPI dashboard (C6 of docs/rules.md, for players and coaches): the CPI over time, the
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
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubrating.club.derived.coach import cpi_brief, exercises_for
from clubrating.club.derived.ledger import (
    MIN_GAMES_FOR_STRENGTH,
    MIN_MOVES_FOR_STRENGTH,
    club_weights,
    cpi_summary,
)
from clubrating.club.store.models import Member
from clubrating.cpi.coach import Hint
from clubrating.cpi.index import cpi_per_point
from clubrating.cpi.registry import BY_NAME, COUNTS
from clubrating.cpi.weights import Weights
from clubrating.web import pages
from clubrating.web.access import ClubAccess, club_view
from clubrating.web.cpi_charts import cpi_line, delta_bars, factor_bars
from clubrating.web.links import game_href
from clubrating.web.reading import figure, score, shown_san

RECENT_GAMES = 20  # ours: the ΔCPI chart and table show the latest 20 analysed games
BOARD_PIXELS = 280  # ours: two boards side by side on a 60rem page
COACH_GAMES = 20  # ours: the page's exercises come from the latest 20 games (the CLI looks at 40)


def board_svg(fen: str, side_to_move: str) -> str:
    """The exercise's position from the mover's side, inline SVG (python-chess ``chess.svg``)."""
    orientation = chess.WHITE if side_to_move == "white" else chess.BLACK
    return chess.svg.board(
        chess.Board(fen), orientation=orientation, size=BOARD_PIXELS, coordinates=True
    )


def player_cpi(access: ClubAccess, member: Member) -> dict[str, Any] | None:
    """The short CPI block of the player page: current CPI, games analysed, weakest factor and
    the dashboard's address; None before the first analysed game. Two queries."""
    brief = cpi_brief(member, access.club)
    if brief is None:
        return None
    weakest = brief["weakest"] and {**brief["weakest"], "label": _(brief["weakest"]["label"])}
    return {**brief, "weakest": weakest, "url": f"{access.base}p/{member.id}/cpi/"}


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
        recent.append(
            {
                **row,
                "opponent": opponent,
                "delta_text": figure(row["delta"], "+.1f"),
                "before_text": figure(row["cpi_before"], ".1f"),
                "cpi_text": figure(row["cpi_after"], ".1f"),
                "result_part": figure(row["contributions"]["result"], "+.1f"),
            }
        )
    return recent


def dashboard(access: ClubAccess, member: Member) -> dict[str, Any]:
    """Everything the dashboard shows, as plain values and SVG text."""
    member.club = access.club  # the same club, already read: saves the weights' query
    weights = club_weights(access.club)
    summary = cpi_summary(member, last=RECENT_GAMES)
    coach = exercises_for(member, recent=COACH_GAMES)
    name = access.name(
        member.name, junior=member.junior, consent=member.full_name_consent, member_id=member.id
    )
    recent = [
        {
            **r,
            "href": game_href(
                access.base, r["game_id"], r["tournament_id"], has_moves=r["has_moves"]
            ),
        }
        for r in _recent(access, summary["last_games"])
    ]
    costs = (coach["weakest"] or {}).get("costs", {})
    rows = [factor_row(n, a, costs.get(n)) for n, a in coach["averages"].items()]
    exercises = [
        {
            **e,
            "board": board_svg(e["fen"], e["side_to_move"]),
            "task": _task(e["factor"], e["side_to_move"]),
            "hint": _hint(e["hint"]),
            "best_score": e.get("best_score") and _hint(e["best_score"]),
            "best": e.get("best") and shown_san(e["fen"], e["best"]),
            "played": shown_san(e["fen"], e["played"]),
            "href": game_href(
                access.base,
                e["game_id"],
                e["tournament_id"],
                has_moves=e["has_moves"],
                ply=e["ply"] - 1,
            ),
        }  # the board before the move to find
        for e in coach["exercises"]
    ]
    windowed = weights.model.windowed
    return {
        "member": member,
        "name": name,
        "cpi": summary["cpi"],
        "games": summary["games"],
        "strength": summary["strength"],
        "depth": depth_notice(summary["strength"]),
        "running": not windowed,
        "tracking": weights.model.tracking,
        "start": weights.model.start,
        "k": f"{weights.model.k:g}",
        "min_games": MIN_GAMES_FOR_STRENGTH,
        "min_moves": MIN_MOVES_FOR_STRENGTH,
        "result_words": result_words(weights),
        "weakest": coach["weakest"],
        "factor": coach["factor"],
        "factor_label": coach["label"] and _(coach["label"]),
        "weakest_row": next(
            (r for r in rows if coach["weakest"] and r["factor"] == coach["weakest"]["factor"]),
            None,
        ),
        "games_coached": coach["games_coached"],
        "factor_rows": rows,
        "recent": list(reversed(recent)),
        "exercises": exercises,
        "cpi_chart": cpi_line(
            summary["chart"], title=_("CPI of %(name)s after each analysed game") % {"name": name}
        ),
        "factor_chart": factor_bars(
            coach["averages"], title=_("Factor averages of %(name)s and the club") % {"name": name}
        )
        if summary["games"]
        else "",
        "delta_chart": delta_bars(
            [
                (
                    _("%(date)s vs %(opponent)s")
                    % {"date": r["date"].isoformat(), "opponent": r["opponent"]},
                    r["delta"],
                )
                for r in recent
            ],
            title=_("ΔCPI of the latest games of %(name)s") % {"name": name},
        ),
    }


def result_words(weights: Weights) -> str:
    """What the result adds to a game's ΔCPI, "+10 for a win, +5 for a draw, +0 for a loss"
    (spec C1's R; under fitted settings R times k/β once the CPI has settled: never below 0)."""
    unit = cpi_per_point(weights)
    figures = {
        key: f"{round(unit * value, 1):+g}"
        for key, value in (
            ("win", weights.result.win),
            ("draw", weights.result.draw),
            ("loss", weights.result.loss),
        )
    }
    return _("%(win)s for a win, %(draw)s for a draw, %(loss)s for a loss") % figures


def depth_notice(strength: dict[str, Any] | None) -> dict[str, Any] | None:
    """The engine's nodes the preset was fitted at beside those the window's games were
    analysed at, in the page's number format; None without both (docs/cpi.md, "The engine's
    depth")."""
    if not strength or strength.get("fitted_nodes") is None or not strength.get("nodes"):
        return None
    fitted, nodes = strength["fitted_nodes"], strength["nodes"]
    return {
        "fitted": number_format(fitted, force_grouping=True),
        "same": nodes == [fitted],
        "nodes": ", ".join(number_format(n, force_grouping=True) for n in nodes),
        "deeper": min(nodes) > fitted,
        "shallower": max(nodes) < fitted,
    }


def _hint(hint: str) -> str:
    """The coach's hint (cpi.coach.Hint: its N_ words and figures) in the page's language."""
    return _(hint.words) % hint.figures if isinstance(hint, Hint) else score(hint)


def _task(factor: str, side_to_move: str) -> str:
    """The exercise's task as cpi.coach.Exercise.task words it, in the page's language."""
    if factor == "T":
        return (
            _("White to move: take your time here")
            if side_to_move == "white"
            else _("Black to move: take your time here")
        )
    return (
        _("Find the best move for White")
        if side_to_move == "white"
        else _("Find the best move for Black")
    )


def factor_row(name: str, figures: dict[str, Any], cost: float | None) -> dict[str, Any]:
    """A factor of the table: its figures, what it means and which way is better (the
    registry's words), how it compares with the club's average in words right whichever way
    the factor points, and what it costs the player in ΔCPI a game against a perfect score
    (``cost``: :func:`clubrating.club.derived.ledger.weakest_of`'s, the rule that names the weakest
    factor; None for a factor that is no weakness or was never measured)."""
    spec = BY_NAME[name]
    mine, club = figures["average"], figures["club_average"]
    comparison = _comparison(spec.higher_is_better, mine, club, name)
    label = _(figures["label"])  # the registry's words (N_), in the page's language
    return {
        "factor": name,
        **figures,
        "label": label,
        "means": _(spec.means),
        "short_label": label.split(" (")[0],
        "better": _better(spec.higher_is_better),
        "average_text": _figure(name, mine),
        "club_text": _figure(name, club),
        "against": _against(comparison),
        "cost": cost,
        "drill": spec.drill,
        "cell": _cell(comparison),
        "cost_text": "" if cost is None else figure(cost, ".1f"),
    }


def _better(higher_is_better: bool | None) -> str:
    return {
        True: _("more is better"),
        False: _("fewer is better"),
        None: _("neither good nor bad by itself"),
    }[higher_is_better]


def _comparison(
    higher_is_better: bool | None, mine: float | None, club: float | None, name: str
) -> str:
    """ "better", "worse", "above", "below" or "same" (as shown, rounded); "" without figures."""
    if mine is None or club is None:
        return ""
    if _figure(name, mine) == _figure(name, club):
        return "same"
    above = mine > club
    if higher_is_better is None:
        return "above" if above else "below"
    return "better" if above == higher_is_better else "worse"


def _against(comparison: str) -> str:
    """ "better than the club", "worse than the club", "the same as the club", ..."""
    return {
        "": "",
        "same": _("the same as the club"),
        "above": _("above the club"),
        "below": _("below the club"),
        "better": _("better than the club"),
        "worse": _("worse than the club"),
    }[comparison]


def _cell(comparison: str) -> str:
    """The table's short form, under "Against the club": "worse", "the same", ..."""
    return {
        "": "",
        "same": _("the same"),
        "above": _("above"),
        "below": _("below"),
        "better": _("better"),
        "worse": _("worse"),
    }[comparison]


def _figure(name: str, value: float | None) -> str:
    if value is None:
        return _("not available")
    return (
        _("%(count)s a game") % {"count": figure(value, ".2f")}
        if name in COUNTS
        else f"{value:.0%}"
    )


@require_safe
@club_view
def cpi_dashboard(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = pages.member_or_redirect(access, member_id, "cpi/")
    if isinstance(member, HttpResponse):
        return member
    return render(
        request,
        "web/cpi/dashboard.html",
        {"access": access, "club": access.club, "base": access.base, **dashboard(access, member)},
    )
