"""benchmarks/fill_searches.py, a fill committed as it goes: a partial store holds exactly the
games whose searches are all answered (a half-searched game is left out, nothing is searched to
write it), a later sitting continues from that store, and the store of the same games has the
same bytes as one written in a single run. The real Stockfish at a small node budget on three
games; the scripted fake engine for an engine that stops answering."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import chess.pgn
import pytest

from clubrating.analysis.cache import SearchLine, SqliteCache
from clubrating.analysis.engine import DEFAULT_ENGINE, EngineFailure, EngineSettings
from clubrating.analysis.runner import AnalysisConfig, Analyzer, read_pgn_file

from .conftest import FakeEngine

DATA = Path(__file__).parent / "data"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
NODES = 2_000  # small and fixed: the lines are the same every run
CONFIG = AnalysisConfig(EngineSettings(path=DEFAULT_ENGINE, nodes=NODES), book=None)
TIMEOUT = 3.0  # seconds the fake engine may take to answer: enough to start on a busy machine

sys.path.insert(0, str(BENCHMARKS))
import fill_searches as FILL  # noqa: E402  (a script of benchmarks/, not a package)


class Interrupted(Exception):
    """A fill stopped in the middle (as a Ctrl-C or the end of a sitting stops it)."""


class StopsAfter:
    """The work file, taking ``searches`` new searches and then stopping the fill."""

    def __init__(self, work: Path, searches: int) -> None:
        self.cache, self.left = SqliteCache(work), searches

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        return self.cache.get(position, settings)

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        if self.left == 0:
            raise Interrupted
        self.cache.put(position, settings, lines)
        self.left -= 1

    def close(self) -> None:
        self.cache.close()


@pytest.fixture(scope="module")
def games() -> list[chess.pgn.Game]:
    return [
        read_pgn_file(DATA / f"{name}.pgn")[0]
        for name in ("hung_queen", "ruy_exchange", "legal_mate")
    ]


@pytest.fixture(scope="module")
def single(
    games: list[chess.pgn.Game], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """The three games filled and written in one run: (the store, the work file)."""
    folder = tmp_path_factory.mktemp("single")
    work, store = folder / "work.sqlite", folder / "pool.jsonl.gz"
    config = replace(CONFIG, cache=str(work))
    FILL.fill(games, config, 1, work)
    written, complete = FILL.write_complete(store, games, config, work)
    assert complete == {0, 1, 2} and written == FILL.searches_in(work)
    return store, work


def interrupted_fill(games: list[chess.pgn.Game], work: Path) -> None:
    """Fill the first game, then stop five searches into the second."""
    with Analyzer(CONFIG, cache=SqliteCache(work)) as analyzer:
        first = analyzer.analyse(games[0])
    assert first.searches + first.shallow_searches > 0
    with Analyzer(CONFIG, cache=StopsAfter(work, 5)) as analyzer, pytest.raises(Interrupted):
        analyzer.analyse(games[1])


def test_a_partial_store_holds_the_complete_games_only_and_searches_nothing(
    games: list[chess.pgn.Game], single: tuple[Path, Path], tmp_path: Path
) -> None:
    work, store = tmp_path / "work.sqlite", tmp_path / "pool.jsonl.gz"
    interrupted_fill(games, work)
    kept = FILL.searches_in(work)
    written, complete = FILL.write_complete(store, games, replace(CONFIG, cache=str(work)), work)
    assert complete == {0}, "the half-searched second game and the unsearched third are left out"
    assert FILL.searches_in(work) == kept, "writing the store searched something"
    assert 0 < written < kept, "the second game's five searches are not in the store"
    first_only = (
        tmp_path / "first.jsonl.gz"
    )  # the first game's rows from the single run's work file
    FILL.write_complete(first_only, games[:1], replace(CONFIG, cache=str(single[1])), single[1])
    assert store.read_bytes() == first_only.read_bytes()


@pytest.mark.parametrize(
    "keeps_work_file", [True, False], ids=["with its work file", "from the store alone"]
)
def test_a_fill_resumed_from_a_partial_store_writes_the_same_bytes_as_a_single_run(
    games: list[chess.pgn.Game], single: tuple[Path, Path], tmp_path: Path, keeps_work_file: bool
) -> None:
    work, store = tmp_path / "work.sqlite", tmp_path / "pool.jsonl.gz"
    interrupted_fill(games, work)
    FILL.write_complete(store, games, CONFIG, work)
    if not keeps_work_file:
        work = tmp_path / "another-sitting.sqlite"
    config = replace(CONFIG, cache=str(work), stores=(str(store),))
    FILL.fill(games, config, 1, work)
    _, complete = FILL.write_complete(store, games, config, work)
    assert complete == {0, 1, 2}
    assert store.read_bytes() == single[0].read_bytes()
    if (
        not keeps_work_file
    ):  # the first game's searches came from the store, not from the engine again
        assert 0 < FILL.searches_in(work) < FILL.searches_in(single[1])


def hanging(fake_engine: FakeEngine, monkeypatch: pytest.MonkeyPatch, work: Path) -> AnalysisConfig:
    """The fake engine's config that hangs (from FAKE_UCI_FROM's search on, all of them by default)
    after TIMEOUT, its searches kept in ``work``."""
    monkeypatch.setenv("FAKE_UCI_MODE", "hang")
    return replace(
        fake_engine.config(cache=str(work)),
        engine=EngineSettings(path=str(fake_engine.path), nodes=1000, timeout=TIMEOUT),
    )


def test_an_engine_that_stops_answering_restarts_the_fill_from_its_work_file(
    games: list[chess.pgn.Game],
    fake_engine: FakeEngine,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    work = tmp_path / "work.sqlite"
    config = hanging(fake_engine, monkeypatch, work)
    monkeypatch.setenv("FAKE_UCI_FROM", "11")  # each engine answers 10 searches, then hangs
    FILL.fill(games[:1], config, 1, work)
    assert FILL.searches_in(work) > 10 and fake_engine.commands().count("uci") >= 2
    assert FILL.write_complete(tmp_path / "pool.jsonl.gz", games[:1], config, work)[1] == {0}


def test_an_engine_that_never_answers_ends_the_fill_in_one_line(
    games: list[chess.pgn.Game],
    fake_engine: FakeEngine,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    work = tmp_path / "work.sqlite"
    config = hanging(fake_engine, monkeypatch, work)
    with pytest.raises(EngineFailure, match=f"no answer within {TIMEOUT:g} s") as error:
        FILL.fill(games[:1], config, 1, work)
    assert "\n" not in str(error.value) and FILL.searches_in(work) == 0
    assert (
        fake_engine.commands().count("uci") == FILL.FRUITLESS_ATTEMPTS
    )  # three engines tried, then it gives up
