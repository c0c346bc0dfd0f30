"""What the verbs on a club's database share (the database opened, the club found, who acts,
one report), and ``clubrating init``. The verbs sit by what they act on: :mod:`.tournaments`,
:mod:`.names` (names and members), :mod:`.history` and :mod:`.privacy`.

Every verb is a thin translation to :mod:`clubrating.club.services` (writes)
or :mod:`clubrating.club.read` (reads).
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Callable
from typing import Any, cast

from clubrating.club.read.clubs import find_club
from clubrating.club.services.clubs import create_club
from clubrating.commands.output import examples, open_database, print_json, verb_help, wants_json
from clubrating.djangoenv import gettext
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating import djangoenv
from django.db import transaction
from clubrating.club.store.audit import cli_user

Handler = Callable[[argparse.Namespace], int | None]


def the_club(args: argparse.Namespace, *, write: bool = True) -> Any:
    """The club the command is about; ``write``: the command changes the database, so a
    read-only one is refused at once, in one line naming the file and why; a database that
    does not exist is not created."""
    open_database(args, must_exist=True)

    if write:
        djangoenv.check_writable()

    return find_club(getattr(args, "club", None))


def one_transaction() -> Any:
    """The transaction of a command that writes in several steps (an import and its links, a
    list and its links, several players): a step refused undoes the steps before it, so the
    database is as it was (docs/operations.md, "All or nothing")."""

    return transaction.atomic()


def who() -> str:
    return cli_user()


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(
            N_("%(text)s is not a date: expected YYYY-MM-DD"), text=repr(text)
        ) from None


def report(outcome: Any, args: argparse.Namespace, **extra: Any) -> None:
    if wants_json(args):
        doc = {"message": str(outcome.message), **extra}
        if outcome.rebuild is not None:
            doc["rebuild"] = outcome.rebuild.as_dict()
        print_json(doc)
    else:
        print(outcome.translated(djangoenv))


def fmt_rating(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def fmt_change(value: float | None) -> str:
    return "" if value is None else f"{value:+.1f}"


def _add(
    subparsers: Any,
    common: argparse.ArgumentParser,
    name: str,
    handler: Handler,
    example: str,
) -> argparse.ArgumentParser:
    """``name``'s parser, its help and description the line of the verbs' table."""
    help = verb_help(name)
    parser = subparsers.add_parser(
        name, parents=[common], help=help, description=help, epilog=examples(example)
    )
    parser.add_argument(
        "--club", metavar="SLUG", help=gettext("the club (needed when the database holds several)")
    )
    parser.set_defaults(handler=handler)
    return cast(argparse.ArgumentParser, parser)


def cmd_init(args: argparse.Namespace) -> int:
    open_database(args)

    djangoenv.check_writable()

    club = create_club(
        args.name,
        who=who(),
        slug=args.slug,
        policy=args.policy,
        separate_lists=args.separate_lists,
        time_zone=args.time_zone or "",
    )
    if wants_json(args):
        print_json({"club": club.slug, "name": club.name, "policy": club.policy})
    else:
        print(
            gettext("created club '%(name)s' (%(slug)s), policy %(policy)s")
            % {"name": club.name, "slug": club.slug, "policy": club.policy}
        )
        print(
            gettext(
                "who can see it: %(visibility)s, once logged in to the website; "
                "to show it to others: clubrating privacy --visibility unlisted "
                "(anyone with the link) or --visibility public"
            )
            % {"visibility": str(club.get_visibility_display()).lower()}
        )
        print(
            gettext("add an arbiter: clubrating arbiter add LOGIN --club %(slug)s")
            % {"slug": club.slug}
        )
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "init",
        cmd_init,
        "clubrating init 'Riverside Chess Club'",
    )
    p.add_argument("name", help=gettext("the club's full name"))
    p.add_argument("--slug", help=gettext("short name used in links"))
    p.add_argument(
        "--policy",
        choices=("club", "fide"),
        default="club",
        help=gettext("rating rules: the club's (default) or FIDE's"),
    )
    p.add_argument(
        "--separate-lists", action="store_true", help=gettext("one rating list per time control")
    )
    p.add_argument(
        "--time-zone",
        metavar="ZONE",
        help=gettext(
            "the club's time zone, an IANA name such as Asia/Yerevan (default: the server's)"
        ),
    )
