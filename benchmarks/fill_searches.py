"""Fill a pool's committed store of engine searches, ``data/searches/POOL.jsonl.gz``.

    nice -n 19 .venv/bin/python benchmarks/fill_searches.py fide-classical [--jobs 2] \\
        [--work var/searches/fide-classical.sqlite] 2> fill.log
    nice -n 10 .venv/bin/python benchmarks/fill_searches.py fide-classical --subset depth \\
        --nodes 150000 --jobs 1 2> fill.log

``--nodes`` other than the fit's 10,000 searches only the pool's depth subset
(``DEPTH_SUBSET``) into ``data/searches/POOL-150k.jsonl.gz`` (``-50k`` at 50,000) beside the
fit's store, resumable in the same way; ``benchmarks/measure_depth.py`` compares the CPI on
the same sides at each depth.

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

# The games searched at other depths: the first games of two round robins in the pool's order
# (FIDE 2594-2784 and 1845-2478), as many as 150,000 nodes could search in the time there was
# on a shared, busy machine (0.34 s a search on an idle core, about 80 searches a game).
# docs/cpi.md, "The engine's depth".
DEPTH_SUBSET: dict[str, tuple[tuple[str, int], ...]] = {
    "fide-classical": (("73rd ch-RUS 2020", 18), ("Kazakhstan Cup Women", 10))}


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


def depth_subset(name: str, games: list[chess.pgn.Game]) -> list[chess.pgn.Game]:
    """The pool's games of its depth subset: the first games of each of its events, in order."""
    left = dict(DEPTH_SUBSET[name])
    chosen = []
    for game in games:
        event = game.headers.get("Event", "")
        if left.get(event, 0) > 0:
            left[event] -= 1
            chosen.append(game)
    return chosen


def depth_games(name: str, folder: Path) -> list[chess.pgn.Game]:
    """The pool's games of its depth subset, in the pool's order."""
    return depth_subset(name, pool_games(name, folder))


def store_at(name: str, nodes: int) -> Path:
    """The committed searches of pool ``name`` at ``nodes`` (the fit's own store at its nodes)."""
    store: Path = fit_presets().store_of(name)
    if nodes == fit_presets().NODES:
        return store
    return store.with_name(f"{name}-{nodes // 1000}k.jsonl.gz")


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
    parser.add_argument("--nodes", type=int, default=fit_presets().NODES,
                        help="the engine's node budget (default the fit's); others need --subset depth")
    parser.add_argument("--subset", choices=("all", "depth"), default="all",
                        help="depth: only the pool's depth subset (DEPTH_SUBSET)")
    args = parser.parse_args()
    store = store_at(args.pool, args.nodes)
    if args.nodes != fit_presets().NODES and args.subset != "depth":
        parser.error("another node budget than the fit's searches only the depth subset: add --subset depth")
    work = Path(args.work or HERE.parent / "var" / "searches" / f"{store.name.split('.')[0]}.sqlite")
    work.parent.mkdir(parents=True, exist_ok=True)
    config = AnalysisConfig(EngineSettings(path=args.engine, nodes=args.nodes), book=None, cache=str(work),
                            stores=(str(store),) if store.is_file() else ())
    with tempfile.TemporaryDirectory() as folder:
        games = (depth_games if args.subset == "depth" else pool_games)(args.pool, Path(folder))
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
