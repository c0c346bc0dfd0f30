"""The pages in Armenian and Russian in Chromium, 375 and 1280 px wide: the rating list, a player's
page, the CPI dashboard and a board's moves link on a phone. Nothing is wider than the window, no
element's text sticks out of its box (a wide table scrolls inside its wrapper, as the site designs
it), and Armenian letters are drawn by a font that has them. Each page is saved as a PNG; with
CLUBRATING_SCREENSHOTS=DIR (scripts/screenshots) four of them go to DIR for docs/website.md."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Member
from clubrating.club.services.moves_links import issue_links
from tests.cpi.coach_games import publish_analysed

from .conftest import publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from .test_browser_phone import _round_robin
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser

WIDTHS = {375: 812, 1280: 900}  # width: height of the window
LANGUAGES = ("hy", "ru")
# Long words of both languages, as the lists and tables must hold them: a name of two words
# wider than a phone's name column.
PLAYERS = [
    "Константинопольская-Преображенская Александра",
    "Абдурахмангаджиев Магомедсалих",
    "Тер-Петросян Арутюн",
    "Семёнов Иван",
    "Ёжиков Олег",
    "Աբրահամյան Լիլիթ",
    "Գևորգյան Արամ",
    "Տեր-Պետրոսյան Հարություն",
    "Մկրտչյան Անահիտ",
]
CPI_PLAYER, CPI_OPPONENT = "Ծատուրյան Վարդգես", "Преображенский Вениамин"
# The four PNGs for docs/screenshots/: (page, language, width).
DOCUMENTED = {
    ("rating list", "hy", 375),
    ("a player", "ru", 375),
    ("CPI dashboard", "ru", 1280),
    ("moves link", "hy", 375),
}

# Elements whose content is wider than their box and shows (overflow visible): text that sticks
# out. Boxes inside a wrapper that scrolls are the site's wide tables, meant to scroll.
STICKING_OUT = """() => {
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg') || e.clientWidth === 0) continue;
    const style = getComputedStyle(e);
    if (style.overflowX !== 'visible' || e.scrollWidth <= e.clientWidth + 1) continue;
    let up = e.parentElement, scrolls = false;
    for (; up; up = up.parentElement) {
      const o = getComputedStyle(up).overflowX;
      if (o === 'auto' || o === 'scroll') { scrolls = true; break; }
    }
    if (!scrolls) out.push(`${e.tagName.toLowerCase()}.${e.className}: `
                           + `${e.scrollWidth} > ${e.clientWidth}: `
                           + (e.textContent || '').trim().slice(0, 60));
  }
  return out;
}"""
# The tables made to fit a phone (the rating list hides its last column there) whose wrapper
# scrolls all the same: a long name pushing the rating out of sight.
FIT_SCROLLING = """() => Array.from(document.querySelectorAll('.fit > table.ratings'))
  .filter(t => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1)
  .map(t => `${t.parentElement.scrollWidth} > ${t.parentElement.clientWidth}`)"""
# The drawn widths of Armenian letters in the page's own font: a font with Armenian glyphs gives
# them different widths; without one each is the same missing-glyph box, as wide as U+0530 (no
# character: always that box).
LETTER_WIDTHS = """(letters) => letters.map(c => {
  const s = document.createElement('span');
  s.textContent = c.repeat(10);
  s.style.cssText = 'position:absolute;white-space:pre;visibility:hidden';
  document.body.appendChild(s);
  const w = s.getBoundingClientRect().width;
  s.remove();
  return w;
})"""
ARMENIAN = ["Ա", "Բ", "Մ", "Ի", "Ֆ", "ա", "ի", "մ", "ֆ", "ւ"]


def _club() -> dict[str, str]:
    """A public club: a round robin of the long names, a player analysed for the CPI dashboard and
    an evening being played with its moves links; the paths of the pages to look at."""
    club = create_club("Շախմատի ակումբ «Արարատ»", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    Club.objects.filter(pk=club.pk).update(cpi_weights={"preset": "spec"})
    club.cpi_weights = {"preset": "spec"}
    publish_typed(
        club, _round_robin(PLAYERS), "Первенство клуба по быстрым шахматам", dt.date(2025, 10, 1)
    )
    publish_analysed(club, 5, white=CPI_PLAYER, black=CPI_OPPONENT, who="test")
    running = evening.start_evening(club, "Երեքշաբթի", dt.date.today(), 5, who="test")
    for name in PLAYERS[:6]:
        evening.register(running, name, who="test")
    evening.pair_next_round(running, who="test")
    link = issue_links(running, 1, who="test")[0]
    ids = dict(Member.objects.filter(club=club).values_list("name", "id"))
    c = "/c/riverside/"
    return {
        "rating list": c,
        "a player": f"{c}p/{ids[PLAYERS[0]]}/",
        "CPI dashboard": f"{c}p/{ids[CPI_PLAYER]}/cpi/",
        "moves link": link.path,
    }


def test_a_font_with_armenian_letters_is_installed() -> None:
    found = subprocess.run(
        ["fc-list", ":lang=hy", "family"], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip(), (
        "no font has Armenian letters (Debian: fonts-noto-core or fonts-dejavu-core)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_fit_and_draw_armenian_in_each_language_and_width(
    live_server: Any,
    transactional_db: None,
    page: Any,
    tmp_path: Path,  # noqa: F811
    language: str,
) -> None:
    paths = _club()
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    keep = os.environ.get("CLUBRATING_SCREENSHOTS")
    too_wide, sticking_out, no_font = {}, {}, {}
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        for what, path in paths.items():
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, (what, path, response.status)
            assert page.evaluate("document.documentElement.lang") == language, what
            where = f"{what} at {width} px"
            if page.evaluate("document.documentElement.scrollWidth") > page.evaluate(
                "window.innerWidth"
            ):
                too_wide[where] = page.evaluate("document.documentElement.scrollWidth")
            if found := page.evaluate(STICKING_OUT) + page.evaluate(FIT_SCROLLING):
                sticking_out[where] = found
            widths = page.evaluate(LETTER_WIDTHS, ARMENIAN + ["\u0530"])
            if len(set(widths[:-1])) < 3 or widths.count(widths[-1]) > 1:
                no_font[where] = widths
            name = f"{what.replace(' ', '-')}-{language}-{width}.png"
            page.screenshot(path=str(tmp_path / name))
            if keep and (what, language, width) in DOCUMENTED:
                page.screenshot(path=str(Path(keep) / name))
    assert not too_wide, f"wider than the window: {too_wide}"
    assert not sticking_out, f"text out of its box: {sticking_out}"
    assert not no_font, f"Armenian letters drawn as missing glyphs (widths): {no_font}"
    assert len(list(tmp_path.glob("*.png"))) == len(paths) * len(WIDTHS)


def test_the_checks_see_a_word_out_of_its_box_and_a_missing_glyph(page: Any) -> None:  # noqa: F811
    page.set_content(
        '<html lang="ru"><body><div '
        'style="width:100px">Абдурахмангаджиевмагомедсалих</div></body></html>'
    )
    found = page.evaluate(STICKING_OUT)
    assert len(found) == 1 and found[0].startswith("div.: ") and "> 100:" in found[0]
    widths = page.evaluate(LETTER_WIDTHS, ARMENIAN + ["\u0530", "\u0530"])
    assert (
        widths[-1] == widths[-2] and len(set(widths[:-2])) >= 3
    )  # the box is one width, the letters several
