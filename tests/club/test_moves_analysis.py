"""Attached moves are analysed by the publish's job; the arbiter sees queued, running, analysed,
failed, and retries."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from clubrating.club.jobs.status import (
    ANALYSED,
    FAILED,
    NOT_QUEUED,
    QUEUED,
    queue_state,
    retry_analysis,
    tournament_analysis,
)
from clubrating.club.store.models import AuditEntry, CpiEntry, GameAnalysis
from clubrating.club.services.moves import attach_pgn_moves
from clubrating.errors import Refused

from .conftest import ARBITER
from .test_moves import THE_FILE, record_of, results_only

NODES = 2_000  # as tests/club/test_cpi.py: tiny and fixed


def run_worker() -> None:
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_attached_moves_are_queued_then_analysed_by_a_real_worker(club, monkeypatch) -> None:
    monkeypatch.setenv("CLUBRATING_NODES", str(NODES))
    monkeypatch.setenv("CLUBRATING_JOBS", "1")
    tournament = results_only(club)
    assert tournament_analysis(tournament).games == ()
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    assert tournament_analysis(tournament).counts[QUEUED] == 3
    assert queue_state().warning() == (
        "1 analysis job is waiting and no worker has been seen: start one with 'clubrating worker'"
    )
    run_worker()
    status = tournament_analysis(tournament)
    assert status.counts[ANALYSED] == 3 and not status.can_retry
    assert GameAnalysis.objects.count() == 3 and CpiEntry.objects.count() == 6
    assert queue_state().warning() is None


@pytest.mark.django_db(transaction=True)
def test_a_failed_job_shows_its_reason_and_a_retry_queues_it_again_audited(
    club, monkeypatch
) -> None:
    monkeypatch.setenv("CLUBRATING_ENGINE", "/nonexistent/stockfish")
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    run_worker()
    status = tournament_analysis(tournament)
    assert status.counts[FAILED] == 3 and status.can_retry
    assert "/nonexistent/stockfish" in status.games[0].reason
    assert queue_state().warning() is None  # nothing waits
    retry_analysis(tournament, who=ARBITER)
    assert tournament_analysis(tournament).counts[QUEUED] == 3
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    assert AuditEntry.objects.filter(club=club, action="analysis-retry").count() == 1
    with pytest.raises(Refused, match="queued or running already"):
        retry_analysis(tournament, who=ARBITER)


@pytest.mark.django_db(transaction=True)
def test_a_drafts_games_wait_for_the_publish_and_cannot_be_retried(club) -> None:
    tournament = results_only(club, published=False)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    status = tournament_analysis(tournament)
    assert status.counts[NOT_QUEUED] == 3 and status.games[0].reason == "analysed when published"
    with pytest.raises(Refused, match="is a draft"):
        retry_analysis(tournament, who=ARBITER)
