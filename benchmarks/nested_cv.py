"""Nested cross-validation of the CPI on a pool of ``benchmarks/fit_presets.py`` (all its games).

    .venv/bin/python benchmarks/nested_cv.py fide-classical [--cache FILE] [--jobs 2] [--difficulty]
    [--nodes N]
    .venv/bin/python benchmarks/nested_cv.py fide-classical --by-prior-scale

Each of 5 outer folds of whole players chooses the E form and its cap, which factors enter and
the shrinkage by a 4-fold cross-validation of its own training players (``cpi/nested.py``),
fits the winner and measures it on the held-out players; an ACPL-only line is fitted and
measured on the same folds. The pool's searches come from its committed store
(``data/searches/POOL.jsonl.gz``), so a full store costs no search. Prints one JSON document:
per-game r(ΔCPI, Elo) beside r(ACPL, Elo), the one-game MAE beside predicting the training
mean, the MAE of held-out sets of 4 games of one player and the share of them inside ± 1 sd
(also by rating range, and for sets of the dashboard's window of 10 with the floor measured
on such sets, as the preset's is), and beside it the cover under a weaker prior chosen in the
training folds and under an interval that carries the prior's pull (``weaker_prior``).
``--by-prior-scale`` prints instead, for each fixed scale of the prior's sd, the shipped
choice's sets of 4 by rating range (cover, mean error, MAE, half-width), with the game's noise
fixed or growing with the rating (docs/cpi.md, "Honest intervals").
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import DEFAULT_BOOK, AnalysisConfig, analyse_games
from clubrating.cpi.fitting import DEFAULT_MIN_PLIES, sides_of
from clubrating.cpi.calibrate import Side
from clubrating.cpi.nested import (
    CHOICES,
    E_FORMS,
    WITH_DIFFICULTY,
    by_prior_scale,
    nested_cross_validate,
)

HERE = Path(__file__).resolve().parent


sys.path.insert(0, str(HERE))
import fill_searches  # noqa: E402  (a script beside this one, not a package)


def pool_sides(
    pool: str,
    cache: str | None = None,
    jobs: int = 2,
    difficulty: bool = False,
    nodes: int | None = None,
) -> tuple[int, int, list[Side]]:
    """The pool's games, the searches its analysis made and its sides (every candidate E form),
    at ``nodes`` (default the depth the pool is fitted at)."""
    presets, fill = fill_searches.fit_presets(), fill_searches
    nodes = nodes or presets.POOL_NODES[pool]
    store = presets.store_at(pool, nodes)
    config = AnalysisConfig(
        EngineSettings(path=DEFAULT_ENGINE, nodes=nodes),
        book=DEFAULT_BOOK,
        cache=cache,
        stores=(str(store),) if store.is_file() else (),
    )
    with tempfile.TemporaryDirectory() as folder:
        games = fill.pool_games(pool, Path(folder))
    facts = analyse_games(games, config, jobs=jobs)
    return (
        len(games),
        sum(f.searches for f in facts),
        sides_of(facts, DEFAULT_MIN_PLIES, E_FORMS, difficulty=difficulty),
    )


def nested(
    pool: str,
    cache: str | None = None,
    jobs: int = 2,
    difficulty: bool = False,
    nodes: int | None = None,
) -> dict[str, Any]:
    """The nested cross-validation's document for ``pool`` (``difficulty``: the candidates of
    ``cpi/difficulty.py`` among the choices; ``nodes``: the analysis at that depth)."""
    nodes = nodes or fill_searches.fit_presets().POOL_NODES[pool]
    games, searched, sides = pool_sides(pool, cache, jobs, difficulty, nodes)
    report = nested_cross_validate(sides, choices=WITH_DIFFICULTY if difficulty else CHOICES)
    return {"pool": pool, "nodes": nodes, "games": games, "searched": searched, **report}


def prior_scales(pool: str, cache: str | None = None, jobs: int = 2) -> dict[str, Any]:
    """What each fixed scale of the prior gives on the outer folds, the noise fixed or by rating."""
    games, searched, sides = pool_sides(pool, cache, jobs)
    return {
        "pool": pool,
        "games": games,
        "searched": searched,
        "noise fixed": by_prior_scale(sides),
        "noise by rating": by_prior_scale(sides, by_rating=True),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool", choices=sorted(fill_searches.fit_presets().SAMPLES))
    parser.add_argument("--cache", help="SQLite search cache above the store")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--difficulty", action="store_true", help="try the position-difficulty features too"
    )
    parser.add_argument(
        "--nodes", type=int, help="the analysis at this depth (its store; default the pool's fit's)"
    )
    parser.add_argument(
        "--by-prior-scale",
        action="store_true",
        help="print the sets' cover under each fixed scale of the prior instead",
    )
    args = parser.parse_args()
    if args.by_prior_scale:
        print(json.dumps(prior_scales(args.pool, args.cache, args.jobs), indent=2))
        return 0
    print(
        json.dumps(nested(args.pool, args.cache, args.jobs, args.difficulty, args.nodes), indent=2)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
