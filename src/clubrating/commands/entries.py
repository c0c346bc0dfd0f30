"""``clubrating entries``: the names of a tournament, or of the club's initial list, with the
members they could be. A module of its own, beside the verbs that link and merge (:mod:`.names`,
:mod:`.initial_list`): it only reads, and imports none of the rebuild's libraries."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.club.read.matching import initial_rows, proposals_for
from clubrating.club.read.tournaments import get_tournament
from clubrating.club.store.models import TournamentStatus
from clubrating.commands.club import _add, the_club
from clubrating.commands.output import print_json, wants_json
from clubrating.commands.values import word
from clubrating.djangoenv import gettext, ngettext
from clubrating.words import fit

INITIAL = "initial"  # what ``entries`` and ``link`` take instead of a tournament's number


def initial_rows_json(club: Any) -> list[dict[str, Any]]:
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


def link_text(row: dict[str, Any]) -> str:
    """A row's link as the listings print it: "= member" when linked, else "? the proposals"."""
    if row["member_id"] is not None:
        return "= " + gettext("%(member)s (member %(id)s)") % {
            "member": row["member"],
            "id": row["member_id"],
        }
    return "? " + (
        "; ".join(
            gettext("%(member)s (member %(id)s, %(score)s: %(reasons)s)")
            % {
                "member": p["member"],
                "id": p["member_id"],
                "score": f"{p['score']:.0f}",
                "reasons": ", ".join(gettext(reason) for reason in p["reasons"]),
            }
            for p in row["proposals"]
        )
        or gettext("no member looks like this name")
    )


def print_initial(club: Any) -> None:
    rows = initial_rows_json(club)
    if not rows:
        print(gettext("the club has no initial list: clubrating seed-ratings FILE"))
        return
    for r in rows:
        listed = f"{r['rating']:g}" + ("" if r["games"] is None else f"/{r['games']}")
        head = f"  {r['number']:>4}  {r['name']:<32} {listed:>9}"
        print(f"{head} {link_text(r)}")
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


def entry_rows(tournament: Any) -> list[dict[str, Any]]:
    return [
        {
            "number": e.number,
            "name": e.name,
            "member_id": e.member_id,
            "member": e.member.name if e.member else None,
            "proposals": [p.as_dict() for p in proposals],
        }
        for e, proposals in proposals_for(tournament)
    ]


def print_entries(tournament: Any) -> None:
    rows = entry_rows(tournament)
    unlinked = sum(1 for r in rows if r["member_id"] is None)
    for r in rows:
        print(f"  {r['number']:>4}  {fit(r['name'], 32)} {link_text(r)}")
    if unlinked:
        print(
            ngettext(
                "%(count)s name to confirm: clubrating link %(id)s NUMBER MEMBER, or with "
                "--new NUMBER, --exact or --all-new",
                "%(count)s names to confirm: clubrating link %(id)s NUMBER MEMBER, or with "
                "--new NUMBER, --exact or --all-new",
                unlinked,
            )
            % {"count": unlinked, "id": tournament.id}
        )
    else:
        print(_all_linked(tournament))


def _all_linked(tournament: Any) -> str:
    """What to do next once every name is linked: publish a draft; a published one is rated
    already."""

    if tournament.status == TournamentStatus.DRAFT:
        return gettext("every name is linked: clubrating publish %(id)s") % {"id": tournament.id}
    return gettext("every name is linked")


def cmd_entries(args: argparse.Namespace) -> int:
    if args.tournament == "initial":  # the club's initial list (commands/initial_list.py)
        return cmd_entries_initial(args)
    club = the_club(args, write=False)

    tournament = get_tournament(club, args.tournament)
    if wants_json(args):
        print_json(entry_rows(tournament))
    else:
        print(
            gettext("tournament %(id)s '%(name)s' (%(date)s), %(status)s")
            % {
                "id": tournament.id,
                "name": tournament.name,
                "date": tournament.date,
                "status": word(tournament.status),
            }
        )
        print_entries(tournament)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "entries",
        cmd_entries,
        "clubrating entries 12; clubrating entries initial",
    )
    p.add_argument(
        "tournament", help=gettext("the tournament's number, or 'initial' for the initial list")
    )
