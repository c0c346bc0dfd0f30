"""Bounds of one tournament: rounds, players, board numbers, names and CSV fields
beyond any real event are refused in one line naming the file and the line."""

from __future__ import annotations

import dataclasses
import io

import pytest

from clubrating.errors import InputError
from clubrating.formats.reading import read_tournament_text
from clubrating.formats.csv import read_csv
from clubrating.formats.records import MAX_NAME_LENGTH, MAX_PLAYERS, MAX_ROUNDS
from clubrating.formats.trf import read_trf, write_trf

HEADER = "# event: Night\n# date: 2024-03-05\nround,board,white,black,result\n"
HUGE = "99999999999999999999"


def csv_error(body: str) -> str:
    with pytest.raises(InputError) as error:
        read_csv(io.StringIO(HEADER + body), "night.csv")
    return str(error.value)


@pytest.mark.parametrize(
    "row, said",
    [
        (
            f"{HUGE},1,Anna,Bob,1-0",
            f"night.csv:4: round {HUGE}: expected a round number from 1 to {MAX_ROUNDS}",
        ),
        (f"{MAX_ROUNDS + 1},1,Anna,Bob,1-0", f"night.csv:4: round {MAX_ROUNDS + 1}: expected"),
        (
            f"1,{HUGE},Anna,Bob,1-0",
            f"night.csv:4: board {HUGE}: expected a board number from 1 to {MAX_PLAYERS:,}",
        ),
        (
            f"1,1,{'A' * (MAX_NAME_LENGTH + 1)},Bob,1-0",
            f"night.csv:4: a name of {MAX_NAME_LENGTH + 1} characters",
        ),
        (
            f"1,1,{'A' * 131_073},Bob,1-0",
            "night.csv:4: unreadable fields (field larger than field limit",
        ),
        (f'1,1,"{"A" * 200_000}",Bob,1-0', "night.csv:4: unreadable fields"),
    ],
)
def test_a_csv_row_beyond_the_bounds_is_one_line_with_file_and_line(row, said) -> None:
    assert csv_error(row + "\n").startswith(said)


def test_the_largest_allowed_round_and_name_are_read() -> None:
    name = "B" * MAX_NAME_LENGTH
    record = read_csv(
        io.StringIO(HEADER + f"{MAX_ROUNDS},{MAX_PLAYERS},Anna,{name},1-0\n"), "night.csv"
    )
    assert record.rounds == MAX_ROUNDS and record.players[1].name == name


def test_more_players_than_the_bound_are_refused() -> None:
    rows = "".join(f"1,,P{n},Q{n},1-0\n" for n in range(MAX_PLAYERS // 2 + 1))
    assert csv_error(rows).startswith(
        f"night.csv:{3 + MAX_PLAYERS // 2 + 1}: player {MAX_PLAYERS + 1:,}: at most"
    )


def test_a_file_of_a_million_players_is_refused_at_the_first_beyond_the_bound() -> None:
    """Not after reading it whole (500,000 rows: 16 s and 670 MB before): the damaged line after
    the bound is never reached."""
    rows = "".join(f"1,,P{n},Q{n},1-0\n" for n in range(MAX_PLAYERS // 2 + 1))
    assert csv_error(rows + "1,,X,Y,banana\n").startswith(
        f"night.csv:{3 + MAX_PLAYERS // 2 + 1}: player {MAX_PLAYERS + 1:,}: at most"
    )


def trf_text(last_round: int) -> str:
    """A two-player TRF with a game in round 1 and a half-point bye of Anna's in ``last_round``."""
    record = read_csv(io.StringIO(HEADER + "1,1,Anna,Bob,1-0\n2,,Anna,,bye 1/2\n"), "night.csv")
    record = dataclasses.replace(
        record, byes=(dataclasses.replace(record.byes[0], round=last_round),), rounds=last_round
    )
    out = io.StringIO()
    write_trf(record, out)
    return out.getvalue()


def test_a_trf_round_beyond_the_bound_names_the_line() -> None:
    text = trf_text(MAX_ROUNDS + 1)
    line = text.splitlines().index(next(l for l in text.splitlines() if "Anna" in l)) + 1
    with pytest.raises(InputError, match=rf"^night.trf:{line}: a round beyond round {MAX_ROUNDS} "):
        read_trf(io.StringIO(text), "night.trf")


def test_a_trf_of_the_largest_allowed_round_is_read() -> None:
    assert read_trf(io.StringIO(trf_text(MAX_ROUNDS)), "night.trf").rounds == MAX_ROUNDS


@pytest.mark.parametrize(
    "round_, said", [(HUGE, f"round {HUGE}"), ("100", "round 100"), (f"1.{HUGE}", f"board {HUGE}")]
)
def test_a_pgn_round_or_board_beyond_the_bound_is_refused(round_, said) -> None:
    pgn = (
        f'[Event "Night"]\n[Date "2024.03.05"]\n[Round "{round_}"]\n[White "Anna"]\n[Black "Bob"]\n'
        '[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    with pytest.raises(InputError, match=rf"^night.pgn:1: {said}: expected"):
        read_tournament_text(pgn, "night.pgn")


@pytest.mark.parametrize(
    "text, high, expected",
    [
        ("0", 10, 0),
        ("10", 10, 10),
        (" 7 ", 10, 7),
        ("007", 10, 7),
        ("11", 10, None),
        ("", 10, None),
        ("-1", 10, None),
        ("1.5", 10, None),
        ("²", 10, None),
        ("٣", 10, None),  # digits to str.isdigit only
        ("9" * 5000, 10, None),  # int() of it: ValueError "Exceeds the limit (4300 digits)"
        ("9223372036854775807", 2**63 - 1, 2**63 - 1),
        ("9223372036854775808", 2**63 - 1, None),
    ],
)
def test_a_whole_number_is_ascii_digits_within_its_bound(
    text: str, high: int, expected: int | None
) -> None:
    from clubrating.formats.bounds import whole_number

    assert whole_number(text, high) == expected


def test_an_id_or_an_evening_number_of_5000_digits_is_refused_as_any_bad_number() -> None:
    """These raised Python's ValueError ("Exceeds the limit"), a 500 on a form, before."""
    from clubrating.club.services import evening
    from clubrating.club.read.clubs import parse_id

    assert parse_id("9" * 5000) is None and parse_id("²") is None and parse_id("12") == 12
    with pytest.raises(InputError, match="is not a seed: expected a whole number from 0 to 999999"):
        evening.parse_numbering("lot", "9" * 5000)
