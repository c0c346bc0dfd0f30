"""Names to comparable tokens: scripts, accents, order, particles, titles, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.identity.normalize import MAX_NAME_LENGTH, normalize_name, skeleton


@pytest.mark.parametrize(
    ("raw", "surname", "given"),
    [
        ("Smith, John", ("smith",), ("john",)),
        ("John Smith", ("smith",), ("john",)),
        ("  SMITH ,  John   Paul ", ("smith",), ("john", "paul")),
        ("Müller, Jürgen", ("muller",), ("jurgen",)),
        ("Аронян, Левон", ("aronyan",), ("levon",)),
        ("Левон Аронян", ("aronyan",), ("levon",)),
        ("Արոնյան, Լևոն", ("aronyan",), ("levon",)),
        ("Ｓｍｉｔｈ, Ｊｏｈｎ", ("smith",), ("john",)),  # full-width letters (NFKC)
        ("D'Elia, Mario", ("delia",), ("mario",)),
        ("D`Elia, Mario", ("delia",), ("mario",)),
        ("Bat-Ochir, Gunsen", ("bat", "ochir"), ("gunsen",)),
        ("Smith, J.", ("smith",), ("j",)),
        ("Kopp, Bernd, Dr.", ("kopp",), ("bernd",)),
        ("Babic, Miroslav SLO", ("babic",), ("miroslav",)),
        ("Bochkarev, Alexander2", ("bochkarev",), ("alexander",)),
        ("Ludwig van Beethoven", ("beethoven",), ("ludwig",)),
        ("Smith,\tJohn\x00", ("smith",), ("john",)),
    ],
)
def test_a_name_is_split_into_surname_and_given_names(
    raw: str, surname: tuple[str, ...], given: tuple[str, ...]
) -> None:
    name = normalize_name(raw)
    assert (name.surname, name.given) == (surname, given)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("van der Berg, Pieter", "Berg, Pieter van der"),
        ("De Lorenzi, Sebastien", "Lorenzi, Sebastien de"),
        ("Al Amiri, Adel", "Alamiri, Adel"),
    ],
)
def test_particles_moved_or_joined_give_the_same_full_surname(one: str, other: str) -> None:
    assert normalize_name(one).full_surname == normalize_name(other).full_surname


def test_other_scripts_are_flagged_and_accents_are_not() -> None:
    assert normalize_name("Аронян, Левон").other_script
    assert not normalize_name("Müller, Jürgen").other_script


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("aronian", "aronyan"),
        ("garry", "gary"),
        ("garri", "gary"),
        ("sergey", "sergei"),
        ("mikhail", "mihail"),
        ("kasparow", "kasparov"),
        ("mueller", "muller"),
        ("aleksandr", "alexandr"),
    ],
)
def test_two_romanisations_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


def test_different_names_keep_different_skeletons() -> None:
    assert skeleton("smith") != skeleton("smyth") or skeleton("smith") == "smith"
    assert skeleton("ivanov") != skeleton("petrov")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty name"),
        ("   \t\n ", "empty name"),
        ("\x00\x01\x02", "empty name"),
        ("...,;!", "no letters"),
        ("12345", "no letters"),
        ("x" * 10_000, f"longer than {MAX_NAME_LENGTH}"),
    ],
)
def test_a_name_with_nothing_to_match_is_a_clear_input_error(raw: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        normalize_name(raw)


def test_a_name_that_is_not_text_is_an_input_error() -> None:
    with pytest.raises(InputError, match="must be text"):
        normalize_name(42)  # type: ignore[arg-type]


def test_mixed_scripts_are_transliterated_together() -> None:
    name = normalize_name("Levon Аронян")
    assert name.surname == ("aronyan",) and name.given == ("levon",)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_lower_case_ascii_words_or_an_input_error(raw: str) -> None:
    try:
        name = normalize_name(raw)
    except InputError:
        return
    assert name.words
    for word in name.words + name.surname + name.given:
        assert word and word.isascii() and word == word.lower() and word.isalpha()
