"""``clubrating demo``: parses the options, builds the demo club (:mod:`clubrating.demo.build`)
and prints what it holds."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.commands.output import (
    examples,
    open_database,
    option,
    print_json,
    verb_help,
    wants_json,
    whole,
)
from clubrating.djangoenv import gettext, ngettext
from clubrating.demo.build import (
    ANALYSIS_NODES,
    PLAY_NODES,
    WITH_MOVES,
    DemoSettings,
    build_atomically,
)
from clubrating import djangoenv


def build(settings: DemoSettings) -> dict[str, Any]:
    """The demo club stored by the simulated arbiter. Its module imports the club app: here,
    once :func:`build_atomically` has set Django up on the demo's database (a new SQLite file
    is built under a name of its own), which the command line cannot do before (``django=False``
    in clubrating.commands)."""
    from clubrating.demo.arbiter import build_demo

    return build_demo(settings)


def cmd_demo(args: argparse.Namespace) -> int:
    settings = DemoSettings(
        seed=args.seed,
        seasons=args.seasons,
        members=args.members,
        with_moves=args.with_moves,
        play_nodes=args.play_nodes,
        nodes=args.nodes,
        jobs=args.jobs,
        engine=option(args, "engine", "CLUBRATING_ENGINE"),
        book=option(args, "book", "CLUBRATING_BOOK"),
    )
    url = option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL)
    summary = build_atomically(settings, url, lambda: open_database(args), build)
    if wants_json(args):
        print_json(summary)
    else:
        print(summary_line(summary))
        print(
            gettext("arbiter login (demo only): %(username)s / %(password)s") % summary["arbiter"]
        )
    return 0


def summary_line(summary: dict[str, Any]) -> str:
    """What the demo club holds, in one line in the command's language (each count with its
    noun)."""
    members, tournaments, games = summary["members"], summary["tournaments"], summary["games"]
    corrections, merges = summary["corrections"], summary["merges"]
    return gettext(
        "demo club '%(club)s': %(members)s, %(tournaments)s (%(first)s to %(last)s), %(games)s "
        "(%(with_moves)s with moves, %(analysed)s analysed), %(corrections)s, %(merges)s; "
        "built in %(seconds)s s"
    ) % {
        "club": summary["club"],
        "first": summary["first_date"],
        "last": summary["last_date"],
        "members": ngettext("%(count)s member", "%(count)s members", members) % {"count": members},
        "tournaments": ngettext("%(count)s tournament", "%(count)s tournaments", tournaments)
        % {"count": tournaments},
        "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
        "with_moves": summary["games_with_moves"],
        "analysed": summary["analysis"]["games"],
        "corrections": ngettext(
            "%(count)s corrected result", "%(count)s corrected results", corrections
        )
        % {"count": corrections},
        "merges": ngettext("%(count)s merge", "%(count)s merges", merges) % {"count": merges},
        "seconds": f"{summary['seconds']['total']:.0f}",
    }


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "demo",
        parents=[common],
        help=verb_help("demo"),
        description=gettext(
            "Build a realistic demo club: several seasons of weekly Swiss evenings up "
            "to the latest Tuesday, late joiners, byes, forfeits, a bughouse night, "
            "misspelled names, a corrected result, a merge. The last evenings are "
            "played by Stockfish at each member's strength, with clocks, and analysed, "
            "so the CPI pages have data. All or nothing: a failure leaves no club."
        ),
        epilog=examples(
            "clubrating --database sqlite:///demo.sqlite3 demo --seasons 3 --with-moves 4"
        ),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=2026,
        help=gettext(
            "the simulator's seed: the same seed builds the same club (default %(default)s)"
        ),
    )
    p.add_argument(
        "--seasons",
        type=whole(1, 50),
        default=3,
        help=gettext("seasons of weekly evenings (1-50, default %(default)s)"),
    )
    p.add_argument(
        "--members",
        type=whole(8, 5000),
        default=40,
        help=gettext("members at the start (8-5000, default 40)"),
    )
    p.add_argument(
        "--with-moves",
        type=whole(0, 30),
        default=WITH_MOVES,
        metavar="EVENINGS",
        help=gettext(
            "the last EVENINGS chess evenings are played by the engine (0-30, default %(evenings)s)"
        )
        % {"evenings": WITH_MOVES},
    )
    p.add_argument(
        "--play-nodes",
        type=whole(1, 1_000_000),
        default=PLAY_NODES,
        metavar="N",
        help=gettext("engine nodes per move of the players (default %(nodes)s)")
        % {"nodes": f"{PLAY_NODES:,}"},
    )
    p.add_argument(
        "--nodes",
        type=whole(1, 10_000_000),
        default=ANALYSIS_NODES,
        help=gettext("engine nodes per position of the analysis (default %(nodes)s)")
        % {"nodes": f"{ANALYSIS_NODES:,}"},
    )
    p.add_argument(
        "--jobs",
        type=whole(1, 64),
        default=None,
        help=gettext("engine processes (default $CLUBRATING_JOBS or the number of cores)"),
    )
    p.set_defaults(handler=cmd_demo)
