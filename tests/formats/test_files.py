"""Opening files: encodings, format detection, content hash, missing/empty files; the shared date
spellings."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from clubrating.errors import InputError
from clubrating.files import (
    read_tournament_bytes,
    read_tournament_file,
    read_tournament_file_with_hash,
)
from clubrating.formats.common import decode_text
from clubrating.formats.reading import detect_format, read_tournament_text
from clubrating.formats.common import parse_date

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ("Müller ½".encode(), "Müller ½"),
        (b"\xef\xbb\xbfM\xc3\xbcller", "Müller"),  # UTF-8 with BOM
        ("Müller".encode("latin-1"), "Müller"),  # Latin-1
        ("½–Müller".encode("cp1252"), "½–Müller"),  # Windows-1252 (en dash 0x96)
        ("Müller".encode("utf-16"), "Müller"),  # UTF-16 with its BOM
        (b"\x81\x8d", "\x81\x8d"),  # undefined in cp1252: Latin-1
    ],
)
def test_the_encoding_is_decided_from_the_bytes(data: bytes, text: str) -> None:
    assert decode_text(data) == text


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("night.trf", "anything", "trf"),
        ("night.PGN", "anything", "pgn"),
        ("night.csv", "012 x", "csv"),
        ("night.txt", "012 Club\n001    1      A", "trf"),
        ("upload", "\n001    1      A", "trf"),
        ("night.txt", '\ufeff[Event "x"]\n', "pgn"),
        ("night.txt", "round,white,black,result\n", "csv"),
        ("dir.trf/night", "round;white;black;result", "csv"),
    ],
)
def test_the_format_comes_from_the_extension_else_the_content(
    name: str, text: str, expected: str
) -> None:
    assert detect_format(text, name) == expected


@pytest.mark.parametrize("name", ["all_codes.trf", "club_night.pgn", "tuesday.csv"])
def test_a_file_and_its_uploaded_bytes_give_the_same_record_and_the_sha256_of_the_bytes(
    name: str,
) -> None:
    path = DATA / name
    data = path.read_bytes()
    from_bytes, digest = read_tournament_bytes(data, str(path))
    from_file, file_digest = read_tournament_file_with_hash(str(path))
    assert from_bytes == from_file == read_tournament_file(str(path))
    assert digest == file_digest == hashlib.sha256(data).hexdigest()


def test_a_renamed_file_is_still_recognised_by_its_content(tmp_path: Path) -> None:
    copy = tmp_path / "upload.txt"
    copy.write_bytes((DATA / "all_codes_latin1.trf").read_bytes())
    record = read_tournament_file(str(copy))
    assert record.format == "trf" and record.players[1].name == "Müller, Jürgen"


def test_the_format_can_be_forced(tmp_path: Path) -> None:
    copy = tmp_path / "games.dat"
    copy.write_text("round,white,black,result\n1,A,B,1-0\n", encoding="utf-8")
    assert read_tournament_file(str(copy), format="CSV").format == "csv"
    with pytest.raises(InputError, match="unknown format 'xls'"):
        read_tournament_file(str(copy), format="xls")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda tmp: tmp / "missing.trf", "no such file"),
        (lambda tmp: tmp, "is a directory"),
        (
            lambda tmp: (tmp / "empty.trf", (tmp / "empty.trf").write_bytes(b""))[0],
            "the file is empty",
        ),
        (
            lambda tmp: (tmp / "blank.csv", (tmp / "blank.csv").write_bytes(b"\n \r\n"))[0],
            "the file is empty",
        ),
    ],
)
def test_a_missing_directory_or_empty_file_is_an_input_error_naming_it(
    make: Callable[[Path], Path], words: str, tmp_path: Path
) -> None:
    path = make(tmp_path)
    with pytest.raises(InputError) as caught:
        read_tournament_file(str(path))
    assert caught.value.file == str(path) and words in str(caught.value)


def test_an_empty_text_is_refused_by_the_pure_reader_too() -> None:
    with pytest.raises(InputError, match="the file is empty"):
        read_tournament_text("  \n", "x.pgn")


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2024/03/05", dt.date(2024, 3, 5)),
        ("2024-03-05", dt.date(2024, 3, 5)),
        ("2024.03.05", dt.date(2024, 3, 5)),
        ("05. 03. 2024", dt.date(2024, 3, 5)),
        ("05.03.2024", dt.date(2024, 3, 5)),
        ("24/09/2010", dt.date(2010, 9, 24)),
        ("09/24/2010", dt.date(2010, 9, 24)),
        ("20240305", dt.date(2024, 3, 5)),
        ("Jun 26, 2020", dt.date(2020, 6, 26)),
        ("May 29, 2020", dt.date(2020, 5, 29)),
        ("26 June 2020", dt.date(2020, 6, 26)),
        ("  ", None),
    ],
)
def test_every_date_spelling_of_real_files_is_read(text: str, date: dt.date | None) -> None:
    assert parse_date(text) == date


@pytest.mark.parametrize("text", ["2024-02-30", "sometime", "32.01.2024", "Foo 3, 2020"])
def test_a_text_that_is_not_a_date_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_date(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("2026-02-30", "'2026-02-30' is not a day of the calendar"),
        ("0000-01-01", "'0000-01-01' is not a day of the calendar"),
        ("0001-01-01", "0001-01-01 is before 1851-01-01"),  # a day earlier is no date of Python
        ("1850.12.31", "1850-12-31 is before 1851-01-01"),
    ],
)
def test_an_impossible_day_or_a_year_before_any_tournament_is_refused_in_the_users_words(
    text: str, said: str
) -> None:
    with pytest.raises(InputError) as refused:
        parse_date(text)
    assert said in str(refused.value)
    assert parse_date("1851-01-01") == dt.date(1851, 1, 1)


# --- a reader refuses anything with an InputError, never a traceback -----------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

GOLDEN = {
    name: (DATA / name).read_bytes().decode("utf-8-sig")
    for name in (
        "all_codes.trf",
        "club_night.pgn",
        "tuesday.csv",
        "team_unfielded.trf",
        "bughouse.pgn",
    )
}


@st.composite
def damaged_files(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(GOLDEN)))
    text = list(GOLDEN[name])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text) - 1))
        text[at : at + draw(st.integers(0, 3))] = draw(st.text(max_size=3))
    return name, "".join(text)


@settings(max_examples=300, deadline=None)
@given(damaged_files())
def test_a_damaged_file_is_read_or_refused_with_an_input_error_never_a_crash(
    named: tuple[str, str],
) -> None:
    name, text = named
    try:
        read_tournament_text(text, name)
    except InputError as error:
        assert str(error).startswith(name)


@settings(max_examples=200, deadline=None)
@given(st.text(), st.sampled_from(["x.trf", "x.pgn", "x.csv", "x"]))
def test_any_text_is_read_or_refused_with_an_input_error(text: str, name: str) -> None:
    try:
        read_tournament_text(text, name)
    except InputError:
        pass


@pytest.mark.parametrize("text", ["a1)?", "1. e4 ) e5 $1", "1. e4 e5 ) ) *"])
def test_a_closing_bracket_with_no_variation_is_an_input_error_not_a_crash(text: str) -> None:
    with pytest.raises(InputError, match=r"x\.pgn"):
        read_tournament_text(text, "x.pgn")


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (gzip.compress(b'{"format":"clubrating-club"}\n', mtime=0), "a gzip file: "),
        (b"SQLite format 3\x00" + b"\x00" * 84, "a SQLite database: "),
        (b"PGDMP\x01\x0e\x00", "a pg_dump file: "),
        (b"PK\x03\x04" + b"\x00" * 26, "a ZIP file: "),
    ],
    ids=["gzip", "sqlite", "pg_dump", "zip"],  # names the same in every xdist worker
)
def test_a_club_archive_a_backup_or_a_zip_given_as_a_tournament_file_says_what_it_is(
    data: bytes, said: str
) -> None:
    """A new user's likely mix-up: not 'a control character U+001F in column 1'."""
    with pytest.raises(InputError) as refused:
        decode_text(data, "riverside.x")
    assert str(refused.value).startswith("riverside.x: " + said), refused.value
