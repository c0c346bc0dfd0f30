"""Background jobs of the club (Django tasks; the database backend by default, run by
``clubrating worker``).

The worker takes its engine, book, node budget and number of engine processes
from $CLUBRATING_ENGINE, $CLUBRATING_BOOK, $CLUBRATING_NODES and
$CLUBRATING_JOBS (defaults: Debian's Stockfish and gnuchess-book, 150,000
nodes, the number of cores).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django_tasks import task

from clubrating.club.models import Game, Tournament, TournamentStatus


@task()
def analyse_tournament(tournament_id: int) -> dict[str, Any]:
    """Analyse the tournament's games with moves not analysed yet, then rebuild the CPI ledger.

    A tournament deleted or unpublished since it was queued is left alone.
    """
    from clubrating.club.analysis_jobs import analyse_games

    tournament = Tournament.objects.filter(id=tournament_id).select_related("club").first()
    if tournament is None or tournament.status != TournamentStatus.PUBLISHED:
        return {"tournament_id": tournament_id, "skipped": "not a published tournament"}
    report = analyse_games(tournament.club, tournament_id=tournament.id)
    return {"tournament_id": tournament_id, **report.as_dict()}


def has_games_to_analyse(tournament: Tournament) -> bool:
    """A chess tournament with at least one played game whose moves are known."""
    return tournament.kind != "bughouse" and Game.objects.filter(
        tournament=tournament, played=True).exclude(moves="").exists()


def enqueue_analysis_on_commit(tournament: Tournament) -> None:
    """Queue the analysis of a just-published tournament once its transaction commits
    (a rolled-back publish queues nothing); a tournament without moves queues nothing."""
    if has_games_to_analyse(tournament):
        tournament_id = tournament.id
        transaction.on_commit(lambda: analyse_tournament.enqueue(tournament_id))
