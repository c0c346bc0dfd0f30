"""One type for a game's result: every spelling docs/formats.md documents is read
alike by the CSV reader, the typed-results form and the services, and written in one place."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pytest

from clubrating.errors import InputError
from clubrating.formats.csv import read_csv, write_csv
from clubrating.formats.records import Unplayed
from clubrating.formats.results import SPELLINGS, GameResult, pgn_result, result_text
from clubrating.formats.typed import parse_typed

DOCS = Path(__file__).resolve().parents[2] / "docs" / "formats.md"
POINTS = {"1–0": (2, 0), "0–1": (0, 2), "½–½": (1, 1), "0–0": (0, 0)}
RATED = {"yes": True, "no": False}


def documented() -> list[tuple[str, tuple[int, int], bool]]:
    """(spelling, half-points, played) of every game result in docs/formats.md's CSV table."""
    rows = []
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2] in POINTS:
            rows += [
                (s, POINTS[cells[2]], RATED[cells[3]]) for s in re.findall(r"`([^`]+)`", cells[0])
            ]
    return rows


DOCUMENTED = documented()


def test_the_docs_table_is_read_whole() -> None:
    assert len(DOCUMENTED) == 18  # 2 + 2 + 5 + 3 + 3 + 3 spellings


@pytest.mark.parametrize("spelling, points, played", DOCUMENTED)
def test_every_documented_spelling_is_one_result(
    spelling: str, points: tuple[int, int], played: bool
) -> None:
    result = GameResult.parse(spelling)
    assert (result.points, result.played) == (points, played)
    assert GameResult.parse(f" {spelling.upper()} ") is result  # case and spaces do not matter


def test_every_spelling_read_is_documented() -> None:
    assert sorted(SPELLINGS) == sorted(s.casefold() for s, _, _ in DOCUMENTED)


@pytest.mark.parametrize("spelling, points, played", DOCUMENTED)
def test_the_csv_reader_and_the_typed_form_read_every_spelling_alike(
    spelling: str, points: tuple[int, int], played: bool
) -> None:
    csv = read_csv(
        io.StringIO(f"# date: 2026-03-03\nround,white,black,result\n1,Ann,Ben,{spelling}\n"),
        "t.csv",
    )
    typed = parse_typed(f"1, Ann, Ben, {spelling}", name="t", date=dt.date(2026, 3, 3))
    for pairing in (csv.pairings[0], typed.pairings[0]):
        assert (pairing.white_points, pairing.black_points, pairing.played) == (*points, played)
        assert pairing.unplayed is GameResult.parse(spelling).unplayed


@pytest.mark.parametrize("text", ["1-1", "2-0", "½", "1/2", "+", "w", "", "1-0 unplayed"])
def test_anything_else_is_one_line_naming_what_was_expected(text: str) -> None:
    with pytest.raises(InputError, match=r"unknown result .*expected one of 1-0, 0-1, 1/2-1/2"):
        GameResult.parse(text)


@pytest.mark.parametrize(
    "white, black, played, text, pgn",
    [
        (2, 0, True, "1-0", "1-0"),
        (0, 2, True, "0-1", "0-1"),
        (1, 1, True, "1/2-1/2", "1/2-1/2"),
        (2, 0, False, "+-", "1-0"),
        (0, 2, False, "-+", "0-1"),
        (0, 0, False, "--", "*"),
        (1, 1, False, "1/2-1/2", "1/2-1/2"),  # a draw given without moves (TRF D) reads as a draw
        (0, 0, True, "0-0", "*"),
        (2, 2, True, "2-2", "*"),  # no result gives these: the half-points
    ],
)
def test_a_stored_result_is_written_in_one_place(
    white: int, black: int, played: bool, text: str, pgn: str
) -> None:
    assert result_text(white, black, played) == text
    assert pgn_result(white, black) == pgn


def test_the_csv_writer_reads_back_what_it_wrote() -> None:
    rows = "\n".join(f"1,P{i},Q{i},{s}" for i, (s, _, _) in enumerate(DOCUMENTED))
    rows += "\n2,P0,Q0,1-0 unplayed\n2,P1,Q1,0-1 unplayed\n2,P2,Q2,1/2-1/2 unplayed"
    first = read_csv(
        io.StringIO(f"# date: 2026-03-03\nround,white,black,result\n{rows}\n"), "t.csv"
    )
    out = io.StringIO()
    write_csv(first, out)
    again = read_csv(io.StringIO(out.getvalue()), "t.csv")
    keep = [
        (p.round, p.white, p.black, p.white_points, p.black_points, p.played, p.unplayed)
        for p in first.pairings
    ]
    assert keep == [
        (p.round, p.white, p.black, p.white_points, p.black_points, p.played, p.unplayed)
        for p in again.pairings
    ]
    assert sum(p.unplayed is Unplayed.NO_MOVES for p in again.pairings) == 3
