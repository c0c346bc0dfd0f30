"""Analysis on RQ: the time for one evening's games with 1, then 2 ``clubrating
worker`` processes, side by side (alternating runs), each run on a new SQLite database
(no search cached) and the emptied Redis of scripts/redis; and the same evening analysed by
``clubrating analyse-club --jobs 1``, then ``--jobs 2``, in the same rounds.

Measured from the workers' (or the command's) start to the last game stored with the ledger
rebuilt; the start-up (Django, the engine) is inside. Needs redis-server and Stockfish.

    .venv/bin/python benchmarks/measure_rq_workers.py --games 12 --plies 60 --nodes 20000 --runs 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn
from redis import Redis

ROOT = Path(__file__).resolve().parents[1]
NAMES = [
    "Anna Berg",
    "Ben Cole",
    "Cara Dunn",
    "Dan Eng",
    "Eva Fox",
    "Finn Gray",
    "Gus Hall",
    "Hana Ito",
]


def evening_pgn(games: int, plies: int, seed: int = 12) -> str:
    """``games`` games of ``plies`` random legal moves (fixed seed), four boards a round."""
    rng, out = random.Random(seed), []
    for number in range(games):
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers.update(
            {
                "Event": "Tuesday",
                "Date": "2026.03.03",
                "Round": str(number // 4 + 1),
                "White": NAMES[2 * number % 8],
                "Black": NAMES[(2 * number + 1) % 8],
                "Result": "1/2-1/2",
            }
        )
        out.append(str(game))
    return "\n\n".join(out) + "\n"


def publish_evening(env: dict[str, str], pgn_file: Path, club: str | None = None) -> None:
    """A new club (``club``: its slug, in a database that may hold others) with the evening
    imported, every name a new member, and published: its games wait for analysis."""
    where = ["--club", club] if club else []

    def run(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "clubrating.cli", *args],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    run("init", club or "Riverside", *(["--slug", club] if club else []))
    tournament = json.loads(run("import", str(pgn_file), *where, "--json"))["tournament_id"]
    run("link", str(tournament), "--all-new", *where)
    run("publish", str(tournament), *where)


def time_workers(env: dict[str, str], workers: int, finished: Callable[[], bool]) -> float:
    """Seconds from starting ``workers`` ``clubrating worker`` processes to ``finished()``."""
    started = time.monotonic()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "clubrating.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(workers)
    ]
    try:
        while not finished():
            time.sleep(0.05)
        return time.monotonic() - started
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()


def one_run(folder: Path, pgn: str, games: int, workers: int, env: dict[str, str]) -> float:
    database = folder / f"club-{workers}-{time.monotonic_ns()}.sqlite3"
    env = {**env, "CLUBRATING_DATABASE_URL": f"sqlite:///{database}"}
    (folder / "evening.pgn").write_text(pgn)
    Redis.from_url(env["CLUBRATING_REDIS_URL"]).flushdb()
    publish_evening(env, folder / "evening.pgn")

    def finished() -> bool:
        with sqlite3.connect(database) as db:
            done = db.execute("SELECT count(*) FROM club_gameanalysis").fetchone()[0]
            audited = db.execute(
                "SELECT count(*) FROM club_auditentry WHERE action = 'analyse'"
            ).fetchone()[0]
        return bool(done == games and audited)

    return time_workers(env, workers, finished)


def one_command_run(folder: Path, pgn: str, jobs: int, env: dict[str, str]) -> float:
    """Seconds of ``clubrating analyse-club --jobs N`` on a new database holding the evening."""
    database = folder / f"command-{jobs}-{time.monotonic_ns()}.sqlite3"
    env = {**env, "CLUBRATING_DATABASE_URL": f"sqlite:///{database}"}
    (folder / "evening.pgn").write_text(pgn)
    publish_evening(env, folder / "evening.pgn")
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "clubrating.cli", "analyse-club", "--jobs", str(jobs)],
        env=env,
        check=True,
        capture_output=True,
    )
    return time.monotonic() - started


def redis_env(nodes: int) -> dict[str, str]:
    """The environment of the commands: scripts/redis's server (started), ``nodes`` a search,
    no opening book, no CLUBRATING_ variable of the caller's."""
    subprocess.run([ROOT / "scripts" / "redis", "start"], check=True)
    url = subprocess.run(
        [ROOT / "scripts" / "redis", "url"], check=True, capture_output=True, text=True
    ).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    env.update({"CLUBRATING_REDIS_URL": url, "CLUBRATING_NODES": str(nodes), "CLUBRATING_BOOK": ""})
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    env = redis_env(args.nodes)
    pgn = evening_pgn(args.games, args.plies)
    times: dict[int, list[float]] = {1: [], 2: []}
    command: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            for workers in (1, 2):
                times[workers].append(one_run(Path(folder), pgn, args.games, workers, env))
            for jobs in (1, 2):
                command[jobs].append(one_command_run(Path(folder), pgn, jobs, env))
    print(
        f"{args.games} games of {args.plies} plies at {args.nodes} nodes, {os.cpu_count()} cores, "
        f"{args.runs} runs each"
    )
    for workers, seconds in times.items():
        print(
            f"  {workers} worker{'s' if workers > 1 else ' '}: median "
            f"{statistics.median(seconds):6.1f} s  ({', '.join(f'{s:.1f}' for s in seconds)})"
        )
    for jobs, seconds in command.items():
        print(
            f"  analyse-club --jobs {jobs}: median "
            f"{statistics.median(seconds):6.1f} s  ({', '.join(f'{s:.1f}' for s in seconds)})"
        )
    print(f"  load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
