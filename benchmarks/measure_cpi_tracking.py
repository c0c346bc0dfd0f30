"""How well the running CPI of a fitted preset tracks the players' ratings, for each k.

    .venv/bin/python benchmarks/measure_cpi_tracking.py [--pool NAME] [--cache FILE] [--sides DIR]

The ledger's rule under a fitted preset is ΔCPI = gain · (what the game shows − CPI before),
gain = max(k, 1/(n + 1 + (σ/β)²/τ²)) (``clubrating.cpi.index.ledger_step``). This measures it
on the pool's committed data (the sides of ``benchmarks/nested_cv.py``: every game of
``benchmarks/fit_presets.py``, the searches of data/searches/), always on players the fit
never saw: 5 folds of whole players (or lichess rating bands), the model fitted on four and the
careers built from the fifth's sides.

- stable careers: a player of one rating band (200 Elo wide) plays 5 to 200 games drawn from
  the band's held-out sides; the error of the CPI after the last game against the band's mean
  rating;
- a rising player: 30 games of one band, then 30 of the band 400 Elo higher; the mean error
  over the 30 games after the rise (how fast the CPI follows);
- real players (FIDE classical: a player's own games, in the order of the files); the error
  of the CPI after their last game against their mean rating.

Beside each k, the dashboard's headline (the Elo-equivalent of the last 10 games) on the same
careers, and how far the running CPI is from it. Prints one JSON document; docs/cpi.md, "The
running CPI", quotes it.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from clubrating.cpi.calibrate import CAREER_LENGTHS, Side, estimate, folds_of, settings_of
from clubrating.cpi.index import ledger_step
from clubrating.cpi.regression import fit
from clubrating.cpi.weights import Weights

HERE = Path(__file__).resolve().parent
KS = (0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3)
WINDOW = 10  # the presets' headline window
CAREERS_PER_FOLD = 200  # stable careers a fold (5 folds: 1,000 a k)
RISING_PER_FOLD = 40
RISE_GAMES = 30
MIN_BAND_SIDES = 20  # a band with fewer held-out sides makes no career
MIN_PLAYER_GAMES = 7  # a real player with fewer games is left out


def pool_sides(pool: str, cache: str | None, folder: str | None) -> list[Side]:
    """The pool's sides (``nested_cv.pool_sides``), kept in ``folder`` when given."""
    path = Path(folder) / f"{pool}.pickle" if folder else None
    if path is not None and path.is_file():
        with open(path, "rb") as handle:
            return pickle.load(handle)  # type: ignore[no-any-return]
    sys.path.insert(0, str(HERE))
    import nested_cv  # noqa: E402  (a script beside this one)

    _, _, sides = nested_cv.pool_sides(pool, cache=cache)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            pickle.dump(sides, handle)
    return sides


def run(scores: list[float], weights: Weights) -> list[float]:
    """The CPI after each game of a career whose games scored ``scores``."""
    cpi, out = weights.model.elo.prior_mean, []
    for played, score in enumerate(scores):
        _, cpi = ledger_step(cpi, score, weights, played)
        out.append(cpi)
    return out


def headline(scores: list[float], weights: Weights) -> float:
    return estimate(scores[-WINDOW:], weights.model.elo)[0]


class Tally:
    def __init__(self) -> None:
        self.errors: dict[str, list[float]] = {}

    def add(self, key: str, value: float) -> None:
        self.errors.setdefault(key, []).append(abs(value))

    def mae(self) -> dict[str, float]:
        return {key: round(statistics.fmean(v), 1) for key, v in sorted(self.errors.items())}


def measure(sides: list[Side], seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    fold = folds_of(sides, 5)
    tallies = {k: Tally() for k in KS}
    window = Tally()
    for f in range(5):
        train = [s for s, g in zip(sides, fold) if g != f]
        held = [s for s, g in zip(sides, fold) if g == f]
        model = fit(train)
        settings = settings_of(model, min_plies=20, window=WINDOW)
        weights = {k: Weights.from_dict({**settings, "k": k}) for k in KS}
        score = {id(s): model.delta(s.values) for s in held}
        bands: dict[str, list[Side]] = {}
        for side in held:
            bands.setdefault(side.band, []).append(side)
        usable = sorted(b for b, members in bands.items() if len(members) >= MIN_BAND_SIDES)
        truth = {b: statistics.fmean(s.elo for s in bands[b]) for b in usable}
        for _ in range(CAREERS_PER_FOLD):
            band = rng.choice(usable)
            length = rng.choice(CAREER_LENGTHS)
            scores = [score[id(rng.choice(bands[band]))] for _ in range(length)]
            shown = headline(scores, weights[KS[0]])
            window.add(f"stable {length:>3}", shown - truth[band])
            for k in KS:
                cpi = run(scores, weights[k])[-1]
                tallies[k].add(f"stable {length:>3}", cpi - truth[band])
                tallies[k].add(f"headline gap {length:>3}", cpi - shown)
        by_mean = sorted(usable, key=truth.__getitem__)
        pairs = [
            (low, high)
            for low in by_mean
            for high in by_mean
            if 350 <= truth[high] - truth[low] <= 450
        ]
        for _ in range(RISING_PER_FOLD if pairs else 0):
            low, high = rng.choice(pairs)
            scores = [score[id(rng.choice(bands[low]))] for _ in range(RISE_GAMES)]
            scores += [score[id(rng.choice(bands[high]))] for _ in range(RISE_GAMES)]
            for n in range(RISE_GAMES, 2 * RISE_GAMES):
                window.add("rising", headline(scores[: n + 1], weights[KS[0]]) - truth[high])
            for k in KS:
                path = run(scores, weights[k])
                for n in range(RISE_GAMES, 2 * RISE_GAMES):
                    tallies[k].add("rising", path[n] - truth[high])
        players: dict[str, list[Side]] = {}
        for side in held:
            if not side.group.startswith("game:"):
                players.setdefault(side.group, []).append(side)
        for own in players.values():
            if len(own) < MIN_PLAYER_GAMES:
                continue
            scores = [score[id(s)] for s in own]
            rating = statistics.fmean(s.elo for s in own)
            window.add("real players", headline(scores, weights[KS[0]]) - rating)
            for k in KS:
                tallies[k].add("real players", run(scores, weights[k])[-1] - rating)
    return {
        "headline (window of 10)": window.mae(),
        "running CPI": {str(k): t.mae() for k, t in tallies.items()},
        "real players": len(window.errors.get("real players", [])),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pool", action="append", choices=("lichess-blitz", "lichess-rapid", "fide-classical")
    )
    parser.add_argument("--cache", help="SQLite search cache beneath the committed stores")
    parser.add_argument(
        "--sides", metavar="DIR", help="keep the pools' sides here (a second run reads them)"
    )
    args = parser.parse_args()
    out = {
        pool: measure(pool_sides(pool, args.cache, args.sides))
        for pool in args.pool or ("fide-classical", "lichess-blitz", "lichess-rapid")
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
