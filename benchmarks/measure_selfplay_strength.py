"""How the demo's engine players' quality follows their skill level (demo.selfplay).

For each skill level asked, plays ``--games`` games of the level against itself
(Stockfish, ``--play-nodes`` a move, the demo's book and clocks), analyses them
with the project's analyzer at ``--nodes`` and prints the mean centipawn loss a
move (the CPI's E numerator / denominator) and how the games ended. A stronger
level must lose fewer centipawns: this is the evidence behind
``selfplay.SKILL_ZERO_STRENGTH`` / ``STRENGTH_PER_SKILL``.

Usage: python benchmarks/measure_selfplay_strength.py [--levels 0,3,6,9,12,15,19] [--games 6]
"""

from __future__ import annotations

import argparse
import collections
import io
import statistics

import chess.pgn

from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games
from clubrating.demo.selfplay import DEFAULT_NODES, GameOrder, Referee, Side
from clubrating.cpi.facts import Color
from clubrating.cpi.factors import acpl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="0,3,6,9,12,15,19")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--play-nodes", type=int, default=DEFAULT_NODES)
    parser.add_argument(
        "--nodes", type=int, default=2_000, help="analysis nodes (the demo's default)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    orders = [
        GameOrder(Side(level, args.play_nodes), Side(level, args.play_nodes), seed)
        for level in levels
        for seed in range(args.games)
    ]
    with Referee(jobs=args.jobs) as referee:
        played = referee.play(orders)
    pgn = "".join(
        f'[Result "{game.result}"]\n[TimeControl "900+10"]\n\n{game.moves}\n\n' for game in played
    )
    handle, games = io.StringIO(pgn), []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    facts = analyse_games(games, AnalysisConfig(EngineSettings(nodes=args.nodes)), jobs=args.jobs)
    print(
        f"play {args.play_nodes:,} nodes a move, analysis "
        f"{args.nodes:,} nodes, {args.games} games a level"
    )
    print(f"{'level':>5} {'ACPL':>6} {'sd':>5} {'plies':>6}  endings")
    for level in levels:
        mine = [i for i, order in enumerate(orders) if order.white.skill == level]
        losses = [
            value
            for i in mine
            for color in (Color.WHITE, Color.BLACK)
            if (value := acpl(facts[i].plies, color)) is not None
        ]
        endings = collections.Counter(played[i].ending for i in mine)
        print(
            f"{level:>5} {statistics.fmean(losses):>6.1f} {statistics.stdev(losses):>5.1f} "
            f"{statistics.fmean(played[i].plies for i in mine):>6.0f}  {dict(endings)}"
        )


if __name__ == "__main__":
    main()
