"""``serve`` says in its first line when analysis jobs wait and no worker was seen; ``make run``
starts a worker beside the server and stops it with the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .test_serve import _free_port, _get

ROOT = Path(__file__).resolve().parents[2]
GAME = """[Event "Tuesday evening"]
[Site "?"]
[Date "2026.03.03"]
[Round "1"]
[White "Anna Berg"]
[Black "Ben Cole"]
[Result "1-0"]

1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0
"""


def clubrating(database: str, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "clubrating.cli", "--database", database, *args],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )


def a_club_with_a_job_waiting(tmp_path: Path) -> str:
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    (tmp_path / "games.pgn").write_text(GAME, encoding="utf-8")
    clubrating(database, "init", "Riverside Chess Club")
    clubrating(database, "import", str(tmp_path / "games.pgn"))
    clubrating(database, "link", "1", "--all-new")
    clubrating(database, "publish", "1")
    return database


def first_line(database: str) -> str:
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clubrating.cli",
            "--database",
            database,
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "CLUBRATING_DEBUG": "0"},
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        return server.stdout.readline().decode()
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)


def test_serve_says_first_that_jobs_wait_and_no_worker_was_seen(tmp_path: Path) -> None:
    database = a_club_with_a_job_waiting(tmp_path)
    line = first_line(database)
    assert line.startswith("clubrating: serving on http://127.0.0.1:")
    assert line.rstrip().endswith(
        "; 1 analysis job is waiting and no worker has been seen: "
        "start one with 'clubrating worker'"
    )


def test_serve_says_nothing_of_jobs_when_none_wait(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    clubrating(database, "init", "Riverside Chess Club")
    assert "worker" not in first_line(database)


def test_make_run_starts_a_worker_beside_the_server_and_stops_it_with_the_server(
    tmp_path: Path,
) -> None:
    database = a_club_with_a_job_waiting(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "clubrating"
    script.write_text(
        f'#!/bin/sh\nexec {sys.executable} -m clubrating.cli "$@"\n', encoding="utf-8"
    )
    script.chmod(0o755)
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "CLUBRATING_DEBUG": "0",
        "CLUBRATING_ENGINE": "/nonexistent/engine",
    }  # the job fails at once: no engine needed here
    make = subprocess.Popen(
        [
            "make",
            "-s",
            "-o",
            "demo",
            "run",
            f"VENV={bin_dir}",
            f"DEMO_DB={database.removeprefix('sqlite:///')}",
            f"PORT={port}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        for _ in range(300):
            try:
                if _get(port, "/robots.txt")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        workers = _processes_of(make.pid, "worker")
        assert len(workers) == 1
        _wait_for_the_job(database)
        server = _processes_of(make.pid, "serve")
        os.kill(server[0], signal.SIGTERM)  # the server alone stops
        make.communicate(timeout=30)
        assert not _alive(workers[0])
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGTERM)
            make.communicate(timeout=30)


def _processes_of(session: int, verb: str) -> list[int]:
    """The processes of the session whose command line has ``verb`` after the module's name."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
            sid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3])
        except (OSError, ValueError, IndexError):
            continue
        if sid == session and b"clubrating.cli" in words and verb.encode() in words:
            found.append(int(entry.name))
    return sorted(found)[:1] if verb == "serve" else sorted(found)


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for_the_job(database: str) -> None:
    """The worker took the waiting job (it fails: no engine), so it ran beside the server."""
    import sqlite3

    path = database.removeprefix("sqlite:///")
    for _ in range(300):
        with sqlite3.connect(path) as connection:
            (status,) = connection.execute(
                "select status from django_tasks_database_dbtaskresult"
            ).fetchone()
        if status in ("FAILED", "SUCCESSFUL"):
            return
        time.sleep(0.1)
    raise AssertionError(f"the worker did not take the job: {status}")
