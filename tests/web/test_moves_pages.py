"""The arbiter's "Add moves" page and a game's page: matched, confirmed, decided; typed, refused
with the board."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from clubrating.club.store.models import AuditEntry, Club, Game, Tournament
from clubrating.club.read.tournaments import game_result_text

LEGAL = "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#"


def pgn_game(round_: str, white: str, black: str, result: str, moves: str) -> str:
    tags = {
        "Event": "Tuesday Rapid",
        "Site": "?",
        "Date": "2024.01.09",
        "Round": round_,
        "White": white,
        "Black": black,
        "Result": result,
    }
    return "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + f"\n{moves} {result}\n\n"


# round 1: Anna Smith - Bob Jones 1-0 (written "Ana Smith"); Carl Berg - Dana White stored 1/2-1/2,
# here 1-0
THE_FILE = pgn_game("1", "Ana Smith", "Bob Jones", "1-0", LEGAL) + pgn_game(
    "1", "Carl Berg", "Dana White", "1-0", LEGAL
)


def game(evening: Tournament, round_: int, white: str) -> Game:
    return Game.objects.select_related("white", "black").get(
        tournament=evening, round=round_, white__name=white
    )


def test_a_pgn_with_a_proposal_and_a_differing_result_is_shown_and_stored_once_decided(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    url = f"/c/riverside/arbiter/t/{evening.id}/moves/"
    assert b"Match the games" in arbiter_client.get(url).content
    upload = SimpleUploadedFile(
        "evening.pgn", THE_FILE.encode(), content_type="application/x-chess-pgn"
    )
    shown = arbiter_client.post(url, {"file": upload})
    page = shown.content.decode()
    assert shown.status_code == 200 and "nothing stored" in page
    assert "&#x27;Ana Smith&#x27; is &#x27;Anna Smith&#x27;?" in page
    assert "The results differ." in page and "round 1: Carl Berg - Dana White 1/2-1/2" in page
    assert not Game.objects.filter(tournament=evening).exclude(moves="").exists()
    stored = arbiter_client.post(
        url, {"pgn": THE_FILE, "source": "evening.pgn", "accept": ["1"], "result-2": "correct"}
    )
    assert (
        stored.status_code == 302 and stored["Location"] == f"/c/riverside/arbiter/t/{evening.id}/"
    )
    assert game(evening, 1, "Anna Smith").moves == f"{LEGAL} 1-0"
    carl = game(evening, 1, "Carl Berg")
    assert carl.moves == f"{LEGAL} 1-0" and game_result_text(carl) == "1-0"
    assert AuditEntry.objects.filter(club=club, action="correct-result").count() == 1


def test_a_pgn_that_is_not_one_is_one_message_and_the_text_stays(
    evening: Tournament, arbiter_client: Client
) -> None:
    response = arbiter_client.post(
        f"/c/riverside/arbiter/t/{evening.id}/moves/", {"pgn": '[Event "x"]\n\n1. e4 Ke3 1-0\n'}
    )
    assert response.status_code == 200 and b"expected legal moves" in response.content
    assert b"1. e4 Ke3 1-0" in response.content


def test_an_illegal_typed_move_shows_the_board_and_the_fen_and_keeps_the_text(
    evening: Tournament, arbiter_client: Client
) -> None:
    url = f"/c/riverside/arbiter/g/{game(evening, 3, 'Dana White').id}/"
    assert b"Type the moves" in arbiter_client.get(url).content
    response = arbiter_client.post(url, {"moves": "1. e4 e5 2. Ke3"})
    page = response.content.decode()
    assert response.status_code == 200 and "<svg" in page
    assert "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in page
    assert "Move 2 (White) “Ke3”: illegal in this position" in page
    assert ">1. e4 e5 2. Ke3</textarea>" in page
    stored = arbiter_client.post(url, {"moves": "1. e4 e5 2. Ke2"})
    assert stored.status_code == 302
    assert game(evening, 3, "Dana White").moves == "1. e4 e5 2. Ke2 0-1"
    assert b"<svg" in arbiter_client.get(url).content  # the position after the stored moves


def test_typed_moves_contradicting_the_result_ask_for_a_confirmation(
    evening: Tournament, arbiter_client: Client
) -> None:
    url = f"/c/riverside/arbiter/g/{game(evening, 1, 'Anna Smith').id}/"  # stored 1-0
    asked = arbiter_client.post(url, {"moves": "f3 e5 g4 Qh4#"})
    assert (
        asked.status_code == 200
        and b'name="confirm"' in asked.content
        and b"mate by Black" in asked.content
    )
    assert game(evening, 1, "Anna Smith").moves == ""
    assert arbiter_client.post(url, {"moves": "f3 e5 g4 Qh4#", "confirm": "on"}).status_code == 302
    assert game(evening, 1, "Anna Smith").moves == "1. f3 e5 2. g4 Qh4# 1-0"


def test_another_clubs_arbiter_gets_404_on_the_moves_pages(
    evening: Tournament, other_arbiter_client: Client
) -> None:
    target = game(evening, 1, "Anna Smith")
    assert (
        other_arbiter_client.get(f"/c/riverside/arbiter/t/{evening.id}/moves/").status_code == 404
    )
    assert (
        other_arbiter_client.post(
            f"/c/riverside/arbiter/g/{target.id}/", {"moves": "e4"}
        ).status_code
        == 404
    )
    assert game(evening, 1, "Anna Smith").moves == ""


def test_the_tournament_page_links_to_the_moves_pages(
    evening: Tournament, arbiter_client: Client
) -> None:
    page = arbiter_client.get(f"/c/riverside/arbiter/t/{evening.id}/").content.decode()
    assert f"/c/riverside/arbiter/t/{evening.id}/moves/" in page
    assert f"/c/riverside/arbiter/g/{game(evening, 1, 'Anna Smith').id}/" in page


@pytest.mark.django_db(transaction=True)
def test_the_analysis_page_shows_the_queued_games_and_a_failed_jobs_reason_with_a_retry(
    club: Club, evening: Tournament, arbiter_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    arbiter_client.post(
        f"/c/riverside/arbiter/t/{evening.id}/moves/",
        {"pgn": pgn_game("1", "Anna Smith", "Bob Jones", "1-0", LEGAL)},
    )
    url = f"/c/riverside/arbiter/t/{evening.id}/analysis/"
    page = arbiter_client.get(url).content.decode()
    assert "queued: 1 · running: 0 · analysed: 0 · failed: 0" in page
    assert "1 analysis job is waiting and no worker has been seen" in page
    assert "<td>queued</td>" in page  # the game's row: its state in words
    monkeypatch.setenv("CLUBRATING_ENGINE", "/nonexistent/stockfish")
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    page = arbiter_client.get(url).content.decode()
    assert (
        "failed: 1" in page
        and "<td>failed: " in page  # the game's row: its state and the reason
        and "/nonexistent/stockfish" in page
        and "Queue the analysis again" in page
    )
    retried = arbiter_client.post(url)
    assert retried.status_code == 302
    assert "queued: 1" in arbiter_client.get(url).content.decode()
    assert AuditEntry.objects.filter(club=club, action="analysis-retry").exists()


NOT_MATE = "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#"  # 4. Qxe5 checks and does not mate
MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_the_arbiter_replaces_then_removes_a_games_moves_and_their_analysis_goes_with_them(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    from django_tasks_db.models import DBTaskResult

    from clubrating.club.jobs.analysis import analyse_games
    from clubrating.club.store.models import CpiEntry, GameAnalysis

    target = game(evening, 1, "Anna Smith")  # stored 1-0
    url = f"/c/riverside/arbiter/g/{target.id}/"
    refused = arbiter_client.post(url, {"moves": NOT_MATE}).content.decode()
    assert "Move 4 (White) “Qxe5#”: written as mate (#), but it only gives check" in refused
    assert (
        "rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4" in refused
        and "<svg" in refused
    )
    assert arbiter_client.post(url, {"moves": NOT_MATE.replace("#", "+")}).status_code == 302
    analyse_games(club, nodes=2_000, jobs=1)
    assert (
        GameAnalysis.objects.filter(game=target).exists()
        and CpiEntry.objects.filter(game=target).count() == 2
    )

    page = arbiter_client.get(url).content.decode()
    assert "Correct the moves" in page and 'name="replace"' in page and 'name="remove"' in page
    assert (
        ">1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5+ 1-0</textarea>" in page
    )  # the stored moves, to edit
    kept = arbiter_client.post(url, {"moves": NOT_MATE, "replace": "on"}).content.decode()
    assert "written as mate (#)" in kept and f">{NOT_MATE}</textarea>" in kept
    assert game(evening, 1, "Anna Smith").moves.endswith("4. Qxe5+ 1-0")
    jobs = DBTaskResult.objects.count()

    assert arbiter_client.post(url, {"moves": MATE, "replace": "on"}).status_code == 302
    assert game(evening, 1, "Anna Smith").moves == MATE + " 1-0"
    assert (
        not GameAnalysis.objects.filter(game=target).exists()
        and not CpiEntry.objects.filter(game=target).exists()
    )
    assert DBTaskResult.objects.count() == jobs + 1
    entry = AuditEntry.objects.get(action="replace-moves")
    assert entry.old == {"moves": NOT_MATE.replace("#", "+") + " 1-0"} and entry.new == {
        "moves": MATE + " 1-0"
    }
    assert entry.who == "web:anna-arbiter"

    analyse_games(club, nodes=2_000, jobs=1)
    assert GameAnalysis.objects.filter(game=target).exists()
    assert arbiter_client.post(url, {"remove": "on"}).status_code == 302
    assert (
        game(evening, 1, "Anna Smith").moves == ""
        and not GameAnalysis.objects.filter(game=target).exists()
    )
    assert not CpiEntry.objects.filter(game=target).exists()
    assert AuditEntry.objects.get(action="remove-moves").old == {"moves": MATE + " 1-0"}
    assert b"Type the moves" in arbiter_client.get(url).content


def test_five_thousand_typed_half_moves_are_one_message_and_nothing_is_stored(
    evening: Tournament, arbiter_client: Client
) -> None:
    url = f"/c/riverside/arbiter/g/{game(evening, 1, 'Anna Smith').id}/"
    from tests.formats.long_games import five_thousand

    response = arbiter_client.post(url, {"moves": five_thousand()})
    assert (
        response.status_code == 200 and "longer than 1,200 half-moves" in response.content.decode()
    )
    assert game(evening, 1, "Anna Smith").moves == ""


def test_a_phone_sending_a_wrong_mate_sign_or_five_thousand_half_moves_gets_one_message(
    evening: Tournament, arbiter_client: Client
) -> None:
    from clubrating.club.store.models import MovesSubmission

    from .test_moves_links_pages import phone_post, print_slips

    _, tokens = print_slips(arbiter_client, evening)
    status, page = phone_post(Client(), tokens[0], NOT_MATE)
    assert (
        status == 200 and "written as mate (#), but it only gives check" in page and "<svg" in page
    )
    from tests.formats.long_games import five_thousand

    status, page = phone_post(Client(), tokens[0], five_thousand())
    assert status == 200 and "longer than 1,200 half-moves" in page
    assert not MovesSubmission.objects.exists()
