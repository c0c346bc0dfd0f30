"""Whether an installation is working, without a word of any club's data: the database
answers, its schema is up to date, and the analysis queue moves.

What a worker leaves behind on the database backend is its jobs: ``worker_ids`` (the last is
the one that runs or ran it), ``started_at`` (renewed every fifth of the lease while it runs,
club.jobs.tasks.LeaseKeeper) and ``finished_at``. A worker *seen* is one whose job started, was
renewed or finished within :data:`SEEN_WINDOW`; an idle worker polls the queue and writes
nothing, so none seen is no alarm by itself. The alarm is a job that has waited longer than the
lease: a worker takes a waiting job within seconds, so one waiting that long has none.
On RQ the jobs and workers are the ones registered in Redis, and a Redis server that does not
answer is a problem of its own.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone

from clubrating.errors import Text
from clubrating.words import N_, Nn_
from clubrating.club.jobs.leases import lease
from django.db.migrations.executor import MigrationExecutor
from clubrating.club.jobs.status import _uses_database_jobs
from django.db.models import Q
from django_tasks_db.models import DBTaskResult
import django_rq
from redis.exceptions import RedisError
from rq import Worker

SEEN_WINDOW = dt.timedelta(minutes=10)  # two leases: a running job is renewed every minute
MINUTES = int(SEEN_WINDOW.total_seconds() // 60)


@dataclass(frozen=True)
class Health:
    database: str  # "ok", or the database's one-line error
    queue: str  # "ok", or the job queue's (RQ's Redis server) one-line error
    unapplied_migrations: tuple[str, ...]
    jobs_waiting: int
    oldest_waiting_seconds: float | None
    workers_seen: int  # in the last SEEN_WINDOW (RQ: registered now)
    workers_seen_minutes: int  # SEEN_WINDOW
    stalled_after_seconds: float  # a job waiting longer than this means no worker runs

    @property
    def problem_texts(self) -> list[Text]:
        """What is wrong, as sentences to translate where they are shown."""
        found = []
        if self.database != "ok":
            found.append(Text(N_("the database does not answer: %(error)s"), error=self.database))
        if self.queue != "ok":
            found.append(Text(N_("the job queue does not answer: %(error)s"), error=self.queue))
        if self.unapplied_migrations:
            found.append(
                Text(
                    Nn_(
                        "%(count)s migration not applied: run any clubrating command with write "
                        "access",
                        "%(count)s migrations not applied: run any clubrating command with write "
                        "access",
                    ),
                    count=len(self.unapplied_migrations),
                )
            )
        if (
            self.oldest_waiting_seconds is not None
            and self.oldest_waiting_seconds > self.stalled_after_seconds
        ):
            found.append(
                Text(
                    N_(
                        "an analysis job has waited %(seconds)s s: no worker takes the jobs "
                        "(start one with 'clubrating worker')"
                    ),
                    seconds=f"{self.oldest_waiting_seconds:.0f}",
                )
            )
        return found

    @property
    def problems(self) -> list[str]:
        """What is wrong, in English (the JSON's)."""
        return [str(text) for text in self.problem_texts]

    @property
    def healthy(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "unapplied_migrations": list(self.unapplied_migrations),
            "healthy": self.healthy,
            "problems": self.problems,
        }


def health(now: dt.datetime | None = None) -> Health:
    """The installation's health now; never raises for a database that does not answer."""

    now = now or timezone.now()
    stalled = lease().total_seconds()
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        unapplied = _unapplied_migrations()
        waiting, oldest, workers = _queue(now)
    except DatabaseError as error:
        return Health(_one_line(error), "ok", (), 0, None, 0, MINUTES, stalled)
    except QueueDown as error:
        return Health(
            "ok", _one_line(error.__cause__ or error), unapplied, 0, None, 0, MINUTES, stalled
        )
    return Health("ok", "ok", unapplied, waiting, oldest, workers, MINUTES, stalled)


class QueueDown(Exception):
    """RQ's Redis server did not answer (its error is the cause)."""


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _unapplied_migrations() -> tuple[str, ...]:
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return tuple(f"{migration.app_label}.{migration.name}" for migration, _ in plan)


def _queue(now: dt.datetime) -> tuple[int, float | None, int]:
    """(jobs waiting, the oldest one's age in seconds, workers seen)."""

    if not _uses_database_jobs():
        return _rq_queue()

    waiting = DBTaskResult.objects.filter(status="READY")
    oldest = waiting.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    since = now - SEEN_WINDOW
    recent = DBTaskResult.objects.filter(
        Q(status="RUNNING") | Q(started_at__gte=since) | Q(finished_at__gte=since)
    )
    workers = {ids[-1] for ids in recent.values_list("worker_ids", flat=True) if ids}
    age = None if oldest is None else max(0.0, (now - oldest).total_seconds())
    return waiting.count(), age, len(workers)


def _rq_queue() -> tuple[int, float | None, int]:
    queue = django_rq.get_queue("default")
    try:
        jobs = queue.get_jobs(0, 1)  # the oldest: RQ queues at the tail
        oldest = jobs[0].enqueued_at if jobs else None
        age = (
            None
            if oldest is None
            else max(
                0.0,
                (
                    dt.datetime.now(dt.timezone.utc) - oldest.replace(tzinfo=dt.timezone.utc)
                ).total_seconds(),
            )
        )
        return queue.count, age, Worker.count(connection=queue.connection)
    except RedisError as error:
        raise QueueDown() from error
