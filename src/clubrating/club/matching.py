"""Name proposals for a tournament's entries (spec R10-R11): proposed, never applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from clubrating.club.models import Entry, Tournament
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


def club_matcher(tournament: Tournament) -> Matcher:
    return Matcher([RosterEntry(key, name, aliases) for key, name, aliases in member_roster(tournament.club)])


def proposals_for(tournament: Tournament) -> list[tuple[Entry, tuple[EntryProposal, ...]]]:
    """Every entry of the tournament with, when it is not linked yet, the members it could be."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("member").order_by("number"))
    if all(e.member_id is not None for e in entries):
        return [(e, ()) for e in entries]
    matcher = club_matcher(tournament)
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
