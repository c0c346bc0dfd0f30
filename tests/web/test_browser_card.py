"""The player card in Chromium at a phone's and a desktop's width: the document is never
wider than the viewport (the long tables scroll inside their own box)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from clubrating.club.store.models import Club, Member

from .conftest import publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser
LONG = "Maximiliana Konstantinopolitanskaya-Wolkenstein"  # a name that does not wrap


@pytest.mark.parametrize("width", [375, 1280])
def test_the_card_fits_the_viewport(
    live_server,
    transactional_db,
    page,
    tmp_path: Path,  # noqa: F811
    width: int,
) -> None:  # type: ignore[no-untyped-def]
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    for week in range(3):
        publish_typed(
            club,
            f"1, Anna Smith, {LONG}, 1-0\n2, Bob Jones, Anna Smith, 1/2-1/2\n"
            f"3, Anna Smith, Carl Berg, +-\n3, {LONG}, Bob Jones, 0-1",
            f"Tuesday Rapid of the week number {week}",
            dt.date(2024, 1, 9) + dt.timedelta(days=7 * week),
        )
    anna = Member.objects.get(club=club, name="Anna Smith")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/c/riverside/p/{anna.id}/")
    page.wait_for_selector("text=Head-to-head")
    assert page.locator("tr.event").count() == 3
    page.screenshot(path=str(tmp_path / f"card-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    page.locator('a[href^="?vs="]').first.click()  # head-to-head: the games between the two
    page.wait_for_selector("text=Games against")
