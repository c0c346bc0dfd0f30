"""Every public and arbiter page in Armenian, Russian and English at 360, 375, 768 and 1280 px in
Chromium, measured: nothing wider than its container, no cut text, no chart text under 11 CSS px.

One browser and one club for every page, width and language (the club: a Swiss of twenty players
and seven rounds with long Armenian and Russian names, a player with a rating chart and a CPI, an
analysed game, an evening being played with its moves links). The rule for what may scroll, and
how long the check takes: docs/website.md#the-widths-check. With CLUBRATING_SCREENSHOTS=DIR
(scripts/screenshots) the pages of DOCUMENTED are saved to DIR as PNGs for docs/website.md."""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Game, GameAnalysis, Member, Tournament
from clubrating.club.services.moves import attach_typed_moves
from clubrating.club.services.moves_links import issue_links
from clubrating.club.services.monthly_lists import publish_month
from clubrating.club.services.tournaments import correct_result
from tests.cpi.coach_games import build, publish_analysed

from .conftest import PASSWORD, make_arbiter, publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from .test_browser_phone import _round_robin
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser

WIDTHS = (360, 375, 768, 1280)
LANGUAGES = ("hy", "ru", "en")
HEIGHT = 800
# From this width on nothing scrolls sideways: a page has room for every table of a club.
NO_SCROLLING_FROM = 1280
SMALLEST_CHART_TEXT = 11  # CSS px, as drawn
# The headers of the tables made to fit a phone: the rating list, the game viewer's marked moves.
FITTING = "table.ratings th, table.marked th"
# The screenshots of docs/website.md: (page, language, width), the whole page.
DOCUMENTED = {
    (what, "hy", width)
    for what in ("tournament", "CPI", "game viewer", "phone")
    for width in (375, 1280)
}

PLAYERS = [
    "Константинопольская-Преображенская Александра",
    "Абдурахмангаджиев Магомедсалих",
    "Տեր-Պետրոսյան Հարություն",
    "Աբրահամյան Լիլիթ",
    "Գևորգյան Արամ",
    "Мкртчян Анаит",
    "Семёнов Иван",
    "Ёжиков Олег",
    "Maximiliana Konstantinopolitanskaya",
    "Anna Smith",
    "Մկրտչյան Անահիտ",
    "Ծատուրյան Վարդգես",
    "Hrant Abrahamyan",
    "Irina Petrosyan",
    "Петросян Тигран",
    "Ոսկանյան Գայանե",
    "Bob Jones",
    "Carl Berg",
    "Դանիելյան Էլինա",
    "Преображенский Вениамин",
]
SWISS_ROUNDS = 7
GAME = (
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Nc3 Nxe4 O-O Bxc3 d5 Bf6 Re1 Ne7 Rxe4 d6 "
    "Bg5 Bxg5 Nxg5 h6 Qe2 hxg5 Re1 Be6 dxe6 f6 Re3 c6 Rh3 Rxh3 gxh3 g6 Qf3 Qa5"
).split()
NOTES: dict[int, dict[str, Any]] = {
    9: {"best": [("O-O", 40), ("d3", 30)], "after": -10},
    24: {"best": [("O-O", 20), ("Kf8", 0)], "after": 150},
    31: {"best": [("Rh4", 300), ("Qd3", 280)], "after": 120},
    34: {"best": [("Kf8", -90), ("Qd7", -150)], "after": -380},
}


