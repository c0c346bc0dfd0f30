"""Name proposals for a tournament's entries (spec R10-R11): proposed, never applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from clubrating.club.models import Club, Entry, Tournament
from clubrating.club.queries import member_roster
from clubrating.errors import InputError
from clubrating.identity.match import Matcher, RosterEntry


@dataclass(frozen=True)
class EntryProposal:
    member_id: int
    member: str
    score: float
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"member_id": self.member_id, "member": self.member, "score": self.score,
                "reasons": list(self.reasons)}


def roster_matcher(club: Club) -> Matcher:
    """The club's active members with their known spellings, indexed for matching."""
    return Matcher([RosterEntry(key, name, aliases) for key, name, aliases in member_roster(club)])


def proposals_for(tournament: Tournament) -> list[tuple[Entry, tuple[EntryProposal, ...]]]:
    """Every entry of the tournament with, when it is not linked yet, the members it could be."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("member").order_by("number"))
    if all(e.member_id is not None for e in entries):
        return [(e, ()) for e in entries]
    matcher = roster_matcher(tournament.club)
    rows: list[tuple[Entry, tuple[EntryProposal, ...]]] = []
    for entry in entries:
        if entry.member_id is not None:
            rows.append((entry, ()))
            continue
        try:
            found = matcher.propose(entry.name)
        except InputError:
            found = ()
        rows.append((entry, tuple(EntryProposal(cast(int, p.key), p.member, p.score, p.reasons) for p in found)))
    return rows
