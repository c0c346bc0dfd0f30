"""One home for each rule the club app applies: the time control is a choice of
``formats.records.TimeControl`` wherever it is stored, typed or checked, and the rating list a
tournament counts in is decided by one function (``store.models.rating_list_of``), which the
layers above call instead of writing the rule again."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Tournament, rating_list_of
from clubrating.errors import InputError
from clubrating.formats.records import TimeControl
from clubrating.identity.compare import Reason
from clubrating.identity.match import Proposal

SRC = Path(__file__).resolve().parents[2] / "src" / "clubrating"
VALUES = ["standard", "rapid", "blitz"]  # written out: the oracle does not read the enum


def test_the_stored_time_control_is_a_choice_of_the_time_controls() -> None:
    field = Tournament._meta.get_field("time_control")
    assert [value for value, _ in field.choices] == VALUES == [tc.value for tc in TimeControl]
    assert field.default == "standard"


@pytest.mark.django_db
def test_a_time_control_that_is_none_of_them_fails_the_models_validation() -> None:
    club = Club.objects.create(name="Riverside", slug="riverside")
    tournament = Tournament(club=club, name="Night", date=dt.date(2026, 1, 6), time_control="slow")
    with pytest.raises(ValidationError, match="time_control"):
        tournament.full_clean(exclude=["club"])


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["classical", "Rapid", "", "standard "])
def test_an_evening_refuses_a_time_control_that_is_none_of_them(typed: str) -> None:
    club = Club.objects.create(name="Riverside", slug="riverside")
    with pytest.raises(InputError, match="is not a time control"):
        evening.start_evening(
            club,
            "Night",
            dt.date(2026, 1, 6),
            5,
            who="test",
            time_control=typed,
            today=dt.date(2026, 1, 6),
        )
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("separate", "time_control", "expected"),
    [(True, "blitz", "blitz"), (True, "standard", "standard"), (False, "blitz", "standard")],
)
def test_the_list_a_tournament_counts_in(separate: bool, time_control: str, expected: str) -> None:
    club = Club(name="Riverside", slug="riverside", separate_lists=separate)
    assert rating_list_of(club, Tournament(club=club, time_control=time_control)) == expected


def _functions_named(name: str) -> list[str]:
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                found.append(str(path.relative_to(SRC)))
    return found


def test_the_rating_list_rule_is_written_once() -> None:
    assert _functions_named("rating_list_of") == ["club/store/models.py"]
    again = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if 'separate_lists else "standard"' in path.read_text(encoding="utf-8")
    ]
    assert again == []


def test_no_module_spells_the_time_controls_out_again() -> None:
    spelled = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if '"standard", "rapid", "blitz"' in path.read_text(encoding="utf-8")
    ]
    assert spelled == []


def test_a_name_has_one_proposal_type() -> None:
    classes = [
        f"{path.relative_to(SRC)}:{node.name}"
        for path in SRC.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Proposal")
    ]
    assert classes == ["identity/match.py:Proposal"]


def test_a_proposal_reads_as_the_club_json_gives_it() -> None:
    proposal = Proposal(7, "John Smith", 91.5, (Reason.INITIAL,))
    assert proposal.as_dict() == {
        "member_id": 7,
        "member": "John Smith",
        "score": 91.5,
        "reasons": ["initial for the first name"],
    }
