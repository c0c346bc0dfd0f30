"""The index of a server with many clubs (a federation's): the public ones a page at a time,
in the name order of the page's language, found by name; never a club that is not public."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubrating.club.store.models import Club, Visibility
from clubrating.web.pages import CLUBS_PAGE

from .conftest import WHO
from .rendered import flat
from clubrating.club.services.clubs import create_club, set_privacy

CYRILLIC = ["Шахматный клуб Ёлки", "шахматы Самара", "Юность"]


@pytest.fixture
def many(db: None) -> list[str]:
    """2 ½ pages of public clubs, three of them Cyrillic, and one hidden club of each kind."""
    names = [
        f"Club {i:03d}" for i in range(2 * CLUBS_PAGE + CLUBS_PAGE // 2 - len(CYRILLIC))
    ] + CYRILLIC
    Club.objects.bulk_create(
        [
            Club(name=name, slug=f"c{i}", visibility=Visibility.PUBLIC)
            for i, name in enumerate(names)
        ]
    )
    for slug, visibility in (("hidden-a", "unlisted"), ("hidden-b", "arbiter")):
        set_privacy(
            create_club("Club hidden " + slug, who=WHO, slug=slug),
            who=WHO,
            visibility=visibility,
        )
    return names


def listed(html: str) -> list[str]:
    found = re.search(r'<ul id="clubs">(.*?)</ul>', html, re.S)
    return re.findall(r'<a href="/c/[^/]+/">([^<]+)</a>', found.group(1)) if found else []


def test_the_public_clubs_come_a_page_at_a_time_in_order(many: list[str]) -> None:
    client = Client()
    first = client.get("/").content.decode()
    assert listed(first) == sorted(many)[:CLUBS_PAGE]  # Latin first on an English page
    assert (
        "250 clubs; page 1 of 3." in first and 'rel="next"' in first and 'rel="prev"' not in first
    )
    last = client.get("/?page=3").content.decode()
    assert listed(last)[-3:] == ["Шахматный клуб Ёлки", "шахматы Самара", "Юность"]
    assert len(listed(last)) == CLUBS_PAGE // 2 and 'rel="next"' not in last
    assert listed(client.get("/?page=999").content.decode()) == listed(
        last
    )  # past the end: the last page
    assert listed(client.get("/?page=x").content.decode()) == listed(
        first
    )  # not a number: the first
    everyone = [
        name for page in (1, 2, 3) for name in listed(client.get(f"/?page={page}").content.decode())
    ]
    assert sorted(everyone) == sorted(many) and "hidden" not in " ".join(everyone)


def test_a_russian_page_lists_the_cyrillic_names_first(many: list[str]) -> None:
    russian = Client().get("/", headers={"accept-language": "ru"}).content.decode()
    assert listed(russian)[:3] == ["Шахматный клуб Ёлки", "шахматы Самара", "Юность"]
    assert "250 клубов; страница 1 из 3." in russian


def test_a_club_is_found_by_any_part_of_its_name_in_any_case(many: list[str]) -> None:
    client = Client()
    assert listed(client.get("/?q=ШАХМАТ").content.decode()) == [
        "Шахматный клуб Ёлки",
        "шахматы Самара",
    ]
    assert listed(client.get("/?q=елки").content.decode()) == ["Шахматный клуб Ёлки"]  # ё as е
    found = client.get("/?q=club 1").content.decode()
    assert (
        listed(found) == [f"Club {i:03d}" for i in range(100, 200)]
        and "100 clubs; page 1 of 1." in found
    )
    nothing = client.get("/?q=hidden").content.decode()  # never a club that is not public
    assert listed(nothing) == [] and "No club matches." in nothing and "/c/hidden-a/" not in nothing


def test_the_next_page_of_a_search_keeps_the_search(many: list[str]) -> None:
    html = Client().get("/?q=club").content.decode()
    assert '<a href="?q=club&amp;page=2" rel="next">' in flat(html) and 'value="club"' in html
    second = Client().get("/?q=club&page=2").content.decode()
    assert listed(second) == sorted(many)[CLUBS_PAGE : 2 * CLUBS_PAGE]


def test_a_few_clubs_need_no_search_box_and_one_opens_directly(db: None) -> None:
    for slug in ("north", "south"):
        set_privacy(create_club(slug.title(), who=WHO, slug=slug), who=WHO, visibility="public")
    html = Client().get("/").content.decode()
    assert (
        listed(html) == ["North", "South"]
        and 'role="search"' not in html
        and 'rel="next"' not in html
    )
    Club.objects.filter(slug="south").update(visibility=Visibility.UNLISTED)
    assert Client().get("/")["Location"] == "/c/north/"
    assert Client().get("/?q=south").status_code == 200  # a search is answered, not redirected
