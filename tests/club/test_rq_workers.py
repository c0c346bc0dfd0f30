"""Analysis jobs on RQ/Redis, end to end with real components: the private
redis-server of scripts/redis, real ``clubrating worker`` processes, real Stockfish at a small
node budget, on a SQLite file or (in make test's PostgreSQL pass) a fresh PostgreSQL database.

- two workers split a club's games, and a tournament queued twice is analysed once, in one
  batch with one ledger rebuild (the order of the jobs forced: an engine held at a gate);
- a game claimed by another batch's job leaves its batch only once stored;
- a worker SIGKILLed in the middle of a game: the other worker analyses that game;
- a game whose workers die MAX_ATTEMPTS times fails with JobLost naming it.

Each test's database is a copy of one migrated and initialised once for the module: the
workers, not the schema's making, are what these tests are about.

A missing redis-server fails these tests (scripts/redis says why); it never skips them.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from redis import Redis
from rq import Queue
from rq.job import Job
from rq.registry import FailedJobRegistry

from clubrating.club.jobs.tasks import MAX_ATTEMPTS

from .test_job_faults import alive, fake_engine, processes_of

ROOT = Path(__file__).parents[2]
NODES = "3000"  # small and fixed: a game of 60 plies takes about half a second
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
ANALYSED = re.compile(r"clubrating worker (\d+): analysed game (\d+) in")
STARTED = re.compile(r"default: analyse game (\d+) \(")
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.storage,
]  # the workers open the database of $CLUBRATING_DATABASE_URL's server


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


# --- components ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """scripts/redis's server, started here if it is not running, and stopped again by the last
    test process that uses it: pytest-xdist's workers share one server. Each holds a shared lock
    on a file beside the server's data while it uses it (an exclusive one to start it), and a
    process that started it leaves a mark, so a server started by a person is never stopped."""
    script = ROOT / "scripts" / "redis"
    url, data = (
        subprocess.run([script, verb], capture_output=True, text=True, check=True).stdout.strip()
        for verb in ("url", "data")
    )
    mark = Path(f"{data}.started-by-tests")
    with open(f"{data}.users", "a") as users:
        fcntl.flock(users, fcntl.LOCK_EX)  # one process at a time starts it
        if not ping(url):
            started = subprocess.run([script, "start"], capture_output=True, text=True)
            if started.returncode != 0:
                pytest.fail(f"scripts/redis start failed: {started.stderr.strip()}")
            mark.touch()
        fcntl.flock(users, fcntl.LOCK_SH)
        yield url
        try:
            fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # another worker of this run still uses it
        if mark.exists() and not claimed_elsewhere(url):  # another run's tests still use it
            subprocess.run([script, "stop"], check=True)
            mark.unlink()


def claimed_elsewhere(url: str) -> bool:
    base = url.rsplit("/", 1)[0]
    return any(Redis.from_url(f"{base}/{n}").exists("clubrating-test:claim") for n in range(1, 16))


def ping(url: str) -> bool:
    try:
        return bool(Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:
        return False


# Redis's 16 numbered databases (redis.conf "databases 16"): 0 for a person's own use (the
# benchmark), 1-15 taken by the tests of concurrent runs on the same server.
TEST_DATABASES = range(1, 16)
CLAIM_SECONDS = 900  # longer than any test here; a killed run's claim lapses by itself


@pytest.fixture
def queue_server(redis_url: str) -> Iterator[str]:
    """A Redis database of this test's own on the server, emptied: no job of an earlier test,
    nor of another test run at the same time, is seen by these workers."""
    base, token = redis_url.rsplit("/", 1)[0], uuid.uuid4().hex
    for number in TEST_DATABASES:
        connection = Redis.from_url(f"{base}/{number}")
        if connection.set("clubrating-test:claim", token, nx=True, ex=CLAIM_SECONDS):
            break
    else:
        pytest.fail(
            "every Redis database "
            f"{TEST_DATABASES.start}-{TEST_DATABASES.stop - 1} is taken by a test"
        )
    for name in connection.scan_iter():
        if name != b"clubrating-test:claim":
            connection.delete(name)
    yield f"{base}/{number}"
    connection.flushdb()


class Database:
    """A new database for the workers: a SQLite file, or a fresh database on the PostgreSQL
    server of $CLUBRATING_DATABASE_URL when that is PostgreSQL (make test's second pass);
    empty, or a copy of ``template`` (SQLite's online backup, PostgreSQL's TEMPLATE)."""

    def __init__(self, folder: Path, template: Database | None = None) -> None:
        server = os.environ.get("CLUBRATING_DATABASE_URL", "")
        self.postgres = server.startswith(("postgres://", "postgresql://"))
        if self.postgres:
            # the server's maintenance database, as Django makes its test databases: the URL may
            # name one that does not exist (pytest-django makes test_<name> from it)
            self.server, self.name = (
                server.rsplit("/", 1)[0] + "/postgres",
                f"rq_{uuid.uuid4().hex[:12]}",
            )
            self.admin(
                f"CREATE DATABASE {self.name}" + (f" TEMPLATE {template.name}" if template else "")
            )
            self.url = server.rsplit("/", 1)[0] + "/" + self.name
        else:
            self.url = f"sqlite:///{folder / 'club.sqlite3'}"
            if template is not None:
                with (
                    closing(sqlite3.connect(template.url.removeprefix("sqlite:///"))) as source,
                    closing(sqlite3.connect(self.url.removeprefix("sqlite:///"))) as target,
                ):
                    source.backup(target)

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(
            self.server.replace("postgres://", "postgresql://"), autocommit=True
        ) as db:
            db.execute(sql)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        if self.postgres:
            import psycopg

            with psycopg.connect(self.url.replace("postgres://", "postgresql://")) as db:
                return list(db.execute(sql).fetchall())
        with sqlite3.connect(self.url.removeprefix("sqlite:///")) as db:
            return list(db.execute(sql).fetchall())

    def count(self, table: str) -> int:
        return int(self.rows(f"SELECT count(*) FROM {table}")[0][0])

    def drop(self) -> None:
        if self.postgres:
            self.admin(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


@pytest.fixture(scope="module")
def initialised(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Database]:
    """A database migrated and holding the club Riverside (``clubrating init``), made once for
    the module (per xdist worker): the start of every test's own copy."""
    db = Database(tmp_path_factory.mktemp("initialised"))
    commands(environment(db, redis_url), [["init", "Riverside"]])
    yield db
    db.drop()


@pytest.fixture
def database(tmp_path: Path, initialised: Database) -> Iterator[Database]:
    db = Database(tmp_path, template=initialised)
    yield db
    db.drop()


def environment(database: Database, redis_url: str, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLUBRATING_", "DJANGO_", "FAKE_UCI"))
    }
    return {
        **env,
        "CLUBRATING_DATABASE_URL": database.url,
        "CLUBRATING_REDIS_URL": redis_url,
        "CLUBRATING_BOOK": "",
        "CLUBRATING_NODES": NODES,
        "CLUBRATING_JOBS": "1",
        "CLUBRATING_JOB_LEASE": "2",
        **extra,
    }


# The command line's main() for each command of argv[1] (JSON), in turn, in one process.
COMMANDS_IN_ONE_PROCESS = """import json, sys
from clubrating.cli import main
for argv in json.loads(sys.argv[1]):
    if main(argv) != 0:
        sys.exit(f"clubrating {' '.join(argv)} failed")
"""


def commands(env: dict[str, str], argvs: list[list[str]], then: str = "") -> None:
    """``argvs`` run in one process, then the Python code ``then`` (Django set up by the
    commands): these tests are about the workers, and each command's own process is proven by
    tests/club/test_readme_commands.py."""
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS_IN_ONE_PROCESS + then, json.dumps(argvs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def publish(folder: Path, env: dict[str, str], pgn: str, then: str = "") -> None:
    """The initialised club with one published evening: publishing queues its analysis (one job)."""
    (folder / "evening.pgn").write_text(pgn)
    commands(
        env,
        [["import", str(folder / "evening.pgn")], ["link", "1", "--all-new"], ["publish", "1"]],
        then,
    )


class Worker:
    """A real ``clubrating worker`` process, its stderr in a file."""

    def __init__(self, folder: Path, name: str, env: dict[str, str]) -> None:
        self.log = folder / f"{name}.log"
        with self.log.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "clubrating.cli", "worker"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )

    @property
    def text(self) -> str:
        return self.log.read_text()

    def analysed(self) -> list[int]:
        return [
            int(game) for pid, game in ANALYSED.findall(self.text) if int(pid) == self.process.pid
        ]

    def started(self) -> list[int]:
        return [int(game) for game in STARTED.findall(self.text)]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # RQ's warm shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def workers() -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for worker in started:
        worker.stop()


def wait_for(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(0.1)


def analyse_entries(database: Database) -> list[str]:
    return [
        summary
        for (summary,) in database.rows(
            "SELECT summary FROM club_auditentry WHERE action = 'analyse' ORDER BY id"
        )
    ]


# --- two workers share a club's games
# --------------------------------------------------------------

GATED_ENGINE = Path(__file__).with_name("gated_engine.py")
# Run in the publishing process once it has published: the tournament is fanned out twice (the
# publish's own job taken off the queue), as by two jobs of it, before any game's job runs; then
# the last job queued goes to the front, as when two workers fan out at once and their game jobs
# interleave. {between}: what happens between the two fan-outs.
FAN_OUT_TWICE = """
import django_rq
from clubrating.club.jobs import rq_workers
from clubrating.club.store.models import Tournament
queue = django_rq.get_queue("default")
queue.empty()
tournament = Tournament.objects.get(id=1)
rq_workers.fan_out(tournament)
{between}
rq_workers.fan_out(tournament)
last = queue.job_ids[-1]
queue.remove(last)
queue.push_job_id(last, at_front=True)
"""
# The first fan-out's marks of its games lapse (as KEEP_SECONDS after it), so the second takes
# the same games into a batch of its own: two batches over the same games.
MARKS_LAPSE = """
connection = rq_workers.redis()
for name in list(connection.scan_iter(rq_workers.key("game", "*", "batch"))):
    connection.delete(name)
"""


def gated(folder: Path) -> tuple[Path, Path]:
    """Stockfish behind tests/club/gated_engine.py: the engine's command, and the gate (a file)
    whose making lets its first search start."""
    gate, command = folder / "gate", folder / "gatedfish"
    command.write_text(f"#!/bin/sh\nexec {sys.executable} {GATED_ENGINE} {gate} {STOCKFISH}\n")
    command.chmod(0o755)
    return command, gate


STOCKFISH = "/usr/games/stockfish"


def forced_order(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker], between: str
) -> list[str]:
    """The evening of 8 games queued twice (:data:`FAN_OUT_TWICE`); worker a, whose engine
    holds its first game until the gate opens, takes the job at the front; worker b does every
    other job; then the gate opens. The audit's analysis entries, once all is done."""
    env = environment(database, queue_server)
    publish(tmp_path, env, evening_pgn(8, 60), then=FAN_OUT_TWICE.format(between=between))
    engine, gate = gated(tmp_path)
    held = environment(
        database, queue_server, CLUBRATING_ENGINE=str(engine), CLUBRATING_ENGINE_TIMEOUT="600"
    )
    workers.append(Worker(tmp_path, "a", held))
    wait_for(lambda: Path(f"{gate}.waiting").exists(), 120, "worker a's engine to hold its game")
    workers.append(Worker(tmp_path, "b", env))
    queue = Queue("default", connection=Redis.from_url(queue_server))
    wait_for(
        lambda: queue.count == 0 and queue.started_job_registry.count == 1,
        240,
        "worker b to do every job but the one held",
    )
    assert len(workers[0].analysed()) == 0
    gate.touch()
    wait_for(
        lambda: (
            database.count("club_gameanalysis") == 8
            and analyse_entries(database)
            and queue_idle(queue_server)
        ),
        240,
        "8 stored analyses, the ledger and an empty queue",
    )
    for worker in workers:
        worker.stop()
    by_worker = [worker.analysed() for worker in workers]
    assert [len(games) for games in by_worker] == [1, 7], by_worker  # none analysed twice
    assert sorted(by_worker[0] + by_worker[1]) == sorted(
        g for (g,) in database.rows("SELECT id FROM club_game")
    )
    scored = database.count("club_cpientry")
    assert scored == 16, f"{scored} ledger rows for 8 games of 60 plies"
    return analyse_entries(database)


@pytest.mark.engine
def test_two_workers_split_a_clubs_games_and_a_tournament_queued_twice_is_analysed_once(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker]
) -> None:
    """The second queueing takes no game the first still has to do: one batch, one ledger
    rebuild, one audit entry naming the 8 games, though a game of the first batch was held in
    worker a's engine while worker b did the rest."""
    entries = forced_order(tmp_path, queue_server, database, workers, between="")
    assert len(entries) == 1, entries
    assert entries[0].startswith("analysed 8 games; CPI ledger: 8 analysed games"), entries


