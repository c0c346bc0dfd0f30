"""Moves in the reader's piece letters on the pages people read (the game viewer: its move list,
the position's caption, the marked moves and the engine's choice; the coach's solutions), SAN's
English letters kept in the PGN download. The oracle: the letters written out in each test."""

from __future__ import annotations

import re

from django.test import Client

from clubrating.club.store.models import Club, Game
from tests.cpi.coach_games import publish_analysed

from .conftest import WHO, member
from .test_game_viewer import scholar  # noqa: F401  (the fixture: the scholar's mate, analysed)
from .test_translated_pages import catalogue  # noqa: F401  (the committed .po files compiled)

MOVES = re.compile(r'<ol class="moves">.*?</ol>', re.S)
MARKED = re.compile(r'<table class="marked">.*?</table>', re.S)


def _get(url: str, language: str) -> str:
    response = Client().get(url, headers={"accept-language": language})
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_viewer_shows_russian_and_armenian_piece_letters_and_the_pgn_keeps_san(
    scholar: Game,  # noqa: F811
    catalogue: None,  # noqa: F811
) -> None:
    url = f"/c/riverside/g/{scholar.id}/"
    for language, queen, knight in (("ru", "Ф", "К"), ("hy", "Թ", "Ձ"), ("en", "Q", "N")):
        html = _get(url, language)
        moves = MOVES.search(html)
        assert moves is not None
        assert re.findall(r">([^<>]+?)(?:<abbr[^>]*>[^<]*</abbr>)?</a>", moves[0]) == [
            "e4",
            "e5",
            f"{queen}h5",
            f"{knight}c6",
            "Сc4" if language == "ru" else "Փc4" if language == "hy" else "Bc4",
            f"{knight}f6",
            f"{queen}xf7#",
        ]
        marked = MARKED.search(html)
        assert marked is not None and f"<td>{knight}f3</td>" in marked[0]  # the engine's choice
        assert f"{queen}xf7#" in html.split('id="position"')[1].split("</figcaption>")[0]
    pgn = Client().get(f"{url}game.pgn", headers={"accept-language": "ru"}).content.decode()
    assert "2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#" in pgn and "Ф" not in pgn


def test_the_coach_shows_its_solutions_in_the_readers_piece_letters(
    club: Club,
    catalogue: None,  # noqa: F811
) -> None:
    publish_analysed(club, 5, who=WHO)
    anna = member(club, "Anna Berg")
    solutions = {}
    for language in ("ru", "hy", "en"):
        html = _get(f"/c/riverside/p/{anna.id}/cpi/", language)
        solutions[language] = " ".join(re.findall(r"<details>.*?</details>", html, re.S))
    # The better moves of tests/cpi/coach_games.VARIED, and the moves played instead.
    assert {"Кc3", "Сc4", "Фxd4", "Сd3", "Кf3", "Кxd4"} <= set(
        re.findall(r"[КФСЛ]р?[a-h]?x?[a-h][1-8]", solutions["ru"])
    )
    assert {"Ձc3", "Փc4", "Թxd4", "Փd3", "Ձf3"} <= set(
        re.findall(r"[ԱԹՆՓՁ][a-h]?x?[a-h][1-8]", solutions["hy"])
    )
    assert re.search(r"\b[KQRBN][a-h]?x?[a-h][1-8]", solutions["ru"] + solutions["hy"]) is None
    assert "Nc3" in solutions["en"]
