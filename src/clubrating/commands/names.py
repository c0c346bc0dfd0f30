"""The verbs on the names typed in tournaments and the members they are: entries, link,
merge, duplicates, distinct, unmerge and member."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clubrating import djangoenv
from clubrating.djangoenv import gettext, ngettext
from clubrating.cli import print_json, wants_json
from clubrating.commands.club import _add, one_transaction, parse_date, report, the_club, who
from clubrating.commands.values import word
from clubrating.errors import InputError, Text
from clubrating.words import N_, fit


def entry_rows(tournament: Any) -> list[dict[str, Any]]:
    from clubrating.club.read.matching import proposals_for

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
        if r["member_id"] is not None:
            print(
                f"  {r['number']:>4}  {fit(r['name'], 32)} = "
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
        print(f"  {r['number']:>4}  {fit(r['name'], 32)} ? {shown}")
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
    from clubrating.club.store.models import TournamentStatus

    if tournament.status == TournamentStatus.DRAFT:
        return gettext("every name is linked: clubrating publish %(id)s") % {"id": tournament.id}
    return gettext("every name is linked")


def cmd_entries(args: argparse.Namespace) -> int:
    if args.tournament == "initial":  # the club's initial list (commands/initial_list.py)
        from clubrating.commands.initial_list import cmd_entries_initial

        return cmd_entries_initial(args)
    club = the_club(args, write=False)
    from clubrating.club.services import get_tournament

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


def cmd_link(args: argparse.Namespace) -> int:
    if args.tournament == "initial":  # the club's initial list (commands/initial_list.py)
        from clubrating.commands.initial_list import cmd_link_initial

        return cmd_link_initial(args)
    club = the_club(args)
    from clubrating.club import services
    from clubrating.club.store.models import Entry

    tournament, by = services.get_tournament(club, args.tournament), who()
    outcomes = link_outcomes(
        args,
        club,
        LinkTarget(
            usage="TOURNAMENT",
            find=lambda number: _entry(tournament, number),
            accept_exact=lambda: services.accept_exact(tournament, who=by),
            new_member=lambda entry: services.new_member(entry, who=by),
            link=lambda entry, member: services.link(entry, member, who=by),
            unlink=lambda entry: services.unlink(entry, who=by),
            all_new=lambda: services.all_new_members(tournament, who=by),
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


@dataclass(frozen=True)
class LinkTarget:
    """What ``link`` confirms names in (a tournament, or the initial list): how it finds a row
    by its number and the services that act on its rows, for :func:`link_outcomes`."""

    usage: str  # the word in ``clubrating link USAGE NUMBER MEMBER``
    find: Callable[[str], Any]  # NUMBER -> the row
    accept_exact: Callable[[], Any]
    new_member: Callable[[Any], Any]
    link: Callable[[Any, Any], Any]  # the row, the member
    unlink: Callable[[Any], Any]
    all_new: Callable[[], Any]


def link_outcomes(args: argparse.Namespace, club: Any, target: LinkTarget) -> list[Any]:
    """``link``'s options applied in order (--exact, --new, NUMBER MEMBER, --all-new), all or
    none: the outcomes."""
    with one_transaction():
        return _link_steps(args, club, target)


def _link_steps(args: argparse.Namespace, club: Any, target: LinkTarget) -> list[Any]:
    from clubrating.club import services

    outcomes = []
    if args.exact:
        outcomes.append(target.accept_exact())
    for number in args.new or ():
        outcomes.append(target.new_member(target.find(number)))
    if args.number is not None:
        row = target.find(args.number)
        if args.member is None:
            raise InputError(
                N_("say which member: clubrating link %(usage)s NUMBER MEMBER (id, name or alias)"),
                usage=target.usage,
            )
        if args.member == "-":
            outcomes.append(target.unlink(row))
        else:
            outcomes.append(target.link(row, services.get_member(club, args.member)))
    if args.all_new:
        outcomes.append(target.all_new())
    if not outcomes:
        raise InputError(
            N_("nothing to do: give NUMBER MEMBER, --new NUMBER, --exact or --all-new")
        )
    return outcomes


def _entry(tournament: Any, number: str) -> Any:
    from clubrating.club.store.models import Entry
    from clubrating.errors import NotFound

    entry = Entry.objects.filter(
        tournament=tournament, number=int(number) if str(number).isdigit() else -1
    ).first()
    if entry is None:
        raise NotFound(
            N_("tournament %(id)s has no player number %(number)s"), id=tournament.id, number=number
        )
    return entry


def cmd_merge(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(
        services.merge(
            services.get_member(club, args.absorbed),
            services.get_member(club, args.into),
            who=who(),
        ),
        args,
    )
    return 0


def cmd_duplicates(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.read.matching import possible_duplicates

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
        merge, distinct = (
            f"clubrating {verb} {pair.absorbed.id} {pair.into.id}" for verb in ("merge", "distinct")
        )
        print(
            "       "
            + gettext("%(merge)s   or   %(distinct)s") % {"merge": merge, "distinct": distinct}
        )
    if not pairs:
        print(gettext("no two members look like one person"))
    return 0


def cmd_distinct(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(
        services.mark_distinct(
            services.get_member(club, args.one),
            services.get_member(club, args.other),
            who=who(),
            undo=args.undo,
        ),
        args,
    )
    return 0


def cmd_unmerge(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(services.unmerge(services.get_member(club, args.member), who=who()), args)
    return 0


def cmd_member(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    flag = {"yes": True, "no": False, None: None}
    member = services.get_member(club, args.member)
    if args.left is not None and args.returned:  # one or the other (argparse's group prints a |)
        raise InputError(N_("give --left DATE or --returned, not both"))
    left = None if args.left is None else parse_date(args.left)
    done = []
    with one_transaction():  # a step refused undoes the ones before it
        if args.name is not None:
            done.append(services.rename_member(member, args.name, who=who()))
        if left is not None:
            done.append(services.leave(member, left, who=who()))
        if args.returned:
            done.append(services.come_back(member, who=who()))
        if not done or args.junior is not None or args.consent is not None:
            done.append(
                services.set_member_flags(
                    member, who=who(), junior=flag[args.junior], consent=flag[args.consent]
                )
            )
    said = done[0].message
    for then in done[1:]:  # a separator, not a sentence to translate
        said = Text("%(first)s; %(then)s", first=said, then=then.message)
    report(
        services.Outcome(said, done[-1].rebuild), args
    )  # one document (a separator, not a sentence to translate)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "entries",
        cmd_entries,
        gettext("the names of a tournament with the members they could be"),
        "clubrating entries 12; clubrating entries initial",
    )
    p.add_argument(
        "tournament", help=gettext("the tournament's number, or 'initial' for the initial list")
    )

    p = _add(
        subparsers,
        common,
        "link",
        cmd_link,
        gettext("confirm which member a name is, or make it a new member"),
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
        gettext("two members are one person: merge the first into the second"),
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
        gettext("members whose names look like one person (proposals to merge, never applied)"),
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
        gettext("two members are two people: no longer listed by 'duplicates'"),
        "clubrating distinct 31 7 [--undo]",
    )
    p.add_argument("one", help=gettext("member id, name or any name it is known under"))
    p.add_argument("other", help=gettext("member id, name or any name it is known under"))
    p.add_argument(
        "--undo", action="store_true", help=gettext("take it back: the pair may be listed again")
    )

    p = _add(
        subparsers, common, "unmerge", cmd_unmerge, gettext("undo a merge"), "clubrating unmerge 31"
    )
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))

    p = _add(
        subparsers,
        common,
        "member",
        cmd_member,
        gettext("a member's name, junior flag, full-name consent, and leaving the club"),
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
