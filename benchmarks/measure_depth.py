"""The CPI on the same sides at several engine depths: does the fit's 10,000 nodes matter?

    .venv/bin/python benchmarks/measure_depth.py fide-classical [--nodes 10000 50000 150000] [--boot
    2000]
    .venv/bin/python benchmarks/measure_depth.py fide-classical --subset filled --first 31 --nodes
    10000 150000

The pool's depth subset (``fill_searches.DEPTH_SUBSET``: the first games of two round
robins) is analysed at each node budget from its committed store
(``data/searches/POOL-150k.jsonl.gz``; fill it first, ``benchmarks/fill_searches.py POOL
--subset depth --nodes N``). The shipped choice of
model is fitted at the fit's 10,000 nodes on the pool's other players only, then read on the
subset's sides at every depth: per-game r(ΔCPI, Elo), the one-game MAE, r(ACPL, Elo), each
factor's mean, and how far ΔCPI and the 10-game Elo-equivalent move from their 10,000-node
values. A refit inside the subset at each depth (5 folds of its players) shows what fitting
at the club's depth would give. The differences from 10,000 nodes carry a 95 % bootstrap
interval over the subset's players. ``--subset filled``: instead of the depth subset, every
game of the pool whose searches at each deeper budget are all in its committed store (the
whole-pool fill's games so far; ``--first N``: of those, the depth subset's and those among
the pool's first N games, so a figure stays the same as the fill goes on). Prints one JSON
document; the figures are in docs/cpi.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import DEFAULT_BOOK, AnalysisConfig, analyse_games
from clubrating.cpi.calibrate import Side, correlation, estimate
from clubrating.cpi.facts import GameFacts
from clubrating.cpi.fitting import DEFAULT_MIN_PLIES, sides_of
from clubrating.cpi.registry import COUNTS, SHARES
from clubrating.cpi.regression import cross_validate, fit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fill_searches  # noqa: E402  (a script beside this one, not a package)

BOOTSTRAP = 2000  # resamples of the subset's players
WINDOW = 10  # the dashboard's window: the Elo-equivalent of a player's last 10 games
SEED = 1


def facts_at(games: list[Any], pool: str, nodes: int) -> list[GameFacts]:
    """The games' facts at ``nodes``, read from the pool's store at that depth."""
    store = fill_searches.store_at(pool, nodes)
    assert store.is_file(), (
        f"no {store}: benchmarks/fill_searches.py {pool} --subset depth --nodes {nodes}"
    )
    config = AnalysisConfig(
        EngineSettings(path=DEFAULT_ENGINE, nodes=nodes), book=DEFAULT_BOOK, stores=(str(store),)
    )
    return analyse_games(games, config, jobs=1)


def one_game(deltas: Sequence[float], model: Any) -> list[float]:
    return [estimate([d], model)[0] for d in deltas]


def window_estimates(
    sides: Sequence[Side], deltas: Sequence[float], model: Any
) -> dict[str, float]:
    """Each player's Elo-equivalent over their last ``WINDOW`` games (the dashboard's figure)."""
    by_player: dict[str, list[float]] = {}
    for side, delta in zip(sides, deltas):
        by_player.setdefault(side.group, []).append(delta)
    return {player: estimate(own[-WINDOW:], model)[0] for player, own in by_player.items()}


def figures(sides: Sequence[Side], deltas: Sequence[float], model: Any) -> dict[str, float]:
    elo = [s.elo for s in sides]
    acpl = [s.acpl for s in sides if s.acpl is not None]
    return {
        "r": correlation(deltas, elo),
        "one_game_mae": statistics.fmean(abs(e - t) for e, t in zip(one_game(deltas, model), elo)),
        "acpl_r": correlation(acpl, [s.elo for s in sides if s.acpl is not None]),
        "mean_delta": statistics.fmean(deltas),
    }


def factor_means(sides: Sequence[Side]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name in (*SHARES, *COUNTS):
        seen = [v for s in sides if (v := s.values.get(name)) is not None]
        out[name] = round(statistics.fmean(seen), 4) if seen else None
    acpl = [s.acpl for s in sides if s.acpl is not None]
    out["ACPL"] = round(statistics.fmean(acpl), 1) if acpl else None
    return out


def factor_agreement(base: Sequence[Side], other: Sequence[Side]) -> dict[str, float | None]:
    """Per factor, the correlation over sides of its value at the base depth and at the other."""
    out: dict[str, float | None] = {}
    for name in (*SHARES, *COUNTS):
        pairs = [
            (a, b)
            for s, t in zip(base, other)
            if (a := s.values.get(name)) is not None and (b := t.values.get(name)) is not None
        ]
        r = correlation([a for a, _ in pairs], [b for _, b in pairs]) if pairs else float("nan")
        out[name] = round(r, 3) if r == r else None
    return out


def bootstrap(
    sides: Sequence[Side],
    base: dict[str, Any],
    other: dict[str, Any],
    boot: int,
    rng: random.Random,
) -> dict[str, list[float]]:
    """95 % intervals of other − base (r, one-game MAE, ACPL r, mean ΔCPI, mean window Elo)
    and of base's r alone, resampling the subset's players with replacement."""
    players = sorted({s.group for s in sides})
    rows = {p: [i for i, s in enumerate(sides) if s.group == p] for p in players}
    elo = np.array([s.elo for s in sides])
    acpl = np.array([s.acpl if s.acpl is not None else np.nan for s in sides])
    cols = {
        k: np.array([np.nan if x is None else x for x in v], dtype=float)
        for k, v in (
            ("d0", base["deltas"]),
            ("d1", other["deltas"]),
            ("e0", base["one"]),
            ("e1", other["one"]),
            ("a0", base["acpl"]),
            ("a1", other["acpl"]),
        )
    }
    shift = {p: other["window"][p] - base["window"][p] for p in players}
    found: dict[str, list[float]] = {
        k: [] for k in ("r", "one_game_mae", "acpl_r", "mean_delta", "window_elo", "base_r")
    }
    for _ in range(boot):
        pick = [rng.choice(players) for _ in players]
        idx = np.array([i for p in pick for i in rows[p]])
        y = elo[idx]
        r0, r1 = np.corrcoef(cols["d0"][idx], y)[0, 1], np.corrcoef(cols["d1"][idx], y)[0, 1]
        ok = ~np.isnan(acpl[idx])
        a0 = np.corrcoef(cols["a0"][idx][ok], y[ok])[0, 1]
        a1 = np.corrcoef(cols["a1"][idx][ok], y[ok])[0, 1]
        found["r"].append(r1 - r0)
        found["base_r"].append(r0)
        found["acpl_r"].append(a1 - a0)
        found["one_game_mae"].append(
            float(np.mean(np.abs(cols["e1"][idx] - y)) - np.mean(np.abs(cols["e0"][idx] - y)))
        )
        found["mean_delta"].append(float(np.mean(cols["d1"][idx] - cols["d0"][idx])))
        found["window_elo"].append(statistics.fmean(shift[p] for p in pick))
    return {
        k: [round(float(np.percentile(v, 2.5)), 3), round(float(np.percentile(v, 97.5)), 3)]
        for k, v in found.items()
    }


def filled_games(
    pool: str, games: list[Any], node_budgets: Sequence[int], first: int | None = None
) -> list[Any]:
    """The games whose searches at every budget but the fit's are all in the pool's stores
    (``first``: only the depth subset's and those among the first ``first`` games)."""
    depth = {id(g) for g in fill_searches.depth_subset(pool, games)}
    complete = {n for n, g in enumerate(games) if first is None or n < first or id(g) in depth}
    for nodes in node_budgets:
        if nodes != fill_searches.fit_presets().BASE_NODES:
            config = AnalysisConfig(
                EngineSettings(path=DEFAULT_ENGINE, nodes=nodes),
                book=None,
                stores=(str(fill_searches.store_at(pool, nodes)),),
            )
            complete &= fill_searches.complete_rows(games, config, None)[1]
    return [game for number, game in enumerate(games) if number in complete]


def measure(
    pool: str,
    node_budgets: Sequence[int],
    boot: int = BOOTSTRAP,
    subset: str = "depth",
    first: int | None = None,
) -> dict[str, Any]:
    """The document: the fit's 10,000-node model read at each depth on the same sides."""
    with tempfile.TemporaryDirectory() as folder:
        every = fill_searches.pool_games(pool, Path(folder))
    fit_nodes = fill_searches.fit_presets().BASE_NODES
    chosen = (
        fill_searches.depth_subset(pool, every)
        if subset == "depth"
        else filled_games(pool, every, node_budgets, first)
    )
    in_subset = {id(g) for g in chosen}
    base_facts = facts_at(every, pool, fit_nodes)
    all_sides = sides_of(base_facts, DEFAULT_MIN_PLIES)
    sub_facts = {fit_nodes: [f for g, f in zip(every, base_facts) if id(g) in in_subset]}
    players = {s.group for f in [sub_facts[fit_nodes]] for s in sides_of(f, DEFAULT_MIN_PLIES)}
    train = [s for s in all_sides if s.group not in players]
    model = fit(train)
    ordered = [g for g in every if id(g) in in_subset]
    searched = 0
    for nodes in node_budgets:
        if nodes != fit_nodes:
            sub_facts[nodes] = facts_at(ordered, pool, nodes)
            searched += sum(f.searches for f in sub_facts[nodes])
    sides = {n: sides_of(sub_facts[n], DEFAULT_MIN_PLIES) for n in node_budgets}
    for n in node_budgets:
        assert [(s.group, s.elo) for s in sides[n]] == [(s.group, s.elo) for s in sides[fit_nodes]]
    reads: dict[int, dict[str, Any]] = {}
    for n in node_budgets:
        deltas = [model.delta(s.values) for s in sides[n]]
        reads[n] = {
            "deltas": deltas,
            "one": one_game(deltas, model),
            "acpl": [s.acpl for s in sides[n]],
            "window": window_estimates(sides[n], deltas, model),
        }
    rng = random.Random(SEED)
    base = sides[fit_nodes]
    depths: dict[str, Any] = {}
    for n in node_budgets:
        row: dict[str, Any] = {
            k: round(v, 3) for k, v in figures(sides[n], reads[n]["deltas"], model).items()
        }
        refit = cross_validate(sides[n], k=5)
        row["refit_in_subset"] = {
            "r": round(refit.delta_r, 3),
            "one_game_mae": round(refit.per_game.mae, 1),
        }
        row["factor_means"] = factor_means(sides[n])
        if n != fit_nodes:
            d0, d1 = reads[fit_nodes]["deltas"], reads[n]["deltas"]
            row["delta_r_with_fit_depth"] = round(correlation(d0, d1), 3)
            row["delta_shift"] = round(statistics.fmean(b - a for a, b in zip(d0, d1)), 3)
            row["delta_shift_sd"] = round(statistics.stdev(b - a for a, b in zip(d0, d1)), 3)
            shifts = [
                reads[n]["window"][p] - reads[fit_nodes]["window"][p] for p in reads[n]["window"]
            ]
            row["window_elo_shift"] = round(statistics.fmean(shifts), 1)
            row["window_elo_shift_abs"] = round(statistics.fmean(abs(x) for x in shifts), 1)
            row["factor_r_with_fit_depth"] = factor_agreement(base, sides[n])
            row["bootstrap_95"] = bootstrap(base, reads[fit_nodes], reads[n], boot, rng)
        depths[str(n)] = row
    events = sorted({g.headers.get("Event", "") for g in ordered})
    return {
        "pool": pool,
        "subset": list(fill_searches.DEPTH_SUBSET[pool]) if subset == "depth" else events,
        "games": len(ordered),
        "sides": len(base),
        "players": len(players),
        "elo_mean": round(statistics.fmean(s.elo for s in base)),
        "elo_sd": round(statistics.stdev(s.elo for s in base)),
        "trained_on_sides": len(train),
        "fit_nodes": fit_nodes,
        "beta": round(model.beta, 6),
        "searched": searched,
        "depths": depths,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool", choices=sorted(fill_searches.DEPTH_SUBSET))
    parser.add_argument("--nodes", type=int, nargs="+", default=[10_000, 50_000, 150_000])
    parser.add_argument("--boot", type=int, default=BOOTSTRAP)
    parser.add_argument(
        "--subset",
        choices=("depth", "filled"),
        default="depth",
        help="filled: every game whose deeper searches are all committed",
    )
    parser.add_argument(
        "--first",
        type=int,
        help="with --subset filled: only the depth subset and the first N games",
    )
    args = parser.parse_args()
    print(json.dumps(measure(args.pool, args.nodes, args.boot, args.subset, args.first), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
