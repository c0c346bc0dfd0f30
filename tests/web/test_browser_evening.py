"""A whole five-round evening run in a real browser: Playwright driving Debian's Chromium
against the live server. The arbiter registers seven players (one name confirmed as an existing
member, one new member), pairs five rounds, enters every result on the phone page at 375 px, lets a
player withdraw, reads the standings with their tie-breaks, publishes, sees the ratings change on
the rating list and downloads the TRF. Chromium missing is a failure, not a skip."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import Club, CurrentRating, EveningBoard, Member, Tournament
from clubrating.formats.trf import read_trf

from .conftest import PASSWORD, make_arbiter, publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club

pytestmark = pytest.mark.browser

EARLIER = """
1, Anna Smith, Bob Jones, 1-0
1, Carl Berg, Dana White, 1-0
1, Erik Lund, Fay Wong, 1/2-1/2
2, Bob Jones, Carl Berg, 0-1
2, Dana White, Erik Lund, 1-0
2, Fay Wong, Anna Smith, 0-1
"""
TONIGHT = [
    "Anna Smith",
    "Bob Jones",
    "Carl Berg",
    "Dana White",
    "Erik Lund",
    "F. Wong",
    "Gina Hart",
]
PHONE = {"width": 375, "height": 812}  # the narrowest phone the page is made for


def _log_in(page: Any, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/c/riverside/")


def _register_and_confirm(page: Any) -> None:
    for name in TONIGHT:
        page.fill("#reg-name", name)
        page.click("button:has-text('Register')")
        page.wait_for_selector(f"text=registered '{name}'")
        if (
            name in EARLIER
        ):  # a member's own name links at once; any other name waits for the arbiter
            page.wait_for_selector(f"text=registered '{name}': member {name} (#")
    page.click("text=Confirm all exact matches")
    page.wait_for_selector("text=linked 0 names that matched one member exactly")
    page.click("text=Confirm: Fay Wong")  # a proposal, confirmed by the arbiter (R10)
    page.wait_for_selector("text='F. Wong' is Fay Wong")
    page.click("text=New member: Gina Hart")  # a new name becomes a member when told so
    page.wait_for_selector("text='Gina Hart' is Gina Hart")


def _enter_results(page: Any, rnd: int, back: str) -> None:
    """Every board of the round from the phone page, each by one tap; one result corrected."""
    page.click("text=Enter the results (phone page)")
    page.wait_for_selector("ol.boards li[id^=board-]")  # the phone page loaded, not the one it left
    page.set_viewport_size(PHONE)
    assert (
        page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    )  # no sideways scrolling
    boards = page.locator("ol.boards li[id^=board-]").count()
    for board in range(1, boards + 1):
        button = page.get_by_label(f"Board {board}: {['1-0', '0-1', '1/2-1/2'][(board + rnd) % 3]}")
        assert button.bounding_box()["height"] >= 44  # a thumb's target (Apple HIG: 44 pt)
        button.click()
        page.wait_for_selector(f"#board-{board} button.chosen")
    if rnd == 1:
        page.get_by_label("Board 1: 0-1").click()  # board 1 was 1/2-1/2: corrected before round 2
        page.wait_for_selector("text=1/2-1/2 -> 0-1")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(back)


def test_an_arbiter_runs_a_whole_five_round_evening_in_the_browser(
    live_server: Any, transactional_db: None, page: Any, tmp_path: Path
) -> None:  # noqa: F811
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    publish_typed(club, EARLIER, "January", dt.date(2024, 1, 9))
    before = {r.member.name: r.rating for r in CurrentRating.objects.filter(member__club=club)}
    make_arbiter(club, "arbiter")
    url = live_server.url
    _log_in(page, url)

    page.goto(f"{url}/c/riverside/arbiter/")
    page.click("text=Tonight's evening")
    page.fill("#ev-name", "Tuesday Swiss")
    page.click("button:has-text('Start the evening')")
    page.wait_for_selector("text=started 'Tuesday Swiss'")
    _register_and_confirm(page)

    t = Tournament.objects.get(club=club, name="Tuesday Swiss")
    for rnd in range(1, 6):
        page.click(f"text=Pair round {rnd}")
        page.wait_for_selector(f"text=round {rnd} paired: 3 boards")
        _enter_results(page, rnd, f"{url}/c/riverside/arbiter/evening/{t.id}/")
        if rnd == 2:
            page.click("text=Withdraw Gina Hart")
            page.wait_for_selector("text=Gina Hart withdrew: not paired from round 3 on")
    gina = t.entries.get(name="Gina Hart")
    assert not EveningBoard.objects.filter(tournament=t, round__gte=3, white=gina).exists()
    assert not EveningBoard.objects.filter(tournament=t, round__gte=3, black=gina).exists()
    met = [frozenset((b.white_id, b.black_id)) for b in EveningBoard.objects.filter(tournament=t)]
    assert len(met) == len(set(met))  # nobody met twice

    _check_standings(page, t)
    _publish_and_see_the_ratings(page, url, club, before)
    _download_the_trf(page, url, t, tmp_path)


def _check_standings(page: Any, t: Tournament) -> None:
    """The page shows what the services computed: place, name, points and each tie-break."""
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 7
    headers = page.locator("#standings thead th").all_inner_texts()
    assert headers[3:] == ["BH-C1", "BH", "SB", "PS"]
    for (row, entry), shown in zip(evening.standings_of(t), rows.all()):
        cells = shown.locator("td").all_inner_texts()
        assert cells[1] == entry.name and cells[2] == f"{row.points / 2:.1f}"
        assert cells[3:] == [f"{v:g}" for v in row.tiebreaks]


def _publish_and_see_the_ratings(page: Any, url: str, club: Club, before: dict[str, float]) -> None:
    page.click("text=Publish and rate the evening")
    page.wait_for_selector("text=published 'Tuesday Swiss'")
    page.goto(f"{url}/c/riverside/")
    after = {r.member.name: r.rating for r in CurrentRating.objects.filter(member__club=club)}
    changed = [name for name in before if after[name] != before[name]]
    assert "Gina Hart" in after and len(changed) >= 5, (
        changed
    )  # everyone played at least three rated games
    anna_row = page.locator("tr", has_text="Anna Smith")
    assert f"{after['Anna Smith']:.0f}" in anna_row.inner_text()
    assert page.locator("text=Gina Hart").count() >= 1


def _download_the_trf(page: Any, url: str, t: Tournament, tmp_path: Path) -> None:
    page.goto(f"{url}/c/riverside/arbiter/evening/{t.id}/")
    with page.expect_download() as download:
        page.click("a:text-is('TRF')")
    trf = tmp_path / "evening.trf"
    download.value.save_as(trf)
    with trf.open(encoding="utf-8") as handle:
        record = read_trf(handle, str(trf))
    assert len(record.players) == 7 and record.rounds == 5
    assert {b.kind.value for b in record.byes} >= {"U"}
    gina = next(p.number for p in record.players if p.name == "Gina Hart")
    assert not [
        p for p in record.pairings if p.round >= 3 and gina in (p.white, p.black)
    ]  # withdrawn
    assert Member.objects.filter(club=t.club, name="Gina Hart").count() == 1
