"""Fit the CPI presets the product ships and write ``src/clubrating/cpi/presets.py``.

    .venv/bin/python benchmarks/fit_presets.py [--cache FILE] [--check] [--pool NAME]

Three rating pools of ../shared/data/games, never mixed, each fitted by ``clubrating calibrate``
with the real Stockfish at the pool's depth (``POOL_NODES``; deterministic: one thread, a node
budget, a clean hash for every search), reading the pool's committed searches at that depth
(``store_of``, ``benchmarks/fill_searches.py``) beneath the cache, so only what the store
lacks is searched:

- ``lichess-blitz``: every rated blitz game of 30 plies or more of the ten lichess rating
  bands of June 2018 (2,039 games; 10,000 nodes);
- ``lichess-rapid``: every rated rapid game of 30 plies or more of the same bands (387 games,
  none above 2300; 10,000 nodes);
- ``fide-classical``: the Lezcano memorial 2025 (252 over-the-board games, FIDE 1400-2500,
  90'+30"), the 45 over-the-board games 2200-2470 of lunahernandez_games_clk_eval.pgn and
  every rated classical over-the-board game of TWIC 1362 (online, rapid and blitz events left
  out): 988 games, 150,000 nodes.

``acceptance/test_cpi_fit.py`` builds the same samples (it imports them from here), refits
and fails when the shipped presets differ. ``--check`` only prints the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import sys
from io import StringIO
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT.parent / "shared" / "data" / "games"
PRESETS_MODULE = ROOT / "src" / "clubrating" / "cpi" / "presets.py"
STORES = ROOT / "data" / "searches"
BANDS = (
    "lt900",
    "900-1100",
    "1100-1300",
    "1300-1500",
    "1500-1700",
    "1700-1900",
    "1900-2100",
    "2100-2300",
    "2300-2500",
    "2500plus",
)
MIN_SAMPLE_PLIES = 30
NOT_CLASSICAL = re.compile(r"blitz|speed|rapid|online|bullet|\bCB\b|FSIM", re.I)
BASE_NODES = 10_000  # the depth of a pool's first store, data/searches/POOL.jsonl.gz
# The depth each pool is fitted at. FIDE classical at a club's default (150,000: a preset fitted
# at 10,000 read a 150,000-node analysis about 70 Elo high, docs/cpi.md "The engine's depth");
# lichess at 10,000.
POOL_NODES = {"lichess-blitz": BASE_NODES, "lichess-rapid": BASE_NODES, "fide-classical": 150_000}
POOLS = {
    "lichess-blitz": "lichess blitz ratings of 2018",
    "lichess-rapid": "lichess rapid ratings of 2018",
    "fide-classical": "FIDE ratings, classical over the board",
}


def read(path: Path):  # type: ignore[no-untyped-def]
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def rated(game: chess.pgn.Game) -> bool:
    return (
        game.headers.get("WhiteElo", "").isdigit()
        and game.headers.get("BlackElo", "").isdigit()
        and sum(1 for _ in game.mainline_moves()) >= MIN_SAMPLE_PLIES
    )


def write(path: Path, games: list[chess.pgn.Game]) -> Path:
    path.write_text("".join(f"{game}\n\n" for game in games), encoding="utf-8")
    return path


def lichess(speed: str, folder: Path) -> list[Path]:
    """Every rated lichess game of ``speed`` ("Blitz", "Rapid") of the ten bands, each game
    tagged with its band (the fit's folds keep a band whole)."""
    chosen = []
    for band in BANDS:
        games = [
            g
            for g in read(GAMES / "lichess_2018-06_bands" / f"band_{band}.pgn")
            if g.headers.get("Event", "").startswith(f"Rated {speed}") and rated(g)
        ]
        for game in games:
            game.headers["Band"] = band
        chosen += games
    return [write(folder / f"lichess-{speed.lower()}.pgn", chosen)]


def fide_classical(folder: Path) -> list[Path]:
    broadcasts = [
        GAMES / "otb_broadcast_clk" / name
        for name in ("lezcano_memorial_2025_broadcast.pgn", "lunahernandez_games_clk_eval.pgn")
    ]
    classical = [
        g
        for g in read(GAMES / "otb_twic" / "twic1362.pgn")
        if not NOT_CLASSICAL.search(g.headers.get("Event", "")) and rated(g)
    ]
    return [*broadcasts, write(folder / "twic-classical.pgn", classical)]


SAMPLES = {
    "lichess-blitz": (
        functools.partial(lichess, "Blitz"),
        ("--pool", "lichess-2018", "--time-control", "blitz"),
    ),
    "lichess-rapid": (
        functools.partial(lichess, "Rapid"),
        ("--pool", "lichess-2018", "--time-control", "rapid"),
    ),
    "fide-classical": (fide_classical, ("--pool", "fide", "--time-control", "classical")),
}


def store_at(name: str, nodes: int) -> Path:
    """The committed searches of pool ``name`` at ``nodes``: POOL.jsonl.gz at the base depth,
    POOL-Nk.jsonl.gz at another."""
    return STORES / (
        f"{name}.jsonl.gz" if nodes == BASE_NODES else f"{name}-{nodes // 1000}k.jsonl.gz"
    )


def store_of(name: str) -> Path:
    """The pool's committed searches at the depth it is fitted at."""
    return store_at(name, POOL_NODES[name])


def fit_all(
    folder: Path, cache: str | None = None, jobs: int = 2, names: tuple[str, ...] = tuple(SAMPLES)
) -> dict[str, dict]:  # type: ignore[type-arg]
    """The fits of the pools ``names`` (default every pool): the documents of ``clubrating calibrate
    --json``."""
    from clubrating.cli import main

    assert GAMES.is_dir(), f"real games missing: {GAMES}"
    results = {}
    for name in names:
        sample, options = SAMPLES[name]
        buffer = StringIO()
        extra = ["--cache", cache] if cache else []
        extra += ["--store", str(store_of(name))] if store_of(name).is_file() else []
        with contextlib.redirect_stdout(buffer):
            code = main(
                [
                    "calibrate",
                    *map(str, sample(folder)),
                    "--nodes",
                    str(POOL_NODES[name]),
                    "--jobs",
                    str(jobs),
                    "--json",
                    *extra,
                    *options,
                ]
            )
        assert code == 0, name
        results[name] = json.loads(buffer.getvalue())
    return results


def shipped(name: str) -> dict:  # type: ignore[type-arg]
    """The pool's fit as the shipped presets module holds it (for a refit of the other pool)."""
    from clubrating.cpi import presets

    return {
        "settings": presets.FITTED[name],
        "provenance": presets.PROVENANCE[name],
        "cross_validation": presets.CROSS_VALIDATION[name],
    }


def module_text(fits: dict[str, dict]) -> str:  # type: ignore[type-arg]
    lines = [
        '"""The CPI presets fitted on real rated games, written by',
        "``benchmarks/fit_presets.py`` from ``clubrating calibrate``: do not edit by hand;",
        "``acceptance/test_cpi_fit.py`` refits them and fails when they differ.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from clubrating.words import N_",
        "",
        "FITTED: dict[str, dict[str, float]] = {",
    ]
    for name, fit in fits.items():
        lines.append(f"    {name!r}: {{")
        lines += [f"        {k!r}: {v!r}," for k, v in fit["settings"].items()]
        lines.append("    },")
    # each pool's name as the dashboard says it, marked for the translation catalogues
    lines += ["}", "", "POOLS: dict[str, str] = {"]
    lines += [f"    {name!r}: N_({text!r})," for name, text in POOLS.items()]
    lines += ["}", "", "PROVENANCE: dict[str, dict[str, object]] = {"]
    for name, fit in fits.items():
        lines.append(f"    {name!r}: {fit['provenance']!r},")
    lines += ["}", "", "CROSS_VALIDATION: dict[str, dict[str, object]] = {"]
    for name, fit in fits.items():
        lines.append(f"    {name!r}: {fit['cross_validation']!r},")
    lines += ["}", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", help="SQLite search cache (a second run costs no search)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="print the figures, write nothing")
    parser.add_argument(
        "--pool",
        action="append",
        choices=sorted(SAMPLES),
        help="refit only this pool (repeatable); the other keeps its shipped fit",
    )
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        fits = fit_all(Path(folder), args.cache, args.jobs, tuple(args.pool or SAMPLES))
    for name, fit in fits.items():
        print(
            name, json.dumps(fit["cross_validation"]), json.dumps(fit["careers"]), file=sys.stderr
        )
    if not args.check:
        every = {name: fits[name] if name in fits else shipped(name) for name in SAMPLES}
        PRESETS_MODULE.write_text(module_text(every), encoding="utf-8")
        print(f"wrote {PRESETS_MODULE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
