"""Members that may be one person: listed for the arbiter, never merged by themselves (R10, R12)."""

from __future__ import annotations

import datetime as dt
import json
import sys
import subprocess

import pytest

from clubrating.club.read.matching import possible_duplicates, roster_matcher
from clubrating.club.store.models import AuditEntry, Member
from clubrating.errors import InputError, Refused
from clubrating.identity.compare import words

from .conftest import ARBITER
from clubrating.club.services.members import mark_distinct, merge, rename_member, unmerge

JAN, FEB, MAR = dt.date(2026, 1, 6), dt.date(2026, 2, 3), dt.date(2026, 3, 3)


def names(pairs):  # type: ignore[no-untyped-def]
    return [(p.absorbed.name, p.into.name) for p in pairs]


def test_two_spellings_made_two_members_are_listed_with_the_reason_and_nothing_is_merged(
    club, publish
):
    publish(
        "January", JAN, ["Garry Kasparov", "Anna Berg"], [(1, "Garry Kasparov", "Anna Berg", "1-0")]
    )
    publish(
        "February", FEB, ["Gary Kasparov", "Ben Cole"], [(1, "Gary Kasparov", "Ben Cole", "1-0")]
    )
    found = possible_duplicates(club)
    assert names(found) == [("Gary Kasparov", "Garry Kasparov")]  # the older member is the one kept
    assert "transliteration" in found[0].reasons and 85 <= found[0].score < 100
    assert Member.objects.filter(club=club, merged_into=None).count() == 4


def test_two_members_who_met_in_one_tournament_are_two_people(club, publish):
    publish("January", JAN, ["Anna Berg", "Anna Bergh"], [(1, "Anna Berg", "Anna Bergh", "1-0")])
    assert possible_duplicates(club) == []


def test_an_undone_merge_says_they_are_two_people(club, publish):
    publish("January", JAN, ["John Smith", "Anna Berg"], [(1, "John Smith", "Anna Berg", "1-0")])
    publish("February", FEB, ["J. Smith", "Ben Cole"], [(1, "J. Smith", "Ben Cole", "=")])
    [pair] = possible_duplicates(club)
    merge(pair.absorbed, pair.into, who=ARBITER)
    assert possible_duplicates(club) == []  # one member now
    unmerge(Member.objects.get(pk=pair.absorbed.pk), who=ARBITER)
    assert possible_duplicates(club) == []


def test_two_people_marked_by_the_arbiter_are_no_longer_listed_and_that_can_be_undone(
    club, publish
):
    publish("January", JAN, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    publish(
        "February", FEB, ["A. Berg", "Cara Dunn"], [(1, "A. Berg", "Cara Dunn", "1-0")]
    )  # a namesake
    [pair] = possible_duplicates(club)
    outcome = mark_distinct(pair.absorbed, pair.into, who=ARBITER)
    assert "are two people" in str(outcome)
    assert possible_duplicates(club) == []
    assert AuditEntry.objects.filter(club=club, action="distinct").count() == 1
    with pytest.raises(Refused, match="already"):
        mark_distinct(pair.into, pair.absorbed, who=ARBITER)
    with pytest.raises(Refused, match="one person"):
        mark_distinct(pair.into, pair.into, who=ARBITER)
    mark_distinct(pair.into, pair.absorbed, who=ARBITER, undo=True)
    assert names(possible_duplicates(club)) == [("A. Berg", "Anna Berg")]
    with pytest.raises(Refused, match="were not marked"):
        mark_distinct(pair.into, pair.absorbed, who=ARBITER, undo=True)


def test_different_first_names_are_not_listed(club, publish):
    publish("January", JAN, ["John Smith", "Anna Berg"], [(1, "John Smith", "Anna Berg", "1-0")])
    publish("February", FEB, ["Jane Smith", "Ben Cole"], [(1, "Jane Smith", "Ben Cole", "1-0")])
    assert possible_duplicates(club) == []


def test_the_command_lists_pairs_as_json(tmp_path):
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    command = [sys.executable, "-m", "clubrating", "--database", database]
    subprocess.run(command + ["init", "Riverside"], check=True, capture_output=True)
    for name, date, line in (
        ("jan.csv", JAN, "1,Levon Aronian,Anna Berg,1-0"),
        ("feb.csv", FEB, "1,Aronyan Levon,Ben Cole,0-1"),
    ):
        (tmp_path / name).write_text(f"round,white,black,result\n{line}\n", encoding="utf-8")
        done = subprocess.run(
            command + ["import", str(tmp_path / name), "--date", date.isoformat()],
            check=True,
            capture_output=True,
            text=True,
        )
        number = 1 if name == "jan.csv" else 2
        subprocess.run(
            command + ["link", str(number), "--all-new"], check=True, capture_output=True
        )
        subprocess.run(command + ["publish", str(number)], check=True, capture_output=True)
    done = subprocess.run(
        command + ["duplicates", "--json"], check=True, capture_output=True, text=True
    )
    [pair] = json.loads(done.stdout)
    assert (pair["absorbed"]["name"], pair["into"]["name"]) == ("Aronyan Levon", "Levon Aronian")
    assert pair["reasons"] == ["transliteration", "first and last name swapped"]
    refused = subprocess.run(
        command + ["duplicates", "--min-score", "20"], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr


def test_a_member_renamed_keeps_the_old_spelling_as_an_alias_and_the_audit_says_so(club, publish):
    publish("January", JAN, ["Jhon Smith", "Anna Berg"], [(1, "Jhon Smith", "Anna Berg", "1-0")])
    jhon = Member.objects.get(club=club, name="Jhon Smith")
    assert "renamed: 'Jhon Smith' -> 'John Smith'" in str(
        rename_member(jhon, " John  Smith ", who=ARBITER)
    )
    jhon.refresh_from_db()
    assert jhon.name == "John Smith"
    entry = AuditEntry.objects.get(club=club, action="rename")
    assert (entry.old, entry.new) == ({"name": "Jhon Smith"}, {"name": "John Smith"})
    # the spelling typed in January still finds the member, as a known alias
    [proposal] = roster_matcher(club).propose("Jhon Smith")
    assert proposal.key == jhon.id and "known alias" in words(proposal.reasons)


@pytest.mark.parametrize(
    ("name", "error"),
    [("", InputError), ("!!!", InputError), ("x" * 201, InputError), ("Anna Berg", Refused)],
)
def test_a_rename_to_nothing_usable_or_the_same_name_is_refused_and_nothing_changes(
    club, publish, name, error
):
    publish("January", JAN, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    anna = Member.objects.get(club=club, name="Anna Berg")
    with pytest.raises(error):
        rename_member(anna, name, who=ARBITER)
    anna.refresh_from_db()
    assert anna.name == "Anna Berg" and not AuditEntry.objects.filter(action="rename").exists()
