"""Fill a pool's committed store of engine searches, ``data/searches/POOL.jsonl.gz``.

    nice -n 19 .venv/bin/python benchmarks/fill_searches.py fide-classical [--jobs 2] \\
        [--work var/searches/fide-classical.sqlite] 2> fill.log

The pool's games are those ``benchmarks/fit_presets.py`` fits (the games ``clubrating
calibrate`` keeps of its files), searched as the fit searches them (Stockfish at 10,000 nodes,
MultiPV 3, one thread, a clean hash). Every search is committed at once to the SQLite work
file, so an interrupted fill continues where it stopped when started again; the store already
committed answers beneath it. A progress line every ten games goes to stderr. At the end one
pass through the games with every answer cached (no search) records which rows they read, and
exactly those rows are written, sorted: a refill of the same games gives the same bytes.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import chess.pgn

from clubrating.analysis.cache import SearchCache, SearchLine, SqliteCache
from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import AnalysisConfig, Analyzer, analyse_games
from clubrating.analysis.store import Row, StoreCache, write_store
from clubrating.commands.calibrate import pick_games
from clubrating.cpi.facts import GameFacts

HERE = Path(__file__).resolve().parent
PROGRESS_EVERY = 10   # games between two progress lines


def fit_presets() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_presets", HERE / "fit_presets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pool_games(name: str, folder: Path) -> list[chess.pgn.Game]:
    """The games the fit of pool ``name`` analyses, in its order."""
    presets = fit_presets()
    sample, options = presets.SAMPLES[name]
    time_control = options[options.index("--time-control") + 1]
    games, _, _ = pick_games([str(p) for p in sample(folder)], time_control)
    return games


class Recorder:
    """A cache that remembers every (position, settings) read through it."""

    def __init__(self, below: SearchCache) -> None:
        self.below = below
        self.rows: dict[tuple[str, str], tuple[SearchLine, ...]] = {}
        self.missing = 0

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        found = self.below.get(position, settings)
        if found is None:
            self.missing += 1
        else:
            self.rows[position, settings] = found
        return found

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self.rows[position, settings] = lines


def progress_line(started: float) -> object:
    def line(done: int, total: int, facts: GameFacts) -> None:
        if done % PROGRESS_EVERY and done != total:
            return
        elapsed = time.monotonic() - started
        left = elapsed / done * (total - done)
        print(f"{done}/{total} games, {elapsed / 60:.1f} min, about {left / 60:.0f} min left", file=sys.stderr,
              flush=True)
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool", choices=sorted(fit_presets().SAMPLES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work", help="the SQLite work file (default var/searches/POOL.sqlite)")
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    args = parser.parse_args()
    presets = fit_presets()
    store = presets.store_of(args.pool)
    work = Path(args.work or HERE.parent / "var" / "searches" / f"{args.pool}.sqlite")
    work.parent.mkdir(parents=True, exist_ok=True)
    config = AnalysisConfig(EngineSettings(path=args.engine, nodes=presets.NODES), book=None, cache=str(work),
                            stores=(str(store),) if store.is_file() else ())
    with tempfile.TemporaryDirectory() as folder:
        games = pool_games(args.pool, Path(folder))
        print(f"{args.pool}: {len(games)} games; work file {work}", file=sys.stderr, flush=True)
        analyse_games(games, config, jobs=args.jobs, progress=progress_line(time.monotonic()))  # type: ignore[arg-type]
        recorder = Recorder(StoreCache(config.stores, above=SqliteCache(work)))
        with Analyzer(config, cache=recorder) as analyzer:
            for game in games:
                analyzer.analyse(game)
    assert recorder.missing == 0, f"{recorder.missing} searches were not in the work file"
    rows: list[Row] = [(position, settings, lines) for (position, settings), lines in recorder.rows.items()]
    written = write_store(store, rows)
    print(f"wrote {store}: {written:,} searches, {store.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
