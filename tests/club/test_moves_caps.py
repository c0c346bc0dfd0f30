"""Every way moves come in refuses a check or mate sign the position contradicts and a game over
MAX_PLIES half-moves, in one line, storing nothing: typed (tests/club/test_moves_cli.py and
tests/web/test_moves_pages.py), a PGN attached or imported, a player's moves link."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import Club, Game, MovesSubmission, Tournament
from clubrating.club.services import moves_links as ml
from clubrating.club.services.moves import attach_pgn_moves
from clubrating.errors import InputError
from clubrating.formats.movetext import MAX_PLIES, MoveError

from tests.formats.long_games import five_thousand, long_game

from .conftest import ARBITER
from .test_cli import run
from .test_moves import pgn_game, record_of, results_only

FIVE_THOUSAND = five_thousand()  # 19,975 characters; legal up to its 1,657th half-move
LONG = long_game(MAX_PLIES + 1)  # legal through, one half-move too many
NOT_MATE = "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#"
POSITION = "rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"


def with_moves(tournament: Tournament) -> int:
    return Game.objects.filter(tournament=tournament).exclude(moves="").count()


@pytest.mark.parametrize(
    "moves, said",
    [
        (LONG, "games.pgn:10: the game is longer than 1,200 half-moves"),
        (
            NOT_MATE,
            f"games.pgn:10: move 4 (White) 'Qxe5#': written as mate (#), but it only gives check; "
            f"the position: {POSITION}",
        ),
    ],
)
def test_a_pgn_attached_to_a_tournament_is_refused_in_one_line(
    club: Club, moves: str, said: str
) -> None:
    tournament = results_only(club)
    with pytest.raises(InputError) as refused:
        record = record_of(
            pgn_game("1.1", "Anna Berg", "Ben Cole", "1-0", moves + " 1-0"), "games.pgn"
        )
        attach_pgn_moves(tournament, record, who=ARBITER)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)
    assert with_moves(tournament) == 0


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    "moves, said",
    [
        (LONG, "the game is longer than 1,200 half-moves"),
        (NOT_MATE, "move 4 (White) 'Qxe5#': written as mate (#)"),
    ],
)
def test_a_pgn_imported_from_the_command_line_is_refused_in_one_line(
    capsys, tmp_path: Path, moves: str, said: str
) -> None:
    assert main(["init", "Riverside Chess Club"]) == 0
    pgn = tmp_path / "evening.pgn"
    pgn.write_text(pgn_game("1", "Anna Berg", "Ben Cole", "1-0", moves + " 1-0"), encoding="utf-8")
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(pgn))
    assert code == 2 and err.count("\n") == 1 and f"evening.pgn:10: {said}" in err
    assert not Game.objects.exists()


@pytest.mark.parametrize("moves, error", [(FIVE_THOUSAND, InputError), (NOT_MATE, MoveError)])
def test_a_players_moves_link_refuses_them_and_keeps_nothing(
    club: Club, moves: str, error: type[Exception]
) -> None:
    tournament = results_only(club)
    link = ml.issue_links(tournament, 1, who=ARBITER)[0].link
    with pytest.raises(error) as refused:
        ml.submit(link, moves, device="phone-of-white")
    assert "longer than 1,200 half-moves" in str(refused.value) or POSITION in str(refused.value)
    assert not MovesSubmission.objects.exists() and with_moves(tournament) == 0


# --- the engine's cap: the second fence --------------------------------------------------------


def run_worker() -> None:
    from django.core.management import call_command

    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_a_game_over_the_engines_budget_is_stopped_and_shown_failed_with_the_reason(
    club: Club, monkeypatch
) -> None:
    from clubrating.club.jobs.status import ANALYSED, FAILED, tournament_analysis
    from clubrating.club.store.models import GameAnalysis

    from .test_moves import THE_FILE

    monkeypatch.setenv("CLUBRATING_NODES", "2000")
    monkeypatch.setenv("CLUBRATING_JOBS", "1")
    monkeypatch.setenv("CLUBRATING_GAME_SECONDS", "0.000001")  # any search spends more
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    run_worker()
    status = tournament_analysis(tournament)
    assert (
        status.counts[FAILED] == 3
        and status.counts[ANALYSED] == 0
        and not GameAnalysis.objects.exists()
    )
    assert all(
        "more than its budget of 1e-06 s at 2,000 nodes a position; stopped after" in g.reason
        for g in status.games
    )


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_a_game_stored_longer_than_max_plies_before_the_cap_is_refused_by_the_analysis(
    club: Club, monkeypatch
) -> None:
    from clubrating.club.jobs.analysis import analyse_games
    from clubrating.club.store.models import GameAnalysis, PositionSearch

    from .test_moves import THE_FILE

    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    long_game = Game.objects.get(tournament=tournament, round=1, white__name="Anna Berg")
    Game.objects.filter(id=long_game.id).update(
        moves=FIVE_THOUSAND + " 1-0"
    )  # as stored before the cap
    report = analyse_games(club, nodes=2_000, jobs=1)
    assert report.games == 2 and report.unreadable == (
        f"game {long_game.id}: the game is longer than 1,200 half-moves; "
        "no game played under the rules is that long (the longest had 538)",
    )
    assert not GameAnalysis.objects.filter(game=long_game).exists()
    assert (
        PositionSearch.objects.count() < 40
    )  # the two short games' positions: none of the long one's
