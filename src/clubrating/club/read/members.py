"""Members found by what the arbiter types, and who each member is now
(merges followed): the reads every layer above resolves members with."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db import models
from django.utils.translation import gettext_noop

from clubrating.club.read.clubs import find_club, parse_id
from clubrating.club.store.models import (
    Club,
    Entry,
    Member,
    merge_cycle,
)
from clubrating.errors import InputError, NotFound
from clubrating.formats.records import MAX_NAME_LENGTH
from clubrating.identity.same import is_exact, word_key


def get_member(club: Club, ref: int | str) -> Member:
    """A member by id, or by name (:func:`find_member_by_name`): what every command and form
    that takes a member reads."""
    text = str(ref).strip()
    number = parse_id(text)
    if number is not None:
        member = Member.objects.filter(club=club, id=number).first()
        if member is not None:
            return member
    return find_member_by_name(club, text)


def find_member_by_name(club: Club, typed: str) -> Member:
    """The one member :func:`members_called` finds; NotFound for none, and one line that
    lists them when several members carry the name."""
    text = " ".join(typed.split())
    found = members_called(club, text)
    if not found:
        raise NotFound(
            gettext_noop("no member %(text)s in %(name)s"), text=repr(text), name=club.name
        )
    if len(found) > 1:
        shown = ", ".join(f"{m.name} (member {m.id})" for m in found)
        raise InputError(
            gettext_noop(
                "%(text)s could be %(count)s members: %(shown)s; give the member's number"
            ),
            text=repr(text),
            count=len(found),
            shown=shown,
        )
    return found[0]


def members_called(club: Club, typed: str) -> list[Member]:
    """The members called ``typed``, or written so in a tournament, or whose merged member was
    called so; by the matcher's exact rule (:func:`clubrating.identity.same.is_exact`: the same
    words whatever the case or customary order).

    A member's own name comes first (a merged member's too, for ``unmerge``); a name that is
    a member's and the members merged into it is that member.
    """
    text = " ".join(typed.split())
    if (
        len(text) > MAX_NAME_LENGTH
    ):  # no member is called so; SQLite refuses a LIKE pattern that long
        raise InputError(
            gettext_noop("a name of %(count)s characters: at most %(MAX_NAME_LENGTH)s"),
            count=len(text),
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        )
    if not word_key(text):
        raise InputError(gettext_noop("say which member: a member's number or name"))
    named = [
        m
        for m in Member.objects.filter(_containing(text), club=club).order_by("id")
        if is_exact(text, m.name)
    ]
    if named:
        top = resolve_members(club)
        ends = {top[m.id] for m in named}
        return (
            [m for m in named if m.id in ends]
            if len(ends) == 1 and ends <= {m.id for m in named}
            else named
        )
    written = {
        member_id
        for member_id, name in Entry.objects.filter(
            _containing(text), tournament__club=club, member__isnull=False
        )
        .values_list("member_id", "name")
        .distinct()
        if is_exact(text, name)
    }
    if not written:
        return []
    top = resolve_members(club)
    return list(Member.objects.filter(id__in={top[m] for m in written}).order_by("id"))


def _containing(text: str) -> models.Q:
    """Rows whose name holds the longest word typed: the database narrows the search when
    that word is ASCII (SQLite folds the case of ASCII letters only); else every row is read."""
    longest = max(text.replace(",", " ").split(), key=len)
    return models.Q(name__icontains=longest) if longest.isascii() else models.Q()


def names_known(club: Club) -> dict[int, set[str]]:
    """Active member id -> every name it is known under: its own, those of the members merged
    into it, and the names it (or they) were written under in the club's tournaments."""
    top = resolve_members(club)
    known: dict[int, set[str]] = {}
    for member_id, name in Member.objects.filter(club=club).values_list("id", "name"):
        known.setdefault(top[member_id], set()).add(name)
    for member_id, name in (
        Entry.objects.filter(tournament__club=club, member__isnull=False)
        .values_list("member_id", "name")
        .distinct()
    ):
        known.setdefault(top[member_id], set()).add(name)
    return known


def resolve_members(club: Club) -> dict[int, int]:
    """Member id -> the member it stands for now (following merges).

    Merges never form a cycle (each is checked under the club's lock); should a
    database hold one all the same, this says so instead of walking it forever.
    """
    parent = dict(
        Member.objects.filter(club=club).order_by("id").values_list("id", "merged_into_id")
    )
    resolved: dict[int, int] = {}
    for member_id in parent:
        walked, on_the_way = [member_id], {member_id}
        while parent.get(walked[-1]) is not None and walked[-1] not in resolved:
            walked.append(parent[walked[-1]])
            if walked[-1] in on_the_way:
                raise merge_cycle(walked)
            on_the_way.add(walked[-1])
        end = resolved.get(walked[-1], walked[-1])
        resolved.update((m, end) for m in walked)
    return resolved


def merged_persons(club: Club) -> dict[int, int]:
    """Merged member id -> the member it stands for now; a member missing from it stands for
    itself. As :func:`resolve_members`, but reading only the merged members (few)."""
    parent = dict(
        Member.objects.filter(club=club)
        .exclude(merged_into=None)
        .values_list("id", "merged_into_id")
    )
    resolved: dict[int, int] = {}
    for member_id in parent:
        walked = [member_id]
        while walked[-1] in parent:
            walked.append(parent[walked[-1]])
            if walked[-1] in walked[:-1]:
                raise merge_cycle(walked)
        resolved[member_id] = walked[-1]
    return resolved


def member_ids_of(member: Member) -> list[int]:
    """The member and every member merged into it (transitively)."""
    ids, frontier = [member.id], [member.id]
    while frontier:
        frontier = list(
            Member.objects.filter(merged_into_id__in=frontier).values_list("id", flat=True)
        )
        ids.extend(frontier)
    return ids


def persons_now(club: Club, member_ids: Sequence[int | None]) -> dict[int, tuple[int, str]]:
    """Member id -> (id, name) of the member it stands for now (itself unless merged away): what
    every
    view of a tournament shows for a linked name. Two queries."""
    roots = merged_persons(club)
    top = {m: roots.get(m, m) for m in member_ids if m is not None}
    names = dict(Member.objects.filter(id__in=set(top.values())).values_list("id", "name"))
    return {m: (t, names[t]) for m, t in top.items()}


def member_roster(club: Club | None = None) -> list[tuple[int, str, tuple[str, ...]]]:
    """(member id, name, aliases) of every active member: what name matching looks at.

    Aliases are the other spellings under which the member (or a member merged
    into it) was linked in some tournament.
    """
    club = club or find_club()
    members = list(Member.objects.filter(club=club).values_list("id", "name", "merged_into_id"))
    top = resolve_members(club)
    spellings: dict[int, set[str]] = defaultdict(set)
    for member_id, name in (
        Entry.objects.filter(tournament__club=club)
        .exclude(member=None)
        .values_list("member_id", "name")
        .distinct()
    ):
        spellings[top[member_id]].add(name)
    for member_id, name, _ in members:
        if top[member_id] != member_id:
            spellings[top[member_id]].add(name)
    return [(m, name, tuple(sorted(spellings[m] - {name}))) for m, name, p in members if p is None]
