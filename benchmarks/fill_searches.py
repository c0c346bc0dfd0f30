"""Fill a pool's committed store of engine searches, ``data/searches/POOL.jsonl.gz``.

    nice -n 19 .venv/bin/python benchmarks/fill_searches.py fide-classical [--jobs 2] \\
        [--work var/searches/fide-classical-150k.sqlite] 2> fill.log
    nice -n 19 .venv/bin/python benchmarks/fill_searches.py fide-classical --nodes 10000 --jobs 1 2>
    fill.log
    .venv/bin/python benchmarks/fill_searches.py fide-classical --partial

The pool's games are those ``benchmarks/fit_presets.py`` fits (the games ``clubrating
calibrate`` keeps of its files), searched as the fit searches them (Stockfish, MultiPV 3, one
thread, a clean hash) at the pool's fit depth (``fit_presets.POOL_NODES``) or at ``--nodes
N``, into ``POOL.jsonl.gz`` at 10,000 nodes and ``POOL-Nk.jsonl.gz`` at another depth
(``--subset depth``: only the games ``benchmarks/measure_depth.py`` compares). Every search is
committed at once to the SQLite work file, so an interrupted fill continues where it stopped
when started again; the store already committed answers beneath it. A progress line every ten
games goes to stderr; an engine that stops answering (a fill paused with SIGSTOP past the
engine's timeout) restarts the fill from its work file; three failures in a row without a new
search end it.

The store is written by one pass through every game of the pool that searches nothing: a game
whose searches are all in the work file or the committed store gives the rows it read, a game
half-searched is left out, and exactly those rows are written, sorted. A fill writes it at its
end; ``--partial`` only writes it (a second process beside a running fill, reading its work
file), so a fill too long for one sitting is committed as it goes. Whatever the order of the
sittings, the store of the same complete games has the same bytes.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import chess.pgn

from clubrating.analysis.cache import SearchLine, SqliteCache, decode_lines
from clubrating.analysis.engine import DEFAULT_ENGINE, EngineFailure, EngineSettings
from clubrating.analysis.runner import AnalysisConfig, Analyzer, analyse_games, read_pgn_file
from clubrating.analysis.store import Row, StoreCache, write_store
from clubrating.cpi.fitting import pick_games
from clubrating.cpi.facts import GameFacts

HERE = Path(__file__).resolve().parent
PROGRESS_EVERY = 10  # games between two progress lines
FRUITLESS_ATTEMPTS = 3  # engine failures in a row without a new search before a fill gives up

# The games searched at other depths: the first games of two round robins in the pool's order
# (FIDE 2594-2784 and 1845-2478), as many as 150,000 nodes could search in the time there was
# on a shared, busy machine (0.34 s a search on an idle core, about 80 searches a game).
# docs/cpi.md, "The engine's depth".
DEPTH_SUBSET: dict[str, tuple[tuple[str, int], ...]] = {
    "fide-classical": (("73rd ch-RUS 2020", 18), ("Kazakhstan Cup Women", 10))
}


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
    read = (game for path in sample(folder) for game in read_pgn_file(path))
    games, _, _ = pick_games(read, time_control)
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
    """The committed searches of pool ``name`` at ``nodes``."""
    return Path(fit_presets().store_at(name, nodes))


class Incomplete(Exception):
    """The writing pass met a position neither the work file nor the store answers."""


class ReadOnlyWork:
    """A fill's SQLite work file opened read-only: a second process reads it beside the fill
    writing it (WAL: each read sees the searches committed so far) and never locks it."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        row = self._db.execute(
            "SELECT lines FROM searches WHERE position = ? AND settings = ?", (position, settings)
        ).fetchone()
        return decode_lines(row[0]) if row else None

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        raise AssertionError("the work file is read-only here")

    def close(self) -> None:
        self._db.close()


class GameReader:
    """The writing pass's cache: the answers beneath it, recorded per game; a position they
    lack raises :class:`Incomplete`, so the pass never searches."""

    def __init__(self, below: StoreCache) -> None:
        self.below = below
        self.game: dict[tuple[str, str], tuple[SearchLine, ...]] = {}

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        found = self.below.get(position, settings)
        if found is None:
            raise Incomplete(position)
        self.game[position, settings] = found
        return found

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        raise AssertionError("the writing pass never searches")

    def close(self) -> None:
        self.below.close()