def _club() -> dict[str, str]:
    """The club and the paths of its pages, the arbiter's among them (keys starting "arbiter")."""
    club = create_club("Շախմատի ակումբ «Արարատ»", who="test", slug="ararat")
    set_privacy(club, who="test", visibility="public")
    Club.objects.filter(pk=club.pk).update(cpi_weights={"preset": "spec"})
    club.cpi_weights = {"preset": "spec"}
    publish_typed(club, _round_robin(PLAYERS[:6]), "Աշնանային արագ", dt.date(2025, 9, 2))
    autumn = publish_typed(club, _round_robin(PLAYERS[:10]), "Осенний блиц", dt.date(2025, 10, 7))
    rounds = _round_robin(PLAYERS).splitlines()[: SWISS_ROUNDS * len(PLAYERS) // 2]
    swiss = publish_typed(
        club,
        "\n".join(rounds),
        "Ակումբի առաջնություն արագ շախմատից 2025",
        dt.date(2025, 11, 4),
    )
    game = Game.objects.filter(tournament=swiss, round=SWISS_ROUNDS, played=True).first()
    assert game is not None
    attach_typed_moves(game, " ".join(GAME), who="test")
    GameAnalysis.objects.create(
        game=game,
        engine="Fake",
        engine_version="1",
        nodes=1000,
        multipv=3,
        facts=build(GAME, NOTES, result="1-0").to_dict(),
    )
    publish_analysed(club, 10, white=PLAYERS[11], black=PLAYERS[19], who="test")
    publish_month(club, dt.date(2025, 11, 1), who="test")
    publish_month(club, dt.date(2025, 12, 1), who="test")  # the changes since November's
    won = Game.objects.filter(tournament=autumn, played=True, white_points=2).first()
    assert won is not None
    correct_result(won, "0-1", who="test")  # December's page: who moved since its publication
    running = evening.start_evening(club, "Երեքշաբթի", dt.date.today(), 5, who="test")
    for name in PLAYERS[:8]:
        evening.register(running, name, who="test")
    evening.pair_next_round(running, who="test")
    link = issue_links(running, 1, who="test")[0]
    make_arbiter(club, "arbiter")
    ids = dict(Member.objects.filter(club=club).values_list("name", "id"))
    return _paths(club, swiss, running, game, ids, link.path)


def _paths(
    club: Club, swiss: Tournament, running: Tournament, game: Game, ids: dict[str, int], phone: str
) -> dict[str, str]:
    c, a = f"/c/{club.slug}/", f"/c/{club.slug}/arbiter/"
    t, r, g = swiss.id, running.id, game.id
    return {
        "site index": "/",
        "federation rating list": "/ratings/",
        "login": "/accounts/login/",
        "rating list": c,
        "tournaments": f"{c}t/",
        "monthly lists": f"{c}lists/",
        "monthly list": f"{c}lists/2025-12/",
        "tournament": f"{c}t/{t}/",
        "evening being played": f"{c}t/{r}/",
        "pairings to print": f"{c}t/{t}/print/pairings/",
        "names to print": f"{c}t/{t}/print/names/",
        "wall chart": f"{c}t/{t}/print/wallchart/",
        "player with a chart": f"{c}p/{ids[PLAYERS[0]]}/",
        "player with a CPI": f"{c}p/{ids[PLAYERS[11]]}/",
        "CPI": f"{c}p/{ids[PLAYERS[11]]}/cpi/",
        "game viewer": f"{c}g/{g}/",
        "game viewer at a move": f"{c}g/{g}/?ply=34",
        "phone": phone,
        "arbiter dashboard": a,
        "arbiter audit": f"{a}audit/",
        "arbiter upload": f"{a}upload/",
        "arbiter tournament": f"{a}t/{t}/",
        "arbiter moves": f"{a}t/{r}/moves/",
        "arbiter analysis": f"{a}t/{t}/analysis/",
        "arbiter slips": f"{a}t/{r}/slips/",
        "arbiter game": f"{a}g/{g}/",
        "arbiter members": f"{a}members/",
        "arbiter privacy": f"{a}privacy/",
        "arbiter settings": f"{a}settings/",
        "arbiter initial list": f"{a}initial-list/",
        "arbiter fair play": f"{a}fair-play/",
        "arbiter evenings": f"{a}evening/",
        "arbiter evening": f"{a}evening/{r}/",
        "arbiter round": f"{a}evening/{r}/round/",
    }


# What the check finds on the page shown, as one line each. The rule (docs/website.md):
# - an element that reaches out of its parent's content box, where no box between them scrolls;
# - a box whose text is wider than the box (text cells, captions and any element holding text of
#   its own), or whose content is cut (overflow hidden or clip);
# - a box that scrolls sideways where it may not: only a table's wrapper may, and only below
#   NO_SCROLLING_FROM; a chart never (it is drawn to the width it has);
# - the page wider than the window;
# - a column of a table made to fit a phone (FITTING) beyond the window's edge, scrolling or not;
# - an SVG text reaching out of its SVG (cut), or drawn under SMALLEST_CHART_TEXT px.
FINDINGS = """([noScrolling, smallest, fitting]) => {
  const out = [];
  const name = e => {
    const cls = (e.getAttribute('class') || '').trim().split(/\\s+/).filter(Boolean).join('.');
    const id = e.id ? '#' + e.id : '';
    return e.tagName.toLowerCase() + id + (cls ? '.' + cls : '');
  };
  const text = e => (e.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 50);
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const mayScroll = e => !noScrolling && e.classList.contains('scroll');
  const insideScrolling = e => {
    for (let up = e.parentElement; up; up = up.parentElement) if (scrolls(up)) return true;
    return false;
  };
  const ownText = e => Array.from(e.childNodes).some(
    n => n.nodeType === 3 && n.textContent.trim());
  const html = document.documentElement;
  if (html.scrollWidth > window.innerWidth) {
    out.push(`page: ${html.scrollWidth} px wide in a ${window.innerWidth} px window`);
  }
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg') || e.closest('head')) continue;
    const style = getComputedStyle(e);
    if (style.display === 'none' || ['absolute', 'fixed'].includes(style.position)) continue;
    if (e.getClientRects().length === 0) continue;
    const box = e.getBoundingClientRect();
    const up = e.parentElement;
    if (up && up !== document.documentElement && !insideScrolling(e)) {
      const u = up.getBoundingClientRect(), us = getComputedStyle(up);
      const left = u.left + parseFloat(us.borderLeftWidth) + parseFloat(us.paddingLeft);
      const right = u.right - parseFloat(us.borderRightWidth) - parseFloat(us.paddingRight);
      if (box.width > 0 && (box.right > right + 1 || box.left < left - 1)
          && style.display !== 'inline') {
        out.push(`${name(e)} ${Math.round(box.width)} px in ${name(up)} of `
                 + `${Math.round(right - left)} px: ${text(e)}`);
      }
    }
    if (e.clientWidth === 0 || e.scrollWidth <= e.clientWidth + 1) continue;
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName)) continue;  // a field scrolls its text
    const wide = `${e.scrollWidth} > ${e.clientWidth}`;
    if (scrolls(e)) {
      if (!mayScroll(e)) out.push(`${name(e)} scrolls, ${wide}: ${text(e)}`);
    } else if (['hidden', 'clip'].includes(style.overflowX)) {
      out.push(`${name(e)} cut, ${wide}: ${text(e)}`);
    } else if (['TD', 'TH', 'CAPTION'].includes(e.tagName) || ownText(e)) {
      if (!insideScrolling(e) || ['TD', 'TH', 'CAPTION'].includes(e.tagName)) {
        out.push(`${name(e)} text cut, ${wide}: ${text(e)}`);
      }
    }
  }
  for (const c of document.querySelectorAll(fitting)) {
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.right > window.innerWidth + 1) {
      out.push(`${name(c)} off screen (${Math.round(r.right)} px): ${text(c)}`);
    }
  }
  for (const t of document.querySelectorAll('svg text')) {
    const svg = t.ownerSVGElement, m = t.getScreenCTM();
    if (!svg || !m || t.getClientRects().length === 0) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (size < smallest) {
      out.push(`svg text ${size.toFixed(1)} px: ${text(t)}`);
    }
    const s = svg.getBoundingClientRect(), b = t.getBoundingClientRect();
    if (b.left < s.left - 1 || b.right > s.right + 1) {
      out.push(`svg text out of its chart (${Math.round(b.left - s.left)}..`
               + `${Math.round(b.right - s.left)} of ${Math.round(s.width)} px): ${text(t)}`);
    }
  }
  return out;
}"""


def findings(page: Any, width: int) -> list[str]:  # noqa: F811
    limits = [width >= NO_SCROLLING_FROM, SMALLEST_CHART_TEXT, FITTING]
    return list(page.evaluate(FINDINGS, limits))


def _log_in(page: Any, url: str) -> None:  # noqa: F811
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/c/ararat/")


def test_every_page_fits_every_width_in_every_language(
    live_server: Any,
    transactional_db: None,
    page: Any,  # noqa: F811
) -> None:
    paths = _club()
    url = live_server.url
    _log_in(page, url)
    keep = os.environ.get("CLUBRATING_SCREENSHOTS")
    started = time.monotonic()
    found: list[str] = []
    for language in LANGUAGES:
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url}]
        )
        for what, path in paths.items():  # each page loaded once, then measured at each width
            page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
            response = page.goto(f"{url}{path}")
            assert response.status == 200, (what, path, response.status)
            assert page.evaluate("document.documentElement.lang") == language, what
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": HEIGHT})
                if keep and (what, language, width) in DOCUMENTED:
                    shot = f"{what.replace(' ', '-')}-{language}-{width}.png"
                    page.screenshot(path=str(Path(keep) / shot), full_page=True)
                found.extend(f"{what} [{language} {width}]: {f}" for f in findings(page, width))
    seconds = time.monotonic() - started
    print(
        f"{len(paths)} pages x {len(WIDTHS)} widths x {len(LANGUAGES)} languages: {seconds:.0f} s"
    )
    assert found == [], f"{len(found)} findings:\n" + "\n".join(found)


