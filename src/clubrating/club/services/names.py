"""Which member each name of a tournament is (spec R10): linked by the arbiter, never guessed."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.derived.rebuild import rebuild_derived_if_published
from clubrating.club.store.locking import history_write
from clubrating.club.store.locking import reread
from clubrating.club.store.models import Club, Entry, Member, Tournament
from clubrating.club.services.linking import (
    exact_links,
    exact_matches,
    link_names,
    new_members,
    tournament_names,
)
from clubrating.club.services.outcome import Outcome
from clubrating.errors import NotFound, Refused, Text
from clubrating.words import Nn_


def link(entry: Entry, member: Member, *, who: str) -> Outcome:
    """The arbiter says: this name in this tournament is this member (R10)."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry, member)
        changed = link_names(club, tournament_names(entry.tournament), [(entry, member)], who=who)
        report = (
            rebuild_derived_if_published(
                entry.tournament, Text(gettext_noop("link '%(name)s'"), name=entry.name)
            )
            if changed[0]
            else None
        )
    return Outcome(
        Text(
            gettext_noop("'%(name)s' is %(name2)s (member %(id)s)"),
            name=entry.name,
            name2=member.name,
            id=member.id,
        ),
        report,
    )


def link_all(tournament: Tournament, links: Sequence[tuple[Entry, Member]], *, who: str) -> Outcome:
    """The arbiter confirms several names of ``tournament`` at once, each as :func:`link` does
    (the same checks, an audit entry a name, in order), under one lock and in a fixed number
    of queries; a published tournament is rebuilt once."""
    with history_write(tournament.club_id) as club:
        reread(tournament)
        entries = Entry.objects.in_bulk([e.id for e, _ in links])
        members = Member.objects.in_bulk([m.id for _, m in links])
        fresh = []
        for entry, member in links:
            if entry.id not in entries or entries[entry.id].tournament_id != tournament.id:
                raise NotFound(
                    gettext_noop("no name %(id)s in this tournament (deleted meanwhile?)"),
                    id=entry.id,
                )
            if member.id not in members:
                reread(member)  # gone meanwhile: the one-line NotFound of a single link
            fresh.append((entries[entry.id], members[member.id]))
        changed = link_names(club, tournament_names(tournament), fresh, who=who)
        report = (
            rebuild_derived_if_published(
                tournament,
                Text(Nn_("link %(count)s name", "link %(count)s names"), count=len(fresh)),
            )
            if any(changed)
            else None
        )
    return Outcome(
        Text(Nn_("linked %(count)s name", "linked %(count)s names"), count=len(fresh)), report
    )


def unlink(entry: Entry, *, who: str) -> Outcome:
    with history_write(entry.tournament.club_id):
        reread(entry)
        if entry.tournament.is_published:
            raise Refused(
                gettext_noop(
                    "a published tournament needs every name "
                    "linked: link the name to another member instead"
                )
            )
        old = entry.member.name if entry.member else None
        entry.member = None
        entry.save(update_fields=["member"])
        audit.record(
            entry.tournament.club,
            who,
            "unlink",
            f"tournament {entry.tournament_id} #{entry.number}",
            old={"member": old},
            new=None,
        )
    return Outcome(Text(gettext_noop("'%(name)s' is linked to no member"), name=entry.name))


def new_member(
    entry: Entry, *, who: str, name: str | None = None, junior: bool | None = None
) -> Outcome:
    """Make the name a new member of the club and link it."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry)
        member = Member.objects.create(
            club=club,
            name=(name or entry.name).strip()[:200],
            junior=entry.tournament.has_juniors if junior is None else junior,
        )
        audit.record(club, who, "new-member", f"member {member.id}", new={"name": member.name})
        outcome = link(entry, member, who=who)
    return outcome


def exact_candidates(club: Club, name: str) -> list[Member]:
    """Active members whose name is exactly this one (:func:`.linking.exact_matches`)."""
    return exact_matches(club, [name])[name]


def accept_exact(tournament: Tournament, *, who: str) -> Outcome:
    """Link every unlinked name that matches exactly one member exactly (the arbiter's one
    click): a fixed number of queries whatever the number of names."""
    with history_write(tournament.club_id) as club:
        reread(tournament)
        links = exact_links(club, list(Entry.objects.filter(tournament=tournament)))
        # no replay: a published tournament has every name linked already
        link_names(club, tournament_names(tournament), links, who=who)
    return Outcome(
        Text(
            Nn_(
                "linked %(count)s name that matched one member exactly",
                "linked %(count)s names that matched one member exactly",
            ),
            count=len(links),
        )
    )


def all_new_members(tournament: Tournament, *, who: str) -> Outcome:
    """Make every still-unlinked name a new member (after the arbiter reviewed the proposals)."""
    with history_write(tournament.club_id) as club:
        reread(tournament)
        rows = list(Entry.objects.filter(tournament=tournament, member=None))
        members, made = new_members(club, rows, who, junior=tournament.has_juniors)
        link_names(club, tournament_names(tournament), list(zip(rows, members)), who=who, made=made)
    return Outcome(
        Text(Nn_("made %(count)s new member", "made %(count)s new members"), count=len(rows))
    )
