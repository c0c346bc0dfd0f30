"""R16: a player of an event marked as having under-18 players is shown by initials, and
the initials follow the player wherever the club shows or exports them: a crawl of every
page, export and API document of a small club never finds the full name."""

from __future__ import annotations

import datetime as dt
import re
from collections import deque

import pytest
from django.test import Client

from clubrating.club.store.models import Club, Member, Tournament

from .conftest import WHO, member, publish_typed
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.members import set_member_flags

JUNIOR_CUP = """
1, Carl Berg, Lena Novak, 0-1
1, Anna Smith, Tom Baker, 1-0
2, Lena Novak, Anna Smith, 1/2-1/2
2, Tom Baker, Carl Berg, 0-1
"""
LATER = """
1, Carl Berg, Bob Jones, 1-0
1, Anna Smith, Lena Novak, 1-0
"""
_HREF = re.compile(r'href="([^"#?]+)"')


def crawl(client: Client, club: Club, base: str, api: str) -> dict[str, str]:
    """Every page and export reachable by links from the club page, the CPI page and the
    history of every member, and every API document: address -> text."""
    members = list(Member.objects.filter(club=club).values_list("id", flat=True))
    tournaments = list(Tournament.objects.filter(club=club).values_list("id", flat=True))
    start = [base, f"{base}ratings.csv", f"{base}ratings.json"]
    start += [
        f"{base}p/{m}/{page}"
        for m in members
        for page in ("", "history.csv", "history.json", "cpi/")
    ]
    start += [f"{api}ratings", f"{api}tournaments"] + [f"{api}players/{m}" for m in members]
    start += [f"{api}tournaments/{t}" for t in tournaments]
    seen: dict[str, str] = {}
    queue = deque(start)
    while queue:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url, follow=True)
        seen[url] = response.content.decode() if response.status_code == 200 else ""
        queue.extend(
            link
            for link in _HREF.findall(seen[url])
            if link.startswith(base) and "/arbiter/" not in link
        )
    return seen


@pytest.fixture
def junior_cup(club: Club, evening: Tournament) -> Tournament:
    """Carl (an adult member, not flagged junior) plays the Junior Cup with Anna and two
    children; Lena's junior flag was never set; then an ordinary evening follows."""
    cup = publish_typed(club, JUNIOR_CUP, "Junior Cup", dt.date(2024, 2, 3), juniors=True)
    set_member_flags(member(club, "Lena Novak"), who=WHO, junior=False)
    publish_typed(club, LATER, "Tuesday Rapid 2", dt.date(2024, 2, 6))
    return cup


@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_no_page_or_export_names_a_player_of_a_juniors_event_in_full(
    club: Club, junior_cup: Tournament, visibility: str
) -> None:
    set_privacy(club, who=WHO, visibility=visibility)
    club.refresh_from_db()
    base, api = (
        ("/c/riverside/", "/api/c/riverside/")
        if visibility == "public"
        else (f"/u/{club.token}/", f"/api/u/{club.token}/")
    )
    pages = crawl(Client(), club, base, api)
    assert len([u for u, text in pages.items() if text]) > 25  # the crawl reached the club
    assert (
        f"{base}t/{junior_cup.id}/games.pgn" in pages
        and f"{base}t/{junior_cup.id}/tournament.trf" in pages
    )
    for name in (
        "Carl Berg",
        "Lena Novak",
        "Tom Baker",
        "Berg",
        "Novak",
    ):  # whole words: "Sonneborn-Berger"
        assert [url for url, text in pages.items() if re.search(rf"\b{name}\b", text)] == [], name
    assert any(
        "Bob Jones" in text for text in pages.values()
    )  # players of no juniors event: in full
    assert any("C. B." in text for text in pages.values())


def test_recorded_consent_shows_the_full_name_again_and_arbiters_always_see_it(
    club: Club, junior_cup: Tournament, arbiter_client: Client
) -> None:
    carl = member(club, "Carl Berg")
    assert "Carl Berg" in arbiter_client.get(f"/c/riverside/p/{carl.id}/").content.decode()
    set_member_flags(carl, who=WHO, consent=True)
    pages = crawl(Client(), club, "/c/riverside/", "/api/c/riverside/")
    assert any("Carl Berg" in text for text in pages.values())
    assert not any("Lena Novak" in text for text in pages.values())
