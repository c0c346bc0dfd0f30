"""Members: merged into one person and apart again (R12), marked as two people, their flags
and their names."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.club.derived.rebuild import rebuild_derived
from clubrating.club.store.locking import history_write
from clubrating.club.read.members import merged_persons
from clubrating.club.store.locking import reread
from clubrating.club.store.models import Distinct, Entry, InitialEntry, Member, Merge
from clubrating.club.services.outcome import Outcome
from clubrating.errors import Refused, Text
from clubrating.identity.normalize import clean_text, normalize_name


def _shared_tournaments(a: Member, b: Member) -> Sequence[int]:
    """Tournaments where both persons played: each member with those merged into it."""
    person = merged_persons(a.club)
    ones, others = ([x.id, *(m for m, p in person.items() if p == x.id)] for x in (a, b))
    theirs = Entry.objects.filter(member__in=others).values("tournament")
    return list(
        Entry.objects.filter(member__in=ones, tournament__in=theirs).values_list(
            "tournament_id", flat=True
        )
    )


def _both_listed(a: Member, b: Member) -> bool:
    """Whether both persons (each member with those merged into it) have a row of the initial
    list."""
    person = merged_persons(a.club)
    listed = {
        person.get(m, m)
        for m in InitialEntry.objects.filter(club=a.club)
        .exclude(member=None)
        .values_list("member_id", flat=True)
    }
    return a.id in listed and b.id in listed


def merge(absorbed: Member, into: Member, *, who: str) -> Outcome:
    """``absorbed`` and ``into`` are one person: ``into``'s history now holds both (R12).

    Both must be unmerged, checked under the club's lock: so no merge ever points
    at a merged member, and no chain of merges can come back to where it started.
    """
    if absorbed.club_id != into.club_id:
        raise Refused(gettext_noop("members of two different clubs cannot be merged"))
    if absorbed.id == into.id:
        raise Refused(gettext_noop("a member cannot be merged into itself"))
    with history_write(absorbed.club_id):
        reread(absorbed, into)
        if absorbed.merged_into_id is not None:
            raise Refused(
                gettext_noop("%(name)s was merged already (into %(name2)s)"),
                name=absorbed.name,
                name2=absorbed.active().name,
            )
        if into.merged_into_id is not None:
            raise Refused(
                gettext_noop("%(name)s was merged into %(name2)s: merge into that member"),
                name=into.name,
                name2=into.active().name,
            )
        both = _shared_tournaments(absorbed, into)
        if both:
            raise Refused(
                gettext_noop(
                    "%(name)s and %(name2)s both played in tournament %(value)s: "
                    "they cannot be one person"
                ),
                name=absorbed.name,
                name2=into.name,
                value=both[0],
            )
        if _both_listed(absorbed, into):
            raise Refused(
                gettext_noop(
                    "%(name)s and %(name2)s both have a rating in the initial list: "
                    "they cannot be one person (unlink one of the rows first)"
                ),
                name=absorbed.name,
                name2=into.name,
            )
        absorbed.merged_into = into
        absorbed.save(update_fields=["merged_into"])
        Merge.objects.create(club=absorbed.club, absorbed=absorbed, into=into)
        report = rebuild_derived(
            absorbed.club,
            reason=Text(
                gettext_noop("merge member %(member)s into %(into)s"),
                member=absorbed.id,
                into=into.id,
            ),
        )
        audit.record(
            absorbed.club,
            who,
            "merge",
            f"member {absorbed.id} '{absorbed.name}' into {into.id}",
            old={"member": absorbed.id, "merged_into": None},
            new={"member": absorbed.id, "merged_into": into.id},
            summary=report.text,
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s (member %(id)s) merged into %(name2)s (member %(id2)s)"),
            name=absorbed.name,
            id=absorbed.id,
            name2=into.name,
            id2=into.id,
        ),
        report,
    )


def unmerge(member: Member, *, who: str) -> Outcome:
    """Undo a merge: both members get back exactly their own names and histories."""
    with history_write(member.club_id):
        reread(member)
        if member.merged_into_id is None:
            raise Refused(
                gettext_noop("%(name)s (member %(id)s) was never merged into another member"),
                name=member.name,
                id=member.id,
            )
        into = member.merged_into
        assert into is not None  # merged_into_id was checked above
        Merge.objects.filter(absorbed=member, undone=None).update(undone=timezone.now())
        member.merged_into = None
        member.save(update_fields=["merged_into"])
        report = rebuild_derived(
            member.club, reason=Text(gettext_noop("unmerge member %(member)s"), member=member.id)
        )
        audit.record(
            member.club,
            who,
            "unmerge",
            f"member {member.id} '{member.name}' from {into.id}",
            old={"member": member.id, "merged_into": into.id},
            new={"member": member.id, "merged_into": None},
            summary=report.text,
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s (member %(id)s) is separate from %(name2)s again"),
            name=member.name,
            id=member.id,
            name2=into.name,
        ),
        report,
    )


def mark_distinct(one: Member, other: Member, *, who: str, undo: bool = False) -> Outcome:
    """The arbiter says two members are two people (R12): they are no longer listed as possibly
    one person. ``undo`` takes that back. Nothing else changes: no rating depends on it."""
    if one.club_id != other.club_id:
        raise Refused(gettext_noop("members of two different clubs are two people already"))
    if one.id == other.id:
        raise Refused(gettext_noop("a member is one person"))
    low, high = sorted((one, other), key=lambda m: m.id)
    with history_write(low.club_id):
        reread(low, high)
        pair = Text(
            gettext_noop("%(name)s (member %(id)s) and %(name2)s (member %(id2)s)"),
            name=low.name,
            id=low.id,
            name2=high.name,
            id2=high.id,
        )
        held = Distinct.objects.filter(one=low, other=high)
        if undo:
            if not held.exists():
                raise Refused(gettext_noop("%(pair)s were not marked as two people"), pair=pair)
            held.delete()
            audit.record(
                low.club,
                who,
                "undistinct",
                f"members {low.id} and {high.id}",
                old={"distinct": True},
                new={"distinct": False},
            )
            return Outcome(
                Text(gettext_noop("%(pair)s may be listed as possibly one person again"), pair=pair)
            )
        if held.exists():
            raise Refused(gettext_noop("%(pair)s are marked as two people already"), pair=pair)
        Distinct.objects.create(club=low.club, one=low, other=high)
        audit.record(
            low.club,
            who,
            "distinct",
            f"members {low.id} and {high.id}",
            old={"distinct": False},
            new={"distinct": True},
        )
    return Outcome(
        Text(gettext_noop("%(pair)s are two people: no longer listed as possibly one"), pair=pair)
    )


def set_member_flags(
    member: Member, *, who: str, junior: bool | None = None, consent: bool | None = None
) -> Outcome:
    with history_write(member.club_id):
        reread(member)
        old = {"junior": member.junior, "full_name_consent": member.full_name_consent}
        if junior is not None:
            member.junior = junior
        if consent is not None:
            member.full_name_consent = consent
        member.save(update_fields=["junior", "full_name_consent"])
        audit.record(
            member.club,
            who,
            "member-flags",
            f"member {member.id} '{member.name}'",
            old=old,
            new={"junior": member.junior, "full_name_consent": member.full_name_consent},
        )
        report = (
            rebuild_derived(member.club, reason=Text(gettext_noop("junior flag")))
            if (junior is not None and junior != old["junior"] and member.club.policy == "fide")
            else None
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s: junior %(junior)s, full-name consent %(full_name_consent)s"),
            name=member.name,
            junior=_yes_no(member.junior),
            full_name_consent=_yes_no(member.full_name_consent),
        ),
        report,
    )


def _yes_no(flag: bool) -> Text:
    """A flag in words, translated where it is shown (never "True")."""
    return Text(gettext_noop("yes") if flag else gettext_noop("no"))


def rename_member(member: Member, name: str, *, who: str) -> Outcome:
    """Correct a member's name (a typo made when the member was created, a new surname).

    The names typed in tournaments stay as they were written, so the old
    spelling is still matched to this member (a known alias). No rating
    depends on a name; the pages show the new one.
    """
    new = clean_text(name)  # control characters and runs of spaces out; at most 200 characters
    normalize_name(new)  # letters in it: or an InputError that says why
    with history_write(member.club_id):
        reread(member)
        if member.merged_into_id is not None:
            raise Refused(
                gettext_noop("%(name)s was merged into %(name2)s: rename that member"),
                name=member.name,
                name2=member.active().name,
            )
        if new == member.name:
            raise Refused(
                gettext_noop("member %(id)s is called %(new)s already"), id=member.id, new=repr(new)
            )
        old = member.name
        member.name = new
        member.save(update_fields=["name"])
        audit.record(
            member.club, who, "rename", f"member {member.id}", old={"name": old}, new={"name": new}
        )
    return Outcome(
        Text(
            gettext_noop("member %(id)s renamed: %(old)s -> %(new)s"),
            id=member.id,
            old=repr(old),
            new=repr(new),
        )
    )


def _not_merged(member: Member) -> None:
    """Leaving and coming back are said of a person: the member others were merged into."""
    if member.merged_into_id is not None:
        raise Refused(
            gettext_noop("%(name)s was merged into %(name2)s: say it of that member"),
            name=member.name,
            name2=member.active().name,
        )


def leave(member: Member, day: dt.date, *, who: str) -> Outcome:
    """The member left the club on ``day``: off the current rating list and the evening's
    registration from now on; every tournament, game, rating change and the rating itself stay
    (docs/ratings.md, "Members who leave"). No rating depends on it: nothing is replayed."""
    with history_write(member.club_id) as club:
        reread(member)
        _not_merged(member)
        if member.left is not None:
            raise Refused(
                gettext_noop("%(name)s (member %(id)s) left already, on %(date)s"),
                name=member.name,
                id=member.id,
                date=member.left.isoformat(),
            )
        today = zones.today(club.time_zone)
        if day > today:
            raise Refused(
                gettext_noop(
                    "%(date)s is after today (%(today)s): mark the member on the day they leave"
                ),
                date=day.isoformat(),
                today=today.isoformat(),
            )
        member.left = day
        member.save(update_fields=["left"])
        audit.record(
            club,
            who,
            "member-left",
            f"member {member.id} '{member.name}'",
            old={"left": None},
            new={"left": day.isoformat()},
        )
    return Outcome(
        Text(
            gettext_noop(
                "%(name)s (member %(id)s) left the club on %(date)s: off the current list, "
                "history kept"
            ),
            name=member.name,
            id=member.id,
            date=day.isoformat(),
        )
    )


def come_back(member: Member, *, who: str) -> Outcome:
    """A member who left is a member again: back on the list with the rating they left with."""
    with history_write(member.club_id) as club:
        reread(member)
        _not_merged(member)
        if member.left is None:
            raise Refused(
                gettext_noop("%(name)s (member %(id)s) has not left the club"),
                name=member.name,
                id=member.id,
            )
        old = member.left
        member.left = None
        member.save(update_fields=["left"])
        audit.record(
            club,
            who,
            "member-returned",
            f"member {member.id} '{member.name}'",
            old={"left": old.isoformat()},
            new={"left": None},
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s (member %(id)s) is a member again (had left on %(date)s)"),
            name=member.name,
            id=member.id,
            date=old.isoformat(),
        )
    )
