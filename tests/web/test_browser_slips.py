"""The board slips printed by Chromium: the PDF (Playwright's page.pdf) turned into images by
pdftoppm (poppler-utils) and its QR codes read by zbarimg (zbar-tools) decode to the players'
moves links, two a board, each alone on its player's tear-off half; two phones at 360 px, White's
and Black's, send the same moves through
their own codes' links and the game has them.
The tools missing is a failure, not a skip (scripts/bootstrap --test installs them)."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clubrating.club.store.models import Club, Game

from .conftest import PASSWORD, make_arbiter, publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club

pytestmark = pytest.mark.browser
ROUND_ONE = (
    "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana "
    "White, 1/2-1/2\n1, Erik Lund, Fay Wong, 0-1\n"
)
PHONE = {"width": 360, "height": 740}


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found, (
        f"{name} is missing: run scripts/bootstrap --test (installs poppler-utils and zbar-tools)"
    )
    return found


def _each_half_carries_its_own_code_alone(page: Any, tmp_path: Path) -> None:
    """As printed, each slip is a board part (the result boxes) and two halves torn off along
    dashed lines, side by side: each half's image holds its player's code and no other."""
    page.emulate_media(media="print")
    for number, slip in enumerate(page.locator("article.slip").all()):
        halves = slip.locator("section.half")
        assert halves.count() == 2
        white, black = halves.nth(0), halves.nth(1)
        assert (
            white.evaluate("h => getComputedStyle(h.parentElement).borderTopStyle") == "dashed"
        )  # from the board
        assert (
            black.evaluate("h => getComputedStyle(h).borderLeftStyle") == "dashed"
        )  # from each other
        left, right = white.bounding_box(), black.bounding_box()
        assert left["x"] + left["width"] <= right["x"] + 0.5 and abs(left["y"] - right["y"]) < 0.5
        for side, half in (("white", white), ("black", black)):
            assert half.locator("svg").count() == 1 and half.locator(f"figure.{side}").count() == 1
            image = tmp_path / f"half-{number}-{side}.png"
            half.screenshot(path=str(image))
            decoded = subprocess.run(
                [_tool("zbarimg"), "--quiet", "--raw", str(image)], capture_output=True, text=True
            ).stdout.split()
            assert decoded == [half.locator(".url").inner_text().strip()], (number, side, decoded)
    page.emulate_media(media="screen")


def test_the_slips_qr_codes_decode_to_the_players_links_and_two_phones_agreeing_store_the_moves(
    live_server: Any, transactional_db: None, page: Any, tmp_path: Path
) -> None:  # noqa: F811
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    t = publish_typed(club, ROUND_ONE, "Tuesday Rapid", dt.date(2024, 1, 9))
    make_arbiter(club, "arbiter")
    url = live_server.url
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/c/riverside/")
    page.goto(f"{url}/c/riverside/arbiter/t/{t.id}/slips/")
    page.click("text=Make the links and show the slips")
    page.wait_for_selector("article.slip")
    links = [text.strip() for text in page.locator("article.slip .url").all_inner_texts()]
    assert len(links) == 6 and all(
        link.startswith(f"{url}/m/") for link in links
    )  # three boards, two players
    board_one = page.locator("article.slip").first
    assert (
        board_one.locator("figure.white figcaption").inner_text() == "White: Anna Smith"
    )  # the club's pages are not public, but the arbiter's slips name the players in full
    assert board_one.locator("figure.black figcaption").inner_text() == "Black: Bob Jones"
    white, black = (
        board_one.locator(f"figure.{side} .url").inner_text().strip() for side in ("white", "black")
    )

    pdf = tmp_path / "slips.pdf"
    page.pdf(path=str(pdf), format="A4")
    subprocess.run(
        [_tool("pdftoppm"), "-r", "150", "-png", str(pdf), str(tmp_path / "slip")], check=True
    )
    images = sorted(tmp_path.glob("slip*.png"))
    assert len(images) == 1  # three slips on one A4 page
    decoded = subprocess.run(
        [_tool("zbarimg"), "--quiet", "--raw", *map(str, images)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(decoded) == sorted(links)  # every code reads as the link printed under it

    _each_half_carries_its_own_code_alone(page, tmp_path)

    said = []
    for link, moves in ((white, "1. e4 e5 2. Nf3 Nc6"), (black, "e4 e5 Кf3 Кc6")):
        phone = page.context.browser.new_context(
            viewport=PHONE
        ).new_page()  # each player's own: no login
        phone.goto(link)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.fill("#moves", moves)
        phone.click("text=Send the moves")
        phone.wait_for_selector("[role=status]")
        said.append(phone.inner_text("[role=status]"))
    assert (
        "the arbiter checks them" in said[0] and "agreeing with your opponent's: stored" in said[1]
    )
    assert (
        Game.objects.get(tournament=t, white__name="Anna Smith").moves == "1. e4 e5 2. Nf3 Nc6 1-0"
    )
