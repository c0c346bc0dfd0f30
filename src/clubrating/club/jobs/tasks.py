"""Background jobs of the club (Django tasks; the database backend by default, run by
``clubrating worker``).

The worker takes its engine, book, node budget and number of engine processes
from $CLUBRATING_ENGINE, $CLUBRATING_BOOK, $CLUBRATING_NODES and
$CLUBRATING_JOBS (defaults: Debian's Stockfish and gnuchess-book, 150,000
nodes, the number of cores).

Jobs are leased: a worker renews the lease of the job it runs every
``LEASE / 5``; a job RUNNING whose lease ran out (its worker was killed, its
machine lost) is put back in the queue by any worker (at start, then every
``LEASE / 5``) and run again, at most ``MAX_ATTEMPTS`` times in all, then marked
FAILED. Running the analysis twice is harmless: it analyses only the games
without a stored analysis and finishes the ledger.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

from django.db import OperationalError, close_old_connections, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django.dispatch import receiver
from django_tasks.signals import task_finished, task_started

from clubrating.club.store.models import Game, Tournament, TournamentStatus
from clubrating.club.jobs.leases import LEASE, LEASE_ENV, MAX_ATTEMPTS, JobLost, lease
from clubrating.club.store.signals import moves_attached, tournament_published
from django_tasks_db.models import DBTaskResult

__all__ = [
    "LEASE",
    "LEASE_ENV",
    "MAX_ATTEMPTS",
    "JobLost",
    "lease",
    "analyse_tournament",
    "enqueue_analysis_on_commit",
    "keep_leases",
    "requeue_lost_jobs",
]


@task()
def analyse_tournament(tournament_id: int) -> dict[str, Any]:
    """Analyse the tournament's games with moves not analysed yet, then rebuild the CPI ledger.

    A tournament deleted or unpublished since it was queued is left alone.
    """
    from clubrating.club.jobs.analysis import analyse_games

    tournament = Tournament.objects.filter(id=tournament_id).select_related("club").first()
    if tournament is None or tournament.status != TournamentStatus.PUBLISHED:
        return {"tournament_id": tournament_id, "skipped": "not a published tournament"}
    from clubrating.club.jobs import rq_workers

    if rq_workers.uses_rq():  # many workers: one job a game
        return rq_workers.fan_out(tournament)
    report = analyse_games(tournament.club, tournament_id=tournament.id)
    return {"tournament_id": tournament_id, **report.as_dict()}


def has_games_to_analyse(tournament: Tournament) -> bool:
    """A chess tournament with at least one played game whose moves are known."""
    return (
        tournament.kind != "bughouse"
        and Game.objects.filter(tournament=tournament, played=True).exclude(moves="").exists()
    )


def enqueue_analysis_on_commit(tournament: Tournament) -> None:
    """Queue the analysis of a just-published tournament once its transaction commits
    (a rolled-back publish queues nothing); a tournament without moves queues nothing."""
    if has_games_to_analyse(tournament):
        tournament_id = tournament.id
        transaction.on_commit(lambda: analyse_tournament.enqueue(tournament_id))


@receiver(tournament_published, dispatch_uid="clubrating.club.jobs.tasks.analyse-on-publish")
def analyse_when_published(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """A published tournament's games are analysed after the publish commits (the services
    send the signal and never import this layer)."""
    enqueue_analysis_on_commit(tournament)


@receiver(moves_attached, dispatch_uid="clubrating.club.jobs.tasks.analyse-on-moves")
def analyse_when_moves_attached(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """Moves attached to a published tournament's games are analysed by the same job."""
    enqueue_analysis_on_commit(tournament)


# --- leases --------------------------------------------------------------------------------


def requeue_lost_jobs(now: dt.datetime | None = None) -> tuple[int, int]:
    """Put back in the queue every RUNNING job whose lease ran out; fail those tried
    MAX_ATTEMPTS times. Returns (requeued, failed)."""

    now = now or timezone.now()
    requeued = failed = 0
    lost = DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=now - lease()
    )
    for job in lost:
        with transaction.atomic():
            if len(job.worker_ids) >= MAX_ATTEMPTS:
                failed += DBTaskResult.objects.filter(
                    pk=job.pk, status=TaskResultStatus.RUNNING
                ).update(
                    status=TaskResultStatus.FAILED,
                    finished_at=now,
                    exception_class_path=f"{JobLost.__module__}.{JobLost.__qualname__}",
                    traceback=(
                        f"JobLost: its worker stopped {len(job.worker_ids)} times without "
                        f"finishing it (workers {', '.join(map(str, job.worker_ids))})\n"
                    ),
                )
            else:
                requeued += DBTaskResult.objects.filter(
                    pk=job.pk, status=TaskResultStatus.RUNNING, started_at=job.started_at
                ).update(status=TaskResultStatus.READY, run_after=now)
    return requeued, failed


class LeaseKeeper:
    """In a worker: renews the lease of the jobs this process runs, and requeues lost ones."""

    def __init__(self) -> None:
        self.running: set[str] = set()  # ids of the jobs this process runs now
        self.lock = threading.Lock()
        self.stop = threading.Event()
        task_started.connect(self._started, weak=False)
        task_finished.connect(self._finished, weak=False)

    def _started(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        with self.lock:
            self.running.add(str(task_result.id))

    def _finished(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        with self.lock:
            self.running.discard(str(task_result.id))

    def renew(self) -> None:
        with self.lock:
            ids = list(self.running)
        if ids:
            DBTaskResult.objects.filter(pk__in=ids, status=TaskResultStatus.RUNNING).update(
                started_at=timezone.now()
            )

    def loop(self) -> None:
        while not self.stop.wait(lease().total_seconds() / 5):
            try:
                self.renew()
                requeue_lost_jobs()
            except OperationalError:
                pass  # the database is busy (a long write): try again at the next beat
            finally:
                close_old_connections()  # this thread's own connection


def keep_leases() -> LeaseKeeper:
    """Call once in a worker before it runs jobs: lost jobs are requeued now, then a daemon
    thread renews this worker's leases and requeues lost jobs every LEASE / 5."""
    requeue_lost_jobs()
    keeper = LeaseKeeper()
    threading.Thread(target=keeper.loop, name="clubrating-leases", daemon=True).start()
    return keeper
