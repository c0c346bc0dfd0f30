"""The CPI page and the player card in Chromium at a phone's and a desktop's width: the document
is never wider than the viewport, and every chart label is at least 11 CSS px once the SVG is
scaled to the screen (its font size in SVG units times the SVG's scale on screen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubrating.club.store.models import Club, Member
from clubrating.club.services.cpi_weights import set_cpi_weights
from tests.cpi.coach_games import publish_analysed

from .test_browser import page  # noqa: F401  (the Chromium fixture)
from .test_cpi_page_reads import long_game
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser
LONG = "Maximiliana Konstantinopolitanskaya-Wolkenstein"  # a name that does not wrap
MIN_CSS_PX = 11  # the smallest chart text we accept on a phone (WCAG has no minimum; 11 px is ours)

# Each chart's <text>: its font size on screen, the label, whether it is shown (display:none on
# a phone for the long factor labels' tspans, which are not <text> elements themselves).
CHART_TEXT = """() => [...document.querySelectorAll('svg.chart text')].map(t => {
  const svg = t.ownerSVGElement;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const size = parseFloat(getComputedStyle(t).fontSize) * scale;
  return [t.closest('svg').classList[1], t.textContent, Math.round(size * 100) / 100];
})"""
DAY_LABELS = """() => [...document.querySelectorAll('svg.cpi-line text[text-anchor="middle"]')]
  .map(t => { const r = t.getBoundingClientRect(); return [r.left, r.right]; })"""


@pytest.mark.parametrize("width", [375, 1280])
def test_the_cpi_page_and_the_card_fit_the_viewport_with_chart_text_of_11_px(
    live_server, transactional_db, page, tmp_path: Path, width: int
) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    set_cpi_weights(club, {}, who="test", preset="fide-classical")
    publish_analysed(
        club, 12, white=LONG, black="Ben Cole", per_evening=3, who="test", facts=long_game
    )
    subject = Member.objects.get(club=club, name=LONG)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/c/riverside/p/{subject.id}/cpi/")
    page.wait_for_selector("#cpi-headline")
    assert "Plays like" in page.inner_text("#cpi-headline")
    page.screenshot(path=str(tmp_path / f"cpi-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    sizes = page.evaluate(CHART_TEXT)
    assert {chart for chart, _, _ in sizes} == {"cpi-line", "factor-bars", "delta-bars"}
    small = [(chart, text, size) for chart, text, size in sizes if size < MIN_CSS_PX]
    assert not small, small
    charts = page.evaluate(
        "[...document.querySelectorAll('svg.chart')].map(s => s.getBoundingClientRect().right)"
    )
    assert max(charts) <= width  # each chart within the screen, not scrolled sideways
    days = page.evaluate(DAY_LABELS)
    assert len(days) >= 2 and all(
        a[1] <= b[0] for a, b in zip(days, days[1:])
    )  # no two dates overlap
    page.goto(f"{live_server.url}/c/riverside/p/{subject.id}/")
    page.wait_for_selector("text=Head-to-head")
    assert page.inner_text("#cpi").startswith("Plays like")
    page.screenshot(path=str(tmp_path / f"card-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
