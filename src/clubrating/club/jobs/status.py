"""Where the analysis of a tournament's games stands, as the arbiter sees it, and a retry.

A game with moves is *analysed* (its facts are stored), or its tournament's job is
*queued* or *running*, or the job *failed* (the reason: the job's exception, or "game
12: why" for a game whose moves the engine could not read), or no job was asked for (a
draft: analysed when published). Read from the database backend's jobs
(``django_tasks_db``); on RQ only analysed or waiting is known here.

:func:`queue_state` is what ``serve`` says in its first line: jobs waiting and no worker
seen since the oldest of them was queued.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from clubrating.club.store import audit
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Game, GameAnalysis, Tournament, TournamentStatus
from clubrating.club.services.outcome import Outcome
from clubrating.errors import Refused, Text
from clubrating.words import N_, Nn_
from django_tasks_db.models import DBTaskResult
from clubrating.club.jobs.tasks import analyse_tournament, has_games_to_analyse
from django_tasks import task_backends
from django_tasks_db.backend import DatabaseBackend
import django_rq
from redis.exceptions import RedisError
from rq import Worker

TASK_PATH = "clubrating.club.jobs.tasks.analyse_tournament"

ANALYSED, QUEUED, RUNNING, FAILED, NOT_QUEUED = (
    "analysed",
    "queued",
    "running",
    "failed",
    "not queued",
)
STATES = (QUEUED, RUNNING, ANALYSED, FAILED, NOT_QUEUED)


@dataclass(frozen=True)
class GameState:
    game: Game
    state: str
    reason: str = ""


@dataclass(frozen=True)
class TournamentAnalysis:
    """Every game with moves of one tournament and where its analysis stands."""

    games: tuple[GameState, ...]

    def count(self, state: str) -> int:
        return sum(1 for g in self.games if g.state == state)

    @property
    def counts(self) -> dict[str, int]:
        return {state: self.count(state) for state in STATES}

    @property
    def can_retry(self) -> bool:
        return any(g.state in (FAILED, NOT_QUEUED) for g in self.games)


def _jobs(tournament_id: int) -> Any:
    return DBTaskResult.objects.filter(task_path=TASK_PATH, args_kwargs__args=[tournament_id])


def _last_line(text: str) -> str:
    lines = [line for line in (text or "").splitlines() if line.strip()]
    return lines[-1].strip()[:300] if lines else "the job failed"


def tournament_analysis(tournament: Tournament) -> TournamentAnalysis:
    """Where each played game with moves of ``tournament`` stands."""
    games = list(
        Game.objects.filter(tournament=tournament, played=True)
        .exclude(moves="")
        .select_related("white", "black")
        .order_by("round", "board", "id")
    )
    analysed = set(GameAnalysis.objects.filter(game__in=games).values_list("game_id", flat=True))
    job = _jobs(tournament.id).order_by("-enqueued_at").first() if _uses_database_jobs() else None
    unreadable: dict[int, str] = {}
    if job is not None and job.status == "SUCCESSFUL" and isinstance(job.return_value, dict):
        for text in job.return_value.get("unreadable", ()):
            head, _, why = str(text).partition(": ")
            if head.startswith("game ") and head[5:].isdigit():
                unreadable[int(head[5:])] = why
    states = []
    for game in games:
        if game.id in analysed:
            states.append(GameState(game, ANALYSED))
        elif game.id in unreadable:
            states.append(GameState(game, FAILED, unreadable[game.id]))
        elif job is None or not tournament.is_published:
            states.append(
                GameState(
                    game, NOT_QUEUED, "" if tournament.is_published else "analysed when published"
                )
            )
        elif job.status == "READY":
            states.append(GameState(game, QUEUED))
        elif job.status == "RUNNING":
            states.append(GameState(game, RUNNING))
        elif job.status == "FAILED":
            states.append(GameState(game, FAILED, _last_line(job.traceback)))
        else:
            states.append(GameState(game, NOT_QUEUED, "the last job ended without analysing it"))
    return TournamentAnalysis(tuple(states))


def retry_analysis(tournament: Tournament, *, who: str) -> Outcome:
    """Queue the tournament's analysis again (after a failure, or with no worker's job asked
    for)."""

    with history_write(tournament.club_id):
        tournament.refresh_from_db()
        if tournament.status != TournamentStatus.PUBLISHED:
            raise Refused(
                N_("'%(tournament)s' is a draft: its games are analysed when it is published"),
                tournament=tournament.name,
            )
        if not has_games_to_analyse(tournament):
            raise Refused(
                N_("'%(tournament)s' has no game with moves to analyse"), tournament=tournament.name
            )
        if (
            _uses_database_jobs()
            and _jobs(tournament.id).filter(status__in=["READY", "RUNNING"]).exists()
        ):
            raise Refused(
                N_("the analysis of '%(tournament)s' is queued or running already"),
                tournament=tournament.name,
            )

        audit.record(
            tournament.club,
            who,
            "analysis-retry",
            f"tournament {tournament.id} '{tournament.name}'",
            new={"queued": True},
        )
        tournament_id = tournament.id
        transaction.on_commit(lambda: analyse_tournament.enqueue(tournament_id))
    return Outcome(f"the analysis of '{tournament.name}' is queued again")


def _uses_database_jobs() -> bool:
    return isinstance(task_backends["default"], DatabaseBackend)


@dataclass(frozen=True)
class QueueState:
    waiting: int
    worker_seen: bool

    def warning(self) -> Text | None:
        """One sentence when jobs wait and no worker took one since the oldest was queued."""
        if not self.waiting or self.worker_seen:
            return None
        return Text(
            Nn_(
                "%(count)s analysis job is waiting and no worker has been seen: start one with "
                "'clubrating worker'",
                "%(count)s analysis jobs are waiting and no worker has been seen: start one with "
                "'clubrating worker'",
            ),
            count=self.waiting,
        )


def queue_state() -> QueueState:
    """Jobs waiting in the database backend's queue, and whether a worker took any job since the
    oldest of them was queued (or runs one now). On RQ: the workers registered in Redis."""
    if not _uses_database_jobs():
        queue = django_rq.get_queue("default")
        try:
            return QueueState(queue.count, bool(Worker.count(connection=queue.connection)))
        except RedisError:
            return QueueState(0, True)  # the Redis server's own errors are the worker's to report

    waiting = DBTaskResult.objects.filter(status="READY")
    oldest = waiting.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    if oldest is None:
        return QueueState(0, True)
    seen = (
        DBTaskResult.objects.filter(status="RUNNING").exists()
        or DBTaskResult.objects.filter(started_at__gte=oldest).exists()
    )
    return QueueState(waiting.count(), seen)
