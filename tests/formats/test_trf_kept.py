"""What a TRF file says about its event and its final places is kept and written back: the header
lines, the rank of each 001 line; on request the rating column carries the club ratings. The
export is read back with an independent reader, the ``trf`` package."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io

import trf  # type: ignore[import-untyped]

from clubrating.formats.trf import read_trf, write_trf

HEADERS = [
    "012 Riverside Autumn Open",
    "022 Riverside",
    "032 ENG",
    "042 2024/10/01",
    "052 2024/10/22",
    "062 4",
    "072 3",
    "082 0",
    "092 Individual: Swiss-System",
    "102 IA Jane Arbiter",
    "112 Tom Deputy",
    "122 90 min + 30 s per move",
    "XXR 5",
]


def line(number: int, name: str, points: str, rank: str, cells: list[str]) -> str:
    """A 001 line by TRF-16's columns: rank in 86-89, the rating (49-52) left blank."""
    return f"001 {number:>4}      {name:<33}{'':33}{points:>4} {rank:>4}" + "".join(
        "  " + c for c in cells
    )


# 3 beats 1 and draws 2; 2 beats 4; 1 beats 4: 3 and 2 level on 1.5, the file ranks 3 first
PLAYERS = [
    line(1, "Berg, Anna", "1.0", "3", ["   3 w 0", "   4 w 1"]),
    line(2, "Cole, Ben", "1.5", "2", ["   4 b 1", "   3 b ="]),
    line(3, "Dunn, Cara", "1.5", "1", ["   1 b 1", "   2 w ="]),
    line(4, "Eng, Dan", "0.0", "4", ["   2 w 0", "   1 b 0"]),
]
TEXT = "\n".join([*HEADERS, *PLAYERS]) + "\n"


def test_the_rank_of_each_001_line_is_read_from_columns_86_to_89() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    assert {p.number: p.rank for p in record.players} == {1: 3, 2: 2, 3: 1, 4: 4}


def test_a_blank_or_zero_rank_is_no_rank_and_a_word_is_a_warning() -> None:
    text = (
        "\n".join(
            [
                line(1, "A", "1.0", "", ["   2 w 1"]),
                line(2, "B", "0.0", "0", ["   1 b 0"]),
                line(3, "C", "0.0", "x", []),
            ]
        )
        + "\n"
    )
    record = read_trf(io.StringIO(text), "odd.trf")
    assert [p.rank for p in record.players] == [None, None, None]
    assert record.warnings == ("odd.trf:3: expected a rank in columns 86-89, got 'x'; ignored",)


def test_the_header_lines_about_the_event_are_kept_as_written() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    assert record.headers == tuple((h[:3], h[4:]) for h in HEADERS)


def test_the_export_writes_the_kept_headers_and_ranks_back() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    out = io.StringIO()
    write_trf(record, out)
    lines = out.getvalue().splitlines()
    assert lines[: len(HEADERS)] == HEADERS
    assert [row[85:89] for row in lines[len(HEADERS) :]] == ["   3", "   2", "   1", "   4"]
    again = read_trf(io.StringIO(out.getvalue()), "again.trf")
    assert again.headers == record.headers and again.warnings == ()


def test_a_tournament_renamed_or_redated_since_the_import_writes_its_own_lines() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    moved = dataclasses.replace(record, name="Autumn Open", date=dt.date(2024, 10, 2))
    out = io.StringIO()
    write_trf(moved, out)
    lines = out.getvalue().splitlines()
    assert "012 Autumn Open" in lines and "042 2024/10/02" in lines and "022 Riverside" in lines
    assert "012 Riverside Autumn Open" not in lines and "042 2024/10/01" not in lines


def test_the_rating_column_carries_ratings_only_when_asked() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    plain, rated = io.StringIO(), io.StringIO()
    write_trf(record, plain)
    write_trf(
        record, rated, {1: 1580, 3: 1422, 4: 10_000}
    )  # 10,000 does not fit TRF's four columns
    assert all(
        row[48:52] == "    " for row in plain.getvalue().splitlines() if row.startswith("001")
    )
    ratings = [row[48:52] for row in rated.getvalue().splitlines() if row.startswith("001")]
    assert ratings == ["1580", "    ", "1422", "    "]


def test_an_independent_reader_reads_the_export_with_its_headers_ranks_and_ratings() -> None:
    record = read_trf(io.StringIO(TEXT), "autumn.trf")
    out = io.StringIO()
    write_trf(record, out, {1: 1580, 2: 1490, 3: 1422})
    other = trf.loads(out.getvalue())
    assert (other.name, other.city, other.federation, other.startdate, other.enddate) == (
        "Riverside Autumn Open",
        "Riverside",
        "ENG",
        "2024/10/01",
        "2024/10/22",
    )
    assert (other.chiefarbiter, other.deputyarbiters, other.rateofplay) == (
        "IA Jane Arbiter",
        "Tom Deputy",
        "90 min + 30 s per move",
    )
    assert (other.numplayers, other.numratedplayers, other.xx_fields["XXR"]) == (4, 3, "5")
    assert [(p.startrank, p.name, p.points, p.rank, p.rating) for p in other.players] == [
        (1, "Berg, Anna", 1.0, 3, 1580),
        (2, "Cole, Ben", 1.5, 2, 1490),
        (3, "Dunn, Cara", 1.5, 1, 1422),
        (4, "Eng, Dan", 0.0, 4, 0),
    ]
    assert [(g.startrank, g.color, g.result) for g in other.players[2].games] == [
        (1, "b", "1"),
        (2, "w", "="),
    ]
