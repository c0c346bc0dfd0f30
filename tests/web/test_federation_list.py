"""The federation-wide rating list (/ratings/): every public club's established players, a page
at a time by keyset. The oracle is each club's own list as its JSON export gives it (names as the
club shows them, provisional and inactive flags), merged and sorted here by rating then member
id; the pages walked by their "next" links must concatenate to exactly that."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubrating.club.store.models import Club, Member
from clubrating.web import federation

from .conftest import WHO, publish_typed
from .rendered import flat
from clubrating.club.services.clubs import create_club, set_privacy

# Anna, Bob, Carl and Dana play the same evening in three clubs: equal ratings across clubs
EVENING = """
1, Anna Smith, Bob Jones, 1-0
1, Carl Berg, Dana White, 1/2-1/2
2, Anna Smith, Carl Berg, 1/2-1/2
2, Bob Jones, Dana White, 1-0
"""
ROW = re.compile(r'<tr><td class="num">(\d+)</td><td><a href="(/c/[^/]+/)p/(\d+)/">([^<]*)</a>')


def new_club(name: str, slug: str, visibility: str, names: str = "full") -> Club:
    club = create_club(name, who=WHO, slug=slug)
    set_privacy(club, who=WHO, visibility=visibility, names=names)
    Club.objects.filter(pk=club.pk).update(provisional_games=2)
    club.refresh_from_db()
    return club


@pytest.fixture
def federation_clubs(db: None) -> dict[str, Club]:
    clubs = {
        "full": new_club("Riverside", "riverside", "public"),
        "initials": new_club("Hillside", "hillside", "public", names="initials"),
        "unlisted": new_club("Hidden", "hidden", "unlisted"),
        "arbiter": new_club("Private", "private", "arbiter"),
    }
    day = dt.date(2025, 1, 7)
    for club in clubs.values():
        publish_typed(club, EVENING, "Evening", day)
    # in the full-names club: an evening with under-18 players (their names become initials),
    # a player who then stops (inactive a year later), one with a single game (provisional)
    publish_typed(
        clubs["full"],
        "1, Erik Lund, Anna Smith, 1-0\n2, Erik Lund, Fay Moss, 0-1",
        "Juniors",
        day + dt.timedelta(days=7),
        juniors=True,
    )
    publish_typed(clubs["full"], "1, Gus Hale, Ivo Dane, 1-0", "Once", day + dt.timedelta(days=8))
    publish_typed(
        clubs["full"],
        "1, Bob Jones, Carl Berg, 1-0\n1, Anna Smith, Erik Lund, 1/2-1/2\n"
        "2, Carl Berg, Bob Jones, 1-0\n2, Erik Lund, Anna Smith, 0-1",
        "A year on",
        day + dt.timedelta(days=400),
    )
    return clubs


def oracle(client: Client, rating_list: str = "standard") -> list[tuple[int, str, str, int]]:
    """(member id, name, club address, rounded rating) of every established, active player of
    the public clubs, from each club's own ratings.json, sorted by rating then member id."""
    rows = []
    for club in Club.objects.filter(visibility="public"):
        document = client.get(f"/c/{club.slug}/ratings.json?list={rating_list}").json()
        rows += [
            (-p["rating"], p["member_id"], p["name"], f"/c/{club.slug}/")
            for p in document["players"]
            if not p["provisional"] and not p["inactive"]
        ]
    return [(m, name, base, round(-r)) for r, m, name, base in sorted(rows)]


def walk(client: Client, url: str) -> tuple[list[tuple[int, str, str, int]], int]:
    """Every row of the pages from ``url`` on, following "next"; and how many pages."""
    rows, pages = [], 0
    while url:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        pages += 1
        rows += [(int(m), name, base, int(r)) for r, base, m, name in ROW.findall(html)]
        found = re.search(r'href="(\?list=[^"]+&amp;after=[^"]+)" rel="next"', flat(html))
        url = f"/ratings/{found[1].replace('&amp;', '&')}" if found else ""
    return rows, pages


