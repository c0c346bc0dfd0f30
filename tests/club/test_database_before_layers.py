"""A database made before the club app's folders became its layers opens and rebuilds unchanged.

The models and migrations moved from ``club/`` to ``club/store/``; the app's label (``club``)
and the migrations' names did not, so an existing database finds every migration it applied
under the same name, is offered only the migrations written since it was made, and keeps its
numbers. The fixture was built by the code of before the move (the club app's migrations 0001
to 0020) with

    clubrating --database sqlite:///club.sqlite3 demo --seasons 2 --members 24 \
        --with-moves 1 --jobs 1

and its ``--json`` answers recorded by that same code (``ratings``, ``tournament``,
``player``): the oracle shares no code with what it checks.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
FIXTURE = DATA / "club_before_layers.sqlite3.gz"
ANSWERS = DATA / "club_before_layers.json"
DEADLINE = 120

PLAN = """
import json

import django
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

django.setup()
executor = MigrationExecutor(connection)
plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
applied = {name for app, name in executor.loader.applied_migrations if app == "club"}
on_disk = {name for app, name in executor.loader.disk_migrations if app == "club"}
planned = {m.name for m, _ in plan if m.app_label == "club"}
print(json.dumps([sorted(applied), sorted(on_disk), sorted(planned), len(plan) - len(planned)]))
"""
MADE_WITH = 20
"""The club app's migrations the fixture's code had (0001 to 0020)."""


def _env(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_DATABASE")}
    return env | {"CLUBRATING_DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "clubrating.settings"}


def _cli(url: str, *argv: str) -> Any:
    run = subprocess.run(
        [sys.executable, "-m", "clubrating", "--json", "--database", url, *argv],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env=_env(url),
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture
def old_database(tmp_path: Path) -> str:
    path = tmp_path / "club.sqlite3"
    with gzip.open(FIXTURE, "rb") as packed, path.open("wb") as out:
        shutil.copyfileobj(packed, out)
    return f"sqlite:///{path}"


def test_an_old_database_has_no_migration_to_apply(old_database: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", PLAN],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env=_env(old_database),
        check=True,
    )
    applied, on_disk, planned, others = json.loads(run.stdout)
    assert len(applied) == MADE_WITH
    assert set(applied) <= set(on_disk)
    assert planned == sorted(set(on_disk) - set(applied))  # only what came after it
    assert others == 0


def test_an_old_database_reads_and_rebuilds_to_the_same_numbers(old_database: str) -> None:
    recorded = json.loads(ANSWERS.read_text(encoding="utf-8"))
    asked = {name: _cli(old_database, *argv) for name, argv in _questions(recorded).items()}
    assert asked == {name: recorded[name]["answer"] for name in asked}
    _cli(old_database, "rebuild")
    again = {name: _cli(old_database, *argv) for name, argv in _questions(recorded).items()}
    assert again == asked


def _questions(recorded: dict[str, Any]) -> dict[str, list[str]]:
    return {name: list(entry["argv"]) for name, entry in recorded.items()}
