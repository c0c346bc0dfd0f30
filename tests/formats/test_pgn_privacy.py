"""R18, collect less: a PGN import keeps names, results, moves and clocks; other tags and
the comments are dropped at the reader, and the record says what was dropped."""

from __future__ import annotations

import io

import chess.pgn
import pytest

from clubrating.formats.pgn import KEPT_TAGS, keep_moves, read_pgn

CHILD = """[Event "Junior Cup"]
[Site "Club room"]
[Date "2025.03.01"]
[Round "1.1"]
[White "Lena Novak"]
[Black "Tom Baker"]
[Result "1-0"]
[WhiteBirthDate "2014.05.17"]
[BlackEmail "tom.parent@example.org"]
[WhiteFideId "12345678"]
[WhiteElo "1402"]
[Annotator "Coach"]
[TimeControl "600+5"]

1. e4 { [%clk 0:10:00] Lena, born 2014, mum's phone 0171 555 0199 } 1... e5 { [%clk 0:09:58] }
2. Qh5 ; call 0171 555 0199 after the game
Nc6 (2... g6 { the safer move, ask Tom's dad }) 3. Bc4 Nf6 4. Qxf7# { [%eval #0] } 1-0

"""


def test_only_the_roster_tags_and_the_time_control_are_kept_and_the_rest_is_named() -> None:
    record = read_pgn(io.StringIO(CHILD), "junior.pgn")
    (pairing,) = record.pairings
    assert dict(pairing.headers) == {
        "Event": "Junior Cup",
        "Site": "Club room",
        "Date": "2025.03.01",
        "Round": "1.1",
        "White": "Lena Novak",
        "Black": "Tom Baker",
        "Result": "1-0",
        "TimeControl": "600+5",
    }
    assert record.dropped == (
        "Annotator",
        "BlackEmail",
        "WhiteBirthDate",
        "WhiteElo",
        "WhiteFideId",
        "comments",
    )
    warning = next(str(w) for w in record.warnings if "not stored" in str(w))
    assert "junior.pgn" in warning and "WhiteBirthDate" in warning and "BlackEmail" in warning
    assert "comments" in warning


def test_comments_are_dropped_and_the_clocks_and_moves_kept() -> None:
    (pairing,) = read_pgn(io.StringIO(CHILD), "junior.pgn").pairings
    assert pairing.moves is not None
    for private in ("2014", "0171", "555", "phone", "dad", "mum", "eval"):
        assert private not in pairing.moves
    game = chess.pgn.read_game(io.StringIO(pairing.moves))
    assert game is not None and not game.errors
    assert [m.uci() for m in game.mainline_moves()] == [
        "e2e4",
        "e7e5",
        "d1h5",
        "b8c6",
        "f1c4",
        "g8f6",
        "h5f7",
    ]
    assert [n.clock() for n in game.mainline()][:2] == [600.0, 598.0]


@pytest.mark.parametrize(
    "movetext",
    [
        "1. e4 { [%clk 0:10:00] } 1... e5 { [%clk 0:09:58] } 2. Qh5 Nc6 3. Bc4 Nf6\n4. Qxf7# 1-0",
        "1. e4 {\n[%clk 0:05:00] } e5 1-0",
        "1. e4 e5 2. Nf3 P@f6 3. N@g5 fxg5 1-0",
        "1. e4 $1 e5 (1... c5 2. Nf3) 2. Nf3 1-0",
    ],
)
def test_movetext_without_anything_to_drop_is_kept_as_written(movetext: str) -> None:
    assert keep_moves(movetext) == (movetext, False)


def test_a_clean_file_drops_nothing_and_says_nothing() -> None:
    text = (
        "".join(
            f'[{tag} "{value}"]\n'
            for tag, value in (
                ("Event", "E"),
                ("Round", "1"),
                ("White", "A"),
                ("Black", "B"),
                ("Result", "1-0"),
            )
        )
        + "\n1. e4 e5 1-0\n"
    )
    record = read_pgn(io.StringIO(text), "clean.pgn")
    assert record.dropped == () and record.warnings == ()


def test_the_kept_tags_are_the_seven_tag_roster_the_time_control_and_what_replays_the_moves() -> (
    None
):
    assert KEPT_TAGS == (
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "TimeControl",
        "Variant",
        "SetUp",
        "FEN",
    )
