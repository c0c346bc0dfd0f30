"""What the verbs print and parse alike, below :mod:`clubrating.cli` and every command module
(so that no command imports the ``clubrating`` shell back): the argparse types of whole numbers
and seconds, the engine options' bounds, a verb's examples, the global options, one JSON
document on stdout and the database opened."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from clubrating import djangoenv
from clubrating.commands import BY_NAME
from clubrating.djangoenv import gettext


def verb_help(name: str) -> str:
    """The verb ``name``'s line of ``clubrating --help``, in the command's language: written once,
    in the verbs' table (:data:`clubrating.commands.VERBS`), which the verb's parser and the
    help of every verb read."""
    verb = BY_NAME[name]
    return gettext(verb.help) % dict(verb.words)


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; anything else is a usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                gettext("%(text)s is not a whole number") % {"text": repr(text)}
            ) from None
        if value < low or (high is not None and value > high):
            wanted = (
                gettext("%(value)s is out of range: expected at least %(low)s")
                if high is None
                else gettext("%(value)s is out of range: expected from %(low)s to %(high)s")
            )
            raise argparse.ArgumentTypeError(wanted % {"value": value, "low": low, "high": high})
        return value

    return parse


def seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` (excluded) to ``high``; NaN, infinities
    and anything else are a usage error (a worker told to wait inf or -1 seconds hangs or dies)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                gettext("%(text)s is not a number") % {"text": repr(text)}
            ) from None
        if not low < value <= high:  # NaN compares false
            raise argparse.ArgumentTypeError(
                gettext(
                    "%(value)s is out of range: expected more than %(low)s and at most %(high)s"
                )
                % {"value": text, "low": low, "high": high}
            )
        return value

    return parse


# What an engine option may ask (the demo's bounds): more nodes a position would take hours a
# game; more processes than this no machine of a club has cores for.
MAX_NODES = 10_000_000
MAX_JOBS = 64


def examples(commands: str) -> str:
    """A verb's epilog: its example command line(s), ``; ``-separated, after "Example:" or
    "Examples:" in the command's language."""
    several = "; " in commands
    return (gettext("Examples: %(commands)s") if several else gettext("Example: %(commands)s")) % {
        "commands": commands
    }


def option(args: argparse.Namespace, name: str, env: str | None = None, default: Any = None) -> Any:
    """A global option: from the command line, else the environment, else the default."""
    value = getattr(args, name, None)
    if value is None and env is not None:
        value = os.environ.get(env) or None
    return default if value is None else value


def wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False))


def print_json(document: Any) -> None:
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def open_database(args: argparse.Namespace, *, must_exist: bool = False) -> None:
    """Start Django on the chosen database and bring its schema up to date; ``must_exist``: a
    database file that is not there is an error, not created (every command but ``init``)."""

    djangoenv.setup(
        option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL),
        migrate=True,
        must_exist=must_exist,
    )
