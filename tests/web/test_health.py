"""``/healthz`` and ``clubrating status``: the installation's health, without a club's data,
on the real database (and a real one that does not answer)."""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from clubrating.club.store.models import Tournament


def test_a_healthy_installation_answers_200_with_json_and_no_club_data(
    client: Client, evening: Tournament
) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    document = response.json()
    assert document["healthy"] is True and document["database"] == "ok"
    assert document["unapplied_migrations"] == [] and document["problems"] == []
    assert set(document) >= {"jobs_waiting", "oldest_waiting_seconds", "workers_seen"}
    text = response.content.decode()
    assert "Riverside" not in text and "riverside" not in text and "Anna" not in text


def test_a_job_waiting_longer_than_the_lease_is_503_naming_the_stalled_queue(
    client: Client, evening: Tournament
) -> None:
    from django_tasks_db.models import DBTaskResult

    from clubrating.club.jobs.tasks import analyse_tournament

    analyse_tournament.enqueue(evening.id)
    assert (
        client.get("/healthz").status_code == 200
    )  # just queued: a worker takes it within seconds
    DBTaskResult.objects.filter(status="READY").update(
        enqueued_at=timezone.now() - dt.timedelta(minutes=6)
    )
    response = client.get("/healthz")
    assert response.status_code == 503
    document = response.json()
    assert document["jobs_waiting"] == 1 and document["oldest_waiting_seconds"] >= 360
    assert document["healthy"] is False and "no worker takes the jobs" in document["problems"][0]


def test_a_worker_that_ran_a_job_lately_is_seen(client: Client, evening: Tournament) -> None:
    from django_tasks_db.models import DBTaskResult

    from clubrating.club.jobs.tasks import analyse_tournament

    analyse_tournament.enqueue(evening.id)
    DBTaskResult.objects.update(
        status="SUCCESSFUL",
        started_at=timezone.now(),
        finished_at=timezone.now(),
        worker_ids=["host-1"],
    )
    assert client.get("/healthz").json()["workers_seen"] == 1
    DBTaskResult.objects.update(
        started_at=timezone.now() - dt.timedelta(hours=1),
        finished_at=timezone.now() - dt.timedelta(hours=1),
    )
    assert client.get("/healthz").json()["workers_seen"] == 0


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clubrating", *argv], capture_output=True, text=True, timeout=120
    )


def test_status_reports_an_unapplied_migration_and_applies_nothing(tmp_path: Path) -> None:
    database = tmp_path / "club.sqlite3"
    assert _cli("--database", f"sqlite:///{database}", "init", "Riverside").returncode == 0
    with sqlite3.connect(database) as db:
        db.execute(
            "DELETE FROM django_migrations WHERE id = (SELECT max(id) FROM django_migrations)"
        )
    done = _cli("--database", f"sqlite:///{database}", "status", "--json")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert document["healthy"] is False and len(document["unapplied_migrations"]) == 1
    assert "1 migration not applied" in document["problems"][0]
    text = _cli("--database", f"sqlite:///{database}", "status")
    assert (
        text.returncode == 1
        and "not applied" in text.stdout
        and text.stdout.splitlines()[0] == "database: ok"
    )
    assert (
        _cli("--database", f"sqlite:///{database}", "status").returncode == 1
    )  # it applied nothing


def test_status_of_a_server_that_does_not_answer_is_one_line_of_problem_and_exit_1() -> None:
    done = _cli("--database", "postgres://nobody@127.0.0.1:9/none", "status")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stdout.splitlines()[-1].startswith("not healthy: the database does not answer: ")


@pytest.mark.parametrize("argv", [["status"], ["status", "--json"]])
def test_status_of_a_healthy_database_is_exit_0(tmp_path: Path, argv: list[str]) -> None:
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    assert _cli("--database", database, "init", "Riverside").returncode == 0
    done = _cli("--database", database, *argv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "healthy" in done.stdout and "Riverside" not in done.stdout


def test_a_job_queue_server_that_does_not_answer_is_not_healthy(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    assert _cli("--database", database, "init", "Riverside").returncode == 0
    env = {
        **os.environ,
        "CLUBRATING_REDIS_URL": "redis://127.0.0.1:9/0",
    }  # RQ's queue, and nothing listens
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", database, "status", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert document["database"] == "ok" and document["queue"] != "ok"
    assert document["problems"][0].startswith("the job queue does not answer: ")
