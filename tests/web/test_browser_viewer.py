"""The game viewer in Chromium on a 375 px phone: the board scales, the move list wraps, the
document is no wider than the screen, the marked blunder is in view, and the moves are reached
and opened from the keyboard with a visible focus."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from clubrating.club.store.models import Club, Game, GameAnalysis
from clubrating.club.services.moves import attach_typed_moves

from .conftest import EVENING, publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from .test_game_viewer import NOTES, SCHOLAR
from tests.cpi.coach_games import build
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser
WIDTH = 375


def test_the_viewer_fits_a_phone_and_shows_the_blunder(
    live_server,
    transactional_db,
    page,  # noqa: F811
    tmp_path: Path,
) -> None:  # type: ignore[no-untyped-def]
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    evening = publish_typed(club, EVENING, "Tuesday Rapid", dt.date(2024, 1, 9))
    game = Game.objects.get(tournament=evening, round=1, white__name="Anna Smith")
    attach_typed_moves(game, " ".join(SCHOLAR), who="test")
    GameAnalysis.objects.create(
        game=game,
        engine="Fake",
        engine_version="1",
        nodes=1000,
        multipv=3,
        facts=build(SCHOLAR, NOTES, result="1-0").to_dict(),
    )
    page.set_viewport_size({"width": WIDTH, "height": 800})
    page.goto(f"{live_server.url}/c/riverside/g/{game.id}/")
    page.wait_for_selector("ol.moves")
    page.screenshot(path=str(tmp_path / "viewer-375.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    board = page.locator(".viewer figure svg").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= WIDTH
    blunder = page.locator("ol.moves abbr.mark.blunder")
    assert blunder.count() == 1 and blunder.is_visible()
    box = blunder.bounding_box()
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= WIDTH
    for _ in range(60):  # Tab through the page to the blunder's link, then open it with Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('href')") == "?ply=6":
            break
    else:
        pytest.fail("the blunder's link is not reached with Tab")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    page.wait_for_url("**?ply=6")
    assert "blunder by Black" in page.locator("#position").inner_text()
    assert "the engine's choice was g6" in page.locator("#position").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