def test_the_pages_concatenate_to_every_public_clubs_list_sorted(
    federation_clubs: dict[str, Club], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(federation, "PAGE", 3)  # several pages, ties across a page's edge
    monkeypatch.setattr(federation, "BATCH", 2)  # several reads to fill a page
    client = Client()
    expected = oracle(client)
    rows, pages = walk(client, "/ratings/")
    assert rows == expected
    assert pages == -(-len(expected) // 3)
    ratings = [r[3] for r in expected]
    assert len(set(ratings)) < len(ratings)  # ties on rating, broken by member id
    hidden = {m.id for m in Member.objects.filter(club__visibility__in=["unlisted", "arbiter"])}
    assert hidden and not hidden & {r[0] for r in rows}


def test_names_inactive_and_provisional_as_the_clubs_show_them(
    federation_clubs: dict[str, Club],
) -> None:
    html = Client().get("/ratings/").content.decode()
    shown = {(base, name) for _, base, _, name in ROW.findall(html)}
    full, initials = "/c/riverside/", "/c/hillside/"
    assert (full, "Carl Berg") in shown and (initials, "C. B.") in shown
    assert (full, "A. S.") in shown  # played in the juniors' evening
    assert (full, "E. L.") in shown  # the junior himself
    assert not {name for _, name in shown} & {"Dana White", "Gus Hale", "Ivo Dane"}
    assert (initials, "D. W.") in shown  # inactive only in the club that played on


def test_every_list_and_an_empty_one(federation_clubs: dict[str, Club]) -> None:
    client = Client()
    for rating_list in ("standard", "rapid", "blitz"):
        response = client.get(f"/ratings/?list={rating_list}")
        assert response.status_code == 200
    empty = client.get("/ratings/?list=blitz").content.decode()
    assert (
        not ROW.findall(empty)
        and "No player on this list has a rating past the provisional games yet." in empty
    )
    last = oracle(client)[-1]
    past = client.get(f"/ratings/?after={last[3] - 1000}.0,{last[0]}").content.decode()
    assert not ROW.findall(past) and 'rel="next"' not in past


@pytest.mark.parametrize(
    "query",
    [
        "after=nan,1",
        "after=inf,1",
        "after=1e999,1",
        "after=1500.0",
        "after=1500.0,-1",
        "after=1500.0,99999999999999999999",
        "after=%27%20OR%201%3D1--,1",
        "after=",
        "list=bullet",
        "list=%3Cscript%3E",
        "list=standard&list=rapid&after=x",
    ],
)
def test_a_hostile_query_string_is_refused_in_one_line(
    federation_clubs: dict[str, Club], query: str
) -> None:
    response = Client().get(f"/ratings/?{query}")
    assert response.status_code == 400
    text = response.content.decode()
    why = re.search(r"</h1>\s*<p>([^\n<]*)</p>", text)  # error_page.html's one line
    assert why is not None and "Traceback" not in text
    assert why[1].startswith("The address names no ")


def test_queries_per_page_do_not_grow_with_the_page(
    federation_clubs: dict[str, Club], monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = []
    for size in (2, 8):
        monkeypatch.setattr(federation, "PAGE", size)
        cache.clear()  # each page as the first one read since the last change
        with CaptureQueriesContext(connection) as ctx:
            assert Client().get("/ratings/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 6


def test_the_clubs_index_links_to_it(federation_clubs: dict[str, Club]) -> None:
    assert 'href="/ratings/"' in Client().get("/").content.decode()


def test_a_new_evening_shows_at_once(federation_clubs: dict[str, Club]) -> None:
    """What the list keeps between pages (each club's first and latest day, who played with
    juniors) is read anew once any club's history changes: Dana, inactive after Hillside's
    evening a year on, is gone; Carl, in a juniors' evening, is named by initials."""
    client = Client()
    before = {(base, name) for _, base, _, name in ROW.findall(client.get("/ratings/").text)}
    assert ("/c/hillside/", "D. W.") in before
    publish_typed(
        federation_clubs["initials"],
        "1, Anna Smith, Bob Jones, 1-0\n2, Bob Jones, Carl Berg, 1-0",
        "A year on",
        dt.date(2026, 3, 1),
    )
    after = {(base, name) for _, base, _, name in ROW.findall(client.get("/ratings/?a=1").text)}
    assert ("/c/hillside/", "D. W.") not in after and ("/c/hillside/", "B. J.") in after
    assert ("/c/riverside/", "Carl Berg") in after
    publish_typed(
        federation_clubs["full"],
        "1, Carl Berg, Bob Jones, 1-0",
        "Juniors again",
        dt.date(2026, 3, 2),
        juniors=True,
    )  # Carl's name as initials at once: what the list keeps of the juniors' rule is read anew
    again = {(base, name) for _, base, _, name in ROW.findall(client.get("/ratings/?a=2").text)}
    assert ("/c/riverside/", "C. B.") in again and ("/c/riverside/", "Carl Berg") not in again
    assert oracle(client) == walk(client, "/ratings/")[0]
