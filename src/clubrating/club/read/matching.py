"""Name proposals for a tournament's entries (spec R10-R11): proposed, never applied."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from clubrating.club.store.models import (
    Club,
    Distinct,
    Entry,
    InitialEntry,
    Member,
    Merge,
    Tournament,
)
from clubrating.club.read.members import resolve_members
from clubrating.club.read.members import member_roster
from clubrating.errors import InputError
from clubrating.words import N_

if TYPE_CHECKING:
    from clubrating.identity.match import Matcher, Proposal


def roster_matcher(club: Club) -> Matcher:
    """The club's active members with their known spellings, indexed for matching."""
    # the matcher (rapidfuzz) when there is a name to match: not for a tournament whose names are
    # all linked
    from clubrating.identity.match import Matcher, RosterEntry

    return Matcher([RosterEntry(key, name, aliases) for key, name, aliases in member_roster(club)])


def proposals_for(tournament: Tournament) -> list[tuple[Entry, tuple[Proposal, ...]]]:
    """Every entry of the tournament with, when it is not linked yet, the members it could be."""
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("member").order_by("number")
    )
    if all(e.member_id is not None for e in entries):
        return [(e, ()) for e in entries]
    matcher = roster_matcher(tournament.club)
    rows: list[tuple[Entry, tuple[Proposal, ...]]] = []
    for entry in entries:
        if entry.member_id is not None:
            rows.append((entry, ()))
            continue
        try:
            found = matcher.propose(entry.name)
        except InputError:
            found = ()
        rows.append((entry, tuple(found)))
    return rows


# Two members whose names score this much against each other are listed as
# possibly one person (an initial, a middle name, a typo, a transliteration).
# The floor too: each member's own name scores 100 and the matcher shows
# nothing more than MAX_BEHIND_BEST (16) points behind its best proposal.
DUPLICATE_SCORE = 85.0


@dataclass(frozen=True)
class PossibleDuplicate:
    """``absorbed`` may be ``into`` under another spelling: the arbiter decides (R10, R12).

    ``into`` is the older member (the lower id), whose name the history keeps
    when merged; the arbiter may merge the other way instead.
    """

    absorbed: Member
    into: Member
    score: float
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "absorbed": {"id": self.absorbed.id, "name": self.absorbed.name},
            "into": {"id": self.into.id, "name": self.into.name},
            "score": self.score,
            "reasons": list(self.reasons),
        }


def possible_duplicates(club: Club, min_score: float = DUPLICATE_SCORE) -> list[PossibleDuplicate]:
    """Pairs of active members whose names are alike (``min_score`` of DUPLICATE_SCORE or
    more), best first; never merged by themselves.

    Left out: two members who played in one tournament (a merge would be
    refused: they are two people), two members once merged and then
    unmerged, and two the arbiter marked as two people (services.mark_distinct).
    """
    if not DUPLICATE_SCORE <= min_score <= 100:
        raise InputError(
            N_("the score must be between %(least)s and 100, not %(score)s"),
            least=f"{DUPLICATE_SCORE:g}",
            score=f"{min_score:g}",
        )
    members = {m.id: m for m in Member.objects.filter(club=club, merged_into=None)}
    top = resolve_members(club)
    played: dict[int, set[int]] = defaultdict(set)
    for member_id, tournament_id in (
        Entry.objects.filter(tournament__club=club)
        .exclude(member=None)
        .values_list("member_id", "tournament_id")
    ):
        played[top[member_id]].add(tournament_id)
    apart = {
        frozenset((top[a], top[b]))
        for a, b in Merge.objects.filter(club=club)
        .exclude(undone=None)
        .values_list("absorbed_id", "into_id")
    }
    apart |= {
        frozenset((top[a], top[b]))
        for a, b in Distinct.objects.filter(club=club).values_list("one_id", "other_id")
    }
    from clubrating.identity.compare import words  # as roster_matcher's

    matcher = roster_matcher(club)
    found: dict[frozenset[int], PossibleDuplicate] = {}
    for member in members.values():
        try:
            proposals = matcher.propose(member.name)
        except InputError:
            continue
        for proposal in proposals:
            other = cast(int, proposal.key)
            pair = frozenset((member.id, other))
            if other == member.id or proposal.score < min_score or pair in found or pair in apart:
                continue
            if played[member.id] & played[other]:
                continue
            into, absorbed = sorted((member, members[other]), key=lambda m: m.id)
            found[pair] = PossibleDuplicate(absorbed, into, proposal.score, words(proposal.reasons))
    return sorted(found.values(), key=lambda d: (-d.score, d.into.id, d.absorbed.id))


def initial_rows(club: Club) -> list[tuple[InitialEntry, tuple[Proposal, ...]]]:
    """Every row of the initial list with, when it is not linked yet, the members it could be."""
    rows = list(InitialEntry.objects.filter(club=club).select_related("member").order_by("number"))
    matcher = roster_matcher(club) if any(r.member_id is None for r in rows) else None
    shown: list[tuple[InitialEntry, tuple[Proposal, ...]]] = []
    for row in rows:
        if matcher is None or row.member_id is not None:
            shown.append((row, ()))
            continue
        try:
            found = matcher.propose(row.name)
        except InputError:
            found = ()
        shown.append((row, tuple(found)))
    return shown