@pytest.mark.engine
def test_a_game_claimed_by_another_batchs_job_leaves_its_batch_only_once_stored(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker]
) -> None:
    """Two batches over the same games (the first's marks lapsed): worker a holds a game of the
    second batch in its engine while worker b comes to the first batch's job of that game. The
    first batch waits for the game instead of emptying without it: no ledger is rebuilt
    before all 8 games are stored."""
    entries = forced_order(tmp_path, queue_server, database, workers, between=MARKS_LAPSE)
    counts = [
        re.match(r"analysed (\d+) games?; CPI ledger: (\d+) analysed games", e) for e in entries
    ]
    assert all(counts), entries
    assert sum(int(m[1]) for m in counts if m) == 8, entries
    assert [int(m[2]) for m in counts if m] == [8] * len(entries), entries


def queue_idle(url: str) -> bool:
    queue = Queue("default", connection=Redis.from_url(url))
    return queue.count == 0 and queue.started_job_registry.count == 0


# --- a killed worker's game
# ------------------------------------------------------------------------


@pytest.mark.engine
def test_a_game_whose_worker_is_killed_is_analysed_by_the_other_worker(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker]
) -> None:
    env = environment(database, queue_server)
    publish(tmp_path, env, evening_pgn(4, 200, seed=7))  # long games: a kill lands inside one
    slow = environment(database, queue_server, CLUBRATING_NODES="20000")
    victim = Worker(tmp_path, "victim", slow)
    workers.append(victim)
    wait_for(lambda: victim.started(), 60, "the first worker to start a game")
    game = victim.started()[0]
    time.sleep(1.5)  # well inside the game, and past a renewal of its lease
    assert not database.rows(f"SELECT 1 FROM club_gameanalysis WHERE game_id = {game}"), (
        "the game ended too soon"
    )
    engines = processes_of(victim.process.pid)
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait()
    time.sleep(0.5)
    assert not [pid for pid in engines if alive(pid)], "the killed worker's engine survived it"
    other = Worker(tmp_path, "other", env)
    workers.append(other)
    wait_for(
        lambda: (
            database.count("club_gameanalysis") == 4
            and analyse_entries(database)
            and queue_idle(queue_server)
        ),
        240,
        "the 4 games analysed and the ledger rebuilt",
    )
    other.stop()
    assert game in other.analysed()
    assert sorted(other.analysed()) == sorted(
        g for (g,) in database.rows("SELECT id FROM club_game")
    )
    assert analyse_entries(database)[-1].startswith("analysed 4 games")


