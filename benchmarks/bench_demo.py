"""The demo club that ``make run`` builds (``clubrating demo``, default settings).

Runs ``clubrating demo --json`` into a new SQLite file under a temporary folder,
``--runs`` times, and reports the median of each part the command times itself:
- results: the results-only history (simulation, import, linking, publishing,
  the correction, the merge), one process;
- playing: the last evenings played over the board by Stockfish (``--jobs``
  engines);
- analysis: the engine analysis of those games and the CPI ledger;
- total, and the CPU seconds of the whole process tree (the machine is shared:
  CPU seconds / cores is what an idle machine would take for the engine parts).

And what the games look like (first run): moves a game, draws, seconds a move,
the share of sides that fell under a minute on the clock, and how the members'
mean centipawn loss follows their club rating (Pearson r over the members with
three analysed games or more; negative: stronger players lose fewer centipawns).

Target (issue 11): a newcomer's ``make run`` shows the CPI within about a minute
of build time on a 2-core machine.

Usage: python benchmarks/bench_demo.py [--runs 3] [-- extra demo options]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import chess.pgn

PARTS = ("results", "playing", "analysis", "total")


def one_run(folder: Path, extra: list[str]) -> dict[str, Any]:
    database = folder / "demo.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "CLUBRATING_DATABASE_URL"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "clubrating", "--database", f"sqlite:///{database}", "demo",
                          "--json", *extra], env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"bench_demo: clubrating demo failed: {run.stderr.strip().splitlines()[-1]}")
    summary: dict[str, Any] = json.loads(run.stdout)
    games = looks(database)
    database.unlink()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**summary["seconds"], "wall": wall, "cpu": cpu, "games_with_moves": summary["games_with_moves"],
            "tournaments": summary["tournaments"], "nodes": summary["analysis"]["nodes"],
            "searched": summary["analysis"]["searched"], "looks": games}


def looks(database: Path) -> dict[str, float]:
    """What the played games look like, and how the CPI's ACPL follows the rating."""
    with closing(sqlite3.connect(database)) as db:
        games = db.execute("SELECT moves, white_points FROM club_game WHERE moves <> ''").fetchall()
        sides = db.execute("SELECT c.member_id, c.factors, r.rating FROM club_cpientry c "
                           "JOIN club_currentrating r ON r.member_id = c.member_id").fetchall()
    plies, spent, trouble = [], [], 0
    for moves, _ in games:
        game = chess.pgn.read_game(io.StringIO(moves))
        assert game is not None
        clocks = [node.clock() or 0.0 for node in game.mainline()]
        plies.append(len(clocks))
        for own in (clocks[0::2], clocks[1::2]):
            trouble += min(own, default=900) < 60
            spent += [before - after + 10 for before, after in zip(own, own[1:])]   # 15+10: demo.TIME_CONTROL
    loss: dict[int, list[float]] = {}
    rating: dict[int, float] = {}
    for member, factors, value in sides:
        e = json.loads(factors)["factors"]["E"]
        if e["denominator"]:
            loss.setdefault(member, []).append(e["numerator"] / e["denominator"])
            rating[member] = value
    members = [m for m in loss if len(loss[m]) >= 3]
    r = statistics.correlation([rating[m] for m in members], [statistics.fmean(loss[m]) for m in members]) \
        if len(members) > 2 else float("nan")
    return {"plies": statistics.fmean(plies), "draws": sum(w == 1 for _, w in games) / len(games),
            "seconds_a_move": statistics.fmean(spent), "under_a_minute": trouble / (2 * len(games)),
            "members": len(members), "r_rating_acpl": r}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("extra", nargs="*", help="options passed to clubrating demo (after --)")
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as folder:
        for index in range(args.runs):
            runs.append(one_run(Path(folder), args.extra))
            row = runs[-1]
            print(f"run {index + 1}: " + ", ".join(f"{part} {row[part]:.1f} s" for part in PARTS)
                  + f", CPU {row['cpu']:.1f} s; load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    first = runs[0]
    print(f"demo club: {first['tournaments']} evenings, {first['games_with_moves']} games with moves, "
          f"analysed at {first['nodes']:,} nodes ({first['searched']:,} positions searched); "
          f"{os.cpu_count()} cores, median of {len(runs)} runs:")
    for part in (*PARTS, "cpu"):
        values = [run[part] for run in runs]
        print(f"  {part:<9} {statistics.median(values):6.1f} s   (runs: {', '.join(f'{v:.1f}' for v in values)})")
    seen = first["looks"]
    print(f"games: {seen['plies']:.0f} plies on average, {seen['draws']:.0%} drawn, {seen['seconds_a_move']:.0f} s a "
          f"move, {seen['under_a_minute']:.0%} of the sides under a minute on the clock; members' ACPL against "
          f"their rating: r = {seen['r_rating_acpl']:+.2f} over {seen['members']} members with 3+ games")


if __name__ == "__main__":
    main()
