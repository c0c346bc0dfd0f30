"""Hang counts at two engine budgets, old definition vs new (factor H).

The old H counted moves losing >= 300 cp on the clipped scale from |eval| <= 500 cp;
the new one counts moves dropping the mover's lichess win % by >= HANG_WIN_DROP
points from a position that was not decided (cpi.factors). Both are computed on the
same facts: each game analysed once at ``--low`` and once at ``--high`` nodes.
Reported per definition: total hangs at each budget, the Spearman rank correlation
of the per-side counts between the budgets, the share of sides with the same count,
and the Pearson r of ΔCPI (spec weights) between the budgets.

    .venv/bin/python benchmarks/measure_hang_stability.py --per-band 4 --low 10000 --high 100000 \\
        --cache /tmp/clubrating-hangs.sqlite

The searches are kept in ``--cache`` (SQLite), so a second run only re-scores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import chess.pgn

from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games, read_pgn_file
from clubrating.cpi.calibrate import spearman
from clubrating.cpi.facts import Color, GameFacts, PlyFacts
from clubrating.cpi.factors import centipawn_loss, hangs, own_plies, win_percent
from clubrating.cpi.index import score_game

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
BANDS = [
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
]
MIN_PLIES = 30


def pick_games(per_band: int) -> list[chess.pgn.Game]:
    """The first ``per_band`` games of at least MIN_PLIES plies of each lichess band."""
    picked = []
    for band in BANDS:
        games = read_pgn_file(DATA / "lichess_2018-06_bands" / f"band_{band}.pgn")[:200]
        picked += [g for g in games if len(list(g.mainline_moves())) >= MIN_PLIES][:per_band]
    return picked


def old_hangs(plies: Sequence[PlyFacts], color: Color) -> int:
    """The earlier definition: >= 300 cp clipped loss from |eval| <= 500 cp."""
    count = 0
    for ply in own_plies(plies, color):
        before, loss = ply.score_before, centipawn_loss(ply)
        if before is not None and loss is not None and abs(before.clipped()) <= 500 and loss >= 300:
            count += 1
    return count


def win_drop_hangs(drop: float, decided: float) -> Callable[[Sequence[PlyFacts], Color], int]:
    """A variant of the new definition with other thresholds (for the sweep)."""

    def count(plies: Sequence[PlyFacts], color: Color) -> int:
        found = 0
        for ply in own_plies(plies, color):
            if ply.score_before is None:
                continue
            before = win_percent(ply.score_before.clipped())
            after = win_percent(ply.score_after.clipped())
            if 100 - decided <= before <= decided and before - after >= drop:
                found += 1
        return found

    return count


def sides(facts: Sequence[GameFacts]) -> list[tuple[GameFacts, Color]]:
    return [(f, color) for f in facts for color in Color]


def report(
    name: str,
    count: Callable[[Sequence[PlyFacts], Color], int],
    low: Sequence[GameFacts],
    high: Sequence[GameFacts],
) -> None:
    a = [count(f.plies, c) for f, c in sides(low)]
    b = [count(f.plies, c) for f, c in sides(high)]
    same = sum(x == y for x, y in zip(a, b)) / len(a)
    print(
        f"{name:34} hangs {sum(a):4} / {sum(b):4}  spearman {spearman(a, b):.3f}  same count "
        f"{100 * same:5.1f} %  sides with >=1: {sum(x > 0 for x in a)} / {sum(y > 0 for y in b)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-band", type=int, default=4)
    parser.add_argument("--low", type=int, default=10_000)
    parser.add_argument("--high", type=int, default=100_000)
    parser.add_argument("--cache", default="/tmp/clubrating-hangs.sqlite")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    games = pick_games(args.per_band)
    print(
        f"{len(games)} games, {2 * len(games)} sides; {args.low:,} vs {args.high:,} nodes",
        file=sys.stderr,
    )
    facts = {}
    for nodes in (args.low, args.high):
        config = AnalysisConfig(EngineSettings(nodes=nodes), book=None, cache=args.cache)
        facts[nodes] = analyse_games(games, config, jobs=args.jobs)
    low, high = facts[args.low], facts[args.high]
    print(
        f"{len(games)} games ({args.per_band} per lichess "
        f"band), {args.low:,} vs {args.high:,} nodes"
    )
    report("old: 300 cp from |cp| <= 500", old_hangs, low, high)
    report("new: cpi.factors.hangs", lambda p, c: hangs(p, c).count, low, high)
    for drop in (15, 20, 25, 30):
        report(f"sweep: win % drop >= {drop}, in [14, 86]", win_drop_hangs(drop, 86.3), low, high)
    for drop in (15, 25):
        report(f"sweep: win % drop >= {drop}, < 1000 cp", win_drop_hangs(drop, 97.5), low, high)
        report(f"sweep: win % drop >= {drop}, no bound", win_drop_hangs(drop, 100), low, high)
    deltas = [[score_game(f)[c].delta_cpi for f, c in sides(x)] for x in (low, high)]
    print(
        f"ΔCPI (current weights) Pearson r between budgets: {statistics.correlation(*deltas):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
