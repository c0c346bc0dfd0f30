"""Results from the players' phones in Chromium: each player's phone is a browser context of its
own (its own cookies, so its own device). On board 1 White and Black send the same result and it
is entered at once, the public page showing it on its next load; on board 2 they differ, and the
arbiter's round page shows both answers until the arbiter enters the result."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import EveningBoard
from clubrating.club.services import moves_links as ml

from .conftest import PASSWORD, make_arbiter
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.names import all_new_members

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def _send(browser: Any, link: str, result: str, moves: str = "") -> str:
    """A new phone opens the link, chooses the result (and types the moves), and sends."""
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(20_000)
    phone.goto(link)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if moves:
        phone.fill("#moves", moves)
    phone.check(f"input[name=result][value='{result}']")
    phone.click("button[type=submit]")
    phone.wait_for_selector("[role=status]")
    return str(phone.inner_text("[role=status]"))


def test_two_phones_agreeing_enter_the_result_and_two_that_differ_wait_for_the_arbiter(
    live_server: Any,
    transactional_db: None,
    page: Any,  # noqa: F811
) -> None:
    club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    t = evening.start_evening(club, "Tuesday Swiss", dt.date.today(), 3, who="test")
    for name in ("Anna Smith", "Bob Jones", "Carl Berg", "Dana White"):
        evening.register(t, name, who="test")
    all_new_members(t, who="test")
    evening.pair_next_round(t, who="test")
    links = [f"{live_server.url}{i.path}" for i in ml.issue_links(t, 1, who="test")]
    browser = page.context.browser
    board = {b.board: b for b in EveningBoard.objects.filter(tournament=t)}

    assert "when your opponent sends the same" in _send(browser, links[0], "1-0", "1. e4 e5")
    said = _send(browser, links[1], "1-0", "e4 e5")
    assert "agreeing with your opponent's: entered, with the moves" in said
    page.goto(f"{live_server.url}/c/riverside/t/{t.id}/")
    first_row = page.locator("#boards-1 tbody tr").first.inner_text()
    assert "1-0" in first_row  # the public page shows it on its next load

    _send(browser, links[2], "1/2-1/2")
    assert "another result" in _send(browser, links[3], "0-1")
    board[2].refresh_from_db()
    assert board[2].game_id is None

    make_arbiter(club, "arbiter")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/c/riverside/")
    page.goto(f"{live_server.url}/c/riverside/arbiter/evening/{t.id}/round/")
    waiting = page.inner_text("#answers-2")
    assert "White's phone ½-½" in waiting and "Black's phone 0-1" in waiting
    assert "they differ" in waiting and not page.locator("#answers-1").count()
    page.click("button[aria-label='Board 2: 0-1']")
    page.wait_for_selector("#board-2 .chosen")
    assert not page.locator("#answers-2").count()
    board[2].refresh_from_db()
    assert board[2].game is not None and board[2].game.black_points == 2
