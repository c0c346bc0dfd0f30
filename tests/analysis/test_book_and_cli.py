"""Book status from a Polyglot file the test writes, and ``clubrating analyze``."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import chess
import chess.polyglot
import pytest

import clubrating.cli as cli
from clubrating import __version__ as clubrating_version
from clubrating.analysis.analyzer import book_status
from clubrating.analysis.engine import HASH_MB
from clubrating.commands.analyze import book_identity
from clubrating.cpi.index import DEFAULT_PRESET, PRESET_POOLS, PRESETS
from clubrating.cpi.facts import BookStatus
from clubrating.cpi.factors import DEFINITIONS_VERSION

DATA = Path(__file__).parent / "data"


def polyglot_move(move: chess.Move) -> int:
    """Polyglot's move encoding (to file, to row, from file, from row)."""
    return (
        chess.square_file(move.to_square)
        | chess.square_rank(move.to_square) << 3
        | chess.square_file(move.from_square) << 6
        | chess.square_rank(move.from_square) << 9
    )


def write_book(path: Path, entries: list[tuple[chess.Board, str, int]]) -> None:
    rows = sorted(
        (chess.polyglot.zobrist_hash(board), polyglot_move(chess.Move.from_uci(uci)), weight)
        for board, uci, weight in entries
    )
    path.write_bytes(
        b"".join(struct.pack(">QHHI", key, move, weight, 0) for key, move, weight in rows)
    )


def test_book_status_ranks_the_ten_heaviest_moves(tmp_path) -> None:
    start = chess.Board()
    moves = [m.uci() for m in start.legal_moves]  # 20 moves, weights 20 down to 1
    write_book(tmp_path / "book.bin", [(start, uci, 20 - i) for i, uci in enumerate(moves[:12])])
    with chess.polyglot.open_reader(tmp_path / "book.bin") as book:
        assert book_status(book, start, chess.Move.from_uci(moves[0])) is BookStatus.TOP10
        assert book_status(book, start, chess.Move.from_uci(moves[9])) is BookStatus.TOP10
        assert book_status(book, start, chess.Move.from_uci(moves[10])) is BookStatus.BOOK
        assert book_status(book, start, chess.Move.from_uci(moves[15])) is BookStatus.OUT
        after = start.copy()
        after.push_uci(moves[0])
        assert book_status(book, after, next(iter(after.legal_moves))) is BookStatus.NO_POSITION


