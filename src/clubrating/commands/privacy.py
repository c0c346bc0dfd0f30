"""``clubrating privacy``: who sees the club's pages and how its members' names are shown."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.club.services.clubs import set_privacy
from clubrating.commands.output import wants_json
from clubrating.djangoenv import gettext
from clubrating.commands.club import _add, report, the_club, who


def cmd_privacy(args: argparse.Namespace) -> int:
    club = the_club(args)

    outcome = set_privacy(
        club,
        who=who(),
        visibility=args.visibility,
        names=args.names,
        rotate_token=args.rotate_token,
    )
    # The address to share, as the website answers it (web/urls.py): an unlisted club only under its
    # token, a public one under its slug; an arbiter-only club has none (everyone else gets 404).
    link = {"unlisted": f"/u/{club.token}/", "public": f"/c/{club.slug}/"}.get(club.visibility)
    report(outcome, args, visibility=club.visibility, names=club.names, link=link)
    if not wants_json(args) and link is not None:
        print(gettext("link: %(link)s") % {"link": link})
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "privacy",
        cmd_privacy,
        "clubrating privacy --visibility unlisted --names initials",
    )
    p.add_argument(
        "--visibility",
        choices=("arbiter", "unlisted", "public"),
        help=gettext(
            "who sees the club page: only the arbiters, anyone with the unlisted link, or everyone"
        ),
    )
    p.add_argument(
        "--names",
        choices=("full", "initials"),
        help=gettext("how names are shown to those who are not arbiters: in full, or as initials"),
    )
    p.add_argument(
        "--rotate-token", action="store_true", help=gettext("give the unlisted link a new token")
    )
