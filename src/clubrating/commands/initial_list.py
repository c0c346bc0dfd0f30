"""``clubrating seed-ratings FILE``: the club's initial list, and its names confirmed with
``clubrating entries initial`` and ``clubrating link initial ...`` (as a tournament's)."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from clubrating import djangoenv
from clubrating.djangoenv import gettext, ngettext
from clubrating.cli import print_json, wants_json
from clubrating.commands.club import _add, one_transaction, the_club, who
from clubrating.commands.names import LinkTarget, link_outcomes
from clubrating.errors import InputError
from clubrating.words import N_

INITIAL = "initial"  # what ``entries`` and ``link`` take instead of a tournament's number


def read_list_file(path: str) -> Any:
    from clubrating.formats.common import decode_text
    from clubrating.formats.ratinglist import read_rating_list

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


def initial_rows_json(club: Any) -> list[dict[str, Any]]:
    from clubrating.club.services.initial_list import initial_rows

    return [
        {
            "number": r.number,
            "name": r.name,
            "rating": r.rating,
            "games": r.games,
            "member_id": r.member_id,
            "member": r.member.name if r.member else None,
            "proposals": [p.as_dict() for p in proposals],
        }
        for r, proposals in initial_rows(club)
    ]


def print_initial(club: Any) -> None:
    rows = initial_rows_json(club)
    if not rows:
        print(gettext("the club has no initial list: clubrating seed-ratings FILE"))
        return
    for r in rows:
        listed = f"{r['rating']:g}" + ("" if r["games"] is None else f"/{r['games']}")
        head = f"  {r['number']:>4}  {r['name']:<32} {listed:>9}"
        if r["member_id"] is not None:
            print(
                f"{head} = "
                + gettext("%(member)s (member %(id)s)")
                % {"member": r["member"], "id": r["member_id"]}
            )
            continue
        shown = "; ".join(
            gettext("%(member)s (member %(id)s, %(score)s: %(reasons)s)")
            % {
                "member": p["member"],
                "id": p["member_id"],
                "score": f"{p['score']:.0f}",
                "reasons": ", ".join(gettext(reason) for reason in p["reasons"]),
            }
            for p in r["proposals"]
        ) or gettext("no member looks like this name")
        print(f"{head} ? {shown}")
    left = sum(1 for r in rows if r["member_id"] is None)
    if left:
        print(
            ngettext(
                "%(count)s name to confirm (only linked rows count): clubrating "
                "link initial NUMBER MEMBER, --new NUMBER, --exact or --all-new",
                "%(count)s names to confirm (only linked rows count): clubrating "
                "link initial NUMBER MEMBER, --new NUMBER, --exact or --all-new",
                left,
            )
            % {"count": left}
        )
    else:
        print(gettext("every name is linked"))


def cmd_seed_ratings(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club.services import initial_list

    listed = read_list_file(args.file)
    with one_transaction():
        outcomes = [initial_list.seed_ratings(club, listed, who=who(), source=args.file)]
        if args.accept_exact:
            outcomes.append(initial_list.accept_exact_initial(club, who=who()))
    return _show(club, args, outcomes)


def cmd_entries_initial(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    if wants_json(args):
        print_json(initial_rows_json(club))
    else:
        print(
            gettext("%(club)s: initial list (ratings before the first tournament)")
            % {"club": club.name}
        )
        print_initial(club)
    return 0


def cmd_link_initial(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club.services import initial_list as il

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
        gettext("store the club's initial list: members' ratings from before its first tournament"),
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
