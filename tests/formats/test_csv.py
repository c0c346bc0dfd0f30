"""The club's CSV format: every result spelling, byes, settings, errors with file:line, round
trip."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.files import read_tournament_file
from clubrating.formats.csv import read_csv, write_csv
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

DATA = Path(__file__).parent / "data"
F, N, D = Unplayed.FORFEIT, Unplayed.NO_MOVES, Unplayed.DOUBLE_FORFEIT


def rows(record: TournamentRecord) -> list[tuple[object, ...]]:
    names = {p.number: p.name for p in record.players}
    return [
        (
            p.round,
            p.board,
            names[p.white],
            names[p.black],
            p.white_points,
            p.black_points,
            p.unplayed,
        )
        for p in record.pairings
    ]


def byes(record: TournamentRecord) -> list[tuple[object, ...]]:
    names = {p.number: p.name for p in record.players}
    return [(b.round, names[b.player], b.points, b.kind) for b in record.byes]


def test_a_spreadsheet_export_with_bom_semicolons_crlf_and_settings_is_read() -> None:
    record = read_tournament_file(str(DATA / "tuesday.csv"))
    assert rows(record) == [
        (1, 1, "Anna Petrosyan", "John Smith", 2, 0, None),
        (1, 2, "Lee; Ann", "Bob Brown", 1, 1, None),
        (2, 1, "John Smith", "Lee; Ann", 2, 0, F),
        (2, 2, "Bob Brown", "Anna Petrosyan", 0, 2, F),
        (2, 3, "Maria Garcia", "Zed", 0, 2, N),
        (3, 1, "Anna Petrosyan", "Zed", 1, 1, None),
        (3, 2, "Maria Garcia", "Bob Brown", 0, 0, D),
    ]
    assert byes(record) == [
        (1, "Zed", 1, ByeKind.HALF_POINT),
        (2, "Ann Other", 2, ByeKind.PAIRING),
        (3, "John Smith", 0, ByeKind.ZERO_POINT),
        (3, "Ann Other", 0, ByeKind.ABSENT),
    ]
    assert (record.name, record.date, record.time_control, record.rounds) == (
        "Tuesday Rapid",
        dt.date(2024, 3, 5),
        TimeControl.RAPID,
        3,
    )
    assert (record.format, record.warnings) == ("csv", ())
    assert [p.line for p in record.pairings][:2] == [6, 7]


def test_a_cp1252_spreadsheet_without_board_column_is_read_and_extra_columns_are_reported() -> None:
    record = read_tournament_file(str(DATA / "spreadsheet_cp1252.csv"))
    assert rows(record) == [
        (1, None, "Jürgen Müller", "Anna Petrosyan", 1, 1, None),
        (2, None, "Anna Petrosyan", "Zoë Brown", 0, 2, None),
    ]
    assert byes(record) == [
        (1, "Zoë Brown", 2, ByeKind.FULL_POINT),
        (2, "Jürgen Müller", 0, ByeKind.ZERO_POINT),
    ]
    assert record.warnings == (f"{DATA / 'spreadsheet_cp1252.csv'}:1: columns Notes are not read",)


def test_a_bughouse_night_is_a_bughouse_tournament() -> None:
    record = read_tournament_file(str(DATA / "bughouse.csv"))
    assert record.kind is TournamentKind.BUGHOUSE
    assert record.date == dt.date(2024, 6, 5)


@pytest.mark.parametrize(
    ("result", "points", "unplayed"),
    [
        ("1-0", (2, 0), None),
        ("0-1", (0, 2), None),
        ("1/2-1/2", (1, 1), None),
        ("½-½", (1, 1), None),
        ("=", (1, 1), None),
        ("0.5-0.5", (1, 1), None),
        ("1:0", (2, 0), None),
        ("½:½", (1, 1), None),
        ("+:-", (2, 0), F),
        ("-:+", (0, 2), F),
        ("-:-", (0, 0), D),
        ("+/-", (2, 0), F),
        ("- +", (0, 2), F),
        ("--", (0, 0), D),
        ("1-0 unplayed", (2, 0), N),
        ("1/2-1/2 Unplayed", (1, 1), N),
    ],
)
def test_every_result_spelling_gives_its_points(
    result: str, points: tuple[int, int], unplayed: Unplayed
) -> None:
    record = read_csv(io.StringIO(f"round,white,black,result\n1,A,B,{result}\n"))
    pairing = record.pairings[0]
    assert ((pairing.white_points, pairing.black_points), pairing.unplayed, pairing.played) == (
        points,
        unplayed,
        unplayed is None,
    )


@pytest.mark.parametrize(
    ("result", "kind", "points"),
    [
        ("bye", ByeKind.PAIRING, 2),
        ("BYE 1", ByeKind.FULL_POINT, 2),
        ("bye 1/2", ByeKind.HALF_POINT, 1),
        ("bye ½", ByeKind.HALF_POINT, 1),
        ("bye 0.5", ByeKind.HALF_POINT, 1),
        ("bye  0", ByeKind.ZERO_POINT, 0),
        ("absent", ByeKind.ABSENT, 0),
        ("unfielded", ByeKind.UNFIELDED, 0),
    ],
)
def test_every_bye_spelling_gives_its_kind_and_points(
    result: str, kind: ByeKind, points: int
) -> None:
    record = read_csv(io.StringIO(f"round,white,black,result\n1,A,,{result}\n"))
    assert (record.byes[0].kind, record.byes[0].points) == (kind, points)


HEADER = "round,board,white,black,result\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (HEADER + "1,1,A,B,2-0\n", 2, ["result '2-0' not understood", "1-0, 0-1, 1/2-1/2"]),
        (HEADER + "1,1,A,,1-0\n", 2, ["black is empty, so expected a bye result"]),
        (HEADER + "x,1,A,B,1-0\n", 2, ["expected the round as a number from 1, got 'x'"]),
        (HEADER + "0,1,A,B,1-0\n", 2, ["the round as a number from 1"]),
        (HEADER + "1,b,A,B,1-0\n", 2, ["expected the board"]),
        # int() of 5,000 digits raised ValueError ("Exceeds the limit"), a traceback
        (HEADER + "9" * 5000 + ",1,A,B,1-0\n", 2, ["expected the round as a number from 1"]),
        (HEADER + "1," + "9" * 5000 + ",A,B,1-0\n", 2, ["expected the board"]),
        (HEADER + "1,1,,B,1-0\n", 2, ["white player's name"]),
        (HEADER + "1,1,A,A,1-0\n", 2, ["A cannot play themself"]),
        (HEADER + "1,1,A,B\n", 2, ["expected 5 fields", "got 4"]),
        (
            HEADER + "1,1,A,B,1-0\n1,2,C,A,0-1\n",
            3,
            ["A appears twice in round 1 (first at line 2)"],
        ),
        (HEADER + "1,1,A,B,1-0\n1,,A,,bye\n", 3, ["A appears twice in round 1"]),
        ("round,white,result\n1,A,1-0\n", 1, ["the header lacks black", "expected the columns"]),
        (
            "# time-control: bullet\n" + HEADER,
            1,
            ["# time-control: expected one of standard, rapid, blitz"],
        ),
        ("# kind: crazyhouse\n" + HEADER, 1, ["# kind: expected one of chess, bughouse"]),
        ("# event: E\n# date: 2024-13-45\n" + HEADER, 2, ["# date:"]),
    ],
)
def test_a_bad_row_is_refused_with_its_line_and_what_was_expected(
    text: str, line: int, words: list[str]
) -> None:
    with pytest.raises(InputError) as caught:
        read_csv(io.StringIO(text), "night.csv")
    assert (caught.value.file, caught.value.line) == ("night.csv", line)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize("text", ["", "# event: E\n", HEADER, "\n\n"])
def test_a_file_without_header_or_games_is_refused(text: str) -> None:
    with pytest.raises(InputError, match="no header line|no game"):
        read_csv(io.StringIO(text), "night.csv")


def test_an_unknown_setting_is_a_warning() -> None:
    record = read_csv(io.StringIO("# venue: hall\n" + HEADER + "1,1,A,B,1-0\n"), "n.csv")
    assert record.warnings == (
        "n.csv:1: '# venue:' is not a known setting (event, date, end-date, time-control,"
        " kind); ignored",
    )


OUTCOMES = [
    (2, 0, None),
    (0, 2, None),
    (1, 1, None),
    (2, 0, F),
    (0, 2, F),
    (0, 0, D),
    (2, 0, N),
    (0, 2, N),
    (1, 1, N),
]
BYES = [
    (ByeKind.PAIRING, 2),
    (ByeKind.FULL_POINT, 2),
    (ByeKind.HALF_POINT, 1),
    (ByeKind.ZERO_POINT, 0),
    (ByeKind.ABSENT, 0),
    (ByeKind.UNFIELDED, 0),
]


@st.composite
def csv_tournaments(draw: st.DrawFn) -> TournamentRecord:
    alphabet = st.characters(
        whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" ,;'\"-½"
    )
    names = draw(
        st.lists(
            st.text(alphabet, min_size=1, max_size=25)
            .map(lambda s: " ".join(s.split()))
            .filter(lambda s: s and not s.startswith("#")),
            min_size=2,
            max_size=10,
            unique=True,
        )
    )
    pairings, byes_ = [], []
    for round_ in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(range(1, len(names) + 1)))
        games = draw(st.integers(1, len(names) // 2))
        for board in range(games):
            wp, bp, unplayed = draw(st.sampled_from(OUTCOMES))
            pairings.append(
                Pairing(
                    round_,
                    order[2 * board],
                    order[2 * board + 1],
                    wp,
                    bp,
                    played=unplayed is None,
                    unplayed=unplayed,
                    board=draw(st.none() | st.just(board + 1)),
                )
            )
        for player in order[2 * games :]:
            kind, points = draw(st.sampled_from(BYES))
            byes_.append(Bye(round_, player, points, kind))
    return TournamentRecord(
        name=draw(st.text(alphabet, max_size=30).map(lambda s: " ".join(s.split()))),
        date=draw(st.none() | st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1))),
        players=tuple(PlayerEntry(n, name) for n, name in enumerate(names, start=1)),
        pairings=tuple(pairings),
        byes=tuple(byes_),
        time_control=draw(st.sampled_from(list(TimeControl))),
        kind=draw(st.sampled_from(list(TournamentKind))),
    )


@settings(max_examples=120, deadline=None)
@given(csv_tournaments())
def test_writing_then_reading_the_csv_keeps_every_game_bye_and_setting(
    record: TournamentRecord,
) -> None:
    out = io.StringIO()
    write_csv(record, out)
    again = read_csv(io.StringIO(out.getvalue()), "round-trip.csv")
    assert sorted(rows(again), key=repr) == sorted(rows(record), key=repr)
    assert sorted(byes(again), key=repr) == sorted(byes(record), key=repr)
    assert (again.name, again.date, again.time_control, again.kind) == (
        record.name,
        record.date,
        record.time_control,
        record.kind,
    )
