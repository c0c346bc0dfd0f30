"""Analysis jobs on RQ/Redis: many worker processes, on many machines, share a
club's games. Chosen by ``CLUBRATING_REDIS_URL`` (settings.py); the database backend
(club/jobs/tasks.py) stays the default.

The tournament's job only fans out: one :func:`analyse_game` job per game without a stored
analysis, in one *batch* (a Redis set of the game ids still to do). A game still to do in a
batch is taken into no other (:func:`fan_out`): a tournament queued twice makes one batch of its
games, and one ledger rebuild. A game job claims its game, checks it has no stored analysis (a
game queued twice is analysed once), and stores its facts and leaves the batch in one
transaction under the club's lock; the game that empties the batch rebuilds the CPI ledger
there. A job that finds its game claimed by another job does not leave its batch: the holder
leaves it for it once the game is stored (:func:`release`), so no batch rebuilds the ledger
before all its games are in. A dead worker's game is queued again through RQ's abandoned-job
handling, the lease renewed by a thread of ours (:class:`LeasedWorker`); after
``MAX_ATTEMPTS`` deaths it fails with :class:`~clubrating.club.jobs.leases.JobLost`. Each step
and why RQ's own forking worker is not used: ``docs/operations.md``.
"""

from __future__ import annotations

import hashlib
import io
import logging
import math
import os
import sys
import threading
import time
from typing import Any

import chess.pgn
import django_rq
from django.conf import settings
from django.db import close_old_connections
from django_tasks import task, task_backends
from django_tasks.utils import get_random_id
from django_tasks_rq.backend import Job, RQBackend, failed_callback, success_callback
from redis import Redis, WatchError
from rq import Queue, Retry, SimpleWorker, get_current_job
from rq.exceptions import AbandonedJobError, NoSuchJobError
from rq.callbacks import Callback
from rq.job import Job as RQJob
from rq.job import JobStatus

from clubrating.analysis.analyzer import shallow_settings_key
from clubrating.analysis.runner import AnalysisConfig, Analyzer
from clubrating.club.jobs.analysis import (
    DatabaseCache,
    analysable_games,
    analysis_config,
    game_positions,
    ledger_behind,
    pgn_text,
    rebuild_ledger,
    store_analysis,
)
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club, Game, GameAnalysis, Tournament
from clubrating.club.jobs.leases import MAX_ATTEMPTS, JobLost, lease
from clubrating.errors import InputError
from clubrating.words import N_

log = logging.getLogger("clubrating.worker")

# A game's job may run this long (RQ kills it then). A game at the default 150,000 nodes takes
# about a minute on one core (README, "Engine analysis"); a hung engine is ended much sooner by
# CLUBRATING_ENGINE_TIMEOUT (analysis.engine), and a game's searches stop at its budget
# (engine.game_budget: 35 minutes at the default nodes), so an hour is a stuck job, never a slow
# game.
GAME_TIMEOUT = 3600
# A batch's set and a game's claim outlive every attempt of every job they concern.
KEEP_SECONDS = GAME_TIMEOUT * (MAX_ATTEMPTS + 1)
# RQ's states of a job that will still run (rq.job.JobStatus): its claim on a game holds.
LIVE = {JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SCHEDULED, JobStatus.DEFERRED}


def uses_rq() -> bool:
    """The jobs go to RQ (CLUBRATING_REDIS_URL), not the database."""
    return isinstance(task_backends["default"], RQBackend)


def redis() -> Redis:
    return django_rq.get_connection("default")


def key(*parts: object) -> str:
    """A Redis key of this database's: one Redis may serve several installations (or test runs)."""
    where = settings.DATABASES["default"]
    name = "|".join(str(where.get(part, "")) for part in ("ENGINE", "HOST", "PORT", "NAME"))
    database = hashlib.sha256(name.encode()).hexdigest()[:12]
    return ":".join(("clubrating", database, *map(str, parts)))


# --- the fan-out ------------------------------------------------------------------------------


