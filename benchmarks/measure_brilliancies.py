"""Brilliancies (Br) on real games, the earlier definition against the new one.

Both rules are judged on the same facts: the analysis runs its tiny "was it obvious?"
search for the candidates of either rule, then each rule counts its own. Every move
counted is listed (game, move, score before -> after, material given up), so one can
look whether it is a sacrifice or trading down in a won position.

    .venv/bin/python benchmarks/measure_brilliancies.py --games 30 --nodes 20000 \\
        --cache /tmp/clubrating-br.sqlite
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clubrating.analysis import analyzer
from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games, read_pgn_file
from clubrating.cpi.facts import GameFacts, PlyFacts, Score
from clubrating.cpi.factors import is_sacrifice_candidate

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
SOURCE = DATA / "otb_twic" / "twic1362.pgn"


def old_candidate(ply: PlyFacts) -> bool:
    """Conditions 1-3 of the earlier definition: clipped scores, no bound on the position before."""
    before = ply.score_before
    if before is None or ply.exchange > -200:
        return False
    near_best = ply.choice == 1 or before.clipped() - ply.score_after.clipped() <= 10
    return near_best and ply.score_after.clipped() >= -50


def counted(ply: PlyFacts, candidate: bool) -> bool:
    return candidate and ply.shallow_best is not None and ply.shallow_best != ply.uci


def show(score: Score | None) -> str:
    if score is None:
        return "?"
    return f"#{score.mate}" if score.mate is not None else f"{score.cp:+d}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--cache", default="/tmp/clubrating-br.sqlite")
    args = parser.parse_args()
    games = read_pgn_file(SOURCE)[: args.games]
    # The shell runs the tiny search for the candidates of either rule (this script only).
    either = lambda p: old_candidate(p) or is_sacrifice_candidate(p)  # noqa: E731
    analyzer.is_sacrifice_candidate = either  # type: ignore[assignment]
    facts: list[GameFacts] = analyse_games(
        games, AnalysisConfig(EngineSettings(nodes=args.nodes), cache=args.cache), jobs=1
    )
    old = new = 0
    rows = []
    for number, game in enumerate(facts, start=1):
        for ply in game.plies:
            is_old, is_new = (
                counted(ply, old_candidate(ply)),
                counted(ply, is_sacrifice_candidate(ply)),
            )
            old, new = old + is_old, new + is_new
            if is_old or is_new:
                rows.append(
                    f"  game {number:2} ply {ply.ply:3} {ply.san:8} {show(ply.score_before):>6} -> "
                    f"{show(ply.score_after):>6}  exchange {ply.exchange:+5}  "
                    f"{'old ' if is_old else '    '}{'new' if is_new else ''}"
                )
    print(
        f"{len(facts)} games of {SOURCE.name}, {args.nodes:,} "
        f"nodes: Br old rule {old}, new rule {new}"
    )
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
