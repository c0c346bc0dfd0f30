"""Why python-chess refused a typed move is told on the arbiter's game page in the page's
language, with the move, the side and the position around it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from clubrating.club.store.models import Game, Tournament


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ru", "Ход 2 (белые) «Ke3»: невозможен в этой позиции."),
        ("hy", "անօրինական է այս դիրքում"),
        ("en", "Move 2 (White) “Ke3”: illegal in this position."),
    ],
)
def test_the_reason_a_typed_move_was_refused_is_in_the_page_s_language(
    evening: Tournament, arbiter_client: Client, language: str, said: str
) -> None:
    game = Game.objects.get(tournament=evening, round=3, white__name="Dana White")
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = arbiter_client.post(
        f"/c/riverside/arbiter/g/{game.id}/", {"moves": "1. e4 e5 2. Ke3"}
    )
    figure = response.content.decode().split("<figcaption>")[1].split("</figcaption>")[0]
    assert said in figure
    if language != "en":
        assert "illegal in this position" not in figure
