"""``clubrating seed-ratings FILE``: the club's initial list, and its names confirmed with
``clubrating entries initial`` and ``clubrating link initial ...`` (as a tournament's)."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from clubrating import djangoenv
from clubrating.djangoenv import gettext
from clubrating.commands.output import print_json, wants_json
from clubrating.commands.club import _add, one_transaction, the_club, who
from clubrating.commands.linking import LinkTarget, link_outcomes
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.formats.common import decode_text
from clubrating.formats.ratinglist import read_rating_list
from clubrating.club.services import initial_list as il
from clubrating.commands.entries import INITIAL, initial_rows_json, print_initial


def read_list_file(path: str) -> Any:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError(N_("no such file"), file=path) from None
    except OSError as error:
        raise InputError(
            N_("cannot read the file (%(strerror)s)"), file=path, strerror=error.strerror
        ) from None
    return read_rating_list(io.StringIO(decode_text(data, path), newline=""), path)


def cmd_seed_ratings(args: argparse.Namespace) -> int:
    club = the_club(args)

    listed = read_list_file(args.file)
    with one_transaction():
        outcomes = [il.seed_ratings(club, listed, who=who(), source=args.file)]
        if args.accept_exact:
            outcomes.append(il.accept_exact_initial(club, who=who()))
    return _show(club, args, outcomes)


def cmd_link_initial(args: argparse.Namespace) -> int:
    club = the_club(args)

    by = who()
    outcomes = link_outcomes(
        args,
        club,
        LinkTarget(
            usage=INITIAL,
            find=lambda number: il.get_initial_row(club, number),
            accept_exact=lambda: il.accept_exact_initial(club, who=by),
            new_member=lambda row: il.new_member_initial(row, who=by),
            link=lambda row, member: il.link_initial(row, member, who=by),
            unlink=lambda row: il.unlink_initial(row, who=by),
            all_new=lambda: il.all_new_initial(club, who=by),
        ),
    )
    return _show(club, args, outcomes)


def _show(club: Any, args: argparse.Namespace, outcomes: list[Any]) -> int:
    if wants_json(args):
        print_json({"messages": [str(o) for o in outcomes], "entries": initial_rows_json(club)})
        return 0
    for outcome in outcomes:
        print(outcome.translated(djangoenv))
    print_initial(club)
    sys.stdout.flush()
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "seed-ratings",
        cmd_seed_ratings,
        "clubrating seed-ratings ratings.csv --accept-exact",
    )
    p.add_argument(
        "file",
        metavar="FILE",
        help=gettext(
            "a CSV with the columns name, rating and optionally games "
            "(',' or ';', any header case), or a TRF (its rating column)"
        ),
    )
    p.add_argument(
        "--accept-exact",
        action="store_true",
        help=gettext("link names that match one member exactly"),
    )
