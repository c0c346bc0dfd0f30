"""TRF-16: golden files for every result code and quirk, each error with file:line, round trip."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.files import read_tournament_file
from clubrating.formats.records import (
    Bye,
    ByeKind,
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.formats.trf import read_trf, write_trf

DATA = Path(__file__).parent / "data"
F, N, D = Unplayed.FORFEIT, Unplayed.NO_MOVES, Unplayed.DOUBLE_FORFEIT

# (round, white, black, white half-points, black half-points, unplayed, colours known)
ALL_CODES_PAIRINGS = [
    (1, 1, 2, 2, 0, None, True),  # 1 / 0
    (1, 3, 4, 1, 1, None, True),  # = / =
    (1, 5, 6, 2, 0, F, False),  # forfeit written '6 - +' / '5 - -'
    (2, 3, 1, 0, 2, N, True),  # L / W: a result without a move
    (2, 2, 4, 0, 2, None, True),
    (2, 5, 7, 1, 1, N, True),  # D / D
    (3, 1, 4, 1, 1, None, True),
    (3, 2, 3, 0, 0, D, False),  # '- -' both ways: double forfeit
    (3, 6, 8, 2, 0, F, True),  # forfeit with colours: 'w +' / 'b -'
    (4, 5, 1, 2, 0, None, True),
    (4, 6, 7, 2, 0, None, True),
]
# (round, player, half-points, kind)
ALL_CODES_BYES = [
    (1, 7, 2, ByeKind.PAIRING),  # '0000 - +' (older programs' pairing bye)
    (1, 8, 1, ByeKind.HALF_POINT),  # '0000 - H'
    (2, 6, 1, ByeKind.HALF_POINT),  # '0000 - =' (CompetiChess's half-point bye)
    (2, 8, 2, ByeKind.PAIRING),  # blank opponent + 'U' (lichess)
    (3, 5, 2, ByeKind.FULL_POINT),  # '0000 - F'
    (3, 7, 0, ByeKind.ZERO_POINT),  # '0000 - Z'
    (4, 2, 0, ByeKind.ABSENT),  # a blank cell
    (4, 3, 0, ByeKind.ABSENT),  # blank opponent + '-' (lichess absent round)
    (4, 4, 0, ByeKind.ABSENT),  # '0000 - -' in an individual event
    (4, 8, 0, ByeKind.ABSENT),  # the line ends before round 4
]
NAMES = [
    "Petrosyan, Anna",
    "Müller, Jürgen",
    "van der Berg, Jan Willem",
    "O'Neil, Sean",
    "Lee, Ann",
    "Smith, John",
    "Garcia Lopez, Maria Jose",
    "Zed",
]


def pairing_rows(record: TournamentRecord) -> list[tuple[object, ...]]:
    return [
        (p.round, p.white, p.black, p.white_points, p.black_points, p.unplayed, p.colours_known)
        for p in record.pairings
    ]


def bye_rows(record: TournamentRecord) -> list[tuple[object, ...]]:
    return [(b.round, b.player, b.points, b.kind) for b in record.byes]


def player_line(number: int, name: str, cells: list[str], points: str = "") -> str:
    """A 001 line laid out by column as TRF-16 says (cells are 'oooo c r')."""
    return f"001 {number:>4}      {name:<33}{'':33}{points:>4} {number:>4}" + "".join(
        "  " + c for c in cells
    )


def trf(*lines: str) -> str:
    return "\n".join(("012 Test", *lines)) + "\n"


@pytest.mark.parametrize("file", ["all_codes.trf", "all_codes_crlf.trf", "all_codes_latin1.trf"])
def test_every_result_code_and_quirk_is_read_into_the_same_tournament(file: str) -> None:
    record = read_tournament_file(str(DATA / file))
    assert pairing_rows(record) == ALL_CODES_PAIRINGS
    assert bye_rows(record) == ALL_CODES_BYES
    assert [p.name for p in record.players] == NAMES
    assert [p.number for p in record.players] == list(range(1, 9))  # unsorted lines, sorted players
    assert all(p.played == (p.unplayed is None) for p in record.pairings)
    assert (record.name, record.date, record.end_date) == (
        "Club Championship, Spring",
        dt.date(2024, 3, 5),
        dt.date(2024, 3, 26),
    )
    assert (record.rounds, record.planned_rounds, record.time_control) == (4, 5, TimeControl.RAPID)
    assert record.warnings == ()  # the points written agree with the cells
    assert (record.format, record.source) == ("trf", str(DATA / file))


def test_a_player_line_keeps_its_line_number_for_messages() -> None:
    record = read_tournament_file(str(DATA / "all_codes.trf"))
    assert {p.number: p.line for p in record.players}[5] == 9
    assert {p.number: p.points for p in record.players}[5] == 7


def test_a_team_event_reads_0000_dash_dash_as_a_player_not_fielded() -> None:
    record = read_tournament_file(str(DATA / "team_unfielded.trf"))
    assert bye_rows(record) == [(1, 2, 0, ByeKind.UNFIELDED), (1, 4, 0, ByeKind.UNFIELDED)]
    assert pairing_rows(record) == [(1, 1, 3, 2, 0, None, True)]


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        (
            [player_line(1, "A", ["   2 w 1"]), player_line(2, "B", ["   1 b 1"])],
            2,
            ["round 1: player 1", "'w 1' against 2", "line 3 has 'b 1'", "result '0'"],
        ),
        (
            [player_line(1, "A", ["   2 w 1"]), player_line(2, "B", ["   1 w 0"])],
            2,
            ["opposite colour"],
        ),
        (
            [
                player_line(1, "A", ["   2 w 1"]),
                player_line(2, "B", ["   3 b 0"]),
                player_line(3, "C", ["   2 w 1"]),
            ],
            2,
            ["paired with 2, but line 3 (player 2) says opponent 3"],
        ),
        (
            [player_line(1, "A", ["   2 w 1"]), player_line(2, "B", ["0000 - U"])],
            2,
            ["says nothing in that round"],
        ),
        (
            [player_line(1, "A", ["   9 w 1"])],
            2,
            ["paired with 9, who is not a player of this tournament"],
        ),
        (
            [player_line(1, "A", ["   2 w X"]), player_line(2, "B", ["   1 b X"])],
            2,
            ["round 1 (columns 92-99)", "unknown result code 'X'", "1 = 0 + - W D L"],
        ),
        (
            [player_line(1, "A", ["   2 - 1"]), player_line(2, "B", ["   1 - 0"])],
            2,
            ["needs the colour w or b"],
        ),
        (
            [player_line(1, "A", ["   2 w H"]), player_line(2, "B", ["   1 b H"])],
            2,
            ["the bye code 'H' goes with opponent 0000, not 2"],
        ),
        ([player_line(1, "A", ["0000 - W"])], 2, ["without an opponent expected a bye code"]),
        ([player_line(1, "A", ["   2 q 1"])], 2, ["expected the colour w, b or -"]),
        ([player_line(1, "A", ["  2 w 1 "])], 2, ["expected 'nnnn c r'", "aligned on columns"]),
        ([player_line(1, "A", ["  x2 w 1"])], 2, ["expected an opponent's start number"]),
        (["001    x      A"], 2, ["start number in columns 5-8", "'x'"]),
        (["001    1"], 2, ["name in columns 15-47"]),
        ([player_line(1, "A", [], points="4.x")], 2, ["points in columns 81-84"]),
        ([player_line(1, "A", ["   1 w 1"])], 2, ["paired with themself"]),
        (
            [player_line(1, "A", []), player_line(1, "B", [])],
            3,
            ["start number 1 is used twice (also line 2)"],
        ),
    ],
)
def test_a_malformed_file_is_refused_with_its_line_and_what_was_expected(
    lines: list[str], line: int, words: list[str]
) -> None:
    with pytest.raises(InputError) as caught:
        read_trf(io.StringIO(trf(*lines)), "club.trf")
    assert (caught.value.file, caught.value.line) == ("club.trf", line)
    assert str(caught.value).startswith(f"club.trf:{line}: ")
    for word in words:
        assert word in str(caught.value)


def test_a_file_without_player_lines_is_refused() -> None:
    with pytest.raises(InputError, match="no player line"):
        read_trf(io.StringIO("012 Nothing\n042 2024/01/01\n"), "empty.trf")


def test_points_written_that_differ_from_the_cells_are_a_warning_not_an_error() -> None:
    text = trf(
        player_line(1, "A", ["   2 w 1"], points="0.5"),
        player_line(2, "B", ["   1 b 0"], points="0.0"),
    )
    record = read_trf(io.StringIO(text), "club.trf")
    assert record.warnings == (
        "club.trf:2: player 1 has 0.5 points written, 1.0 computed from the results",
    )


def test_an_all_zero_points_column_gives_one_warning() -> None:
    text = trf(
        player_line(1, "A", ["   2 w 1"], points="0.0"),
        player_line(2, "B", ["   1 b 0"], points="0.0"),
    )
    record = read_trf(io.StringIO(text), "club.trf")
    assert len(record.warnings) == 1 and "all zero" in str(record.warnings[0])


def test_a_player_count_that_disagrees_with_the_lines_is_a_warning() -> None:
    text = trf("062 3", player_line(1, "A", ["   2 w ="]), player_line(2, "B", ["   1 b ="]))
    assert read_trf(io.StringIO(text), "c.trf").warnings == (
        "c.trf:2: 062 announces 3 players, the file has 2 player lines",
    )


def test_an_unreadable_date_is_a_warning_and_left_unknown() -> None:
    record = read_trf(io.StringIO(trf("042 sometime in May", player_line(1, "A", []))), "c.trf")
    assert record.date is None and str(record.warnings[0]).startswith(
        "c.trf:2: 042 date not understood"
    )


@pytest.mark.parametrize(
    ("header", "control"),
    [
        ("092 Individual: Swiss-System (Standard)", TimeControl.STANDARD),
        ("122 Standard: 90 minutes with 30 second increment", TimeControl.STANDARD),
        ("012 Juni Blitzschach 5 Plus 0", TimeControl.BLITZ),
        ("012 Mai 5 Plus 0 Turnier", TimeControl.BLITZ),
        ("012 Tuesday 15+10", TimeControl.RAPID),
        ("122 moves/time, increment", TimeControl.STANDARD),  # nothing said: the default list
    ],
)
def test_the_time_control_is_taken_from_the_words_of_the_header(
    header: str, control: TimeControl
) -> None:
    text = "\n".join([header, player_line(1, "A", [])]) + "\n"
    assert read_trf(io.StringIO(text)).time_control is control


def test_bughouse_named_in_the_tournament_type_makes_a_bughouse_tournament() -> None:
    text = "\n".join(["092 Bughouse", player_line(1, "A", [])]) + "\n"
    assert read_trf(io.StringIO(text)).kind is TournamentKind.BUGHOUSE


def test_writing_the_golden_file_and_reading_it_back_gives_the_same_tournament() -> None:
    record = read_tournament_file(str(DATA / "all_codes.trf"))
    out = io.StringIO()
    write_trf(record, out)
    again = read_trf(io.StringIO(out.getvalue()), "again.trf")
    assert pairing_rows(again) == pairing_rows(record)
    assert bye_rows(again) == bye_rows(record)
    assert [p.name for p in again.players] == NAMES
    assert [p.points for p in again.players] == [p.points for p in record.players]
    assert again.warnings == ()


# --- round trip property -----------------------------------------------------------------

NAME_CHARS = st.characters(whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" ,.'-")
GAME_OUTCOMES = [  # (white points, black points, unplayed, colours known)
    (2, 0, None, True),
    (0, 2, None, True),
    (1, 1, None, True),
    (2, 0, F, True),
    (0, 2, F, True),
    (2, 0, F, False),
    (0, 0, D, False),
    (0, 0, D, True),
    (2, 0, N, True),
    (1, 1, N, True),
    (0, 2, N, True),
]
BYE_POINTS = {
    ByeKind.HALF_POINT: 1,
    ByeKind.FULL_POINT: 2,
    ByeKind.PAIRING: 2,
    ByeKind.ZERO_POINT: 0,
    ByeKind.ABSENT: 0,
    ByeKind.UNFIELDED: 0,
}


@st.composite
def tournaments(draw: st.DrawFn) -> TournamentRecord:
    names = draw(
        st.lists(
            st.text(NAME_CHARS, min_size=1, max_size=33)
            .map(lambda s: " ".join(s.split()))
            .filter(bool),
            min_size=2,
            max_size=12,
            unique=True,
        )
    )
    count = len(names)
    rounds = draw(st.integers(1, 6))
    pairings, byes = [], []
    for round_ in range(1, rounds + 1):
        order = draw(st.permutations(range(1, count + 1)))
        games = draw(st.integers(1, count // 2))
        for board in range(games):
            white, black = order[2 * board], order[2 * board + 1]
            wp, bp, unplayed, known = draw(st.sampled_from(GAME_OUTCOMES))
            if not known:
                white, black = min(white, black), max(white, black)
            pairings.append(
                Pairing(
                    round_,
                    white,
                    black,
                    wp,
                    bp,
                    played=unplayed is None,
                    unplayed=unplayed,
                    colours_known=known,
                )
            )
        for player in order[2 * games :]:
            kind = draw(st.sampled_from(list(ByeKind)))
            byes.append(Bye(round_, player, BYE_POINTS[kind], kind))
    return TournamentRecord(
        name=draw(st.text(NAME_CHARS, max_size=40).map(lambda s: " ".join(s.split()))),
        date=draw(st.none() | st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1))),
        players=tuple(PlayerEntry(number, name) for number, name in enumerate(names, start=1)),
        pairings=tuple(pairings),
        byes=tuple(byes),
        rounds=rounds,
        time_control=draw(st.sampled_from(list(TimeControl))),
        planned_rounds=draw(st.none() | st.integers(1, 20)),
    )


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_writing_then_reading_a_tournament_keeps_its_pairings_byes_and_names(
    record: TournamentRecord,
) -> None:
    out = io.StringIO()
    write_trf(record, out)
    again = read_trf(io.StringIO(out.getvalue()), "round-trip.trf")
    key = lambda row: row[:3]  # noqa: E731
    assert sorted(pairing_rows(again), key=key) == sorted(pairing_rows(record), key=key)
    assert sorted(bye_rows(again)) == sorted(bye_rows(record))
    assert [p.name for p in again.players] == [p.name for p in record.players]
    assert (again.name, again.date, again.rounds, again.time_control, again.planned_rounds) == (
        record.name,
        record.date,
        record.rounds,
        record.time_control,
        record.planned_rounds,
    )
    assert again.warnings == ()


@pytest.mark.parametrize("code", ["062", "XXR"])
def test_a_header_number_of_thousands_of_digits_is_ignored_not_a_traceback(code: str) -> None:
    # found: int() raised ValueError ("Exceeds the limit (4300 digits)") reading 062 and XXR
    lines = (DATA / "all_codes.trf").read_text(encoding="utf-8").splitlines()
    lines = [f"{code} {'9' * 5000}" if line.startswith(code) else line for line in lines]
    if not any(line.startswith(code) for line in lines):
        lines.insert(1, f"{code} {'9' * 5000}")
    at = next(n for n, line in enumerate(lines, 1) if line.startswith(code))
    record = read_trf(io.StringIO("\n".join(lines) + "\n"), "c.trf")
    said = [str(w) for w in record.warnings if code in str(w)]
    assert said == (
        [f"c.trf:{at}: XXR expected a number of rounds, got '{'9' * 20}'; ignored"]
        if code == "XXR"
        else []
    )
