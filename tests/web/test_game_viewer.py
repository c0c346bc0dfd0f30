"""The public game viewer: moves, the board after any move (server-drawn SVG, ``?ply=N``), the
moves lichess would mark from the stored analysis with the engine's choice, the game's PGN;
the tournament's privacy and names."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubrating.club.store.models import Club, Game, GameAnalysis, Tournament
from clubrating.club.services.moves import attach_typed_moves
from clubrating.formats.typed import parse_typed
from clubrating.web.links import game_href
from tests.cpi.coach_games import build

from .conftest import WHO, make_arbiter, member
from .rendered import flat
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.tournaments import import_tournament

SCHOLAR = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
# ply 3 Qh5: 40 -> -30 cp (winning chances drop 0.13, an inaccuracy); ply 4 Nc6: 50 -> -80 (0.24, a
# mistake); ply 6 Nf6 allows mate in 1 from +20 cp (lila's MateAdvice: a blunder).
NOTES = {
    3: {"best": [("Nf3", 40)], "after": -30},
    4: {"best": [("g6", 50)], "after": -80},
    6: {"best": [("g6", 20), ("Qe7", 10)], "after": "#-1"},
}


def game_of(tournament: Tournament, round_: int, white: str) -> Game:
    return Game.objects.select_related("white", "black").get(
        tournament=tournament, round=round_, white__name=white
    )


@pytest.fixture
def scholar(evening: Tournament) -> Game:
    """Round 1, Anna Smith - Bob Jones 1-0, with the scholar's mate and a stored analysis."""
    game = game_of(evening, 1, "Anna Smith")
    attach_typed_moves(game, " ".join(SCHOLAR), who=WHO)
    GameAnalysis.objects.create(
        game=game,
        engine="Fake",
        engine_version="1",
        nodes=1000,
        multipv=3,
        facts=build(SCHOLAR, NOTES, result="1-0").to_dict(),
    )
    game.refresh_from_db()
    return game


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def test_the_viewer_shows_the_moves_the_board_and_the_marks_with_the_engine_choice(
    scholar: Game,
) -> None:
    html = flat(page(Client(), f"/c/riverside/g/{scholar.id}/"))
    assert "<script" not in html and html.count("<svg") == 1
    assert "Anna Smith</a> – <a" in html and "1-0" in html
    moves = re.search(r'<ol class="moves">.*?</ol>', html)
    assert moves is not None and re.findall(r'href="\?ply=(\d+)"', moves.group(0)) == [
        str(n) for n in range(1, 8)
    ]
    assert '<a href="?ply=7" aria-current="step">Qxf7#</a>' in html  # the last position
    assert 'Qh5<abbr class="mark inaccuracy" title="inaccuracy">?!</abbr>' in html
    assert 'Nc6<abbr class="mark mistake" title="mistake">?</abbr>' in html
    assert 'Nf6<abbr class="mark blunder" title="blunder">??</abbr>' in html
    assert "White, Anna Smith: 1 inaccuracy, 0 mistakes, 0 blunders" in html
    assert "Black, Bob Jones: 0 inaccuracies, 1 mistake, 1 blunder" in html
    row = re.search(r"<tr><td><a href=\"\?ply=6\">.*?</tr>", html)
    assert row is not None and "blunder" in row.group(0) and "<td>g6</td>" in row.group(0)


def test_a_ply_shows_the_board_after_that_move_and_what_was_wrong_with_it(scholar: Game) -> None:
    html = flat(page(Client(), f"/c/riverside/g/{scholar.id}/?ply=6"))
    assert "After 3... Nf6??: <strong>blunder</strong> by Black" in html
    assert "the engine's choice was <strong>g6</strong>" in html
    assert '<a href="?ply=5" rel="prev">' in html and '<a href="?ply=7" rel="next">' in html
    start = flat(page(Client(), f"/c/riverside/g/{scholar.id}/?ply=0"))
    assert "The position before the first move." in start and "<span>‹ Previous</span>" in start
    assert page(Client(), f"/c/riverside/g/{scholar.id}/?ply=6") != page(
        Client(), f"/c/riverside/g/{scholar.id}/?ply=5"
    )