# --- a game that kills every worker ---------------------------------------------------------------


def test_a_game_whose_workers_die_every_time_fails_with_joblost_naming_it(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker]
) -> None:
    engine = fake_engine(tmp_path)
    env = environment(database, queue_server, CLUBRATING_ENGINE=str(engine))
    publish(tmp_path, env, evening_pgn(1, 40))
    hanging = {
        **env,
        "FAKE_UCI_MODE": "hang",
        "FAKE_UCI_FROM": "5",
        "CLUBRATING_ENGINE_TIMEOUT": "600",
    }
    for attempt in range(1, MAX_ATTEMPTS + 1):
        worker = Worker(tmp_path, f"dies-{attempt}", hanging)
        workers.append(worker)
        wait_for(lambda: worker.started(), 60, f"attempt {attempt} to start the game")
        time.sleep(0.5)
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait()
        time.sleep(2.5)  # its lease (2 s) runs out: the next worker puts the job back in the queue
    last = Worker(tmp_path, "last", env)
    workers.append(last)
    failed = FailedJobRegistry("default", connection=Redis.from_url(queue_server))
    wait_for(lambda: failed.count == 1, 60, "the game's job to fail")
    job = Job.fetch(failed.get_job_ids()[0], connection=Redis.from_url(queue_server))
    result = job.latest_result()
    assert result is not None and result.exc_string is not None
    assert (
        "JobLost: game 1 (Anna Berg - Ben Cole, round 1 of Tuesday): its worker stopped 3 times"
        in result.exc_string
    )
    assert job.meta["attempts"] == MAX_ATTEMPTS + 1
    assert database.count("club_gameanalysis") == 0
    assert not last.analysed()


