"""A phone in Chromium: a nine-round crosstable scrolls inside its own box, and two phones are two
devices for the moves links. Every page's fit at 360 and 375 px (and 768 and 1280, in three
languages) is the widths check's: tests/web/test_browser_widths.py."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Game, Member, Tournament
from clubrating.club.services.moves import attach_typed_moves
from tests.cpi.coach_games import publish_analysed

from .conftest import publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
LONG = "Maximiliana Konstantinopolitanskaya-Wolkenstein"  # a name that does not wrap
PLAYERS = [
    LONG,
    "Anna Smith",
    "Bob Jones",
    "Carl Berg",
    "Dana White",
    "Erik Lund",
    "Fay Wong",
    "Gina Hart",
    "Hrant Abrahamyan",
    "Irina Petrosyan",
]
SCHOLAR = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


def _round_robin(players: list[str]) -> str:
    """Every round of a single round robin (the circle method), typed: round, white, black,
    result."""
    n, lines = len(players), []
    order = list(range(n))
    for rnd in range(1, n):
        for board in range(n // 2):
            white, black = order[board], order[n - 1 - board]
            if (rnd + board) % 2:
                white, black = black, white
            result = ["1-0", "1/2-1/2", "0-1"][(rnd + board) % 3]
            lines.append(f"{rnd}, {players[white]}, {players[black]}, {result}")
        order = [order[0], order[-1], *order[1:-1]]
    return "\n".join(lines)


def _club() -> tuple[Club, dict[str, str]]:
    """A public club with a round robin of nine rounds, analysed games, a game with moves and an
    evening being played; the paths of its public pages."""
    club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    Club.objects.filter(pk=club.pk).update(
        cpi_weights={"preset": "spec"}
    )  # as tests/web/conftest's club
    club.cpi_weights = {"preset": "spec"}
    rr = publish_typed(
        club,
        _round_robin(PLAYERS),
        "Autumn Round Robin of the Riverside Chess Club",
        dt.date(2024, 10, 1),
    )
    publish_typed(club, _round_robin(PLAYERS[:6]), "Winter Rapid", dt.date(2025, 1, 7))
    publish_analysed(club, 5, who="test")
    game = Game.objects.filter(tournament=rr, white_points=2, played=True).first()
    assert game is not None
    attach_typed_moves(game, SCHOLAR, who="test")
    running = evening.start_evening(club, "Tuesday Swiss", dt.date.today(), 5, who="test")
    for name in PLAYERS[:7]:
        evening.register(running, name, who="test")
    evening.pair_next_round(running, who="test")
    long_id = Member.objects.get(club=club, name=LONG).id
    anna = Member.objects.get(club=club, name="Anna Smith").id
    berg = Member.objects.get(club=club, name="Anna Berg").id
    c = "/c/riverside/"
    paths = {
        "site index": "/",
        "club page": c,
        "rating list": f"{c}?list=standard",
        "tournament list": f"{c}t/",
        "a tournament": f"{c}t/{rr.id}/",
        "a player": f"{c}p/{long_id}/",
        "the card's games": f"{c}p/{anna}/#games",
        "head-to-head": f"{c}p/{anna}/?vs={long_id}#head-to-head",
        "CPI dashboard": f"{c}p/{berg}/cpi/",
        "a player with a CPI": f"{c}p/{berg}/",
        "game viewer": f"{c}g/{game.id}/",
        "the evening in progress": f"{c}t/{running.id}/",
        "login page": "/accounts/login/",
    }
    for t in (rr, running):
        for printed in ("pairings", "names", "wallchart"):
            paths[f"{printed} of {t.name}"] = f"{c}t/{t.id}/print/{printed}/"
    return club, paths


def test_the_crosstable_scrolls_inside_its_box_on_a_phone(
    live_server: Any, transactional_db: None, page: Any
) -> None:  # noqa: F811
    _, paths = _club()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{paths['a tournament']}")
    box = page.locator("#crosstable").locator("xpath=..")
    assert box.evaluate("b => getComputedStyle(b).overflowX") == "auto"
    assert box.evaluate(
        "b => b.scrollWidth > b.clientWidth"
    )  # nine rounds: wider than the phone, inside
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    last = page.locator("#crosstable thead th").last
    assert (
        last.is_visible()
        and last.bounding_box()["x"] + last.bounding_box()["width"] <= PHONE["width"] + 1
    )


BOARDS = "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1/2-1/2\n"
GAME = "1. e4 e5 2. Nf3 Nc6"


def _send_from(phone: Any, link: str, moves: str) -> str:
    phone.goto(link)
    phone.fill("#moves", moves)
    phone.click("text=Send the moves")
    phone.wait_for_selector("[role=status]")
    return str(phone.inner_text("[role=status]"))


def test_two_browsers_are_two_devices_and_one_browser_sending_both_sides_waits_for_the_arbiter(
    live_server: Any, transactional_db: None, page: Any
) -> None:  # noqa: F811
    from clubrating.club.services import moves_links as ml

    club = create_club("Riverside Chess Club", who="test", slug="riverside")
    t = publish_typed(club, BOARDS, "Tuesday Rapid", dt.date(2024, 1, 9))
    links = [f"{live_server.url}{i.path}" for i in ml.issue_links(t, 1, who="test")]
    browser = page.context.browser

    def phone() -> Any:  # a phone of its own: a browser context keeps its own cookies
        return browser.new_context(viewport={**PHONE, "width": 360}).new_page()

    bystander = phone()  # scans both codes of board 1
    assert "the arbiter checks them" in _send_from(bystander, links[0], GAME)
    assert "both sides were sent from one device" in _send_from(bystander, links[1], GAME)
    assert Game.objects.get(tournament=t, white__name="Anna Smith").moves == ""
    device = next(c for c in bystander.context.cookies() if c["name"] == "clubrating_device")
    assert device["path"] == "/m/" and device["httpOnly"] and len(device["value"]) == 22

    anna = phone()  # the link's player, after the bystander: her link is in use
    anna.goto(links[0])
    assert "in use on another device" in anna.inner_text("#in-use")

    carl, dana = phone(), phone()  # board 2: each player from their own phone
    assert "the arbiter checks them" in _send_from(carl, links[2], GAME)
    assert "agreeing with your opponent's: stored" in _send_from(dana, links[3], "e4 e5 Кf3 Кc6")
    assert Game.objects.get(tournament=t, white__name="Carl Berg").moves == f"{GAME} 1/2-1/2"
    assert not carl.locator("#in-use").count() and not dana.locator("#in-use").count()
