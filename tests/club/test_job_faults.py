"""What a killed ``analyse`` or ``worker`` leaves behind: a run stopped after its
last game was stored but before the ledger is finished by the next run; a job whose worker
was killed is put back in the queue when its lease runs out and finished by another worker.

The worker tests run real ``clubrating worker`` processes on a SQLite file with the scripted
fake engine (tests/analysis/fake_uci.py), which can be told to hang.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from clubrating.club.jobs.analysis import analyse_games
from clubrating.club.store.models import AuditEntry, CpiEntry, GameAnalysis
from clubrating.club.jobs.tasks import MAX_ATTEMPTS, requeue_lost_jobs

from .test_cpi import NODES, evening  # noqa: F401  (fixture)

FAKE_UCI = Path(__file__).parents[1] / "analysis" / "fake_uci.py"
PGN = "".join(
    f'[Event "Tuesday"]\n[Date "2026.03.03"]\n[Round "{rnd}"]\n[White '
    f'"{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{moves} {result}\n\n'
    for rnd, white, black, result, moves in (
        (
            1,
            "Anna Berg",
            "Ben Cole",
            "1-0",
            "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#",
        ),
        (1, "Cara Dunn", "Dan Eng", "0-1", "1. f3 e5 2. g4 d5 3. h3 Qh4#"),
        (2, "Dan Eng", "Anna Berg", "1/2-1/2", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6"),
    )
)


# --- analyse: the ledger is finished by the next run -------------------------------------------


@pytest.mark.engine
def test_a_run_stopped_before_the_ledger_is_finished_by_the_next_run(
    club,
    evening,  # noqa: F811
) -> None:
    # Every game stored and no ledger: what a kill between the last store and the rebuild leaves.
    stopped = analyse_games(club, nodes=NODES, jobs=1, rebuild=False)
    assert stopped.games == 3 and not CpiEntry.objects.exists()
    resumed = analyse_games(club, nodes=NODES, jobs=1)
    assert resumed.games == 0
    assert CpiEntry.objects.count() == 6
    assert AuditEntry.objects.filter(action="analyse").count() == 1
    again = analyse_games(
        club, nodes=NODES, jobs=1
    )  # nothing left to do: no rebuild, no audit entry
    assert again.games == 0 and AuditEntry.objects.filter(action="analyse").count() == 1


# --- lost jobs ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_job_past_its_lease_is_requeued_and_one_tried_too_often_fails() -> None:
    now = timezone.now()
    old = now - dt.timedelta(hours=1)

    def job(workers: list[str], started: dt.datetime) -> DBTaskResult:
        return DBTaskResult.objects.create(
            status="RUNNING",
            args_kwargs={"args": [1], "kwargs": {}},
            task_path="clubrating.club.jobs.tasks.analyse_tournament",
            worker_ids=workers,
            queue_name="default",
            backend_name="default",
            run_after=old,
            started_at=started,
        )

    lost, fresh, tired = (
        job(["a"], old),
        job(["b"], now),
        job([f"w{i}" for i in range(MAX_ATTEMPTS)], old),
    )
    assert requeue_lost_jobs(now) == (1, 1)
    statuses = {j.pk: DBTaskResult.objects.get(pk=j.pk).status for j in (lost, fresh, tired)}
    assert statuses == {lost.pk: "READY", fresh.pk: "RUNNING", tired.pk: "FAILED"}
    assert "JobLost" in DBTaskResult.objects.get(pk=tired.pk).traceback


def fake_engine(folder: Path) -> Path:
    path = folder / "fakefish"
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {FAKE_UCI} "$@"\n')
    path.chmod(0o755)
    return path


def environment(database: Path, engine: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLUBRATING_", "DJANGO_", "FAKE_UCI"))
    }
    return {
        **env,
        "CLUBRATING_DATABASE_URL": f"sqlite:///{database}",
        "CLUBRATING_ENGINE": str(engine),
        "CLUBRATING_BOOK": "",
        "CLUBRATING_NODES": "500",
        "CLUBRATING_JOBS": "1",
        **extra,
    }


def clubrating(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clubrating.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


# The command line's main() for each command of argv[1] (JSON), in turn, in one process.
COMMANDS_IN_ONE_PROCESS = """import json, sys
from clubrating.cli import main
for argv in json.loads(sys.argv[1]):
    if main(argv) != 0:
        sys.exit(f"clubrating {' '.join(argv)} failed")
"""


def job_state(database: Path) -> tuple[str, int]:
    with sqlite3.connect(database) as db:
        status, workers = db.execute(
            "SELECT status, worker_ids FROM django_tasks_database_dbtaskresult"
        ).fetchone()
    return status, len(json.loads(workers))


def count(database: Path, table: str) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def processes_of(root: int) -> set[int]:
    found, frontier = set(), {root}
    while frontier:
        children = set()
        for pid in frontier:
            try:
                children |= {
                    int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                }
            except OSError:
                pass
        frontier = children - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def queued(tmp_path: Path) -> tuple[Path, Path]:
    """A club on a SQLite file with one published evening of 3 games: one analysis job queued.
    The four commands run in one process: the test is about the worker, and each command's own
    process is proven by tests/club/test_readme_commands.py."""
    database, engine = tmp_path / "club.sqlite3", fake_engine(tmp_path)
    (tmp_path / "evening.pgn").write_text(PGN)
    commands = [
        ["init", "Riverside"],
        ["import", str(tmp_path / "evening.pgn")],
        ["link", "1", "--all-new"],
        ["publish", "1"],
    ]
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS_IN_ONE_PROCESS, json.dumps(commands)],
        env=environment(database, engine),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert job_state(database) == ("READY", 0)
    return database, engine


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_workers_job_is_requeued_after_its_lease_and_finished(queued) -> None:
    database, engine = queued
    hanging = environment(
        database,
        engine,
        FAKE_UCI_MODE="hang",
        FAKE_UCI_FROM="20",
        CLUBRATING_ENGINE_TIMEOUT="600",
        CLUBRATING_JOB_LEASE="2",
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "clubrating.cli", "worker", "--interval", "0.2"],
        env=hanging,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and count(database, "club_gameanalysis") < 1:
            time.sleep(0.2)  # the first game is stored; a later one hangs in the engine
        assert 1 <= count(database, "club_gameanalysis") < 3
        assert job_state(database) == ("RUNNING", 1)
        time.sleep(3)  # past the lease: the worker's own beat keeps it
        assert job_state(database) == ("RUNNING", 1)
        engines = processes_of(worker.pid)
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    finally:
        worker.kill()
        worker.wait()
    time.sleep(0.5)
    assert not [pid for pid in engines if alive(pid)], "the killed worker's engine survived it"
    assert job_state(database) == ("RUNNING", 1)  # nobody left to finish it
    time.sleep(2.5)  # its lease runs out
    clubrating(environment(database, engine, CLUBRATING_JOB_LEASE="2"), "worker", "--once")
    assert job_state(database) == ("SUCCESSFUL", 2)
    assert count(database, "club_gameanalysis") == 3  # the remaining games analysed
