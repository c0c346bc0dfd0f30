"""The typed-results parser (in the pure formats package, not in web/)."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.errors import InputError
from clubrating.formats.records import ByeKind, Unplayed
from clubrating.formats.typed import parse_typed

DAY = dt.date(2026, 3, 3)


def test_games_and_byes_are_read_with_players_numbered_as_they_first_appear() -> None:
    record = parse_typed(
        "1, Anna Smith, Bob Jones, 1-0\n# a comment\n\n1, Carl Berg, bye 1/2\n"
        "2\tBob Jones\tCarl Berg\t+-\n2, anna  smith, bye",
        name=" Tuesday ",
        date=DAY,
    )
    assert [(p.number, p.name) for p in record.players] == [
        (1, "Anna Smith"),
        (2, "Bob Jones"),
        (3, "Carl Berg"),
    ]
    first, second = record.pairings
    assert (first.white, first.black, first.white_points, first.black_points, first.played) == (
        1,
        2,
        2,
        0,
        True,
    )
    assert (second.round, second.played, second.unplayed, second.line) == (
        2,
        False,
        Unplayed.FORFEIT,
        5,
    )
    assert [(b.round, b.player, b.points, b.kind) for b in record.byes] == [
        (1, 3, 1, ByeKind.HALF_POINT),
        (2, 1, 2, ByeKind.FULL_POINT),
    ]
    assert (record.name, record.rounds, record.format) == ("Tuesday", 2, "typed")


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("x, Anna, Bob, 1-0", 1, "expected a round number first"),
        ("1, Anna, Bob, 1-0\n1, Anna, Bob", 2, "expected 'round, white, black, result'"),
        ("1, Anna, Bob, 1-0\n2, Anna, Bob, 3-0", 2, "unknown result '3-0'"),
        ("1, Anna, Anna, 1-0", 1, "cannot play against themselves"),
        ("1, Anna, bye 2", 1, "a bye is worth 1, 1/2 or 0"),
        ("1, , Bob, 1-0", 1, "a player's name is missing"),
    ],
)
def test_bad_input_is_one_line_naming_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_typed(text, name="t", date=DAY)
    assert caught.value.line == line and caught.value.file == "typed"


def test_no_game_at_all_is_refused() -> None:
    with pytest.raises(InputError, match="no games typed"):
        parse_typed("# nothing\n", name="t", date=DAY)
