"""Linking a list of names at once (a tournament's, the initial list's): the same links and
audit entries as linking each name alone, in a number of queries that does not grow with the
number of names."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.club.store.models import AuditEntry, Club, Entry, InitialEntry, Member, Tournament
from clubrating.club.services import initial_list as il
from clubrating.errors import NotFound, Refused
from clubrating.formats.ratinglist import read_rating_list
from tests.club.conftest import ARBITER, make_record
from clubrating.club.services.clubs import create_club
from clubrating.club.services.names import (
    accept_exact,
    all_new_members,
    link,
    link_all,
    new_member,
)
from clubrating.club.services.tournaments import import_tournament

pytestmark = pytest.mark.storage


def names(count: int) -> list[str]:
    return [f"Player {chr(65 + i % 26)}{i:03d}" for i in range(count)]


def draft(club: Club, players: list[str], day: int = 1) -> Tournament:
    """One round, the players paired in order (an odd one out sits out)."""
    games = [(1, players[i], players[i + 1], "=") for i in range(0, len(players) - 1, 2)]
    record = make_record(f"Evening {day}", dt.date(2026, 3, day), players, games)
    return import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1), force=True)


def seed(club: Club, players: list[str]) -> None:
    text = "Name;Rating;Games\n" + "".join(f"{p};{1500 + i};10\n" for i, p in enumerate(players))
    il.seed_ratings(
        club, read_rating_list(io.StringIO(text), "list.csv"), who=ARBITER, source="list.csv"
    )


def queries(action: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def counts(size: int) -> dict[str, int]:
    """The queries of each batched link, in a club of ``size`` names."""
    club = create_club(f"Club of {size}", who=ARBITER)
    players = names(size)
    first = draft(club, players)
    found = {"all-new": queries(lambda: all_new_members(first, who=ARBITER))}
    second = draft(club, players, day=2)
    found["exact"] = queries(lambda: accept_exact(second, who=ARBITER))
    assert not Entry.objects.filter(tournament=second, member=None).exists()
    third = draft(club, players, day=3)
    member = {m.name: m for m in Member.objects.filter(club=club)}
    chosen = [(e, member[e.name]) for e in Entry.objects.filter(tournament=third)]
    found["link all"] = queries(lambda: link_all(third, chosen, who=ARBITER))
    assert not Entry.objects.filter(tournament=third, member=None).exists()
    seed(club, players)
    found["initial exact"] = queries(lambda: il.accept_exact_initial(club, who=ARBITER))
    assert not InitialEntry.objects.filter(club=club, member=None).exists()
    other = create_club(f"Other club of {size}", who=ARBITER)
    seed(other, players)
    found["initial all-new"] = queries(lambda: il.all_new_initial(other, who=ARBITER))
    assert Member.objects.filter(club=other).count() == size
    return found


def test_linking_a_list_costs_the_same_queries_for_5_names_or_50(db: None) -> None:
    few, many = counts(5), counts(50)
    assert few == many, (few, many)


def audit_trail(club: Club) -> list[tuple[str, str, Any, Any]]:
    """The club's audit entries of links and new members, member ids written as names."""
    name = dict(Member.objects.filter(club=club).values_list("id", "name"))
    trail = []
    for action, target, old, new in (
        AuditEntry.objects.filter(club=club, action__in=("link", "new-member", "link-initial"))
        .order_by("id")
        .values_list("action", "target", "old", "new")
    ):
        if action == "new-member":
            target = f"member {name[int(target.split()[1])]}"
        if new and "member_id" in new:
            new = {**new, "member_id": name[new["member_id"]]}
        target = " ".join(w for w in target.split() if not w.isdigit())  # the tournament's id
        trail.append((action, target, old, new))
    return trail


def test_a_list_linked_at_once_leaves_the_audit_entries_of_its_names_linked_one_by_one(
    db: None,
) -> None:
    players = ["Anna Berg", "Ben Cole", "Cara Dunn"]
    at_once = create_club("At once", who=ARBITER)
    all_new_members(draft(at_once, players), who=ARBITER)
    accept_exact(draft(at_once, players, day=2), who=ARBITER)
    third = draft(at_once, players, day=3)
    member = {m.name: m for m in Member.objects.filter(club=at_once)}
    link_all(third, [(e, member[e.name]) for e in third.entries.order_by("number")], who=ARBITER)
    seed(at_once, [*players, "Dan Eng"])
    il.accept_exact_initial(at_once, who=ARBITER)
    il.all_new_initial(at_once, who=ARBITER)

    alone = create_club("One by one", who=ARBITER)
    for entry in Entry.objects.filter(tournament=draft(alone, players)).order_by("number"):
        new_member(entry, who=ARBITER)
    for day in (2, 3):
        for entry in Entry.objects.filter(tournament=draft(alone, players, day=day)).order_by(
            "number"
        ):
            link(entry, Member.objects.get(club=alone, name=entry.name), who=ARBITER)
    seed(alone, [*players, "Dan Eng"])
    for row in InitialEntry.objects.filter(club=alone).order_by("number")[:3]:
        il.link_initial(row, Member.objects.get(club=alone, name=row.name), who=ARBITER)
    il.new_member_initial(InitialEntry.objects.get(club=alone, number=4), who=ARBITER)

    assert audit_trail(at_once) == audit_trail(alone)
    assert len(audit_trail(alone)) == 3 * 2 + 3 + 3 + 3 + 2


def test_a_name_of_a_person_holding_another_name_of_the_tournament_is_refused_whole(
    club: Club,
) -> None:
    """Linking two names of one tournament to one person is refused, and nothing is linked."""
    t = draft(club, ["Anna Berg", "Ben Cole"])
    all_new_members(t, who=ARBITER)
    anna = Member.objects.get(name="Anna Berg")
    ben_entry = Entry.objects.get(tournament=t, name="Ben Cole")
    before = AuditEntry.objects.count()
    with pytest.raises(Refused, match="already 'Anna Berg'"):
        link(ben_entry, anna, who=ARBITER)
    ben_entry.refresh_from_db()
    assert ben_entry.member.name == "Ben Cole" and AuditEntry.objects.count() == before


def test_names_confirmed_together_are_refused_whole_on_a_clash_or_a_name_of_another_tournament(
    club: Club,
) -> None:
    t = draft(club, ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"])
    all_new_members(t, who=ARBITER)
    second = draft(club, ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"], day=2)
    member = {m.name: m for m in Member.objects.filter(club=club)}
    rows = {e.name: e for e in second.entries.all()}
    before = AuditEntry.objects.count()
    with pytest.raises(Refused, match="already 'Anna Berg'"):  # Ben's name given to Anna
        link_all(
            second,
            [(rows["Anna Berg"], member["Anna Berg"]), (rows["Ben Cole"], member["Anna Berg"])],
            who=ARBITER,
        )
    elsewhere = t.entries.get(name="Cara Dunn")
    with pytest.raises(NotFound, match="no name"):
        link_all(
            second,
            [(rows["Dan Eng"], member["Dan Eng"]), (elsewhere, member["Cara Dunn"])],
            who=ARBITER,
        )
    assert AuditEntry.objects.count() == before
    assert not second.entries.exclude(member=None).exists()
