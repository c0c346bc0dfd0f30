"""The committed stores of searches (data/searches/, ``benchmarks/fill_searches.py``) still say
what the engine says: a random sample of their positions, seeded anew each run and printed, is
searched again by the real Stockfish and must give the stored lines exactly (the searches are
deterministic: one thread, a node budget, a clean hash). So a store cannot silently go stale;
a store another engine version made fails here and names both versions.

CLUBRATING_STORE_SEED repeats a run's sample. FAILS (never skips) without ../shared/data or
Stockfish.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import chess
import pytest

from clubrating.analysis.analyzer import game_boards, shallow_settings_key
from clubrating.analysis.cache import SearchLine, position_key
from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import open_searcher
from clubrating.analysis.store import StoreCache
from clubrating.cpi.facts import Score

SAMPLE = 200  # positions searched again per fit's store: a minute at 150,000 nodes
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


sys.path.insert(0, str(BENCHMARKS))
import fill_searches as FILL  # noqa: E402  (a script of benchmarks/, not a package)

PRESETS = FILL.fit_presets()
STORED_POOLS = [name for name in PRESETS.SAMPLES if PRESETS.store_of(name).is_file()]


def test_the_classical_pool_has_a_committed_store() -> None:
    assert "fide-classical" in STORED_POOLS, "fill it: benchmarks/fill_searches.py fide-classical"


def boards_of(name: str, folder: Path) -> dict[str, chess.Board]:
    """Every position the pool's games search, by its key (with its move stack)."""
    found: dict[str, chess.Board] = {}
    for game in FILL.pool_games(name, folder):
        boards = [board for board, _ in game_boards(game)]
        boards.append(game.end().board())
        for board in boards:
            found.setdefault(position_key(board), board)
    return found


def differing_searches(
    path: Path, nodes: int, boards: dict[str, chess.Board], seed: int, sample: int
) -> tuple[int, list[tuple[str, str, object, object]]]:
    """Search ``sample`` stored positions of the store at ``path`` again at ``nodes``: how many
    were searched and those whose lines differ."""
    store = StoreCache([path])
    searcher = open_searcher(EngineSettings(path=DEFAULT_ENGINE, nodes=nodes))
    try:
        main_key, shallow_key = searcher.info.key, shallow_settings_key(searcher.info)
        assert main_key in store.settings, (
            f"{path} was made by {sorted(store.settings)}, this engine is {main_key}: refill it"
        )
        rows = sorted((position, settings) for position, settings, _ in store.rows())
        chosen = random.Random(seed).sample(rows, min(sample, len(rows)))
        differing = []
        for position, settings in chosen:
            board = boards.get(position)
            assert board is not None, f"{position} is stored but no game of the pool reaches it"
            stored = store.get(position, settings)
            if settings == shallow_key:
                best = searcher.shallow_best(board, object())
                again: tuple[SearchLine, ...] = ((best, Score(cp=0)),) if best else ()
            else:
                again = searcher.search(board, object())
            if again != stored:
                differing.append((position, settings, stored, again))
    finally:
        searcher.close()
    return len(chosen), differing


def store_seed() -> int:
    return int(os.environ.get("CLUBRATING_STORE_SEED") or time.time_ns() % 1_000_000)


@pytest.mark.parametrize("name", STORED_POOLS)
def test_a_sample_of_the_stored_searches_is_what_the_engine_answers_again(
    name: str, tmp_path: Path
) -> None:
    seed = store_seed()
    print(f"{name}: re-searching {SAMPLE} stored positions, CLUBRATING_STORE_SEED={seed}")
    searched, differing = differing_searches(
        PRESETS.store_of(name), PRESETS.POOL_NODES[name], boards_of(name, tmp_path), seed, SAMPLE
    )
    assert differing == [], (
        f"{len(differing)} of {searched} stored searches differ (seed {seed}): refill"
    )


DEPTH_SAMPLE = 30  # positions of each store at another depth than the fit's (measure_depth.py)
DEPTH_STORES = [
    (name, nodes)
    for name in PRESETS.SAMPLES
    for nodes in (PRESETS.BASE_NODES, 50_000, 150_000)
    if nodes != PRESETS.POOL_NODES[name] and FILL.store_at(name, nodes).is_file()
]


@pytest.mark.parametrize(("name", "nodes"), DEPTH_STORES)
def test_a_sample_of_the_searches_at_other_depths_is_what_the_engine_answers_again(
    name: str, nodes: int, tmp_path: Path
) -> None:
    seed = store_seed()
    print(
        f"{name} at {nodes:,} nodes: re-searching {DEPTH_SAMPLE} "
        f"stored positions, CLUBRATING_STORE_SEED={seed}"
    )
    searched, differing = differing_searches(
        FILL.store_at(name, nodes), nodes, boards_of(name, tmp_path), seed, DEPTH_SAMPLE
    )
    assert differing == [], (
        f"{len(differing)} of {searched} stored searches differ (seed {seed}): refill"
    )