def fan_out(tournament: Tournament) -> dict[str, Any]:
    """One job a game of ``tournament`` without a stored analysis, in one batch."""
    games = [
        g.id
        for g in analysable_games(tournament.club, tournament.id)
        if getattr(g, "analysis", None) is None
    ]
    if not games:
        if ledger_behind(tournament.club):
            rebuild_ledger(tournament.club, 0, 0, 0)
        return {"tournament_id": tournament.id, "games": 0}
    batch = get_random_id()
    connection = redis()
    queue = django_rq.get_queue(analyse_game.queue_name, job_class=Job)
    # The batch takes its games and their jobs are queued in one transaction (MULTI ... EXEC): a
    # fan-out that dies half-way leaves no game taken without a job. A job whose game another
    # batch kept does nothing (analyse_game).
    with connection.pipeline() as pipeline:
        pipeline.multi()  # as RQ's enqueue_job on a caller's pipeline wants it
        take_games(pipeline, batch, games)
        for game_id in games:
            enqueue_game(game_id, tournament.club_id, batch, queue, pipeline)
        taken = [int(game) for game in pipeline.execute()[0]]
    return {
        "tournament_id": tournament.id,
        "games": len(taken),
        "batch": batch,
        "queued_already": len(games) - len(taken),
    }


# Each game (ARGV[2], ...) whose mark (KEYS[2], ...) names no batch that still holds it goes into
# the new batch's set (KEYS[1]), and its mark names that set; keys kept ARGV[1] seconds. Atomic
# (a Lua script): two fan-outs at once never take the same game. Returns the games taken. It reads
# the set a mark names, a key outside KEYS: right on one Redis server, which RQ's queue is anyway.
TAKE_GAMES = """
local taken = {}
for i = 2, #KEYS do
  local game = ARGV[i]
  local owner = redis.call('GET', KEYS[i])
  if not owner or redis.call('SISMEMBER', owner, game) == 0 then
    redis.call('SET', KEYS[i], KEYS[1], 'EX', ARGV[1])
    redis.call('SADD', KEYS[1], game)
    taken[#taken + 1] = game
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return taken
"""


def take_games(pipeline: Any, batch: str, games: list[int]) -> None:
    """Queue :data:`TAKE_GAMES` on ``pipeline`` for ``batch``: its result is the games taken."""
    keys = [key("batch", batch), *(key("game", g, "batch") for g in games)]
    pipeline.eval(TAKE_GAMES, len(keys), *keys, KEEP_SECONDS, *games)


def enqueue_game(game_id: int, club_id: int, batch: str, queue: Queue, pipeline: Any) -> str:
    """Queue :func:`analyse_game` as django-tasks-rq would, with a retry for each lost worker,
    on ``pipeline`` (the caller executes it)."""
    job = queue.create_job(
        analyse_game.module_path,
        args=[game_id, club_id, batch],
        job_id=get_random_id(),
        timeout=GAME_TIMEOUT,
        retry=Retry(max=MAX_ATTEMPTS),
        on_failure=Callback(game_failed),
        on_success=Callback(success_callback),
        meta={"backend_name": analyse_game.backend},
        description=f"analyse game {game_id}",
    )
    queue.enqueue_job(job, pipeline=pipeline)
    return str(job.id)


def game_failed(
    job: Job, connection: Redis | None, kind: type[Exception], error: Exception, trace: Any
) -> None:
    """A game's job failed. Only a lost worker (AbandonedJobError) is retried: an error of the
    job itself (an engine that cannot start) would fail again the same way."""
    failed_callback(job, connection, kind, error, trace)
    if not issubclass(kind, AbandonedJobError):
        job.retries_left = 0


# --- one game ---------------------------------------------------------------------------------


@task()
def analyse_game(game_id: int, club_id: int, batch: str) -> dict[str, Any]:
    """Analyse one game unless it has a stored analysis or another live job claimed it;
    then leave the batch (the last game rebuilds the ledger). A game claimed by another job
    leaves the batch when that job is done with it (:func:`release`)."""
    job = get_current_job()
    attempt = count_attempt(job)
    job_id = str(job.id) if job else get_random_id()
    if not redis().sismember(key("batch", batch), str(game_id)):
        return {"game": game_id, "skipped": "queued in another batch, or done with"}
    game = Game.objects.filter(id=game_id).select_related("tournament", "white", "black").first()
    if game is None:
        leave_batch(club_id, batch, game_id)
        release(club_id, game_id, job_id)
        return {"game": game_id, "skipped": "deleted"}
    if attempt > MAX_ATTEMPTS:
        leave_batch(club_id, batch, game_id)
        release(club_id, game_id, job_id)
        raise JobLost(
            f"game {game_id} ({game.white.name} - {game.black.name}, round {game.round} of "
            f"{game.tournament.name}): its worker stopped {MAX_ATTEMPTS} times without finishing it"
        )
    holder = claim(game_id, job_id, batch)
    if holder is not None:  # the holder leaves this batch for this job (release)
        return {"game": game_id, "skipped": f"claimed by job {holder}"}
    try:
        return analyse_claimed(game, club_id, batch)
    finally:
        release(club_id, game_id, job_id)