def complete_rows(
    games: Sequence[chess.pgn.Game], config: AnalysisConfig, work: Path | None
) -> tuple[list[Row], set[int]]:
    """The rows read by every game whose searches are all in ``work`` (if any) or
    ``config.stores`` (searching nothing), and the places in ``games`` of those games."""
    above = ReadOnlyWork(work) if work is not None and work.is_file() else None
    reader = GameReader(StoreCache(config.stores, above=above))
    rows: dict[tuple[str, str], tuple[SearchLine, ...]] = {}
    complete: set[int] = set()
    with Analyzer(dataclasses.replace(config, cache=None), cache=reader) as analyzer:
        for number, game in enumerate(games):
            reader.game = {}
            try:
                analyzer.analyse(game)
            except Incomplete:
                continue
            rows.update(reader.game)
            complete.add(number)
    return [(position, settings, lines) for (position, settings), lines in rows.items()], complete


def write_complete(
    store: Path, games: Sequence[chess.pgn.Game], config: AnalysisConfig, work: Path
) -> tuple[int, set[int]]:
    """Write ``store`` from the complete games (``complete_rows``): the searches written and
    the places of those games."""
    rows, complete = complete_rows(games, config, work)
    return write_store(store, rows), complete


def searches_in(work: Path) -> int:
    if not work.is_file():
        return 0
    cache = SqliteCache(work)
    try:
        return len(cache)
    finally:
        cache.close()


def fill(games: Sequence[chess.pgn.Game], config: AnalysisConfig, jobs: int, work: Path) -> None:
    """Search every position of ``games`` the work file and the store lack; an engine failure
    starts the fill again from the work file, until FRUITLESS_ATTEMPTS in a row add no search."""
    fruitless = 0
    while True:
        before = searches_in(work)
        try:
            analyse_games(games, config, jobs=jobs, progress=progress_line(time.monotonic(), work))
            return
        except EngineFailure as error:
            after = searches_in(work)
            fruitless = fruitless + 1 if after == before else 0
            if fruitless == FRUITLESS_ATTEMPTS:
                raise
            print(f"{error}; {after:,} searches kept, starting again", file=sys.stderr, flush=True)


def progress_line(started: float, work: Path) -> object:
    def line(done: int, total: int, facts: GameFacts) -> None:
        if done % PROGRESS_EVERY and done != total:
            return
        elapsed = time.monotonic() - started
        left = elapsed / done * (total - done)
        print(
            f"{done}/{total} games, {elapsed / 60:.1f} min, about {left / 60:.0f} min left, "
            f"{searches_in(work):,} searches in the work file",
            file=sys.stderr,
            flush=True,
        )

    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool", choices=sorted(fit_presets().SAMPLES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--work", help="the SQLite work file (default var/searches/POOL[-Nk].sqlite)"
    )
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    parser.add_argument(
        "--nodes", type=int, help="the engine's node budget (default the pool's fit's)"
    )
    parser.add_argument(
        "--subset",
        choices=("all", "depth"),
        default="all",
        help="depth: search only the pool's depth subset (DEPTH_SUBSET)",
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="search nothing: write the store from the games complete so far",
    )
    args = parser.parse_args()
    if args.nodes is None:
        args.nodes = fit_presets().POOL_NODES[args.pool]
    if args.nodes < 1:
        parser.error(f"--nodes must be a positive number of nodes, not {args.nodes}")
    store = store_at(args.pool, args.nodes)
    work = Path(
        args.work or HERE.parent / "var" / "searches" / f"{store.name.split('.')[0]}.sqlite"
    )
    if args.partial and not work.is_file() and not store.is_file():
        parser.error(f"{work}: no work file and no store {store}: nothing to write")
    work.parent.mkdir(parents=True, exist_ok=True)
    config = AnalysisConfig(
        EngineSettings(path=args.engine, nodes=args.nodes),
        book=None,
        cache=str(work),
        stores=(str(store),) if store.is_file() else (),
    )
    with tempfile.TemporaryDirectory() as folder:
        every = pool_games(args.pool, Path(folder))
    chosen = depth_subset(args.pool, every) if args.subset == "depth" else every
    print(f"{args.pool}: {len(chosen)} games; work file {work}", file=sys.stderr, flush=True)
    if not args.partial:
        fill(chosen, config, args.jobs, work)
    written, complete = write_complete(store, every, config, work)
    filled = {id(game) for game in chosen}
    left = sum(
        1 for number, game in enumerate(every) if number not in complete and id(game) in filled
    )
    assert args.partial or not left, f"{left} games filled are not complete in {work}"
    print(
        f"wrote {store}: {len(complete)} of the pool's {len(every)} games "
        f"complete, {written:,} searches, {store.stat().st_size / 1e6:.1f} MB",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
