"""The arbiter corrects a game's moves: replaced or removed, the old analysis gone, the CPI ledger
rebuilt, the audit entry old -> new, the new moves queued; an engine run on old moves stores
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

from clubrating.club.jobs.analysis import DatabaseCache, analyse_games, store_analysis
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CpiEntry,
    CurrentRating,
    Game,
    GameAnalysis,
    Tournament,
)
from clubrating.club.services.moves import (
    NeedsConfirmation,
    attach_pgn_moves,
    attach_typed_moves,
    remove_moves,
    replace_typed_moves,
)
from clubrating.cpi.facts import GameFacts
from clubrating.errors import Refused
from clubrating.formats.movetext import MoveError

from .conftest import ARBITER, spec_cpi
from .test_moves import FOOL, LEGAL, RUY, THE_FILE, pgn_game, record_of, results_only
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services.clubs import create_club

NODES = 2_000  # as tests/club/test_cpi.py: tiny and fixed
# Round 1, Anna Berg - Ben Cole 1-0, as the arbiter types it again: a different game White also
# mates in.
CORRECTED = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
CORRECTED_FILE = (
    pgn_game("1.1", "Anna Berg", "Ben Cole", "1-0", CORRECTED + " 1-0")
    + pgn_game("1.2", "Cara Dunn", "Dan Eng", "0-1", FOOL)
    + pgn_game("2.1", "Dan Eng", "Anna Berg", "1/2-1/2", RUY)
)
WITHOUT_IT = pgn_game("1.2", "Cara Dunn", "Dan Eng", "0-1", FOOL) + pgn_game(
    "2.1", "Dan Eng", "Anna Berg", "1/2-1/2", RUY
)


def anna_ben(tournament: Tournament) -> Game:
    return Game.objects.select_related("white", "black", "tournament").get(
        tournament=tournament, round=1, white__name="Anna Berg"
    )


def analysed(club: Club, text: str = THE_FILE) -> Tournament:
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    analyse_games(club, nodes=NODES, jobs=1)
    return tournament


def ledger(club: Club) -> list[tuple[Any, ...]]:
    """The club's CPI ledger as a reader sees it: each player's entries by round, without row
    ids."""
    rows = CpiEntry.objects.filter(member__club=club).select_related("game", "member")
    return sorted(
        (
            row.member.name,
            row.game.round,
            row.color,
            row.cpi_before,
            row.delta,
            row.cpi_after,
            repr(row.factors),
        )
        for row in rows
    )


def ratings(club: Club) -> list[tuple[str, int]]:
    return sorted(
        CurrentRating.objects.filter(member__club=club).values_list("member__name", "rating")
    )


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_replaced_moves_drop_the_old_analysis_rebuild_the_ledger_and_are_analysed_again(
    club: Club,
) -> None:
    tournament = analysed(club)
    game = anna_ben(tournament)
    assert (
        GameAnalysis.objects.filter(game=game).exists()
        and CpiEntry.objects.filter(game=game).count() == 2
    )
    rated, jobs = ratings(club), DBTaskResult.objects.count()

    outcome = replace_typed_moves(game, CORRECTED, who=ARBITER)

    assert str(outcome) == "round 1 Anna Berg - Ben Cole: the moves replaced by 7 half-moves"
    assert anna_ben(tournament).moves == CORRECTED + " 1-0"
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert not CpiEntry.objects.filter(game=game).exists() and CpiEntry.objects.count() == 4
    entry = AuditEntry.objects.get(club=club, action="replace-moves")
    assert entry.old == {"moves": LEGAL} and entry.new == {"moves": CORRECTED + " 1-0"}
    assert entry.target == f"tournament {tournament.id} round 1: Anna Berg - Ben Cole"
    assert (
        DBTaskResult.objects.count() == jobs + 1 and ratings(club) == rated
    )  # queued; the ratings stay

    analyse_games(club, nodes=NODES, jobs=1)
    facts = GameFacts.from_dict(GameAnalysis.objects.get(game=game).facts)
    assert [ply.san for ply in facts.plies] == CORRECTED.replace("1. ", "").replace(
        "2. ", ""
    ).replace("3. ", "").replace("4. ", "").split()
    # The oracle: another club whose tournament had the corrected moves from the start.
    other = spec_cpi(create_club("Other club", who=ARBITER))
    analysed(other, CORRECTED_FILE)
    assert ledger(club) == ledger(other) and len(ledger(club)) == 6


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_removed_moves_leave_the_result_and_the_ledger_as_if_they_had_never_been(
    club: Club,
) -> None:
    tournament = analysed(club)
    game = anna_ben(tournament)
    rated, jobs = ratings(club), DBTaskResult.objects.count()

    outcome = remove_moves(game, who=ARBITER)

    assert str(outcome) == "round 1 Anna Berg - Ben Cole: the moves removed, the result stays"
    stored = anna_ben(tournament)
    assert stored.moves == "" and game_result_text(stored) == "1-0" and ratings(club) == rated
    assert (
        not GameAnalysis.objects.filter(game=game).exists()
        and not CpiEntry.objects.filter(game=game).exists()
    )
    entry = AuditEntry.objects.get(club=club, action="remove-moves")
    assert entry.old == {"moves": LEGAL} and entry.new == {"moves": ""}
    assert DBTaskResult.objects.count() == jobs  # nothing new to analyse
    other = spec_cpi(create_club("Other club", who=ARBITER))
    analysed(other, WITHOUT_IT)
    assert ledger(club) == ledger(other) and len(ledger(club)) == 4


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_an_engine_run_on_the_old_moves_stores_nothing_once_they_are_replaced(club: Club) -> None:
    tournament = analysed(club)
    read_before = anna_ben(tournament)  # what a running job read: the old moves
    facts = GameFacts.from_dict(GameAnalysis.objects.get(game=read_before).facts)
    replace_typed_moves(read_before, CORRECTED, who=ARBITER)
    assert store_analysis(read_before, facts, {}, DatabaseCache()) is False
    assert not GameAnalysis.objects.filter(game=read_before).exists()


@pytest.mark.django_db(transaction=True)
def test_a_wrong_correction_is_refused_and_the_stored_moves_stay(club: Club) -> None:
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    game = anna_ben(tournament)
    with pytest.raises(
        MoveError, match=r"move 4 \(White\) 'Qxe5#': written as mate \(#\), but it only gives check"
    ):
        replace_typed_moves(game, "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#", who=ARBITER)
    with pytest.raises(NeedsConfirmation, match="mate by Black"):
        replace_typed_moves(game, "1. f3 e5 2. g4 Qh4#", who=ARBITER)
    with pytest.raises(Refused, match="has these moves already: nothing changed"):
        replace_typed_moves(game, LEGAL.replace(" 1-0", ""), who=ARBITER)
    with pytest.raises(Refused, match="correct them with --replace or --remove"):
        attach_typed_moves(game, CORRECTED, who=ARBITER)
    assert anna_ben(tournament).moves == LEGAL
    assert not AuditEntry.objects.filter(action__in=("replace-moves", "remove-moves")).exists()
    no_moves = Game.objects.get(tournament=tournament, round=1, white__name="Cara Dunn")
    Game.objects.filter(id=no_moves.id).update(moves="")
    for correct in (
        lambda: remove_moves(no_moves, who=ARBITER),
        lambda: replace_typed_moves(no_moves, CORRECTED, who=ARBITER),
    ):
        with pytest.raises(Refused, match="has no moves to correct"):
            correct()


@pytest.mark.django_db(transaction=True)
def test_a_confirmed_replacement_says_what_was_confirmed_in_the_audit(club: Club) -> None:
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    replace_typed_moves(anna_ben(tournament), "1. f3 e5 2. g4 Qh4#", who=ARBITER, confirm=True)
    entry = AuditEntry.objects.get(action="replace-moves")
    assert (
        entry.new["confirmed"]
        == "the moves end in mate by Black, and the result is not a win for Black"
    )