def count_attempt(job: RQJob | None) -> int:
    """This run's number among the runs of ``job`` (kept in its meta in Redis)."""
    if job is None:
        return 1
    job.meta["attempts"] = int(job.meta.get("attempts", 0)) + 1
    job.save_meta()  # type: ignore[no-untyped-call]
    return int(job.meta["attempts"])


def claim(game_id: int, job_id: str, batch: str) -> str | None:
    """Take the game for ``job_id``; returns the id of the live job holding it instead, if any,
    and then ``batch`` waits for that job to be done with the game (:func:`release`): it must
    not empty, and rebuild the ledger, before the game is stored."""
    connection, name, waiting = redis(), key("game", game_id), key("game", game_id, "waiting")
    with connection.pipeline() as pipeline:
        while True:
            try:
                pipeline.watch(name)  # type: ignore[no-untyped-call]
                held = pipeline.get(name)
                holder = held.decode() if isinstance(held, bytes) else None
                if holder is not None and holder != job_id and is_live(connection, holder):
                    pipeline.multi()  # fails if the holder lets go meanwhile: look again
                    pipeline.sadd(waiting, batch)
                    pipeline.expire(waiting, KEEP_SECONDS)
                    pipeline.execute()
                    return holder
                pipeline.multi()
                pipeline.set(name, job_id, ex=KEEP_SECONDS)
                pipeline.execute()
                return None
            except WatchError:
                continue  # another job took or freed it meanwhile: look again


def release(club_id: int, game_id: int, job_id: str) -> None:
    """``job_id`` is done with the game (stored, or given up): its claim goes, unless another
    job holds it now, and every batch that waited for it (:func:`claim`) leaves the game, in
    one transaction with the claim's end, so no job waits on a claim nobody will release.
    Called after the game's analysis is committed: the rebuild of a batch emptied here sees it."""
    connection, name, waiting = redis(), key("game", game_id), key("game", game_id, "waiting")
    with connection.pipeline() as pipeline:
        while True:
            try:
                pipeline.watch(name)  # type: ignore[no-untyped-call]
                held = pipeline.get(name)
                if (
                    held is not None
                    and (held.decode() if isinstance(held, bytes) else held) != job_id
                ):
                    pipeline.unwatch()
                    return  # a job took it over: the waiting batches are its to leave
                pipeline.multi()
                pipeline.smembers(waiting)
                pipeline.delete(waiting, name)
                batches = pipeline.execute()[0]
                break
            except WatchError:
                continue
    for batch in sorted(b.decode() for b in batches):
        leave_batch(club_id, batch, game_id)


def is_live(connection: Redis, job_id: str) -> bool:
    try:
        return Job.fetch(job_id, connection=connection).get_status() in LIVE
    except NoSuchJobError:
        return False


