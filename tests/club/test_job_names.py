"""The dotted names stored for queued jobs keep working after the jobs moved into club/jobs/:
the database backend's rows are rewritten by a migration, RQ's names in Redis have an alias."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult
from rq.utils import import_attribute

from clubrating.club.jobs import rq_workers, tasks
from clubrating.club.jobs.leases import JobLost

job_paths = importlib.import_module("clubrating.club.store.migrations.0012_job_paths")


def stored(task_path: str, exception: str = "") -> DBTaskResult:
    return DBTaskResult.objects.create(
        status="FAILED" if exception else "READY",
        args_kwargs={"args": [1], "kwargs": {}},
        task_path=task_path,
        exception_class_path=exception,
        queue_name="default",
        backend_name="default",
        run_after=timezone.now(),
    )


@pytest.mark.django_db
def test_the_migration_points_jobs_stored_under_the_old_names_at_the_moved_modules() -> None:
    queued = stored("clubrating.club.tasks.analyse_tournament")
    lost = stored("clubrating.club.tasks.analyse_tournament", "clubrating.club.leases.JobLost")
    other = stored("clubrating.other.tasks.job", "clubrating.errors.InputError")
    job_paths.forwards(apps, None)
    for row in (queued, lost, other):
        row.refresh_from_db()
    assert import_string(queued.task_path) is tasks.analyse_tournament
    assert (lost.task_path, import_string(lost.exception_class_path)) == (queued.task_path, JobLost)
    assert (other.task_path, other.exception_class_path) == (
        "clubrating.other.tasks.job",
        "clubrating.errors.InputError",
    )
    job_paths.backwards(apps, None)
    lost.refresh_from_db()
    assert (lost.task_path, lost.exception_class_path) == (
        "clubrating.club.tasks.analyse_tournament",
        "clubrating.club.leases.JobLost",
    )


def test_an_rq_job_queued_under_the_old_names_finds_its_function_and_callback() -> None:
    assert import_attribute("clubrating.club.rq_jobs.analyse_game") is rq_workers.analyse_game
    assert import_attribute("clubrating.club.rq_jobs.game_failed") is rq_workers.game_failed