SYNTHETIC = """<html lang="hy"><body style="margin:0">
<div id="box" style="width:100px"><div id="wide" style="width:150px">x</div></div>
<table style="width:80px;table-layout:fixed">
<caption id="cap" style="width:80px">Մրցաշարայինաղյուսակ</caption><tr><td>1</td></tr></table>
<div class="fit" style="overflow-x:auto;width:340px"><table class="ratings" style="width:500px">
<tr><th>Անուն</th><th id="off">Վարկանիշ</th></tr></table></div>
<div class="scroll" style="overflow-x:auto;width:100px">
<table style="width:300px"><tr><td>a</td></tr></table></div>
<svg viewBox="0 0 640 100" style="width:320px"><text x="10" y="50" font-size="11">small</text>
<text x="600" y="80" font-size="30">out of the chart</text></svg>
</body></html>"""


def test_the_check_finds_each_kind_and_lets_a_scroll_wrapper_scroll(
    page: Any,  # noqa: F811
) -> None:
    page.set_viewport_size({"width": 360, "height": HEIGHT})
    page.set_content(SYNTHETIC)
    found = findings(page, 360)
    kinds = {
        "div#wide 150 px in div#box of 100 px",
        "caption#cap text cut",
        "div.fit scrolls",
        "svg text 5.5 px: small",
        "svg text out of its chart",
        "th#off off screen",
    }
    assert {k for k in kinds if any(f.startswith(k) for f in found)} == kinds, found
    assert not any(f.startswith("div.scroll") for f in found), found  # a table's wrapper: allowed
    page.set_viewport_size({"width": 1280, "height": HEIGHT})
    assert any(f.startswith("div.scroll scrolls") for f in findings(page, 1280))  # not at 1280