def clubrating(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    return cli.main(argv)  # imports the analyze command's module only


def test_analyze_json_is_the_design_document(fake_engine, tmp_path, monkeypatch, capsys) -> None:
    write_book(tmp_path / "book.bin", [(chess.Board(), "e2e4", 10)])
    code = clubrating(
        [
            "analyze",
            str(DATA / "hung_queen.pgn"),
            "--engine",
            str(fake_engine.path),
            "--book",
            str(tmp_path / "book.bin"),
            "--nodes",
            "500",
            "--jobs",
            "1",
            "--json",
        ],
        monkeypatch,
    )
    assert code == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert game["result"] == "0-1" and game["headers"]["White"] == "Hasty"
    assert (
        game["engine"].items()
        >= {"name": "FakeFish", "version": "1.0", "nodes": 500, "multipv": 3}.items()
    )
    white = game["players"]["white"]
    assert set(white) >= {"name", "result_bonus", "delta_cpi", "factors"}
    assert set(white["factors"]) == {"E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3", "H", "Br"}
    for name in ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3"):
        assert set(white["factors"][name]) == {"value", "numerator", "denominator", "available"}
    assert white["factors"]["M1"] == {
        "value": None,
        "numerator": 0,
        "denominator": 0,
        "available": False,
    }
    assert isinstance(white["factors"]["H"]["count"], int)
    assert (
        game["players"]["black"]["result_bonus"] == PRESETS[DEFAULT_PRESET].result.win
    )  # the default preset's R
    assert len(game["plies"]) == 12 and game["plies"][0]["book"] == "top10"


def test_analyze_json_records_its_provenance(fake_engine, tmp_path, monkeypatch, capsys) -> None:
    """The definitions' version, clubrating's, the engine's Hash/Threads and the
    depths it reached, the book (path and digest) and each player's mating attacks."""
    book = tmp_path / "book.bin"
    write_book(book, [(chess.Board(), "e2e4", 10)])
    code = clubrating(
        [
            "analyze",
            str(DATA / "mates.pgn"),
            "--engine",
            str(fake_engine.path),
            "--book",
            str(book),
            "--nodes",
            "500",
            "--jobs",
            "1",
            "--json",
        ],
        monkeypatch,
    )
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    digest = hashlib.sha256(book.read_bytes()).hexdigest()[:16]
    weights = document["provenance"].pop("weights")
    assert weights == {
        "preset": DEFAULT_PRESET,
        "pool": PRESET_POOLS[DEFAULT_PRESET],
        **PRESETS[DEFAULT_PRESET].to_dict(),
    }
    assert document["provenance"] == {
        "clubrating": clubrating_version,
        "definitions": DEFINITIONS_VERSION,
        "engine_path": str(fake_engine.path),
        "book": {"path": str(book), "sha256": digest},
    }
    (game,) = document["games"]
    assert game["definitions"] == DEFINITIONS_VERSION
    assert game["engine"]["hash_mb"] == HASH_MB and game["engine"]["threads"] == 1
    assert game["depth"] == {"min": 1, "median": 1, "max": 1, "searches": game["searches"]}
    assert all("mating_attacks" in player for player in game["players"].values())
    assert book_identity(None) == "none"


def test_analyze_prints_factors_as_text(fake_engine, tmp_path, monkeypatch, capsys) -> None:
    write_book(tmp_path / "book.bin", [(chess.Board(), "e2e4", 10)])
    code = clubrating(
        [
            "analyze",
            str(DATA / "ruy_exchange.pgn"),
            "--engine",
            str(fake_engine.path),
            "--book",
            str(tmp_path / "book.bin"),
            "--nodes",
            "500",
        ],
        monkeypatch,
    )
    out = capsys.readouterr().out
    assert code == 0 and "ΔCPI" in out and "Opener" in out
    lines = out.splitlines()
    assert lines[0] == (
        "CPI preset fide-classical: the preset was fitted at 150,000 nodes a position; "
        "these games were analysed at 500 (a shallower analysis sees more mistakes: "
        "the figure may read lower)"
    )  # the club is told its depth differs
    t_row = next(line for line in lines if line.strip().startswith("T "))
    assert "not measured" in t_row and "thinking time" in t_row  # no clocks in the file
    e_row = next(line for line in lines if line.strip().startswith("E "))
    assert " % (" in e_row and "cp lost a move" in e_row and "more is better" in e_row
    assert "=" not in e_row and "/" not in e_row  # not 'E=0.584 (77.28/132.36)'


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--engine", "/nonexistent/stockfish"], "no executable UCI engine"),
        (["--book", "/nonexistent/book.bin"], "no Polyglot opening book"),
        (["--nodes", "0"], "--nodes must be at least 1"),
    ],
)
def test_analyze_reports_a_missing_engine_or_book_in_one_line(
    argv, message, fake_engine, monkeypatch, capsys
) -> None:
    base = ["analyze", str(DATA / "mates.pgn"), "--engine", str(fake_engine.path)]
    code = clubrating(base + argv, monkeypatch)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_analyze_reports_an_unreadable_game_with_its_file(
    fake_engine, tmp_path, monkeypatch, capsys
) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 *\n')
    code = clubrating(["analyze", str(bad), "--engine", str(fake_engine.path)], monkeypatch)
    err = capsys.readouterr().err
    assert code == 2 and "bad.pgn" in err and "game 1" in err


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("root:x:0:0:root:/root:/bin/bash\nhello world\n", "game 1"),  # not PGN at all
        (
            '[White "A"]\n[Black "B"]\n\n1. e4 e5 *\n\nsome junk after it\n',
            "game 2",
        ),  # a game, then junk
    ],
)
def test_analyze_refuses_text_that_is_not_pgn(
    text, game, fake_engine, tmp_path, monkeypatch, capsys
) -> None:
    bad = tmp_path / "notes.pgn"
    bad.write_text(text)
    code = clubrating(["analyze", str(bad), "--engine", str(fake_engine.path)], monkeypatch)
    err = capsys.readouterr().err
    assert (
        code == 2
        and "notes.pgn" in err
        and f"{game}: not PGN" in err
        and len(err.strip().splitlines()) == 1
    )
