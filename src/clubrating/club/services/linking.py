"""Linking names to members (spec R10): one service for a tournament's names and the initial
list's, one name or a whole list at once in a fixed number of queries.

A name is linked only to an active member of its club, and a person (a member with the
members merged into it) holds one name of a list: the checks run name by name in the order
given, each seeing the links made before it, as if each were linked alone; the rows, the new
members and the audit entries are then written in a few bulk statements (one per about a
hundred rows on SQLite, whose statements take at most 999 parameters). The caller holds the
club's lock and replays the history once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_noop

from clubrating.club.store.audit_text import stored
from clubrating.club.read.members import merged_persons
from clubrating.club.store.models import AuditEntry, Club, Entry, InitialEntry, Member, Tournament
from clubrating.errors import Refused
from clubrating.identity.same import is_exact, word_key

Row = Entry | InitialEntry


@dataclass(frozen=True)
class NameList:
    """The names one person holds at most once: a tournament's entries or the initial list."""

    rows: QuerySet[Any]  # every row of the list
    action: str  # the audit entry's action
    target: Callable[[Any], str]  # the audit entry's target, of a row
    clash: str  # the refusal when the person holds another name of the list already


def tournament_names(tournament: Tournament) -> NameList:
    return NameList(
        Entry.objects.filter(tournament_id=tournament.id),
        "link",
        lambda e: f"tournament {e.tournament_id} #{e.number} '{e.name}'",
        gettext_noop("%(name)s is already '%(name2)s' (number %(number)s) in this tournament"),
    )


def initial_names(club: Club) -> NameList:
    return NameList(
        InitialEntry.objects.filter(club=club),
        "link-initial",
        lambda r: f"initial list #{r.number} '{r.name}'",
        gettext_noop("%(name)s is already '%(name2)s' (row %(number)s) of the initial list"),
    )


def check_linkable(club: Club, member: Member) -> None:
    """A name (of a tournament or of the initial list) is linked only to an active member of
    its club."""
    if member.club_id != club.id:
        raise Refused(gettext_noop("member %(id)s belongs to another club"), id=member.id)
    if member.merged_into_id is not None:
        raise Refused(
            gettext_noop("%(name)s was merged into %(name2)s: link to that member"),
            name=member.name,
            name2=member.active().name,
        )


def link_names(
    club: Club,
    names: NameList,
    links: Sequence[tuple[Row, Member]],
    *,
    who: str,
    made: dict[int, AuditEntry] | None = None,
) -> list[bool]:
    """Link each row to its member, in order, with an audit entry each (after the row's
    ``made`` entry: the new member made for it). Per row: whether its member changed (another
    member, even one of the same name, takes the name's games: ids are compared)."""
    person = merged_persons(club)
    holds: dict[int, list[tuple[int, int, str]]] = {}  # person -> (number, row id, name)
    for row_id, number, name, member_id in names.rows.exclude(member=None).values_list(
        "id", "number", "name", "member_id"
    ):
        holds.setdefault(person.get(member_id, member_id), []).append((number, row_id, name))
    old_names = dict(
        Member.objects.filter(id__in={r.member_id for r, _ in links if r.member_id}).values_list(
            "id", "name"
        )
    )
    entries: list[AuditEntry] = []
    changed = []
    for row, member in links:
        check_linkable(club, member)
        target = person.get(member.id, member.id)
        clash = min((h for h in holds.get(target, ()) if h[1] != row.id), default=None)
        if clash is not None:
            raise Refused(names.clash, name=member.name, name2=clash[2], number=clash[0])
        if row.member_id is not None:
            held = holds[person.get(row.member_id, row.member_id)]
            held[:] = [h for h in held if h[1] != row.id]
        holds.setdefault(target, []).append((row.number, row.id, row.name))
        old = old_names.get(row.member_id) if row.member_id else None
        changed.append(row.member_id != member.id)
        row.member, row.member_id = member, member.id
        if made and row.id in made:
            entries.append(made[row.id])
        entries.append(
            AuditEntry(
                club=club,
                who=who,
                action=names.action,
                target=names.target(row)[:200],
                old={"member": old},
                new={"member": member.name, "member_id": member.id},
                summary="",
                summary_text=stored(""),
            )
        )
    if links:
        names.rows.model._default_manager.bulk_update([r for r, _ in links], ["member"])
    AuditEntry.objects.bulk_create(entries)
    return changed


def new_members(
    club: Club, rows: Sequence[Row], who: str, *, junior: bool = False
) -> tuple[list[Member], dict[int, AuditEntry]]:
    """A new member named as each row (one INSERT), with its audit entry (unwritten: the link
    writes it before the row's own)."""
    members = Member.objects.bulk_create(
        [Member(club=club, name=row.name.strip()[:200], junior=junior) for row in rows]
    )
    made = {
        row.id: AuditEntry(
            club=club,
            who=who,
            action="new-member",
            target=f"member {member.id}"[:200],
            old=None,
            new={"name": member.name},
            summary="",
            summary_text=stored(""),
        )
        for row, member in zip(rows, members)
    }
    return members, made


def exact_matches(club: Club, names: Sequence[str]) -> dict[str, list[Member]]:
    """For each name, the active members whose name is exactly it: the same words, whatever
    the case, spacing or customary order ("Smith, Jane" / "Jane Smith" / "SMITH Jane",
    :func:`clubrating.identity.same.is_exact`).

    Accents, punctuation, another script or an alias are not exact: those stay proposals for
    the arbiter to read. Two queries whatever the number of names: the members are looked up
    by their words, and only those with the same words are compared."""
    by_words: dict[tuple[str, ...], list[tuple[int, str]]] = {}
    for member_id, name in Member.objects.filter(club=club, merged_into=None).values_list(
        "id", "name"
    ):
        by_words.setdefault(word_key(name), []).append((member_id, name))
    found = {
        name: sorted(m for m, member in by_words.get(word_key(name), ()) if is_exact(name, member))
        for name in names
    }
    wanted = {m for ids in found.values() for m in ids}
    members = Member.objects.filter(id__in=wanted).in_bulk() if wanted else {}
    return {name: [members[m] for m in ids] for name, ids in found.items()}


def exact_links(club: Club, rows: Sequence[Row]) -> list[tuple[Row, Member]]:
    """The unlinked rows of a list (``rows``: all of it, in order) that match exactly one
    member exactly, each with that member; a person who holds a name of the list already, or
    was matched to an earlier row, is left to the arbiter."""
    person = merged_persons(club)
    taken = {person.get(r.member_id, r.member_id) for r in rows if r.member_id is not None}
    unlinked = [r for r in rows if r.member_id is None]
    found = exact_matches(club, [r.name for r in unlinked])
    links: list[tuple[Row, Member]] = []
    for row in unlinked:
        members = found[row.name]
        if len(members) == 1 and members[0].id not in taken:
            links.append((row, members[0]))
            taken.add(members[0].id)
    return links
