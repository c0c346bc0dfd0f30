"""Every way moves come in refuses a check or mate sign the position contradicts and a game over
MAX_PLIES half-moves, in one line, storing nothing: typed (tests/club/test_moves_cli.py and
tests/web/test_moves_pages.py), a PGN attached or imported, a player's moves link."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.models import Club, Game, MovesSubmission, Tournament
from clubrating.club.services import moves_links as ml
from clubrating.club.services.moves import attach_pgn_moves
from clubrating.errors import InputError
from clubrating.formats.movetext import MoveError

from .conftest import ARBITER
from .test_cli import run
from .test_moves import pgn_game, record_of, results_only

FIVE_THOUSAND = " ".join(["Nf3", "Nf6", "Ng1", "Ng8"] * 1_250)   # legal, 19,999 characters
NOT_MATE = "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#"
POSITION = "rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"


def with_moves(tournament: Tournament) -> int:
    return Game.objects.filter(tournament=tournament).exclude(moves="").count()


@pytest.mark.parametrize("moves, said", [
    (FIVE_THOUSAND, "games.pgn:10: the game is longer than 1,200 half-moves"),
    (NOT_MATE, f"games.pgn:10: move 4 (White) 'Qxe5#': written as mate (#), but it only gives check; "
               f"the position: {POSITION}"),
])
def test_a_pgn_attached_to_a_tournament_is_refused_in_one_line(club: Club, moves: str, said: str) -> None:
    tournament = results_only(club)
    with pytest.raises(InputError) as refused:
        record = record_of(pgn_game("1.1", "Anna Berg", "Ben Cole", "1-0", moves + " 1-0"), "games.pgn")
        attach_pgn_moves(tournament, record, who=ARBITER)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)
    assert with_moves(tournament) == 0


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("moves, said", [
    (FIVE_THOUSAND, "the game is longer than 1,200 half-moves"),
    (NOT_MATE, "move 4 (White) 'Qxe5#': written as mate (#)"),
])
def test_a_pgn_imported_from_the_command_line_is_refused_in_one_line(capsys, tmp_path: Path, moves: str,
                                                                     said: str) -> None:
    assert main(["init", "Riverside Chess Club"]) == 0
    pgn = tmp_path / "evening.pgn"
    pgn.write_text(pgn_game("1", "Anna Berg", "Ben Cole", "1-0", moves + " 1-0"), encoding="utf-8")
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(pgn))
    assert code == 2 and err.count("\n") == 1 and f"evening.pgn:10: {said}" in err
    assert not Game.objects.exists()


@pytest.mark.parametrize("moves, error", [(FIVE_THOUSAND, InputError), (NOT_MATE, MoveError)])
def test_a_players_moves_link_refuses_them_and_keeps_nothing(club: Club, moves: str,
                                                            error: type[Exception]) -> None:
    tournament = results_only(club)
    link = ml.issue_links(tournament, 1, who=ARBITER)[0].link
    with pytest.raises(error) as refused:
        ml.submit(link, moves, device="phone-of-white")
    assert "longer than 1,200 half-moves" in str(refused.value) or POSITION in str(refused.value)
    assert not MovesSubmission.objects.exists() and with_moves(tournament) == 0