@pytest.mark.parametrize("ply", ["8", "-1", "x", "1e3", "٣"])
def test_a_ply_outside_the_game_is_one_line(scholar: Game, ply: str) -> None:
    assert page(Client(), f"/c/riverside/g/{scholar.id}/?ply={ply}", 400) == (
        "ply= takes a number from 0 to 7 (half-moves played)\n"
    )


def test_the_game_pgn_keeps_the_moves_and_the_names_as_the_page_shows_them(scholar: Game) -> None:
    response = Client().get(f"/c/riverside/g/{scholar.id}/game.pgn")
    text = response.content.decode()
    assert (
        response.status_code == 200
        and response["Content-Disposition"] == f'attachment; filename="game-{scholar.id}.pgn"'
    )
    assert (
        '[White "Anna Smith"]' in text
        and '[Black "Bob Jones"]' in text
        and '[Result "1-0"]' in text
    )
    assert "4. Qxf7# 1-0" in text and text.count("[Event ") == 1


def test_a_junior_is_named_by_initials_on_the_page_and_in_the_pgn(
    club: Club, evening: Tournament
) -> None:
    game = game_of(evening, 1, "Carl Berg")  # Carl Berg - Dana White (a junior) 1/2-1/2
    attach_typed_moves(game, "e4 e5 Nf3 Nc6", who=WHO)
    html = page(Client(), f"/c/riverside/g/{game.id}/")
    assert "D. W." in html and "Dana White" not in html
    assert "Not analysed yet" in html
    pgn = page(Client(), f"/c/riverside/g/{game.id}/game.pgn")
    assert '[Black "D. W."]' in pgn and "Dana" not in pgn


def test_a_game_without_moves_says_so_and_has_no_pgn(evening: Tournament) -> None:
    game = game_of(evening, 2, "Anna Smith")
    html = page(Client(), f"/c/riverside/g/{game.id}/")
    assert "No moves were recorded for this game" in html and "<svg" not in html
    page(Client(), f"/c/riverside/g/{game.id}/game.pgn", 404)


def test_a_draft_tournament_game_is_404_except_for_its_arbiter(club: Club, scholar: Game) -> None:
    record = parse_typed(
        "1, Anna Smith, Bob Jones, 1-0\n", name="Draft", date=scholar.tournament.date
    )
    draft = import_tournament(club, record, who=WHO, force=True)
    hidden = Game.objects.get(tournament=draft)
    page(Client(), f"/c/riverside/g/{hidden.id}/", 404)
    page(Client(), f"/c/riverside/g/{hidden.id}/game.pgn", 404)
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "arb"))
    assert "No moves were recorded" in page(arbiter, f"/c/riverside/g/{hidden.id}/")


def test_an_unlisted_club_shows_the_game_under_its_token_only(club: Club, scholar: Game) -> None:
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    page(Client(), f"/c/riverside/g/{scholar.id}/", 404)
    response = Client().get(f"/u/{club.token}/g/{scholar.id}/")
    assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex, nofollow"
    assert f'href="/u/{club.token}/g/{scholar.id}/game.pgn"' in response.content.decode()


def test_a_game_of_another_club_is_404(scholar: Game, db: None) -> None:
    create_club("Other Club", who=WHO, slug="other")
    other = Club.objects.get(slug="other")
    set_privacy(other, who=WHO, visibility="public")
    page(Client(), f"/c/other/g/{scholar.id}/", 404)


def test_game_href_is_the_viewer_for_a_game_with_moves_and_the_tournament_otherwise() -> None:
    assert game_href("/c/x/", 5, 2, has_moves=True) == "/c/x/g/5/"
    assert game_href("/c/x/", 5, 2, has_moves=True, ply=28) == "/c/x/g/5/?ply=28"
    assert game_href("/u/tok/", 5, 2, has_moves=False) == "/u/tok/t/2/"


