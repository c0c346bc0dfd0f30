"""Benchmark of the analysis shell on real games, side by side in one run:

1. our analysis (one engine, no cache) vs the bare engine doing the same
   searches over plain UCI (a minimal loop writing ``position ... moves ...`` /
   ``go nodes N`` to Stockfish): positions per second and the overhead;
2. engine searches per analysed position, and the cache hit rate over the
   games (the same openings again) and on a second pass (an interrupted run);
3. 2 engine processes vs 1;
4. the same games through a Python peer from PyPI (``chess-game-analyzer``),
   installed into a throw-away venv under /tmp (not a project dependency), at
   the same limits (nodes, MultiPV 3, Threads 1, small hash).

    .venv/bin/python benchmarks/bench_analysis.py --nodes 20000 --games 50

The machine is shared: the parallel speed-up in particular is noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import chess
import chess.pgn

from clubrating.analysis.engine import (
    DEFAULT_ENGINE,
    HASH_MB,
    MULTIPV,
    SHALLOW_DEPTH,
    EngineSettings,
)
from clubrating.analysis.runner import AnalysisConfig, Analyzer, analyse_games, read_pgn_file
from clubrating.cpi.facts import GameFacts
from clubrating.cpi.factors import is_sacrifice_candidate

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
SOURCE = DATA / "otb_broadcast_clk" / "lezcano_memorial_2025_broadcast.pgn"
PEER_VENV = Path(tempfile.gettempdir()) / "clubrating-bench-peer-venv"
PEER_PACKAGE = "chess-game-analyzer"


class BareUci:
    """Stockfish over plain UCI: the floor any analysis pays."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for option, value in (("Threads", 1), ("Hash", HASH_MB), ("MultiPV", MULTIPV)):
            self.send(f"setoption name {option} value {value}")
        self.ready()

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix: str) -> None:
        assert self.proc.stdout is not None
        while not self.proc.stdout.readline().startswith(prefix):
            pass

    def ready(self) -> None:
        self.send("isready")
        self.wait("readyok")

    def search(self, moves: list[str], go: str) -> None:
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(go)
        self.wait("bestmove")

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def close(self) -> None:
        self.send("quit")
        self.proc.wait()


def bare_game(
    engine: BareUci, game: chess.pgn.Game, facts: GameFacts, nodes: int, clean: bool = True
) -> None:
    """The searches our analysis made for this game, replayed over plain UCI.

    ``clean``: a clean hash for every search, as the analyzer does; without
    it, one per game (what earlier versions of the analyzer did), to show what
    the clean hash costs.
    """
    moves = [move.uci() for move in game.mainline_moves()]
    for index in range(facts.searches):
        if clean or index == 0:
            engine.new_game()
        engine.search(moves[:index], f"go nodes {nodes}")
    candidates = [ply for ply in facts.plies if is_sacrifice_candidate(ply)]
    if candidates:
        engine.send("setoption name MultiPV value 1")
        for ply in candidates:
            engine.new_game()
            engine.search(moves[: ply.ply - 1], f"go depth {SHALLOW_DEPTH}")
        engine.send(f"setoption name MultiPV value {MULTIPV}")


