"""Which member each name of a tournament is (spec R10): linked by the arbiter, never guessed."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clubrating.club import audit
from clubrating.club.history import rebuild_if_published
from clubrating.club.locking import history_write
from clubrating.club.lookups import merged_persons, reread
from clubrating.club.matching import roster_matcher
from clubrating.club.models import Club, Entry, Member, Tournament
from clubrating.club.services.outcome import Outcome
from clubrating.errors import InputError, Refused, Text
from clubrating.identity.compare import Reason
from clubrating.identity.match import Matcher
from clubrating.identity.same import is_exact
from clubrating.words import Nn_


def check_linkable(club: Club, member: Member) -> None:
    """A name (of a tournament or of the initial list) is linked only to an active member of its
    club."""
    if member.club_id != club.id:
        raise Refused(gettext_noop("member %(id)s belongs to another club"), id=member.id)
    if member.merged_into_id is not None:
        raise Refused(
            gettext_noop("%(name)s was merged into %(name2)s: link to that member"),
            name=member.name,
            name2=member.active().name,
        )


def link(entry: Entry, member: Member, *, who: str) -> Outcome:
    """The arbiter says: this name in this tournament is this member (R10)."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry, member)
        check_linkable(club, member)
        clash = _same_person(club, entry, member)
        if clash is not None:
            raise Refused(
                gettext_noop(
                    "%(name)s is already '%(name2)s' (number %(number)s) in this tournament"
                ),
                name=member.name,
                name2=clash.name,
                number=clash.number,
            )
        old, old_id = (entry.member.name if entry.member else None), entry.member_id
        entry.member = member
        entry.save(update_fields=["member"])
        audit.record(
            club,
            who,
            "link",
            f"tournament {entry.tournament_id} #{entry.number} '{entry.name}'",
            old={"member": old},
            new={"member": member.name, "member_id": member.id},
        )
        # another member, even one of the same name, takes the name's games: compare ids
        report = (
            rebuild_if_published(
                entry.tournament, Text(gettext_noop("link '%(name)s'"), name=entry.name)
            )
            if old_id != member.id
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


def _same_person(club: Club, entry: Entry, member: Member) -> Entry | None:
    """Another name of ``entry``'s tournament that is ``member`` (of ``club``, checked): the
    member itself or one merged into it (a person holds one name in a tournament)."""
    person = merged_persons(club)
    target = person.get(member.id, member.id)
    # one indexed query, not a walk over every entry: a club's evening links each of its names;
    # by the ids, since the rows just read again have not loaded their club and tournament
    same = {target, *(merged for merged, stands_for in person.items() if stands_for == target)}
    return (
        Entry.objects.filter(tournament_id=entry.tournament_id, member_id__in=same)
        .exclude(id=entry.id)
        .order_by("number")
        .first()
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


def exact_candidates(club: Club, name: str, matcher: Matcher | None = None) -> list[Member]:
    """Active members whose name is exactly this one: the same words, whatever the case,
    spacing or customary order ("Smith, Jane" / "Jane Smith" / "SMITH Jane").

    Accents, punctuation, another script or an alias are not exact: those
    stay proposals for the arbiter to read. ``matcher`` is the club's, when
    the caller already built it.
    """
    wanted = " ".join(name.split())
    found = {
        m.id: m for m in Member.objects.filter(club=club, merged_into=None, name__iexact=wanted)
    }
    if matcher is None:
        matcher = roster_matcher(club)
    try:
        proposals = matcher.propose(name)
    except InputError:
        proposals = ()
    same = [p.key for p in proposals if Reason.ALIAS not in p.reasons and is_exact(name, p.member)]
    found.update((m.id, m) for m in Member.objects.filter(club=club, merged_into=None, id__in=same))
    return sorted(found.values(), key=lambda m: m.id)


def accept_exact(tournament: Tournament, *, who: str) -> Outcome:
    """Link every unlinked name that matches exactly one member exactly (the arbiter's one
    click)."""
    linked = 0
    with history_write(tournament.club_id):
        reread(tournament)
        matcher = roster_matcher(tournament.club)
        person = merged_persons(tournament.club)  # the persons already in it, merges followed
        taken = {
            person.get(m, m)
            for m in Entry.objects.filter(tournament=tournament)
            .exclude(member=None)
            .values_list("member_id", flat=True)
        }
        for entry in Entry.objects.filter(tournament=tournament, member=None).select_related(
            "tournament__club"
        ):
            found = exact_candidates(tournament.club, entry.name, matcher)
            if len(found) == 1 and found[0].id not in taken:
                link(entry, found[0], who=who)
                taken.add(found[0].id)
                linked += 1
    return Outcome(
        Text(
            Nn_(
                "linked %(count)s name that matched one member exactly",
                "linked %(count)s names that matched one member exactly",
            ),
            count=linked,
        )
    )


def all_new_members(tournament: Tournament, *, who: str) -> Outcome:
    """Make every still-unlinked name a new member (after the arbiter reviewed the proposals)."""
    count = 0
    with history_write(tournament.club_id):
        reread(tournament)
        for entry in Entry.objects.filter(tournament=tournament, member=None).select_related(
            "tournament__club"
        ):
            new_member(entry, who=who)
            count += 1
    return Outcome(
        Text(Nn_("made %(count)s new member", "made %(count)s new members"), count=count)
    )