def test_an_analysis_of_other_moves_marks_nothing(scholar: Game) -> None:
    GameAnalysis.objects.filter(game=scholar).update(facts=build(["d4", "d5"], {}).to_dict())
    html = page(Client(), f"/c/riverside/g/{scholar.id}/")
    assert "Not analysed yet" in html and "<abbr" not in html


def test_the_crosstable_the_pairings_and_the_player_s_games_link_the_games_with_moves_to_the_viewer(
    club: Club, scholar: Game
) -> None:
    viewer = f'href="/c/riverside/g/{scholar.id}/"'
    crosstable = page(Client(), f"/c/riverside/t/{scholar.tournament_id}/")
    assert (
        crosstable.count(viewer) == 2 and crosstable.count('href="/c/riverside/g/') == 2
    )  # both players' cells
    for name in ("Anna Smith", "Bob Jones"):
        games = page(Client(), f"/c/riverside/p/{member(club, name).id}/")
        assert games.count(viewer) == 1 and games.count('href="/c/riverside/g/') == 1
    pairings = page(Client(), f"/c/riverside/t/{scholar.tournament_id}/print/pairings/?round=1")
    assert pairings.count(f'<a href="/c/riverside/g/{scholar.id}/">1-0</a>') == 1
    assert pairings.count('href="/c/riverside/g/') == 1  # the other board has no moves


@pytest.mark.engine
def test_a_game_analysed_by_the_engine_shows_the_blunder_that_allowed_mate(
    evening: Tournament,
) -> None:
    """The real job and the real engine (a tiny node budget): 3...Nf6 allows Qxf7#."""
    from clubrating.club.jobs.analysis import analyse_games

    game = game_of(evening, 1, "Anna Smith")
    attach_typed_moves(game, " ".join(SCHOLAR), who=WHO)
    analyse_games(evening.club, nodes=2_000, jobs=1, tournament_id=evening.id)
    html = page(Client(), f"/c/riverside/g/{game.id}/?ply=6")
    assert 'Nf6<abbr class="mark blunder" title="blunder">??</abbr>' in html
    assert (
        "<strong>blunder</strong> by Black" in html and "the engine's choice was <strong>" in html
    )
    assert "Analysed by Stockfish" in html


def test_moves_no_board_can_play_are_sent_to_the_pgn(evening: Tournament) -> None:
    game = game_of(evening, 2, "Anna Smith")
    Game.objects.filter(pk=game.pk).update(
        moves="1. e4 e5 2. P@f3 1-0"
    )  # a bughouse drop, stored as read
    html = page(Client(), f"/c/riverside/g/{game.id}/")
    assert "cannot be played on a chess board here" in html and "<svg" not in html
    assert "2. P@f3 1-0" in page(Client(), f"/c/riverside/g/{game.id}/game.pgn")


def test_the_game_pgn_drops_comments_and_tags_a_stored_game_kept(scholar: Game) -> None:
    Game.objects.filter(pk=scholar.pk).update(
        moves="1. e4 { [%clk 0:09:58] call 0171 555 0199 } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        headers={"BlackEmail": "bob@example.org", "TimeControl": "600"},
    )
    pgn = page(Client(), f"/c/riverside/g/{scholar.id}/game.pgn")
    assert "[%clk 0:09:58]" in pgn and '[TimeControl "600"]' in pgn
    assert "0171" not in pgn and "example.org" not in pgn and "BlackEmail" not in pgn


def test_the_arbiter_s_game_page_links_the_viewer_once_the_game_has_moves(
    evening: Tournament, arbiter_client: Client
) -> None:
    game = game_of(evening, 3, "Dana White")
    url, viewer = f"/c/riverside/arbiter/g/{game.id}/", f'href="/c/riverside/g/{game.id}/"'
    assert viewer not in page(arbiter_client, url)
    attach_typed_moves(game, "e4 e5 Ke2", who=WHO)
    assert viewer in page(arbiter_client, url)
