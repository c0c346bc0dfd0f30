"""The exact-name rule and the decision "this file is a tournament already stored", as tables."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest

from clubrating.files import read_tournament_file
from clubrating.formats.pgn import read_pgn, write_pgn
from clubrating.identity.same import Event, EventGame, event_of_record, is_exact, same_event

DATA = Path(__file__).resolve().parents[1] / "formats" / "data"  # the project's own TRF


@pytest.mark.parametrize(
    ("typed", "name", "expected"),
    [
        ("Mirzoev Azer", "Mirzoev Azer", True),
        ("mirzoev  azer", "Mirzoev Azer", True),
        ("Azer Mirzoev", "Mirzoev Azer", True),
        ("Mirzoev, Azer", "Azer Mirzoev", True),
        ("MIRZOEV Azer", "Mirzoev, Azer", True),
        ("Mirzoev A.", "Mirzoev Azer", False),  # an initial: a proposal, not exact
        ("Mirzojev Azer", "Mirzoev Azer", False),  # a spelling
        ("Müller Hans", "Mueller Hans", False),  # accents are not exact
        ("Mirzoev", "Mirzoev Azer", False),  # a word missing
        ("", "", False),
    ],
)
def test_exact_is_the_same_words_in_any_case_and_customary_order(
    typed: str, name: str, expected: bool
) -> None:
    assert is_exact(typed, name) is expected


DAY = dt.date(2024, 5, 12)
G = EventGame


def event(
    date: dt.date, names: dict[int, tuple[str, ...]], *games: tuple[int, int, int, int]
) -> Event:
    return Event(date, names, tuple(G(*g) for g in games))


STORED = event(
    DAY,
    {1: ("Berg, Anna",), 2: ("Smith, John", "John Smith", "J. Smith"), 3: ("Kovacs Peter",)},
    (1, 2, 2, 0),
    (2, 3, 1, 1),
    (3, 1, 0, 2),
)


@pytest.mark.parametrize(
    ("incoming", "expected"),
    [
        # the same file again, or exported twice with other spacing
        (
            event(
                DAY,
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            True,
        ),
        # another format: other numbers, other order of names, other colours written
        (
            event(
                DAY,
                {7: ("Anna Berg",), 8: ("SMITH John",), 9: ("Peter Kovács",)},
                (8, 7, 0, 2),
                (9, 8, 1, 1),
                (7, 9, 2, 0),
            ),
            True,
        ),
        # a day later (an export dated by its last round), a day earlier
        (
            event(
                DAY + dt.timedelta(days=1),
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            True,
        ),
        (
            event(
                DAY - dt.timedelta(days=1),
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            True,
        ),
        # a name written as the linked member's alias
        (
            event(
                DAY,
                {1: ("Berg, Anna",), 2: ("J. Smith",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            True,
        ),
        # two days apart: another evening
        (
            event(
                DAY + dt.timedelta(days=2),
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            False,
        ),
        # one result differs
        (
            event(
                DAY,
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 1, 1),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            False,
        ),
        # one player differs
        (
            event(
                DAY,
                {1: ("Berg, Anna",), 2: ("Smith, Jane",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
                (3, 1, 0, 2),
            ),
            False,
        ),
        # a game fewer
        (
            event(
                DAY,
                {1: ("Berg, Anna",), 2: ("Smith, John",), 3: ("Kovacs Peter",)},
                (1, 2, 2, 0),
                (2, 3, 1, 1),
            ),
            False,
        ),
        # no played game at all: nothing to compare, never a twin
        (event(DAY, {1: ("Berg, Anna",)}), False),
    ],
    ids=[
        "again",
        "other-format",
        "day-later",
        "day-earlier",
        "alias",
        "two-days",
        "other-result",
        "other-player",
        "game-fewer",
        "no-games",
    ],
)
def test_a_tournament_is_the_stored_one_when_date_players_and_results_agree(
    incoming: Event, expected: bool
) -> None:
    assert same_event(STORED, incoming) is expected


def test_namesakes_are_told_apart_by_their_results() -> None:
    stored = event(
        DAY,
        {1: ("Berg, Anna",), 2: ("Berg, Anna",), 3: ("Kovacs Peter",)},
        (1, 3, 2, 0),
        (2, 3, 0, 2),
    )
    swapped = event(
        DAY,
        {5: ("Anna Berg",), 6: ("Anna Berg",), 7: ("Peter Kovacs",)},
        (6, 7, 2, 0),
        (5, 7, 0, 2),
    )
    assert same_event(stored, swapped) is True  # one pairing of the namesakes is tried, and it fits


def test_the_pgn_of_a_trf_s_games_is_the_same_tournament() -> None:
    trf = read_tournament_file(str(DATA / "all_codes.trf"))
    text = io.StringIO()
    write_pgn(trf, text, results_only=True)
    pgn = read_pgn(io.StringIO(text.getvalue()), "same.pgn")
    assert same_event(event_of_record(trf), event_of_record(pgn)) is True
    changed = text.getvalue().replace('[Result "1-0"]\n\n1-0', '[Result "0-1"]\n\n0-1', 1)
    assert changed != text.getvalue()
    assert (
        same_event(
            event_of_record(trf), event_of_record(read_pgn(io.StringIO(changed), "other.pgn"))
        )
        is False
    )
