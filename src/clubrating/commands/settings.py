"""``clubrating settings``: show the club's settings, or change them (``KEY=VALUE``).

A thin shell over :mod:`clubrating.club.services.club_settings`, whose
:data:`~clubrating.club.services.club_settings.SETTINGS` lists every setting.
"""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.commands.output import print_json, wants_json
from clubrating.commands.club import _add, report, the_club, who
from clubrating.djangoenv import gettext
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.club.services import club_settings


def cmd_settings(args: argparse.Namespace) -> int:
    club = the_club(args, write=bool(args.changes))

    if args.changes:
        texts: dict[str, str] = {}
        for word in args.changes:
            key, sep, value = word.partition("=")
            if not sep or not key.strip():
                raise InputError(N_("%(word)s: expected KEY=VALUE, e.g. k-new=30"), word=repr(word))
            texts[key] = value
        outcome = club_settings.change_settings(
            club, club_settings.parse_settings(texts), who=who()
        )
        report(outcome, args, settings=club_settings.current_settings(outcome_club(club)))
        return 0
    values = club_settings.current_settings(club)
    if wants_json(args):
        print_json({"club": club.slug, "settings": values})
        return 0
    print(f"{club.name} ({club.slug})")
    for setting in club_settings.SETTINGS:
        print(f"  {setting.key + '=' + _shown(values[setting.key]):<24} {gettext(setting.help)}")
    print(
        gettext(
            "change with: clubrating settings KEY=VALUE ... (e.g. clubrating settings k-new=30)"
        )
    )
    return 0


def outcome_club(club: Any) -> Any:
    club.refresh_from_db()
    return club


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "settings",
        cmd_settings,
        "clubrating settings start-rating=1500 k-new=30 k-established=15",
    )
    p.add_argument(
        "changes",
        nargs="*",
        metavar="KEY=VALUE",
        help=gettext("a setting to change (the keys: clubrating settings, without arguments)"),
    )