def analyse_claimed(game: Game, club_id: int, batch: str) -> dict[str, Any]:
    started = time.monotonic()
    if GameAnalysis.objects.filter(game_id=game.id).exists():
        leave_batch(club_id, batch, game.id)
        return {"game": game.id, "skipped": "analysed already"}
    try:
        analyzer = worker_analyzer(analysis_config())
    except Exception:  # no engine, no book: the job fails in one line, the batch goes on without it
        leave_batch(club_id, batch, game.id)
        raise
    analyzer.cache = cache = DatabaseCache()
    pgn = pgn_text(game)
    try:
        cache.prefetch(
            game_positions(pgn),
            (analyzer.searcher.info.key, shallow_settings_key(analyzer.searcher.info)),
        )
        facts = analyzer.analyse(read_pgn(pgn))
    except InputError as error:  # moves that cannot be read: reported, not retried
        leave_batch(club_id, batch, game.id)
        return {"game": game.id, "unreadable": str(error)}
    except Exception:  # the engine failed: the next game starts a new one
        close_analyzer()
        leave_batch(club_id, batch, game.id)
        raise
    finally:
        analyzer.cache = None
    with history_write(club_id):
        kept = store_analysis(game, facts, {}, cache)
        leave_batch(
            club_id, batch, game.id, (1, facts.searches, facts.cache_hits) if kept else (0, 0, 0)
        )
    seconds = time.monotonic() - started
    print(
        f"clubrating worker {os.getpid()}: analysed game {game.id} in {seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    return {"game": game.id, "analysed": True, "seconds": round(seconds, 3), "pid": os.getpid()}


def read_pgn(pgn: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None:
        raise InputError(N_("no moves"))
    return game


_ANALYZER: tuple[AnalysisConfig, Analyzer] | None = None


def worker_analyzer(config: AnalysisConfig) -> Analyzer:
    """This worker's engine, started by its first game and kept for the next ones (a new one
    when the configuration changed)."""
    global _ANALYZER
    if _ANALYZER is None or _ANALYZER[0] != config:
        close_analyzer()
        _ANALYZER = (config, Analyzer(config))
    return _ANALYZER[1]


def close_analyzer() -> None:
    global _ANALYZER
    if _ANALYZER is not None:
        _ANALYZER[1].close()
        _ANALYZER = None


def leave_batch(
    club_id: int, batch: str, game_id: int, done: tuple[int, int, int] = (0, 0, 0)
) -> None:
    """The game is done with (analysed, skipped, unreadable or lost): it leaves the batch, and
    the game that leaves it empty rebuilds the club's CPI ledger (a game that left already
    does nothing). Called inside the stored game's transaction, or takes the club's lock for
    the rebuild: the rebuild sees every game stored before it left the batch."""
    name, totals = key("batch", batch), key("batch", batch, "totals")
    with redis().pipeline() as pipeline:  # MULTI ... EXEC: one game sees the set empty first
        pipeline.srem(name, game_id)
        for field, value in zip(("games", "searched", "cached"), done):
            pipeline.hincrby(totals, field, value)
        pipeline.expire(totals, KEEP_SECONDS)
        pipeline.scard(name)
        pipeline.hmget(totals, "games", "searched", "cached")
        removed, *_, left, figures = pipeline.execute()
    if removed and left == 0:
        games, searched, cached = (int(x or 0) for x in figures)
        club = Club.objects.filter(id=club_id).first()
        if club is not None and (games or ledger_behind(club)):
            rebuild_ledger(club, games, searched, cached)


# --- the worker -------------------------------------------------------------------------------


def lease_seconds() -> int:
    return max(1, math.ceil(lease().total_seconds()))


def beat_seconds() -> int:
    """A worker renews its lease every LEASE / 5 (as jobs.tasks.LeaseKeeper does)."""
    return max(1, lease_seconds() // 5)


class LeasedWorker(SimpleWorker):
    """RQ's SimpleWorker (jobs in this process) whose running job's entry in the
    StartedJobRegistry is renewed every LEASE / 5 from a thread, for LEASE; idle, it looks for
    other workers' lost jobs every LEASE / 5 (RQ's maintenance)."""

    def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
        return lease_seconds()

    @property
    def dequeue_timeout(self) -> int:
        return beat_seconds()

    def execute_job(self, job: Any, queue: Queue) -> None:
        close_old_connections()
        stop = threading.Event()
        beat = threading.Thread(
            target=self._renew, args=(job, stop), name="clubrating-lease", daemon=True
        )
        beat.start()
        try:
            super().execute_job(job, queue)
        finally:
            stop.set()
            beat.join()
            close_old_connections()

    def _renew(self, job: Any, stop: threading.Event) -> None:
        while not stop.wait(beat_seconds()):
            execution = self.execution
            if execution is not None:
                try:
                    self.maintain_heartbeats(job, execution)
                except Exception as error:  # Redis unreachable a moment: try again at the next beat
                    log.warning("could not renew the lease of job %s: %s", job.id, error)


def run_worker(once: bool) -> int:
    """``clubrating worker`` on RQ: take jobs from the queue until stopped (``once``: until it is
    empty)."""
    queue = django_rq.get_queue("default", job_class=Job)
    worker = LeasedWorker(
        [queue], connection=queue.connection, job_class=Job, maintenance_interval=beat_seconds()
    )
    try:
        worker.work(burst=once, logging_level="INFO", with_scheduler=False)
    finally:
        close_analyzer()
    return 0
