"""What a control character is (one definition, words.py), checked against Unicode's own
categories, and every reader of the pure formats refusing one with its file, line and column."""

from __future__ import annotations

import io
import json
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.formats.reading import read_tournament_text
from clubrating.formats.ratinglist import read_rating_list
from clubrating.formats.typed import parse_typed
from clubrating.words import LAYOUT, escape_controls, find_control, is_control, without_controls

CSV = "# event: Night\n# date: 2026-03-03\nround,white,black,result\n1,Anna Berg,Ben Cole,1-0\n"


def test_a_control_character_is_unicodes_category_cc_or_a_lone_surrogate_for_every_code_point() -> (
    None
):
    # the oracle is unicodedata's category, not the ranges words.py writes down
    wrong = [
        hex(c)
        for c in range(sys.maxunicode + 1)
        if is_control(chr(c)) != (unicodedata.category(chr(c)) in ("Cc", "Cs"))
    ]
    assert wrong == []


@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_escaped_text_holds_no_control_but_layout_and_a_json_document_keeps_its_meaning(
    text: str,
) -> None:
    assert all(not is_control(c) or c in "\n\t" for c in escape_controls(text))
    document = json.dumps({"name": text}, ensure_ascii=False)  # as the CLI's --json writes it
    assert json.loads(escape_controls(document)) == {"name": text}


@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_without_controls_keeps_every_other_character_in_order(text: str) -> None:
    kept = without_controls(text)
    assert kept == "".join(c for c in text if not is_control(c) or c in LAYOUT)
    assert find_control(kept, LAYOUT) == -1


@pytest.mark.parametrize("character", ["\x1b", "\x07", "\x7f", "\x9b", "\x0c", "\x00"])
@pytest.mark.parametrize("name", ["night.csv", "night.trf", "night.pgn"])
def test_a_tournament_file_with_a_control_character_is_refused_with_its_line(
    character: str, name: str
) -> None:
    text = {
        "night.csv": CSV,
        "night.trf": "012 Night\n042 2026/03/03\n001    1      Anna Berg" + " " * 60 + "\n",
        "night.pgn": (
            '[Event "Night"]\n[White "Anna Berg"]\n[Black '
            '"Ben Cole"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
        ),
    }[name]
    where = text.index("Anna")
    hostile = text[: where + 2] + character + text[where + 2 :]
    with pytest.raises(InputError) as error:
        read_tournament_text(hostile, name)
    line = hostile.count("\n", 0, where) + 1
    assert str(error.value).startswith(f"{name}:{line}: ")
    assert ("NUL" if character == "\x00" else f"U+{ord(character):04X} in column") in str(
        error.value
    )


def test_a_comment_of_a_pgn_file_with_an_escape_sequence_is_refused() -> None:
    pgn = '[Event "x"]\n[White "A B"]\n[Black "C D"]\n[Result "1-0"]\n\n1. e4 {\x1b[2J} e5 1-0\n'
    with pytest.raises(InputError, match=r"^b.pgn:6: a control character U\+001B in column 8"):
        read_tournament_text(pgn, "b.pgn")


def test_tabs_and_carriage_returns_of_a_file_are_layout_and_kept() -> None:
    record = read_tournament_text(CSV.replace(",", "\t").replace("\n", "\r\n"), "night.tsv")
    assert [p.name for p in record.players] == ["Anna Berg", "Ben Cole"]


def test_typed_results_with_an_escape_are_refused_with_their_line() -> None:
    with pytest.raises(InputError, match=r"^typed:2: a control character U\+001B in column 6"):
        parse_typed(
            "1, Anna Berg, Ben Cole, 1-0\n1, Ca\x1bra Dunn, Dan Eng, 0-1\n", name="N", date=None
        )


def test_an_initial_list_with_a_bell_is_refused_with_its_line() -> None:
    with pytest.raises(InputError, match=r"^list.csv:3: a control character U\+0007 in column 1"):
        read_rating_list(
            io.StringIO("name,rating\nAnna Berg,1500\n\x07Ben Cole,1400\n"), "list.csv"
        )


@pytest.mark.parametrize("data", [b"\xfe\xff\x00", b"\xff\xfe\x00\xd8", b"\xff\xfeA"])
def test_a_utf16_byte_order_mark_before_bytes_that_are_not_utf16_is_one_line(data: bytes) -> None:
    # found by the hostile-input suite: UnicodeDecodeError, a traceback from import and the upload
    # page
    from clubrating.files import read_tournament_bytes

    with pytest.raises(
        InputError,
        match=r"^night.csv: the file starts as UTF-16 but is not \(truncated data|"
        r"^night.csv: the file starts as UTF-16 but is not \(unexpected end",
    ):
        read_tournament_bytes(data, "night.csv")
