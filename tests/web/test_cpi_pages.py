"""The player's CPI dashboard and the CPI block of the player page (spec C6):
SVG charts and boards without JavaScript, the player page's privacy rules, fixed queries."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubrating.club.store.models import Club, Member
from clubrating.web.cpi_charts import PHONE_FONT, cpi_line, delta_bars, factor_bars
from tests.cpi.coach_games import publish_analysed

from .conftest import WHO, make_arbiter, member, publish_typed
from .rendered import flat
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import merge, set_member_flags


def analysed(club: Club, count: int = 5) -> Member:
    publish_analysed(club, count, who=WHO)
    return member(club, "Anna Berg")


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def test_the_dashboard_draws_the_charts_and_the_exercises_as_svg(club) -> None:
    anna = analysed(club)
    html = page(Client(), f"/c/riverside/p/{anna.id}/cpi/")
    for chart in ("cpi-line", "factor-bars", "delta-bars"):
        assert re.search(rf'<svg [^>]*class="chart {chart}"', html), chart
    assert "<script" not in html
    assert html.count('viewBox="0 0 390 390"') == 5  # a python-chess board per exercise
    assert html.count("<details><summary>Solution</summary>") == 5
    assert "Find the best move for White." in html and "Hint: the move played hung 300 cp" in html
    assert "Weakest factor: <strong>H</strong>" in html
    assert 'name="robots"' not in html  # a public club is indexable


def test_an_unavailable_factor_is_shown_as_not_available_never_as_zero(club) -> None:
    anna = analysed(club)
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    row = re.search(r'<tr id="factor-T">.*?</tr>', html)
    assert row is not None and row.group(0).count("not available") == 2 and "0%" not in row.group(0)
    assert re.search(r'<text class="axis na"[^>]*>not available</text>', html)


def test_the_player_page_shows_the_cpi_and_links_to_the_dashboard(club) -> None:
    anna = analysed(club, 3)
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/"))
    block = re.search(r'<p id="cpi">(.*?)</p>', html, re.S)
    assert block is not None
    assert "after 3 analysed games; weakest factor H" in block.group(1)
    assert f'href="/c/riverside/p/{anna.id}/cpi/"' in block.group(1)


def test_nothing_analysed_gives_a_page_that_says_so(club, evening) -> None:
    anna = member(club, "Anna Smith")
    html = page(Client(), f"/c/riverside/p/{anna.id}/cpi/")
    assert "No analysed game yet" in html and "<svg" not in html
    assert "Not analysed yet." in page(Client(), f"/c/riverside/p/{anna.id}/")


def test_an_arbiter_only_club_answers_404_to_everyone_but_its_arbiter(
    club, other_arbiter_client
) -> None:
    anna = analysed(club)
    set_privacy(club, who=WHO, visibility="arbiter")
    club.refresh_from_db()
    for url in (f"/c/riverside/p/{anna.id}/cpi/", f"/u/{club.token}/p/{anna.id}/cpi/"):
        page(Client(), url, 404)
        page(other_arbiter_client, url, 404)
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "arb"))
    response = arbiter.get(f"/c/riverside/p/{anna.id}/cpi/")
    assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex, nofollow"


def test_an_unlisted_club_answers_under_its_token_only_and_never_for_indexing(club) -> None:
    anna = analysed(club)
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    page(Client(), f"/c/riverside/p/{anna.id}/cpi/", 404)
    response = Client().get(f"/u/{club.token}/p/{anna.id}/cpi/")
    assert response.status_code == 200
    assert (
        response["X-Robots-Tag"] == "noindex, nofollow"
        and response["Referrer-Policy"] == "same-origin"
    )
    html = response.content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert f'href="/u/{club.token}/p/{anna.id}/"' in html and "/c/riverside/" not in html


def test_a_junior_without_consent_is_shown_by_initials_on_every_dashboard(club) -> None:
    anna = analysed(club)
    ben = member(club, "Ben Cole")
    set_member_flags(ben, who=WHO, junior=True)
    html = page(Client(), f"/c/riverside/p/{anna.id}/cpi/")
    assert "Ben Cole" not in html and "B. C." in html
    own = page(Client(), f"/c/riverside/p/{ben.id}/cpi/")
    assert "Ben Cole" not in own and "Chess Performance Index of B. C." in own
    set_member_flags(ben, who=WHO, consent=True)
    assert "Ben Cole" in page(Client(), f"/c/riverside/p/{anna.id}/cpi/")


def test_a_merged_name_redirects_to_the_members_dashboard_and_a_stranger_is_404(club) -> None:
    anna = analysed(club, 2)
    publish_typed(club, "1, A. Berg, Ben Cole, 1-0", "Late evening", dt.date(2026, 6, 2))
    alias = member(club, "A. Berg")
    merge(alias, anna, who=WHO)
    response = Client().get(f"/c/riverside/p/{alias.id}/cpi/")
    assert response.status_code == 302 and response["Location"] == f"/c/riverside/p/{anna.id}/cpi/"
    page(Client(), "/c/riverside/p/999999/cpi/", 404)


@pytest.mark.parametrize("as_arbiter", [False, True])
def test_the_dashboard_costs_the_same_queries_for_five_games_or_thirty(
    db: None, as_arbiter: bool
) -> None:
    counts = []
    for games in (5, 30):
        club = create_club(f"Club {games}", who=WHO, slug=f"games{games}")
        set_privacy(club, who=WHO, visibility="public")
        Club.objects.filter(pk=club.pk).update(
            cpi_weights={"preset": "spec"}
        )  # every 10-ply game scored
        club.cpi_weights = {"preset": "spec"}
        anna = analysed(club, games)
        client = Client()
        if as_arbiter:
            client.force_login(make_arbiter(club, f"arb{games}"))
        counts.append([])
        for url in (f"/c/{club.slug}/p/{anna.id}/cpi/", f"/c/{club.slug}/p/{anna.id}/"):
            with CaptureQueriesContext(connection) as context:
                html = page(client, url)
            assert f"after {games} analysed games" in html
            counts[-1].append(len(context.captured_queries))
    assert (
        counts[0] == counts[1] and max(counts[1]) <= 18
    )  # the player page: 14 + the card's 4 (club/derived/card.py)


# --- the charts alone
# ------------------------------------------------------------------------------


def test_the_cpi_chart_says_in_words_what_it_draws_and_nothing_without_games() -> None:
    svg = cpi_line(
        [(dt.date(2026, 1, 6), 40.0, None), (dt.date(2026, 1, 13), 95.5, None)], title="CPI of A"
    )
    assert '<title id="cpi-line-title">CPI of A</title>' in svg
    assert (
        "CPI after each of 2 analysed games: 40 after the first (2026-01-06), 96 after the last"
        in svg
    )
    assert svg.count('<circle class="dot"') == 2 and cpi_line([], title="x") == ""
    assert "band" not in svg


def test_the_cpi_chart_draws_the_interval_as_a_band_around_the_line() -> None:
    svg = cpi_line(
        [(dt.date(2026, 1, 6), 1500.0, 200.0), (dt.date(2026, 1, 6), 1550.0, 150.0)],
        title="Plays like A",
        measure="Plays like",
    )
    band = re.search(r'<polygon class="band" points="([^"]+)"', svg)
    assert (
        band is not None and len(band.group(1).split()) == 4
    )  # upper and lower edge, two games each
    assert "one standard deviation either side" in svg
    assert re.findall(r'text-anchor="middle">([^<]+)</text>', svg) == [
        "6 Jan 2026"
    ]  # one day, one label


@pytest.mark.parametrize(
    ("dates", "labels"),
    [
        ([dt.date(2026, 1, 6)] * 5 + [dt.date(2026, 1, 13)] * 5, ["6 Jan 2026", "13 Jan"]),
        (
            [dt.date(2025, 12, 30), dt.date(2026, 1, 6)],
            ["30 Dec 2025", "6 Jan 2026"],
        ),  # the year when it changes
        ([dt.date(2026, 1, d) for d in range(1, 31)], None),  # too many to write each
    ],
)
def test_the_chart_writes_each_days_date_once_and_never_two_labels_on_top_of_each_other(
    dates: list[dt.date], labels: list[str] | None
) -> None:
    svg = cpi_line([(day, 1500.0 + i, None) for i, day in enumerate(dates)], title="x")
    found = re.findall(
        r'<text class="axis" x="([\d.]+)" y="[\d.]+" text-anchor="middle">([^<]+)</text>', svg
    )
    texts = [text for _, text in found]
    assert len(texts) == len(set(texts))
    if labels is not None:
        assert texts == labels
    else:
        assert 3 <= len(texts) < len(dates)
    at = [float(x) for x, _ in found]
    assert all(
        b - a >= 0.6 * PHONE_FONT * (len(s) + len(t)) / 2
        for (a, s), (b, t) in zip(zip(at, texts), zip(at[1:], texts[1:]))
    )


def test_the_delta_chart_draws_gains_up_and_losses_down() -> None:
    svg = delta_bars([("g1", 30.0), ("g2", -12.5)], title="ΔCPI")
    assert svg.count('class="pos-bar"') == 1 and svg.count('class="neg-bar"') == 1
    assert "<title>g2: -12.5</title>" in svg and delta_bars([], title="x") == ""


def test_the_factor_chart_marks_the_clubs_average_and_writes_counts_in_words() -> None:
    averages = {
        name: {"average": 0.5, "club_average": 0.75, "label": name}
        for name in ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")
    }
    averages["M3"] = {"average": None, "club_average": None, "label": "mates in 3 found"}
    averages["H"] = {"average": 0.25, "club_average": 0.5, "label": "hangs"}
    averages["Br"] = {"average": None, "club_average": None, "label": "brilliancies"}
    svg = factor_bars(averages, title="Factors")
    assert svg.count('class="bar"') == 8 and svg.count('class="club-tick"') == 8
    assert "not available" in svg and "0.25 a game (club 0.50)" in svg
