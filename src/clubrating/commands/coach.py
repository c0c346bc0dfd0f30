"""``clubrating coach PLAYER``: Coach by CPI (spec C6) — the member's weakest factor and
exercises from their own games. A thin translation of :mod:`clubrating.club.coach`."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.cli import examples, print_json, wants_json
from clubrating.djangoenv import gettext
from clubrating.commands.club import the_club
from clubrating.cpi.coach import DEFAULT_LIMIT, FACTORS
from clubrating.cpi.registry import COUNTS
from clubrating.words import plural

SOLUTION_FIELDS = ("played", "played_uci", "best", "best_uci", "best_score")


def _figure(value: float | None, factor: str) -> str:
    if value is None:
        return "not available"
    return f"{value:.2f} a game" if factor in COUNTS else f"{value:.0%}"


def _print(doc: dict[str, Any], solutions: bool) -> None:
    print(f"{doc['name']} (member {doc['member_id']}): {doc['games']} analysed games")
    weakest = doc["weakest"]
    if weakest is None:
        print("  weakest factor: none yet (no analysed game)")
    else:
        print(f"  weakest factor: {weakest['factor']}, {weakest['label']}: "
              f"{_figure(weakest['average'], weakest['factor'])} "
              f"(club {_figure(weakest['club_average'], weakest['factor'])}), "
              f"costs {weakest['cost_per_game']:.1f} CPI a game")
    if doc["factor"] is None:
        return
    exercises = doc["exercises"]
    print(f"Exercises for {doc['factor']} ({doc['label']}) from the latest {plural(doc['games_coached'], 'game')}: "
          f"{len(exercises) or 'none found'}")
    for number, e in enumerate(exercises, 1):
        print(f"{number}. {e['tournament']} {e['date'] or ''}, move {e['move_number']}".rstrip())
        print(f"   FEN: {e['fen']}")
        print(f"   {e['task']}. Hint: {e['hint']}.")
        if solutions:
            best = f"{e['best']} ({e['best_score']})" if e["best"] else "no engine line"
            print(f"   Solution: {best}; played {e['played']}")


def cmd_coach(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club.coach import exercises_for
    from clubrating.club.services import get_member

    doc = exercises_for(get_member(club, args.member), limit=args.limit, factor=args.factor)
    if not args.solutions:
        doc["exercises"] = [{k: v for k, v in e.items() if k not in SOLUTION_FIELDS} for e in doc["exercises"]]
    if wants_json(args):
        print_json(doc)
    else:
        _print(doc, args.solutions)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "coach", parents=[common], help=gettext("a member's weakest CPI factor and exercises from their own games"),
        description=gettext("Coach by CPI (spec C6): the factor that costs the member the most CPI a game, beside "
                            "the club's average, and positions from the member's latest analysed games where they "
                            "went wrong in it (FEN, side to move, a hint; the solution with --solutions)."),
        epilog=examples("clubrating coach 'Anna Berg' --factor M2 --limit 5 --solutions"))
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))
    p.add_argument("--club", metavar="SLUG", help=gettext("the club (needed when the database holds several)"))
    p.add_argument("--factor", metavar="F", help=gettext("train this factor instead of the weakest: %(factors)s")
                   % {"factors": ", ".join(FACTORS)})
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                   help=gettext("at most N exercises (default %(limit)s)") % {"limit": DEFAULT_LIMIT})
    p.add_argument("--solutions", action="store_true", help=gettext("show the engine's best move and the move played"))
    p.set_defaults(handler=cmd_coach)