def timed(function, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def ours_vs_bare(games: list[chess.pgn.Game], config: AnalysisConfig, nodes: int) -> None:
    times: dict[str, list[float]] = {
        "raw": [],
        "python-chess": [],
        "bare": [],
        "bare, hash/game": [],
    }
    facts_all = []
    bare = BareUci(config.engine.path)
    lean = Analyzer(config)
    chatty = Analyzer(
        AnalysisConfig(
            replace(config.engine, protocol="python-chess"), config.book, memory_cache=False
        )
    )
    for game in games:  # interleaved game by game, so load changes hit all three alike
        spent, facts = timed(lean.analyse, game)
        times["raw"].append(spent)
        times["python-chess"].append(timed(chatty.analyse, game)[0])
        times["bare"].append(timed(bare_game, bare, game, facts, nodes)[0])
        times["bare, hash/game"].append(timed(bare_game, bare, game, facts, nodes, False)[0])
        facts_all.append(facts)
    lean.close()
    chatty.close()
    bare.close()
    plies = sum(len(f.plies) for f in facts_all)
    positions = sum(len(f.plies) + 1 for f in facts_all)
    searches = sum(f.searches for f in facts_all)
    shallow = sum(f.shallow_searches for f in facts_all)
    print(
        f"\n1. ours vs bare UCI, {len(games)} games, {plies} "
        f"plies, {nodes:,} nodes, one engine, no cache"
    )
    for label, spent in times.items():
        ratios = [o / b for o, b in zip(spent, times["bare"])]
        print(
            f"   {label:15} {plies / sum(spent):7.1f} plies/s  total "
            f"{sum(spent):7.1f} s  median game {statistics.median(spent):5.2f} "
            f"s  vs bare: total {sum(spent) / sum(times['bare']) - 1:+.1%}, "
            f"median game {statistics.median(ratios) - 1:+.1%}"
        )
    print(
        f"\n2. searches per analysed position: {searches}/{positions} = {searches / positions:.3f} "
        f"(per ply {searches / plies:.3f}); + {shallow} tiny brilliancy searches"
    )


def cache_rates(games: list[chess.pgn.Game], config: AnalysisConfig) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cached = AnalysisConfig(config.engine, config.book, cache=str(Path(tmp) / "cache.sqlite"))
        first_time, first = timed(analyse_games, games, cached, 1)
        second_time, second = timed(analyse_games, games, cached, 1)
    for label, run, spent in (
        ("first pass", first, first_time),
        ("second pass", second, second_time),
    ):
        hits = sum(f.cache_hits for f in run)
        total = hits + sum(f.searches for f in run)
        print(
            f"   cache {label}: {hits}/{total} positions from the cache = {hits / total:.1%} "
            f"({spent:.1f} s)"
        )


def parallel(games: list[chess.pgn.Game], config: AnalysisConfig) -> None:
    one, _ = timed(analyse_games, games, config, 1)
    two, _ = timed(analyse_games, games, config, 2)
    print(
        f"\n3. 1 engine process {one:.1f} s, 2 processes {two:.1f} s: speed-up {one / two:.2f}x "
        f"(2 cores shared with other users: noisy)"
    )


PEER_DRIVER = """
import sys, time, types
from chess_analyzer import review as rv, engines
nodes, path = int(sys.argv[1]), sys.argv[2]
class Limits(rv.Settings):
    def options(self):
        options = super().options()
        options.nodes, options.depth = nodes, None
        return options
settings = Limits(engine_id="found:" + path, multipv=3, threads=1, hash_mb=16)
texts = sys.stdin.read().split("\\n\\n\\n")
try:
    for text in texts:
        if text.strip():
            start = time.perf_counter()
            game = types.SimpleNamespace(pgn=text, id="bench", source="file")
            rv.review(game, settings, cache=None)
            print("BENCH-TIME", time.perf_counter() - start, flush=True)
finally:
    engines.close()
"""


def peer(games: list[chess.pgn.Game], config: AnalysisConfig, nodes: int) -> None:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", PEER_PACKAGE],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    texts = "\n\n\n".join(str(game) for game in games)
    peer_run = subprocess.run(
        [str(python), "-c", PEER_DRIVER, str(nodes), config.engine.path],
        input=texts,
        capture_output=True,
        text=True,
        check=False,
    )
    if peer_run.returncode != 0:
        print(f"\n4. {PEER_PACKAGE}: failed: {peer_run.stderr.strip().splitlines()[-1:]}")
        return
    peer_times = [
        float(line.split()[1])
        for line in peer_run.stdout.splitlines()
        if line.startswith("BENCH-TIME ")
    ]
    ours_time, _ = timed(
        analyse_games, games, AnalysisConfig(config.engine, config.book, memory_cache=False), 1
    )
    plies = sum(len(list(g.mainline_moves())) for g in games)
    print(
        f"\n4. {PEER_PACKAGE} (same nodes, MultiPV 3, Threads 1; its hash "
        f"16 MB, kept through a game): {plies / sum(peer_times):.1f} "
        f"plies/s, median game {statistics.median(peer_times):.2f} s"
    )
    print(
        f"   ours, same games, one engine, no cache: {plies / ours_time:.1f} plies/s "
        f"-> ours / peer = {sum(peer_times) / ours_time:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--engine", default=os.environ.get("CLUBRATING_ENGINE", DEFAULT_ENGINE))
    parser.add_argument("--pgn", type=Path, default=SOURCE)
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["bare", "cache", "parallel", "peer"]
    )
    args = parser.parse_args()
    games = read_pgn_file(args.pgn)[: args.games]
    config = AnalysisConfig(EngineSettings(path=args.engine, nodes=args.nodes), memory_cache=False)
    print(
        f"{len(games)} games from {args.pgn.name}; {args.nodes:,} nodes a position; "
        f"{os.cpu_count()} cores"
    )
    if "bare" not in args.skip:
        ours_vs_bare(games, config, args.nodes)
    if "cache" not in args.skip:
        cache_rates(games, config)
    if "parallel" not in args.skip:
        parallel(games, config)
    if "peer" not in args.skip:
        peer(games, config, args.nodes)


if __name__ == "__main__":
    main()
