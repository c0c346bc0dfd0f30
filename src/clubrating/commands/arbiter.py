"""``clubrating arbiter``: the logins that may work on a club's website."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from clubrating import djangoenv
from clubrating.djangoenv import gettext
from clubrating.commands.output import examples, print_json, verb_help, wants_json
from clubrating.commands.club import report, the_club, who
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.club.services import accounts


def _password(args: argparse.Namespace, *, is_new: bool) -> str | None:
    """The password from stdin's first line (--password-stdin), else asked on the terminal (not
    echoed, twice); None: keep an existing login's password. No terminal and no --password-stdin:
    None, and a new login is refused in one line (accounts.add_arbiter)."""
    if args.password_stdin:
        try:  # bytes that are no UTF-8: refused by a strict stdin, escaped by a surrogateescape one
            line = sys.stdin.readline().rstrip("\r\n")
            line.encode("utf-8")
        except UnicodeError:
            raise InputError(
                N_("--password-stdin: the first line of standard input is not UTF-8 text")
            ) from None
        if not line:
            raise InputError(N_("--password-stdin: the first line of standard input is empty"))
        return line
    if not sys.stdin.isatty():
        return None
    prompt = (
        f"Password for the new login {args.username}: "
        if is_new
        else f"New password for {args.username} (empty: keep the current one): "
    )
    first = getpass.getpass(prompt)
    if not first:
        if is_new:
            raise InputError(
                N_("%(username)s is a new login: it needs a password"), username=repr(args.username)
            )
        return None
    if getpass.getpass("The same password again: ") != first:
        raise InputError(N_("the two passwords differ: nothing changed"))
    return first


def cmd_arbiter(args: argparse.Namespace) -> int:
    club = the_club(args)

    if args.action == "list":
        names = accounts.arbiters(club)
        if wants_json(args):
            print_json({"club": club.slug, "arbiters": names})
        else:
            print(
                "\n".join(names)
                if names
                else gettext("%(club)s has no arbiter login yet") % {"club": club.name}
            )
        return 0
    if not args.username:
        raise InputError(N_("'arbiter %(action)s' needs a login name"), action=args.action)
    if args.action == "reset":
        outcome, path = accounts.reset_link(club, args.username, who=who(), administrator=True)
        report(outcome, args, login=args.username, path=path)
        if not wants_json(args):
            print(gettext("the link: the website's address followed by %(path)s") % {"path": path})
        return 0
    if args.action == "add":
        password = _password(args, is_new=not accounts.login_exists(args.username))
        message = accounts.add_arbiter(club, args.username, password, who=who())
    else:
        message = accounts.remove_arbiter(club, args.username, who=who())
    if wants_json(args):
        print_json({"message": str(message), "club": club.slug, "login": args.username})
    else:
        print(message.translated(djangoenv))
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "arbiter",
        parents=[common],
        help=verb_help("arbiter"),
        description=gettext(
            "Manage who may log in to the website as an arbiter of a club. A login holds a name "
            "and a password, nothing more."
        ),
        epilog=examples(
            "echo 'long secret phrase' | clubrating arbiter add anna --club riverside "
            "--password-stdin; clubrating arbiter reset anna --club riverside"
        ),
    )
    p.add_argument(
        "action",
        choices=("add", "remove", "list", "reset"),
        help=gettext(
            "add a login, remove one, list the club's, or make a one-time link that resets a "
            "forgotten password"
        ),
    )
    p.add_argument("username", nargs="?", help=gettext("the login name"))
    p.add_argument("--club", help=gettext("the club's short name (default: the only club)"))
    p.add_argument(
        "--password-stdin",
        action="store_true",
        help=gettext("read the password from the first line of stdin"),
    )
    p.set_defaults(handler=cmd_arbiter)
