"""The committed store of searches (analysis.store): its rows round-trip, its order and bytes
are fixed, a damaged file is one line naming the file and line, and rows another engine
version made never answer. The analyses run the real Stockfish at a small node budget."""

from __future__ import annotations

import gzip
import io
from dataclasses import replace
from pathlib import Path

import chess.pgn
import pytest

from clubrating.analysis.cache import MemoryCache
from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import AnalysisConfig, Analyzer, read_pgn_file
from clubrating.analysis.store import (
    StoreCache,
    read_store,
    store_settings,
    unused_store_line,
    write_store,
)
from clubrating.cpi.facts import Score
from clubrating.errors import InputError

DATA = Path(__file__).parent / "data"
NODES = 2_000  # small and fixed: the lines are the same every run
CONFIG = AnalysisConfig(EngineSettings(path=DEFAULT_ENGINE, nodes=NODES), book=None)
ROWS = [
    ("fen b", "Stockfish 15.1|nodes=10000", (("e2e4", Score(cp=30)), ("d2d4", Score(mate=-3)))),
    ("fen a", "Stockfish 15.1|nodes=10000", (("g1f3", Score(cp=-12)),)),
    ("fen a", "Stockfish 14|nodes=10000", ()),
]


def test_a_store_round_trips_its_rows_sorted_by_settings_then_position(tmp_path) -> None:
    path = tmp_path / "pool.jsonl.gz"
    assert write_store(path, ROWS) == 3
    assert list(read_store(path)) == sorted(ROWS, key=lambda row: (row[1], row[0]))


def test_the_same_rows_in_any_order_give_the_same_bytes(tmp_path) -> None:
    write_store(tmp_path / "one.jsonl.gz", ROWS)
    write_store(tmp_path / "two.jsonl.gz", list(reversed(ROWS)))
    assert (tmp_path / "one.jsonl.gz").read_bytes() == (tmp_path / "two.jsonl.gz").read_bytes()
    assert not list(tmp_path.glob("*.partial"))


def test_a_damaged_row_is_one_error_naming_the_file_and_its_line(tmp_path) -> None:
    path = tmp_path / "pool.jsonl.gz"
    write_store(path, ROWS)
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    lines[1] = lines[1][:40]  # a row cut in the middle
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(InputError) as error:
        list(read_store(path))
    assert str(error.value).startswith(f"{path}:2: expected a JSON object")
    assert "\n" not in str(error.value)


def test_a_file_that_is_not_gzip_is_one_error_naming_the_file(tmp_path) -> None:
    path = tmp_path / "pool.jsonl.gz"
    path.write_text('{"position": "fen"}\n')
    with pytest.raises(
        InputError, match=r"pool\.jsonl\.gz: not a readable gzip'd store of searches"
    ):
        store_settings([path])


def test_a_missing_store_is_one_error_naming_it(tmp_path) -> None:
    with pytest.raises(InputError, match=r"nowhere\.jsonl\.gz: not a readable gzip'd store"):
        StoreCache([tmp_path / "nowhere.jsonl.gz"])


def test_the_store_answers_beneath_the_cache_and_new_searches_go_above(tmp_path) -> None:
    path = tmp_path / "pool.jsonl.gz"
    write_store(path, ROWS)
    above = MemoryCache()
    layered = StoreCache([path], above=above)
    assert layered.get("fen a", "Stockfish 15.1|nodes=10000") == (("g1f3", Score(cp=-12)),)
    assert layered.get("fen a", "Stockfish 16|nodes=10000") is None
    layered.put("fen c", "Stockfish 15.1|nodes=10000", ())
    assert above.get("fen c", "Stockfish 15.1|nodes=10000") == () and len(layered) == 3


@pytest.fixture(scope="module")
def games():  # type: ignore[no-untyped-def]
    return [read_pgn_file(DATA / f"{name}.pgn")[0] for name in ("hung_queen", "ruy_exchange")]


@pytest.fixture(scope="module")
def searched(games):  # type: ignore[no-untyped-def]
    """The real engine's searches of two games, as the filler keeps them, and their facts."""
    cache = MemoryCache()
    with Analyzer(CONFIG, cache=cache) as analyzer:
        facts = [analyzer.analyse(game) for game in games]
    return [
        (position, settings, lines) for (position, settings), lines in cache._store.items()
    ], facts


def test_an_analysis_over_a_full_store_searches_nothing_and_gives_the_same_facts(
    tmp_path, games, searched
) -> None:
    rows, facts = searched
    path = tmp_path / "pool.jsonl.gz"
    write_store(path, rows)
    with Analyzer(replace(CONFIG, stores=(str(path),))) as analyzer:
        again = [analyzer.analyse(game) for game in games]
    assert [f.searches + f.shallow_searches for f in again] == [0, 0]
    assert [f.plies for f in again] == [f.plies for f in facts]


def test_rows_of_another_engine_version_are_not_used_and_the_fit_says_so(
    tmp_path, games, searched
) -> None:
    rows, facts = searched
    engine_key = facts[0].engine.key
    older = [
        (position, settings.replace(f"{facts[0].engine.version}|", "14|", 1), lines)
        for position, settings, lines in rows
    ]
    path = tmp_path / "pool.jsonl.gz"
    write_store(path, older)
    with Analyzer(replace(CONFIG, stores=(str(path),))) as analyzer:
        again = [analyzer.analyse(game) for game in games]
    assert [f.searches for f in again] == [f.searches for f in facts] and all(
        f.searches for f in again
    )
    line = unused_store_line([str(path)], store_settings([path]), engine_key)
    assert line is not None and "\n" not in line
    assert line.startswith(f"{path}: not used, made by Stockfish 14|") and engine_key in line
    assert unused_store_line([str(path)], {engine_key: 1}, engine_key) is None


def test_calibrate_reads_a_store_and_says_in_one_line_when_another_version_made_it(
    tmp_path, games, searched, capsys
) -> None:
    from clubrating.cli import main

    rows, facts = searched
    rated = []
    for number in range(14):  # two games under fourteen pairs of names and ratings
        game = chess.pgn.read_game(io.StringIO(str(games[number % 2])))
        assert game is not None
        game.headers.update(
            White=f"W{number}",
            Black=f"B{number}",
            WhiteElo=str(1500 + 50 * number),
            BlackElo=str(2200 - 40 * number),
        )
        rated.append(f"{game}\n\n")
    pgn = tmp_path / "rated.pgn"
    pgn.write_text("".join(rated))
    command = [
        "calibrate",
        str(pgn),
        "--pool",
        "test",
        "--nodes",
        str(NODES),
        "--jobs",
        "1",
        "--min-plies",
        "0",
        "--json",
    ]
    current, older = tmp_path / "current.jsonl.gz", tmp_path / "older.jsonl.gz"
    write_store(current, rows)
    write_store(
        older,
        [(p, s.replace(f"{facts[0].engine.version}|", "14|", 1), lines) for p, s, lines in rows],
    )
    assert main([*command, "--store", str(current)]) == 0
    assert "not used" not in capsys.readouterr().err
    assert main([*command, "--store", str(older)]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "not used" in line]
    assert said == [unused_store_line([str(older)], store_settings([older]), facts[0].engine.key)]
