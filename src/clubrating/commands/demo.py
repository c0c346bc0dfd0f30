"""``clubrating demo``: parses the options, builds the demo club (:mod:`clubrating.demo.build`)
and prints what it holds."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.cli import examples, option, print_json, wants_json, whole
from clubrating.djangoenv import gettext
from clubrating.commands.club import open_database
from clubrating.demo.build import ANALYSIS_NODES, PLAY_NODES, WITH_MOVES, DemoSettings, build_atomically
from clubrating.words import plural


def cmd_demo(args: argparse.Namespace) -> int:
    from clubrating import djangoenv

    settings = DemoSettings(seed=args.seed, seasons=args.seasons, members=args.members,
                            with_moves=args.with_moves, play_nodes=args.play_nodes, nodes=args.nodes,
                            jobs=args.jobs, engine=option(args, "engine", "CLUBRATING_ENGINE"),
                            book=option(args, "book", "CLUBRATING_BOOK"))
    url = option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL)
    summary = build_atomically(settings, url, lambda: open_database(args))
    if wants_json(args):
        print_json(summary)
    else:
        print(f"demo club '{summary['club']}': {plural(summary['members'], 'member')}, "
              f"{plural(summary['tournaments'], 'tournament')} "
              f"({summary['first_date']} to {summary['last_date']}), {plural(summary['games'], 'game')} "
              f"({summary['games_with_moves']} with moves, {summary['analysis']['games']} analysed), "
              f"{plural(summary['corrections'], 'corrected result')}, {plural(summary['merges'], 'merge')}; "
              f"built in {summary['seconds']['total']:.0f} s")
        print(f"arbiter login (demo only): {summary['arbiter']['username']} / {summary['arbiter']['password']}")
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "demo", parents=[common], help=gettext("build a demo club with the seeded simulator"),
        description=gettext("Build a realistic demo club: several seasons of weekly Swiss evenings up to the latest "
                            "Tuesday, late joiners, byes, forfeits, a bughouse night, misspelled names, a corrected "
                            "result, a merge. The last evenings are played by Stockfish at each member's strength, with "
                            "clocks, and analysed, so the CPI pages have data. All or nothing: a failure leaves no club."),
        epilog=examples("clubrating --database sqlite:///demo.sqlite3 demo --seasons 3 --with-moves 4"))
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--seasons", type=whole(1, 50), default=3)
    p.add_argument("--members", type=whole(8, 5000), default=40,
                   help=gettext("members at the start (8-5000, default 40)"))
    p.add_argument("--with-moves", type=whole(0, 30), default=WITH_MOVES, metavar="EVENINGS",
                   help=gettext("the last EVENINGS chess evenings are played by the engine (0-30, default %(evenings)s)")
                   % {"evenings": WITH_MOVES})
    p.add_argument("--play-nodes", type=whole(1, 1_000_000), default=PLAY_NODES, metavar="N",
                   help=gettext("engine nodes per move of the players (default %(nodes)s)")
                   % {"nodes": f"{PLAY_NODES:,}"})
    p.add_argument("--nodes", type=whole(1, 10_000_000), default=ANALYSIS_NODES,
                   help=gettext("engine nodes per position of the analysis (default %(nodes)s)")
                   % {"nodes": f"{ANALYSIS_NODES:,}"})
    p.add_argument("--jobs", type=whole(1, 64), default=None,
                   help=gettext("engine processes (default $CLUBRATING_JOBS or the number of cores)"))
    p.set_defaults(handler=cmd_demo)
