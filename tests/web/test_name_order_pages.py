"""The rating list's ties, the arbiter's member lists and the search box in the alphabet of
the page's language (identity/collation), the same on SQLite and PostgreSQL: Cyrillic first
with ё as е on a Russian page, Armenian first on an Armenian page, Latin first in English."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

import pytest
from django.conf import settings
from django.test import Client

from clubrating.club.services import evening as evenings
from clubrating.club.read import players as read_players
from clubrating.club.store.models import Club, Tournament
from clubrating.club.services import initial_list
from clubrating.formats.ratinglist import read_rating_list

from .conftest import WHO
from clubrating.club.services.names import all_new_members

CLUB = "/c/riverside/"
# Everyone on 1800 after 30 games: established, and tied, so that only their names order them.
NAMES = [
    "Zhukov, Ivan",
    "Семёнов Иван",
    "Ֆահրադյան Սոնա",
    "Aronian, Levon",
    "Ежов Андрей",
    "Գևորգյան Արամ",
    "Семенов Пётр",
    "Ёжиков Олег",
    "Աբրահամյան Լիլիթ",
    "Петросян Тигран",
    "Գետրոսյան Աննա",
    "Гарри Каспаров",
]
# և is ե+վ on the Armenian page (CLDR hy), ե+ւ on the others (CLDR's root order).
IN_ORDER = {
    "ru": [
        "Гарри Каспаров",
        "Ёжиков Олег",
        "Ежов Андрей",
        "Петросян Тигран",
        "Семёнов Иван",
        "Семенов Пётр",
        "Aronian, Levon",
        "Zhukov, Ivan",
        "Աբրահամյան Լիլիթ",
        "Գետրոսյան Աննա",
        "Գևորգյան Արամ",
        "Ֆահրադյան Սոնա",
    ],
    "hy": [
        "Աբրահամյան Լիլիթ",
        "Գևորգյան Արամ",
        "Գետրոսյան Աննա",
        "Ֆահրադյան Սոնա",
        "Aronian, Levon",
        "Zhukov, Ivan",
        "Гарри Каспаров",
        "Ёжиков Олег",
        "Ежов Андрей",
        "Петросян Тигран",
        "Семёнов Иван",
        "Семенов Пётр",
    ],
    "en": [
        "Aronian, Levon",
        "Zhukov, Ivan",
        "Гарри Каспаров",
        "Ёжиков Олег",
        "Ежов Андрей",
        "Петросян Тигран",
        "Семёнов Иван",
        "Семенов Пётр",
        "Աբրահամյան Լիլիթ",
        "Գետրոսյան Աննա",
        "Գևորգյան Արամ",
        "Ֆահրադյան Սոնա",
    ],
}


@pytest.fixture
def tied(club: Club) -> Club:
    text = "name,rating,games\n" + "".join(f'"{n}",1800,30\n' for n in NAMES)
    initial_list.seed_ratings(
        club, read_rating_list(io.StringIO(text), "list.csv"), who=WHO, source="list.csv"
    )
    initial_list.all_new_initial(club, who=WHO)
    return club


def page(client: Client, path: str, language: str, **query: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path, query)
    assert response.status_code == 200, path
    assert f'<html lang="{language}">' in response.content.decode()
    return response.content.decode()


def listed_names(text: str) -> list[str]:
    """The players' names of the rating list, in the page's order."""
    return [
        html.unescape(n) for n in re.findall(r'<td><a href="/c/riverside/p/\d+/">([^<]*)</a>', text)
    ]


def datalist_names(text: str) -> list[str]:
    return [html.unescape(n) for n in re.findall(r'<option value="([^"]*) \(#\d+\)">', text)]


@pytest.mark.parametrize("language", ["ru", "hy", "en"])
def test_equal_ratings_are_listed_in_the_alphabet_of_the_pages_language(
    tied: Club, language: str
) -> None:
    text = page(Client(), CLUB, language)
    assert listed_names(text) == IN_ORDER[language]
    ranks = [int(r) for r in re.findall(r'<tr><td class="num">(\d+)</td>', text)]
    assert ranks == list(range(1, len(NAMES) + 1))  # one rank each, in that order


def test_the_api_and_the_command_lines_list_keep_the_clubs_language(tied: Club) -> None:
    Club.objects.filter(pk=tied.pk).update(language="ru")
    tied.refresh_from_db()
    assert [r["name"] for r in read_players.rating_list(tied)] == IN_ORDER["ru"]
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = (
        "hy"  # the visitor's language orders the page only
    )
    players = client.get(f"/api{CLUB}ratings").json()["players"]
    assert [p["name"] for p in players] == IN_ORDER["ru"]
    rows = client.get(f"{CLUB}ratings.csv").content.decode().splitlines()[1:]
    assert [row.split(",", 2)[2].rsplit(",", 5)[0].strip('"') for row in rows] == IN_ORDER["ru"]


@pytest.mark.parametrize(
    ("language", "query", "found"),
    [
        ("ru", "Семенов", ["Семёнов Иван", "Семенов Пётр"]),
        ("ru", "СЕМЁНОВ", ["Семёнов Иван", "Семенов Пётр"]),
        ("ru", "ПЕТРОСЯН", ["Петросян Тигран"]),
        ("ru", "ёж", ["Ёжиков Олег", "Ежов Андрей"]),
        ("hy", "ԳԵՎՈՐԳՅԱՆ", ["Գևորգյան Արամ"]),
        ("hy", "լիլիթ", ["Աբրահամյան Լիլիթ"]),
        ("hy", "ան", ["Աբրահամյան Լիլիթ", "Գևորգյան Արամ", "Գետրոսյան Աննա", "Ֆահրադյան Սոնա"]),
        ("en", "ARONIAN", ["Aronian, Levon"]),
        ("en", "Каспаров", ["Гарри Каспаров"]),
    ],
)
def test_the_search_box_finds_names_in_any_case_and_e_for_yo(
    tied: Club, language: str, query: str, found: list[str]
) -> None:
    assert listed_names(page(Client(), CLUB, language, q=query)) == found


# The evening's four players join the Latin names of each list.
LATIN = ["Anna Smith", "Aronian, Levon", "Bob Jones", "Carl Berg", "Dana White", "Zhukov, Ivan"]
MEMBERS_IN_ORDER = {
    "ru": IN_ORDER["ru"][:6] + LATIN + IN_ORDER["ru"][8:],
    "hy": IN_ORDER["hy"][:4] + LATIN + IN_ORDER["hy"][6:],
    "en": LATIN + IN_ORDER["en"][2:],
}


@pytest.mark.parametrize("language", ["ru", "hy", "en"])
def test_the_arbiters_member_lists_follow_the_pages_alphabet(
    tied: Club, evening: Tournament, arbiter_client: Client, language: str
) -> None:
    tonight = evenings.start_evening(tied, "Вторник", dt.date.today(), 3, who=WHO)
    base = f"{CLUB}arbiter/"
    for path in (
        f"{base}members/",
        f"{base}initial-list/",
        f"{base}t/{evening.id}/",
        f"{base}evening/{tonight.id}/",
    ):
        assert datalist_names(page(arbiter_client, path, language)) == MEMBERS_IN_ORDER[language], (
            path
        )


@pytest.mark.parametrize(
    ("language", "in_order"),
    [
        (
            "ru",
            [
                "Ёжиков Олег",
                "Ежов Андрей",
                "Семёнов Иван",
                "Семенов Пётр",
                "Aronian, Levon",
                "Գևորգյան Արամ",
            ],
        ),
        (
            "hy",
            [
                "Գևորգյան Արամ",
                "Aronian, Levon",
                "Ёжиков Олег",
                "Ежов Андрей",
                "Семёнов Иван",
                "Семенов Пётр",
            ],
        ),
    ],
)
def test_the_printed_pairings_by_name_follow_the_pages_alphabet(
    club: Club, language: str, in_order: list[str]
) -> None:
    t = evenings.start_evening(club, "Вторник", dt.date.today(), 3, who=WHO)
    for name in reversed(in_order):
        evenings.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evenings.pair_next_round(t, who=WHO)
    text = page(Client(), f"{CLUB}t/{t.id}/print/names/", language)
    body = text.split('id="names-1"', 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>\s*<td[^>]*>(.*?)</td>", body.split("<tbody>", 1)[1], re.S)
    assert [html.unescape(re.sub(r"<[^>]+>", "", r).strip()) for r in rows] == in_order


def test_the_evenings_exchange_form_lists_the_round_in_the_pages_alphabet(
    club: Club, arbiter_client: Client
) -> None:
    in_order = [
        "Ёжиков Олег",
        "Ежов Андрей",
        "Семёнов Иван",
        "Семенов Пётр",
        "Aronian, Levon",
        "Գևորգյան Արամ",
    ]
    t = evenings.start_evening(club, "Вторник", dt.date.today(), 3, who=WHO)
    for name in reversed(in_order):
        evenings.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evenings.pair_next_round(t, who=WHO)
    text = page(arbiter_client, f"{CLUB}arbiter/evening/{t.id}/", "ru")
    form = text.split('<select id="ex-one" name="one">', 1)[1].split("</select>", 1)[0]
    assert [
        html.unescape(n) for n in re.findall(r'<option value="\d+">\d+ ([^<]*)</option>', form)
    ] == in_order
