"""How fast the pure replay is on a federation-sized history ("Speed").

    .venv/bin/python benchmarks/bench_replay.py [--games 1000000] [--players 50000]
        [--tournaments 20000] [--reference-games 100000] [--runs 3]

Builds a synthetic history with ``simulate_history``, then times, side by side:
- the vectorised replay end to end (``replay``: TournamentInput objects in,
  RatingHistory out; outcomes materialise lazily),
- its two parts: turning the objects into columns, and the numeric core
  (``replay_columns``: slots, dependency levels, one numpy pass per level),
- the reference replay (plain Python, tournament by tournament) on a prefix.
Medians of ``--runs`` runs; peak memory traced in one extra run of each.
Target: >= 2,000,000 games/s for the pure replay on one core.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from clubrating.rating.elo import replay_reference
from clubrating.rating.policy import Policy, club_policy, fide_policy
from clubrating.rating.replay import columns_of, replay, replay_columns
from clubrating.rating.types import TournamentInput
from clubrating.demo.simulate import simulate_history


def median_seconds(run: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_mib(run: Callable[[], Any]) -> float:
    gc.collect()
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def prefix(history: list[TournamentInput], games: int) -> list[TournamentInput]:
    taken, count = [], 0
    for tournament in history:
        if count >= games:
            break
        taken.append(tournament)
        count += len(tournament.games)
    return taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--tournaments", type=int, default=20_000)
    parser.add_argument("--reference-games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    history = simulate_history(1, args.games, args.players, args.tournaments)
    print(
        f"simulate_history: {args.games:,} games, {args.players:,} players, "
        f"{args.tournaments:,} tournaments in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    small = prefix(history, args.reference_games)
    small_games = sum(len(t.games) for t in small)
    rows = []
    for policy in (club_policy(), fide_policy()):
        rows.extend(measure(policy, history, small, small_games, args))
    print(
        f"\n{'policy':<6} {'what':<44} {'games':>10} "
        f"{'median s':>9} {'games/s':>12} {'peak MiB':>9}"
    )
    for name, what, games, seconds, peak in rows:
        print(
            f"{name:<6} {what:<44} {games:>10,} {seconds:>9.3f} "
            f"{games / seconds:>12,.0f} {peak:>9.0f}"
        )
    by_key = {(name, what): games / seconds for name, what, games, seconds, _ in rows}
    for name in ("club", "fide"):
        ratio = by_key[(name, "replay() end to end")] / by_key[(name, "reference replay (prefix)")]
        core = (
            by_key[(name, "replay_columns (numeric core)")]
            / by_key[(name, "reference replay (prefix)")]
        )
        print(
            f"{name}: replay() / reference = {ratio:.1f}x; numeric core / reference = {core:.1f}x"
        )
    print(
        "max RSS of the process: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} "
        "MiB (history objects included)"
    )
    return 0


def measure(
    policy: Policy,
    history: list[TournamentInput],
    small: list[TournamentInput],
    small_games: int,
    args: argparse.Namespace,
) -> list[tuple[str, str, int, float, float]]:
    columns = columns_of(history)
    cases: list[tuple[str, int, Callable[[], Any]]] = [
        ("replay() end to end", args.games, lambda: replay(history, policy)),
        ("columns_of (objects -> columns)", args.games, lambda: columns_of(history)),
        ("replay_columns (numeric core)", args.games, lambda: replay_columns(columns, policy)),
        (
            "replay() + every PlayerChange built",
            args.games,
            lambda: sum(len(o.changes) for o in replay(history, policy).outcomes),
        ),
        ("reference replay (prefix)", small_games, lambda: replay_reference(small, policy)),
    ]
    rows = []
    for what, games, run in cases:
        seconds = median_seconds(run, args.runs)
        rows.append((policy.name, what, games, seconds, peak_mib(run)))
        print(f"  {policy.name} {what}: {seconds:.3f} s", file=sys.stderr)
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
