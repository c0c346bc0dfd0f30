"""The club's initial list: ratings carried over from before its first tournament.

Stored history like a tournament: rows with names as written, each linked to a
member by the arbiter (R10) with the same matcher and the same checks as a
tournament's names (:mod:`.names`); only linked rows count. Every change
replays the whole history (the list is its start) and is audited.

A second ``seed_ratings`` replaces the list: the new file is the list from then
on. A name written as before (whatever its case and spacing) keeps its member.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop

from clubrating.club.read.clubs import parse_id
from clubrating.club.store import audit
from clubrating.club.derived.rebuild import rebuild_derived
from clubrating.club.store.locking import history_write
from clubrating.club.store.locking import reread
from clubrating.club.store.models import Club, InitialEntry, Member
from clubrating.club.services.linking import (
    exact_links,
    initial_names,
    link_names,
    new_members,
)
from clubrating.club.services.outcome import Outcome
from clubrating.errors import InputError, NotFound, Refused, Text
from clubrating.formats.ratinglist import ListedRating, name_key
from clubrating.words import Nn_

if TYPE_CHECKING:
    pass


def _rows(club: Club) -> list[list[Any]]:
    """The list as the audit log keeps it: [name, rating, games, member id] per row."""
    return [
        [r.name, r.rating, r.games, r.member_id]
        for r in InitialEntry.objects.filter(club=club).order_by("number")
    ]


def seed_ratings(club: Club, listed: Sequence[ListedRating], *, who: str, source: str) -> Outcome:
    """Store ``listed`` as the club's initial list (replacing any earlier one) and replay."""
    if not listed:
        raise InputError(gettext_noop("the list holds no player"), file=source)
    with history_write(club) as club:
        old = _rows(club)
        kept = {
            name_key(r.name): r.member_id
            for r in InitialEntry.objects.filter(club=club)
            if r.member_id is not None
        }
        InitialEntry.objects.filter(club=club).delete()
        InitialEntry.objects.bulk_create(
            [
                InitialEntry(
                    club=club,
                    number=n,
                    name=row.name[:200],
                    rating=row.rating,
                    games=row.games,
                    member_id=kept.pop(name_key(row.name), None),
                )  # a name written twice: the first row
                for n, row in enumerate(listed, 1)
            ]
        )
        report = rebuild_derived(
            club, reason=Text(gettext_noop("initial list from %(file)s"), file=source)
        )
        new = _rows(club)
        audit.record(
            club,
            who,
            "seed-ratings",
            f"initial list from {source}",
            old={"rows": old} if old else None,
            new={"file": source, "rows": new},
            summary=report.text,
        )
    linked = sum(1 for row in new if row[3] is not None)
    return Outcome(
        Text(
            Nn_(
                "initial list of %(count)s player from %(source)s (%(linked)s linked to members)",
                "initial list of %(count)s players from %(source)s (%(linked)s linked to members)",
            ),
            count=len(new),
            source=source,
            linked=linked,
        ),
        report,
    )


def get_initial_row(club: Club, number: int | str) -> InitialEntry:
    row = InitialEntry.objects.filter(
        club=club,
        number=parse_id(number) or -1,  # never int(): of "²" it raises
    ).first()
    if row is None:
        raise NotFound(gettext_noop("the initial list has no row %(number)s"), number=number)
    return row


def link_initial(row: InitialEntry, member: Member, *, who: str) -> Outcome:
    """The arbiter says: this name of the initial list is this member (R10)."""
    with history_write(row.club_id) as club:
        changed = _link(club, row, member, who)
        report = (
            rebuild_derived(
                club, reason=Text(gettext_noop("initial list: link '%(name)s'"), name=row.name)
            )
            if changed
            else None
        )
    return Outcome(
        Text(
            gettext_noop("'%(name)s' (%(rating)s) is %(name2)s (member %(id)s)"),
            name=row.name,
            rating=format(row.rating, "g"),
            name2=member.name,
            id=member.id,
        ),
        report,
    )


def _link(club: Club, row: InitialEntry, member: Member, who: str) -> bool:
    """Link under the caller's lock, audited; the caller replays. True if the member changed."""
    reread(row, member)
    return link_names(club, initial_names(club), [(row, member)], who=who)[0]


def unlink_initial(row: InitialEntry, *, who: str) -> Outcome:
    """The name is no member after all: the row stays in the list and no longer counts."""
    with history_write(row.club_id) as club:
        reread(row)
        if row.member is None:
            raise Refused(
                gettext_noop("'%(name)s' (row %(number)s) is linked to no member"),
                name=row.name,
                number=row.number,
            )
        old = row.member.name
        row.member = None
        row.save(update_fields=["member"])
        report = rebuild_derived(
            club, reason=Text(gettext_noop("initial list: unlink '%(name)s'"), name=row.name)
        )
        audit.record(
            club,
            who,
            "unlink-initial",
            f"initial list #{row.number} '{row.name}'",
            old={"member": old},
            new=None,
            summary=report.text,
        )
    return Outcome(Text(gettext_noop("'%(name)s' is linked to no member"), name=row.name), report)


def new_member_initial(row: InitialEntry, *, who: str) -> Outcome:
    """Make the name a new member of the club and link it."""
    with history_write(row.club_id) as club:
        member = _new_member(club, row, who)
        report = rebuild_derived(
            club, reason=Text(gettext_noop("initial list: new member '%(name)s'"), name=row.name)
        )
    return Outcome(
        Text(
            gettext_noop("'%(name)s' (%(rating)s) is %(name2)s (member %(id)s)"),
            name=row.name,
            rating=format(row.rating, "g"),
            name2=member.name,
            id=member.id,
        ),
        report,
    )


def _new_member(club: Club, row: InitialEntry, who: str) -> Member:
    reread(row)
    if row.member_id is not None:
        raise Refused(
            gettext_noop("'%(name)s' (row %(number)s) is member %(member_id)s already"),
            name=row.name,
            number=row.number,
            member_id=row.member_id,
        )
    members, made = new_members(club, [row], who)
    link_names(club, initial_names(club), [(row, members[0])], who=who, made=made)
    return members[0]


def accept_exact_initial(club: Club, *, who: str) -> Outcome:
    """Link every unlinked name that matches exactly one member exactly (as at an import): a
    fixed number of queries whatever the number of names."""
    with history_write(club) as club:
        rows = list(InitialEntry.objects.filter(club=club).order_by("number"))
        links = exact_links(club, rows)
        link_names(club, initial_names(club), links, who=who)
        report = (
            rebuild_derived(club, reason=Text(gettext_noop("initial list: exact names linked")))
            if links
            else None
        )
    return Outcome(
        Text(
            Nn_(
                "linked %(count)s name that matched one member exactly",
                "linked %(count)s names that matched one member exactly",
            ),
            count=len(links),
        ),
        report,
    )


def all_new_initial(club: Club, *, who: str) -> Outcome:
    """Make every still-unlinked name a new member (after the arbiter reviewed the proposals)."""
    with history_write(club) as club:
        rows = list(InitialEntry.objects.filter(club=club, member=None).order_by("number"))
        members, made = new_members(club, rows, who)
        link_names(club, initial_names(club), list(zip(rows, members)), who=who, made=made)
        report = (
            rebuild_derived(club, reason=Text(gettext_noop("initial list: new members")))
            if rows
            else None
        )
    return Outcome(Text(gettext_noop("made %(count)s new members"), count=len(rows)), report)
