"""The arbiter's evening in a real browser: Playwright driving Debian's Chromium
against the live server. Chromium missing is a failure, not a skip."""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path

import pytest

from clubrating.club.store.models import Club, CurrentRating, Member
from clubrating.formats.trf import write_trf
from clubrating.formats.typed import parse_typed

from .conftest import PASSWORD, make_arbiter, publish_typed
from clubrating.club.services.clubs import create_club, set_privacy

CHROMIUM = "/usr/bin/chromium"
# The network is closed: no first-run, sync or component downloads (docs/testing.md).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.browser
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = (
    "true"  # Playwright's sync API runs an event loop in this thread
)


@pytest.fixture
def page():  # type: ignore[no-untyped-def]
    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: run scripts/bootstrap --test (installs Debian's chromium)"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(20_000)
        yield page
        browser.close()


# Arbiters only is the default: its pages carry the privacy headers, under
# which a browser's forms must still pass Django's CSRF origin check.
@pytest.mark.parametrize("visibility", ["arbiter", "unlisted", "public"])
def test_an_arbiter_uploads_confirms_publishes_corrects_and_the_member_page_shows_it(
    live_server, transactional_db, page, tmp_path: Path, visibility: str
) -> None:  # type: ignore[no-untyped-def]
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility=visibility)
    publish_typed(
        club,
        "1, Anna Smith, Bob Jones, 1-0\n2, Bob Jones, Anna Smith, 1/2-1/2\n",
        "January",
        dt.date(2024, 1, 9),
    )
    make_arbiter(club, "arbiter")
    trf = tmp_path / "february.trf"
    out = io.StringIO()
    write_trf(
        parse_typed(
            "1, A. Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 0-1\n"
            "2, Dana White, A. Smith, 0-1\n2, Bob Jones, Carl Berg, 1/2-1/2\n",
            name="February evening",
            date=dt.date(2024, 2, 6),
        ),
        out,
    )
    trf.write_text(out.getvalue())

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/c/riverside/")

    page.goto(f"{live_server.url}/c/riverside/arbiter/upload/")
    page.set_input_files("#file", str(trf))
    page.click("text=Import as a draft")
    page.wait_for_selector("text=as a draft: 4 players, 4 games")

    page.click("text=Confirm all exact matches")
    page.wait_for_selector("text=linked 1 name that matched one member exactly")
    page.click("text=Confirm: Anna Smith")
    page.wait_for_selector("text='A. Smith' is Anna Smith")
    page.click("text=Make every remaining name a new member")
    page.wait_for_selector("text=made 2 new members")
    page.click("text=Publish and rate")
    page.wait_for_selector("text=published 'February evening'; rebuilt 1 tournament")

    row = page.locator("tr", has_text="Dana White").filter(has_text="A. Smith")
    row.locator("select").select_option("1/2-1/2")
    row.locator("button", has_text="Correct").click()
    page.wait_for_selector(
        "text=round 2 Dana White - A. Smith: 0-1 -> 1/2-1/2; rebuilt 1 tournament"
    )

    anna = Member.objects.get(club=club, name="Anna Smith")
    rating = CurrentRating.objects.get(member=anna).rating
    page.goto(f"{live_server.url}/c/riverside/p/{anna.id}/")
    assert page.locator("main p strong").first.inner_text() == f"{rating:.0f}"
    chart = page.locator("svg.chart.wide-chart")
    assert chart.count() == 1 and chart.bounding_box()["width"] > 300
    assert "Rating history of Anna Smith" in chart.locator("title").text_content()
    assert page.locator("svg.wide-chart .provisional-label").text_content() == "provisional"
    assert page.locator("text=February evening").count() >= 1
