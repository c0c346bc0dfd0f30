"""Proposals with reasons (R10, R11): one row per kind of variation, ties, limits, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.identity.compare import Reason, words
from clubrating.identity.match import MAX_PROPOSALS, Matcher, Proposal, RosterEntry

CLUB = (
    "Smith, John",
    "Smith, Jane",
    "Smith, Peter Paul",
    "Brown, Robert",
    "Aronian, Levon",
    "Kasparov, Garry",
    "Karjakin, Sergey",
    "Schneider, Thomas",
    "Lopez Gaviria, Alvaro",
    "van der Berg, Pieter",
    "Bat-Ochir, Gunsen",
    "Novak, Jan",
    "Novak, Tomas",
    "Weber, Anna Maria",
    "Müller, Jürgen",
    "Kowalski, Marek",
    "Hansen, Erik",
    "Nguyen, Van Thanh",
)
ALIASED = RosterEntry(100, "Meier, Claudia", aliases=("Schulz, Claudia",))


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher([RosterEntry(i, name) for i, name in enumerate(CLUB)] + [ALIASED])


@pytest.mark.parametrize(
    ("typed", "member", "reason"),
    [
        ("Smith, John", "Smith, John", "same name"),
        ("John Smith", "Smith, John", "same name"),
        ("SMITH, JOHN", "Smith, John", "accents, case or punctuation"),
        ("Muller, Jurgen", "Müller, Jürgen", "accents, case or punctuation"),
        ("P. Smith", "Smith, Peter Paul", "initial for the first name"),
        ("Smith, Peter", "Smith, Peter Paul", "middle name missing"),
        ("Brown, Robert James", "Brown, Robert", "middle name added"),
        ("Schnieder, Thomas", "Schneider, Thomas", "one-letter typo in the surname"),
        ("Kowalksi, Marek", "Kowalski, Marek", "one-letter typo in the surname"),
        ("Hanssen, Erik", "Hansen, Erik", "transliteration"),
        ("Kovalsky, Marek", "Kowalski, Marek", "transliteration"),
        ("Brwn, Robert", "Brown, Robert", "one-letter typo in the surname"),
        ("Schneidre, Tomas", "Schneider, Thomas", "one-letter typo in the surname"),
        ("Karjakinn, Sergey", "Karjakin, Sergey", "transliteration"),
        (
            "Lopez Gavirai, Alvaro",
            "Lopez Gaviria, Alvaro",
            "typo in the second part of a double surname",
        ),
        ("Kasparvo, Gary", "Kasparov, Garry", "one-letter typo in the surname"),
        ("Kasparov Garry", "Kasparov, Garry", "same name"),
        ("Robert, Brown", "Brown, Robert", "first and last name swapped"),
        ("Thomas, Schneider", "Schneider, Thomas", "first and last name swapped"),
        ("Aronyan, Levon", "Aronian, Levon", "transliteration"),
        ("Левон Аронян", "Aronian, Levon", "transliteration"),
        ("Լևոն Արոնյան", "Aronian, Levon", "transliteration"),
        ("Gary Kasparov", "Kasparov, Garry", "transliteration"),
        ("Garri Kasparov", "Kasparov, Garry", "transliteration"),
        ("Sergei Karjakin", "Karjakin, Sergey", "transliteration"),
        ("Сергей Карякин", "Karjakin, Sergey", "transliteration"),
        ("Lopez, Alvaro", "Lopez Gaviria, Alvaro", "hyphenated / double surname"),
        ("Lopez-Gaviria, Alvaro", "Lopez Gaviria, Alvaro", "same name"),
        (
            "Batochir, Gunsen",
            "Bat-Ochir, Gunsen",
            "hyphenated / double surname written joined or apart",
        ),
        ("Berg, Pieter van der", "van der Berg, Pieter", "same name"),
        ("Berg, Pieter", "van der Berg, Pieter", "particle (van, de ...) added, dropped or moved"),
        ("Schulz, Claudia", "Meier, Claudia", "known alias"),
    ],
)
def test_each_kind_of_variation_finds_the_member_first_with_its_reason(
    matcher: Matcher, typed: str, member: str, reason: str
) -> None:
    proposals = matcher.propose(typed)
    assert proposals, f"nothing proposed for {typed!r}"
    assert proposals[0].member == member
    assert reason in words(proposals[0].reasons)


def test_an_exact_name_scores_100_and_a_variation_less(matcher: Matcher) -> None:
    assert matcher.propose("Smith, John")[0].score == 100.0
    assert 60.0 <= matcher.propose("Schnieder, Thomas")[0].score < 100.0


def test_an_initial_shared_by_two_members_proposes_both_with_equal_scores(matcher: Matcher) -> None:
    proposals = matcher.propose("J. Smith")
    top = [p for p in proposals if p.score == proposals[0].score]
    assert {p.member for p in top} == {"Smith, John", "Smith, Jane"}
    assert words(top[0].reasons) == words(top[1].reasons) == ("initial for the first name",)
    assert "Smith, Peter Paul" not in [p.member for p in top]


def test_a_tie_is_listed_in_roster_name_order_whatever_the_roster_order() -> None:
    one = Matcher([RosterEntry(1, "Smith, John"), RosterEntry(2, "Smith, Jane")]).propose(
        "J. Smith"
    )
    two = Matcher([RosterEntry(2, "Smith, Jane"), RosterEntry(1, "Smith, John")]).propose(
        "J. Smith"
    )
    assert one == two
    assert [p.member for p in one] == ["Smith, Jane", "Smith, John"]


def test_every_proposal_has_a_reason_and_a_score_out_of_100(matcher: Matcher) -> None:
    for typed in ("J. Smith", "Novak", "Aronyan, L.", "Anna Weber", "Tomas Novak"):
        for proposal in matcher.propose(typed):
            assert isinstance(proposal, Proposal)
            assert proposal.reasons and all(
                isinstance(r, Reason) and r.text for r in proposal.reasons
            )
            assert 0.0 <= proposal.score <= 100.0


def test_proposals_are_best_first(matcher: Matcher) -> None:
    scores = [p.score for p in matcher.propose("Novak")]
    assert len(scores) == 2 and scores == sorted(scores, reverse=True)


def test_a_stranger_gets_no_proposal(matcher: Matcher) -> None:
    assert matcher.propose("Zzyzx, Quentin") == ()


def test_a_different_first_name_is_not_proposed_beside_a_sure_match(matcher: Matcher) -> None:
    assert [p.member for p in matcher.propose("Novak, Jan")] == ["Novak, Jan"]


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_the_limit_caps_the_proposals(limit: int) -> None:
    crowd = Matcher([RosterEntry(i, f"Smith, J{'a' * i}n") for i in range(1, 12)])
    proposals = crowd.propose("J. Smith", limit=limit)
    assert len(proposals) == limit


def test_never_more_than_five_proposals() -> None:
    crowd = Matcher([RosterEntry(i, f"Smith, J{'a' * i}n") for i in range(1, 12)])
    assert len(crowd.propose("J. Smith")) == MAX_PROPOSALS


@pytest.mark.parametrize("limit", [0, -1, 6])
def test_a_limit_out_of_range_is_an_input_error(matcher: Matcher, limit: int) -> None:
    with pytest.raises(InputError, match="limit"):
        matcher.propose("Smith, John", limit=limit)


@pytest.mark.parametrize("typed", ["", "   ", "?!.,", "\x07\x08", "x" * 10_000])
def test_a_name_with_nothing_to_match_is_an_input_error(matcher: Matcher, typed: str) -> None:
    with pytest.raises(InputError):
        matcher.propose(typed)


def test_a_roster_name_with_nothing_to_match_is_set_aside_not_fatal() -> None:
    matcher = Matcher([RosterEntry(1, "Smith, John"), RosterEntry(2, "---")])
    assert matcher.unusable == ((2, "---"),)
    assert [p.key for p in matcher.propose("John Smith")] == [1]


def test_proposing_changes_nothing_in_the_roster() -> None:
    roster = [RosterEntry(1, "Smith, John"), RosterEntry(2, "Smith, Jane")]
    matcher = Matcher(roster)
    first = matcher.propose("J. Smith")
    assert matcher.propose("J. Smith") == first
    assert roster == [RosterEntry(1, "Smith, John"), RosterEntry(2, "Smith, Jane")]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_text_gives_proposals_or_an_input_error(matcher: Matcher, typed: str) -> None:
    try:
        proposals = matcher.propose(typed)
    except InputError:
        return
    assert len(proposals) <= MAX_PROPOSALS
    assert [p.score for p in proposals] == sorted((p.score for p in proposals), reverse=True)
