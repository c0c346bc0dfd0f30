"""``clubrating demo``: a realistic demo club built with the seeded simulator.

The simulated arbiter does what a real one does: imports each evening,
confirms which typed name is which member (it knows the truth behind every
misspelling), publishes, corrects one result weeks later, and once links a
misspelled name to a new member by mistake and merges it afterwards (R12).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clubrating.cli import print_json, wants_json, whole
from clubrating.commands.club import open_database
from clubrating.errors import Refused

DEMO_SLUG = "demo"
DEMO_ARBITER = ("arbiter", "demo-arbiter-password")
WHO = "demo:arbiter"


def _link_evening(tournament: Any, true_name: dict[str, str], juniors: frozenset[str],
                  duplicate: dict[str, Any]) -> None:
    """Confirm every name of the evening, as the arbiter would after reading the proposals."""
    from clubrating.club import services
    from clubrating.club.models import Entry, Member

    for entry in Entry.objects.filter(tournament=tournament, member=None).order_by("number"):
        real = true_name.get(entry.name, entry.name)
        if entry.name != real and not duplicate:
            # The careless Tuesday: a misspelling made into a new member (merged later).
            services.new_member(entry, who=WHO, junior=real in juniors)
            duplicate["member"] = entry.member
            duplicate["real"] = real
            continue
        member = Member.objects.filter(club=tournament.club, name=real, merged_into=None).first()
        if member is None:
            services.new_member(entry, who=WHO, name=real, junior=real in juniors)
        else:
            services.link(entry, member, who=WHO)


def build_demo(seed: int, seasons: int, members: int) -> dict[str, Any]:
    from clubrating.club import services
    from clubrating.club.models import Club, Game, Member, Visibility
    from clubrating.simulate import simulate_club
    from clubrating.web.accounts import add_arbiter

    if Club.objects.filter(slug=DEMO_SLUG).exists():
        raise Refused("this database holds a demo club already")
    simulated = simulate_club(seed, seasons=seasons, members=members)
    club = services.create_club("Demo Chess Club", who=WHO, slug=DEMO_SLUG)
    services.set_privacy(club, who=WHO, visibility=Visibility.PUBLIC)
    published: list[Any] = []
    duplicate: dict[Any, Any] = {}
    for record in simulated.tournaments:
        has_juniors = any(simulated.true_name.get(p.name) in simulated.juniors for p in record.players)
        tournament = services.import_tournament(club, record, who=WHO, has_juniors=has_juniors)
        _link_evening(tournament, simulated.true_name, simulated.juniors, duplicate)
        services.publish(tournament, who=WHO)
        published.append(tournament)
        if sys.stderr.isatty():
            print(f"\rdemo: published {len(published)}/{len(simulated.tournaments)} evenings", end="",
                  file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    for fix in simulated.corrections:
        tournament = published[fix.tournament]
        game = Game.objects.get(tournament=tournament, round=fix.round, white__name=fix.white, black__name=fix.black)
        result = {(2, 0): "1-0", (0, 2): "0-1", (1, 1): "1/2-1/2"}[(fix.white_points, fix.black_points)]
        services.correct_result(game, result, who=WHO)
    if duplicate:
        real = Member.objects.get(club=club, name=duplicate["real"], merged_into=None)
        services.merge(duplicate["member"], real, who=WHO)
    add_arbiter(club, DEMO_ARBITER[0], DEMO_ARBITER[1], who=WHO)
    return {"club": club.slug, "tournaments": len(published),
            "members": Member.objects.filter(club=club, merged_into=None).count(),
            "games": Game.objects.filter(tournament__club=club).count(),
            "corrections": len(simulated.corrections), "merges": 1 if duplicate else 0,
            "arbiter": {"username": DEMO_ARBITER[0], "password": DEMO_ARBITER[1]}}


def cmd_demo(args: argparse.Namespace) -> int:
    open_database(args)
    summary = build_demo(args.seed, args.seasons, args.members)
    if wants_json(args):
        print_json(summary)
    else:
        print(f"demo club '{summary['club']}': {summary['members']} members, {summary['tournaments']} tournaments, "
              f"{summary['games']} games, {summary['corrections']} corrected result, {summary['merges']} merge")
        print(f"arbiter login (demo only): {summary['arbiter']['username']} / {summary['arbiter']['password']}")
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "demo", parents=[common], help="build a demo club with the seeded simulator",
        description="Build a realistic demo club: several seasons of weekly Swiss evenings, late joiners, byes, "
                    "forfeits, a bughouse night, misspelled names, a corrected result, a merge.",
        epilog="Example: clubrating --database sqlite:///demo.sqlite3 demo --seasons 3")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--seasons", type=whole(1, 50), default=3)
    p.add_argument("--members", type=whole(8, 5000), default=40, help="members at the start (8-5000, default 40)")
    p.set_defaults(handler=cmd_demo)