# --- an engine that fails -------------------------------------------------------------------------


def test_a_game_whose_engine_fails_fails_once_and_leaves_its_batch(
    tmp_path: Path, queue_server: str, database: Database, workers: list[Worker]
) -> None:
    engine = fake_engine(tmp_path)
    env = environment(
        database, queue_server, CLUBRATING_ENGINE=str(engine), FAKE_UCI_MODE="garbage"
    )
    publish(tmp_path, env, evening_pgn(2, 40))
    workers.append(Worker(tmp_path, "w", env))
    connection = Redis.from_url(queue_server)
    failed = FailedJobRegistry("default", connection=connection)
    wait_for(lambda: failed.count == 2 and queue_idle(queue_server), 60, "both games' jobs to fail")
    jobs = [Job.fetch(job_id, connection=connection) for job_id in failed.get_job_ids()]
    assert [job.meta["attempts"] for job in jobs] == [1, 1]  # an engine's error is not retried
    said = [job.latest_result().exc_string or "" for job in jobs]  # type: ignore[union-attr]
    assert all("score cp abc" in text for text in said)
    batches = [
        k for k in connection.scan_iter("clubrating:*:batch:*") if not k.endswith(b":totals")
    ]
    assert batches == []  # both games left the batch: its last one would have rebuilt the ledger
