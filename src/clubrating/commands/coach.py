"""``clubrating coach PLAYER``: Coach by CPI (spec C6) — the member's weakest factor and
exercises from their own games. A thin translation of :mod:`clubrating.club.derived.coach`."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.club.read.members import get_member
from clubrating.commands.output import examples, print_json, verb_help, wants_json
from clubrating.djangoenv import gettext, language, ngettext
from clubrating.commands.club import the_club
from clubrating.cpi.coach import DEFAULT_LIMIT, FACTORS, Hint
from clubrating.cpi.registry import COUNTS
from clubrating.formats.movetext import shown_move
from clubrating.club.derived.coach import exercises_for

SOLUTION_FIELDS = ("played", "played_uci", "best", "best_uci", "best_score")


def _figure(value: float | None, factor: str) -> str:
    if value is None:
        return gettext("not available")
    if factor in COUNTS:
        return gettext("%(count)s a game") % {"count": f"{value:.2f}"}
    return gettext("%(percent)s %%") % {"percent": f"{100 * value:.0f}"}


def _said(text: str | None) -> str:
    """A hint or a score of the coach (cpi.coach.Hint: its N_ words and figures) in the command's
    language."""
    return gettext(text.words) % text.figures if isinstance(text, Hint) else text or ""


def _task(factor: str, side_to_move: str) -> str:
    """The exercise's task as cpi.coach.Exercise.task words it (the same texts as the web's)."""
    if factor == "T":
        return (
            gettext("White to move: take your time here")
            if side_to_move == "white"
            else gettext("Black to move: take your time here")
        )
    return (
        gettext("Find the best move for White")
        if side_to_move == "white"
        else gettext("Find the best move for Black")
    )


def _weakest_line(doc: dict[str, Any]) -> str:
    weakest = doc["weakest"]
    if weakest is None:
        return gettext("weakest factor: none yet (no analysed game)")
    name = weakest["factor"]
    return gettext(
        "weakest factor: %(factor)s, %(label)s: %(average)s "
        "(club %(club)s), costs %(cost)s ΔCPI a game"
    ) % {
        "factor": name,
        "label": gettext(weakest["label"]),
        "average": _figure(weakest["average"], name),
        "club": _figure(weakest["club_average"], name),
        "cost": f"{weakest['cost_per_game']:.1f}",
    }


def _print(doc: dict[str, Any], solutions: bool) -> None:
    print(
        ngettext(
            "%(name)s (member %(member)s): %(count)s analysed game",
            "%(name)s (member %(member)s): %(count)s analysed games",
            doc["games"],
        )
        % {"name": doc["name"], "member": doc["member_id"], "count": doc["games"]}
    )
    print("  " + _weakest_line(doc))
    if doc["factor"] is None:
        return
    exercises = doc["exercises"]
    figures = {
        "factor": doc["factor"],
        "label": gettext(doc["label"]),
        "count": doc["games_coached"],
        "found": len(exercises) or gettext("none found"),
    }
    print(
        ngettext(
            "Exercises for %(factor)s (%(label)s) from the latest %(count)s game: %(found)s",
            "Exercises for %(factor)s (%(label)s) from the latest %(count)s games: %(found)s",
            doc["games_coached"],
        )
        % figures
    )
    for number, e in enumerate(exercises, 1):
        print(
            gettext("%(number)s. %(tournament)s %(date)s, move %(move)s")
            % {
                "number": number,
                "tournament": e["tournament"],
                "date": e["date"] or "",
                "move": e["move_number"],
            }
        )
        print(f"   FEN: {e['fen']}")
        print(
            "   "
            + gettext("%(task)s. Hint: %(hint)s.")
            % {"task": _task(e["factor"], e["side_to_move"]), "hint": _said(e["hint"])}
        )
        if solutions:
            best = (
                gettext("%(move)s (%(score)s)")
                % {
                    "move": shown_move(e["fen"], e["best"], language()),
                    "score": _said(e["best_score"]),
                }
                if e["best"]
                else gettext("no engine line")
            )
            print(
                "   "
                + gettext("Solution: %(best)s; played %(played)s")
                % {"best": best, "played": shown_move(e["fen"], e["played"], language())}
            )


def cmd_coach(args: argparse.Namespace) -> int:
    club = the_club(args)

    doc = exercises_for(get_member(club, args.member), limit=args.limit, factor=args.factor)
    if not args.solutions:
        doc["exercises"] = [
            {k: v for k, v in e.items() if k not in SOLUTION_FIELDS} for e in doc["exercises"]
        ]
    if wants_json(args):
        print_json(doc)
    else:
        _print(doc, args.solutions)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "coach",
        parents=[common],
        help=verb_help("coach"),
        description=gettext(
            "Coach by CPI (spec C6): the factor that costs the member the most ΔCPI a game, beside "
            "the club's average, and positions from the member's latest analysed games where they "
            "went wrong in it (FEN, side to move, a hint; the solution with --solutions)."
        ),
        epilog=examples("clubrating coach 'Anna Berg' --factor M2 --limit 5 --solutions"),
    )
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))
    p.add_argument(
        "--club", metavar="SLUG", help=gettext("the club (needed when the database holds several)")
    )
    p.add_argument(
        "--factor",
        metavar="F",
        help=gettext("train this factor instead of the weakest: %(factors)s")
        % {"factors": ", ".join(FACTORS)},
    )
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=gettext("at most N exercises (default %(limit)s)") % {"limit": DEFAULT_LIMIT},
    )
    p.add_argument(
        "--solutions",
        action="store_true",
        help=gettext("show the engine's best move and the move played"),
    )
    p.set_defaults(handler=cmd_coach)
