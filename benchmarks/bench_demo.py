"""The demo club that ``make run`` builds (``clubrating demo``, default settings).

Runs ``clubrating demo --json`` into a new SQLite file ``--runs`` times and reports the median
wall and CPU seconds, each part the command times itself (results, playing, analysis, total),
and what the games look like (moves a game, draws, clocks, and how the members' centipawn loss
follows their club rating). ``--before SRC`` runs another version's ``src`` alternating with
this one, side by side. Target: a newcomer's ``make run`` shows the CPI within about a minute
of build time. What each figure means: ``docs/benchmarks.md``.

Usage: python benchmarks/bench_demo.py [--runs 3] [--before SRC] [-- extra demo options]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

import chess.pgn

PARTS = ("results", "playing", "analysis", "total")


def one_run(folder: Path, extra: list[str], source: str | None = None) -> dict[str, Any]:
    database = folder / "demo.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "CLUBRATING_DATABASE_URL"}
    if source is not None:
        env["PYTHONPATH"] = source
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "clubrating",
            "--database",
            f"sqlite:///{database}",
            "demo",
            "--json",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(
            f"bench_demo: clubrating demo failed: {run.stderr.strip().splitlines()[-1]}"
        )
    summary: dict[str, Any] = json.loads(run.stdout)
    games = looks(database)
    database.unlink()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        **summary["seconds"],
        "wall": wall,
        "cpu": cpu,
        "games_with_moves": summary["games_with_moves"],
        "tournaments": summary["tournaments"],
        "nodes": summary["analysis"]["nodes"],
        "searched": summary["analysis"]["searched"],
        "looks": games,
    }


def looks(database: Path) -> dict[str, float]:
    """What the played games look like, and how the CPI's ACPL follows the rating."""
    with closing(sqlite3.connect(database)) as db:
        games = db.execute("SELECT moves, white_points FROM club_game WHERE moves <> ''").fetchall()
        sides = db.execute(
            "SELECT c.member_id, c.factors, r.rating FROM club_cpientry c "
            "JOIN club_currentrating r ON r.member_id = c.member_id"
        ).fetchall()
    plies, spent, trouble = [], [], 0
    for moves, _ in games:
        game = chess.pgn.read_game(io.StringIO(moves))
        assert game is not None
        clocks = [node.clock() or 0.0 for node in game.mainline()]
        plies.append(len(clocks))
        for own in (clocks[0::2], clocks[1::2]):
            trouble += min(own, default=900) < 60
            spent += [
                before - after + 10 for before, after in zip(own, own[1:])
            ]  # 15+10: demo.TIME_CONTROL
    loss: dict[int, list[float]] = {}
    rating: dict[int, float] = {}
    for member, factors, value in sides:
        e = json.loads(factors)["factors"]["E"]
        if e["denominator"]:
            loss.setdefault(member, []).append(e["numerator"] / e["denominator"])
            rating[member] = value
    members = [m for m in loss if len(loss[m]) >= 3]
    r = (
        statistics.correlation(
            [rating[m] for m in members], [statistics.fmean(loss[m]) for m in members]
        )
        if len(members) > 2
        else float("nan")
    )
    return {
        "plies": statistics.fmean(plies),
        "draws": sum(w == 1 for _, w in games) / len(games),
        "seconds_a_move": statistics.fmean(spent),
        "under_a_minute": trouble / (2 * len(games)),
        "members": len(members),
        "r_rating_acpl": r,
        "five_plus": sum(1 for games in Counter(m for m, _, _ in sides).values() if games >= 5),
    }


def median_table(versions: dict[str, list[dict[str, Any]]]) -> None:
    """One row a figure, one column a version: the median of its runs (and every run)."""
    print(f"  {'':<9} " + "".join(f"{name:>34}" for name in versions))
    for part in ("wall", "cpu", *PARTS):
        cells = []
        for runs in versions.values():
            values = [run[part] for run in runs]
            cells.append(
                f"{statistics.median(values):6.1f} s ({', '.join(f'{v:.0f}' for v in values)})"
            )
        print(f"  {part:<9} " + "".join(f"{cell:>34}" for cell in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--before", metavar="SRC", help="also run the package in SRC (a src folder), alternating"
    )
    parser.add_argument("extra", nargs="*", help="options passed to clubrating demo (after --)")
    args = parser.parse_args()
    sources = {
        "this": None,
        **({"before": str(Path(args.before).resolve())} if args.before else {}),
    }
    versions: dict[str, list[dict[str, Any]]] = {name: [] for name in sources}
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as folder:
        for index in range(args.runs):
            for name, source in sources.items():
                versions[name].append(one_run(Path(folder), args.extra, source))
                row = versions[name][-1]
                print(
                    f"run {index + 1} ({name}): wall {row['wall']:.1f} s, CPU {row['cpu']:.1f} s; "
                    + ", ".join(f"{part} {row[part]:.1f} s" for part in PARTS)
                    + f"; load {os.getloadavg()[0]:.1f}",
                    file=sys.stderr,
                    flush=True,
                )
    first = versions["this"][0]
    print(
        f"demo club: {first['tournaments']} evenings, {first['games_with_moves']} "
        f"games with moves, analysed at {first['nodes']:,} nodes "
        f"({first['searched']:,} positions searched); {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f} at the end; median of {args.runs} runs:"
    )
    median_table(versions)
    for name, runs in versions.items():
        seen = runs[0]["looks"]
        print(
            f"games ({name}): {seen['plies']:.0f} plies on average, {seen['draws']:.0%} "
            f"drawn, {seen['seconds_a_move']:.0f} s a move, {seen['under_a_minute']:.0%} "
            "of the sides under a minute on the clock; members' ACPL against their "
            f"rating: r = {seen['r_rating_acpl']:+.2f} over {seen['members']} members "
            f"with 3+ games; {seen['five_plus']} members with 5+ analysed games"
        )


if __name__ == "__main__":
    main()
