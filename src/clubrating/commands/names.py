"""The verbs on the names typed in tournaments and the members they are: entries, link,
merge, duplicates, distinct, unmerge and member."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.club.read.clubs import parse_id
from clubrating.club.read.members import get_member
from clubrating.club.read.tournaments import get_tournament
from clubrating.club.services.members import (
    come_back,
    leave,
    mark_distinct,
    merge,
    rename_member,
    set_member_flags,
    unmerge,
)
from clubrating.club.services.names import accept_exact, all_new_members, link, new_member, unlink
from clubrating.club.services.outcome import Outcome
from clubrating import djangoenv
from clubrating.djangoenv import gettext, ngettext
from clubrating.commands.output import print_json, wants_json
from clubrating.commands.club import _add, one_transaction, parse_date, report, the_club, who
from clubrating.commands.entries import _all_linked, entry_rows
from clubrating.commands.linking import LinkTarget, link_outcomes
from clubrating.errors import InputError, Text
from clubrating.words import N_
from clubrating.commands.initial_list import cmd_link_initial
from clubrating.club.store.models import Entry
from clubrating.errors import NotFound
from clubrating.club.read.matching import possible_duplicates


def cmd_link(args: argparse.Namespace) -> int:
    if args.tournament == "initial":  # the club's initial list (commands/initial_list.py)
        return cmd_link_initial(args)
    club = the_club(args)

    tournament, by = get_tournament(club, args.tournament), who()
    outcomes = link_outcomes(
        args,
        club,
        LinkTarget(
            usage="TOURNAMENT",
            find=lambda number: _entry(tournament, number),
            accept_exact=lambda: accept_exact(tournament, who=by),
            new_member=lambda entry: new_member(entry, who=by),
            link=lambda entry, member: link(entry, member, who=by),
            unlink=lambda entry: unlink(entry, who=by),
            all_new=lambda: all_new_members(tournament, who=by),
        ),
    )
    if wants_json(args):
        print_json({"messages": [str(o) for o in outcomes], "entries": entry_rows(tournament)})
    else:
        for outcome in outcomes:
            print(outcome.translated(djangoenv))
        left = Entry.objects.filter(tournament=tournament, member=None).count()
        print(
            ngettext("%(count)s name still to confirm", "%(count)s names still to confirm", left)
            % {"count": left}
            if left
            else _all_linked(tournament)
        )
    return 0


def _entry(tournament: Any, number: str) -> Any:
    entry = Entry.objects.filter(
        tournament=tournament,
        number=parse_id(number) or -1,  # never int(): of "²" it raises
    ).first()
    if entry is None:
        raise NotFound(
            N_("tournament %(id)s has no player number %(number)s"), id=tournament.id, number=number
        )
    return entry


def cmd_merge(args: argparse.Namespace) -> int:
    club = the_club(args)

    report(
        merge(
            get_member(club, args.absorbed),
            get_member(club, args.into),
            who=who(),
        ),
        args,
    )
    return 0


def cmd_duplicates(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    pairs = possible_duplicates(club, args.min_score)
    if wants_json(args):
        print_json([pair.as_dict() for pair in pairs])
        return 0
    for pair in pairs:
        line = gettext("%(absorbed)s (member %(id)s) may be %(into)s (member %(id2)s): %(reasons)s")
        said = line % {
            "absorbed": pair.absorbed.name,
            "id": pair.absorbed.id,
            "into": pair.into.name,
            "id2": pair.into.id,
            "reasons": "; ".join(gettext(reason) for reason in pair.reasons),
        }
        print(f"{pair.score:5.1f}  {said}")
        merge_line, distinct_line = (
            f"clubrating {verb} {pair.absorbed.id} {pair.into.id}" for verb in ("merge", "distinct")
        )
        print(
            "       "
            + gettext("%(merge)s   or   %(distinct)s")
            % {"merge": merge_line, "distinct": distinct_line}
        )
    if not pairs:
        print(gettext("no two members look like one person"))
    return 0


def cmd_distinct(args: argparse.Namespace) -> int:
    club = the_club(args)

    report(
        mark_distinct(
            get_member(club, args.one),
            get_member(club, args.other),
            who=who(),
            undo=args.undo,
        ),
        args,
    )
    return 0


def cmd_unmerge(args: argparse.Namespace) -> int:
    club = the_club(args)

    report(unmerge(get_member(club, args.member), who=who()), args)
    return 0


def cmd_member(args: argparse.Namespace) -> int:
    club = the_club(args)

    flag = {"yes": True, "no": False, None: None}
    member = get_member(club, args.member)
    if args.left is not None and args.returned:  # one or the other (argparse's group prints a |)
        raise InputError(N_("give --left DATE or --returned, not both"))
    left = None if args.left is None else parse_date(args.left)
    done = []
    with one_transaction():  # a step refused undoes the ones before it
        if args.name is not None:
            done.append(rename_member(member, args.name, who=who()))
        if left is not None:
            done.append(leave(member, left, who=who()))
        if args.returned:
            done.append(come_back(member, who=who()))
        if not done or args.junior is not None or args.consent is not None:
            done.append(
                set_member_flags(
                    member, who=who(), junior=flag[args.junior], consent=flag[args.consent]
                )
            )
    said = done[0].message
    for then in done[1:]:  # a separator, not a sentence to translate
        said = Text("%(first)s; %(then)s", first=said, then=then.message)
    report(
        Outcome(said, done[-1].rebuild), args
    )  # one document (a separator, not a sentence to translate)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "link",
        cmd_link,
        "clubrating link 12 4 'John Smith'; clubrating link 12 --exact --all-new",
    )
    p.add_argument(
        "tournament", help=gettext("the tournament's number, or 'initial' for the initial list")
    )
    p.add_argument("number", nargs="?", help=gettext("the player's number in the tournament"))
    p.add_argument(
        "member",
        nargs="?",
        help=gettext(
            "member id, name or any name it is known under ('-' to unlink a draft's name)"
        ),
    )
    p.add_argument(
        "--new", action="append", metavar="NUMBER", help=gettext("make this name a new member")
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help=gettext("link every name that matches one member exactly"),
    )
    p.add_argument(
        "--all-new",
        action="store_true",
        help=gettext("make every name still unlinked a new member"),
    )

    p = _add(
        subparsers,
        common,
        "merge",
        cmd_merge,
        "clubrating merge 31 7",
    )
    p.add_argument(
        "absorbed", help=gettext("the member merged away: id, name or any name it is known under")
    )
    p.add_argument(
        "into", help=gettext("the member who stays: id, name or any name it is known under")
    )

    p = _add(
        subparsers,
        common,
        "duplicates",
        cmd_duplicates,
        "clubrating duplicates --min-score 90",
    )
    p.add_argument(
        "--min-score",
        type=float,
        default=85.0,
        metavar="N",
        help=gettext(
            "list pairs whose names score N or more against each other (85-100, default 85)"
        ),
    )

    p = _add(
        subparsers,
        common,
        "distinct",
        cmd_distinct,
        "clubrating distinct 31 7 [--undo]",
    )
    p.add_argument("one", help=gettext("member id, name or any name it is known under"))
    p.add_argument("other", help=gettext("member id, name or any name it is known under"))
    p.add_argument(
        "--undo", action="store_true", help=gettext("take it back: the pair may be listed again")
    )

    p = _add(subparsers, common, "unmerge", cmd_unmerge, "clubrating unmerge 31")
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))

    p = _add(
        subparsers,
        common,
        "member",
        cmd_member,
        "clubrating member 7 --junior yes --consent no; clubrating member 7 --name 'John Smith'; "
        "clubrating member 7 --left 2026-11-30; clubrating member 7 --returned",
    )
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))
    p.add_argument(
        "--left",
        metavar="YYYY-MM-DD",
        help=gettext(
            "the member left the club on that day: off the current list and the evening's "
            "registration, history kept"
        ),
    )
    p.add_argument(
        "--returned",
        action="store_true",
        help=gettext("a member who left is a member again (back on the list with their rating)"),
    )
    p.add_argument(
        "--name",
        help=gettext("correct the member's name (the spellings typed in tournaments stay)"),
    )
    p.add_argument(
        "--junior",
        choices=("yes", "no"),
        help=gettext(
            "whether the member is a junior (under 18: initials unless consent is recorded)"
        ),
    )
    p.add_argument(
        "--consent",
        choices=("yes", "no"),
        help=gettext("the arbiter recorded consent to show the full name"),
    )
