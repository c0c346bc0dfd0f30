"""The language of a page, through the real middleware and the real page cache: the visitor's
choice (the switcher's cookie), else the browser's Accept-Language, else the club's default
language on its pages, else English; a language the catalogue lacks is passed over."""

from __future__ import annotations

import datetime as dt
import json
import pickle
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from pytest_django.fixtures import Settings

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Tournament
from clubrating.club.services import club_settings
from clubrating.cpi.advice import Judgement
from clubrating.cpi.coach import Exercise, Hint, score_text
from clubrating.cpi.facts import Color, Score
from clubrating.cpi.registry import LABELS
from clubrating.club.services import moves_links as ml
from clubrating.errors import InputError
from clubrating.web.access import CACHE_HEADER
from clubrating.web.cpi_views import _hint, _task, factor_row
from clubrating.web.viewer import _counted

from .conftest import WHO
from clubrating.club.services.names import all_new_members

COOKIE = settings.LANGUAGE_COOKIE_NAME
CLUB = "/c/riverside/"


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]*)">', html)
    assert found is not None, html[:200]
    return found.group(1)


def page_language(client: Client, path: str = CLUB, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    lang = html_lang(response.content.decode())
    assert response["Content-Language"] == lang
    return lang


def set_club_language(club: Club, language: str) -> None:
    club_settings.change_settings(
        club, club_settings.parse_settings({"language": language}), who=WHO
    )


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru", "ru"),
        ("hy-AM,hy;q=0.9,en;q=0.5", "hy"),
        ("de-DE,de;q=0.9,ru;q=0.8,en;q=0.7", "ru"),
        ("en-US,en;q=0.9", "en"),
        ("fr;q=0.9,hy;q=0.95", "hy"),
    ],
)
def test_accept_language_picks_the_first_language_of_the_catalogue(
    evening: Tournament, header: str, lang: str
) -> None:
    assert page_language(Client(), accept_language=header) == lang


def test_the_cookie_beats_the_header(evening: Tournament) -> None:
    client = Client()
    client.cookies[COOKIE] = "hy"
    assert page_language(client, accept_language="ru,en;q=0.5") == "hy"


def test_the_clubs_default_when_neither_cookie_nor_header_names_a_language(
    club: Club, evening: Tournament
) -> None:
    assert page_language(Client()) == "en"
    set_club_language(club, "ru")
    assert page_language(Client()) == "ru"
    assert page_language(Client(), f"{CLUB}t/{evening.id}/") == "ru"
    assert page_language(Client(), f"/u/{club.token}/") == "ru"
    assert page_language(Client(), accept_language="hy") == "hy"
    assert page_language(Client(), "/accounts/login/") == "en"  # no club's page: the site's default


def test_an_unknown_language_falls_back_to_the_club_then_to_english(
    club: Club, evening: Tournament
) -> None:
    client = Client()
    client.cookies[COOKIE] = "de"
    assert page_language(client, accept_language="fr-FR,fr;q=0.9,*;q=0.1") == "en"
    set_club_language(club, "hy")
    assert page_language(client, accept_language="fr-FR,fr;q=0.9,*;q=0.1") == "hy"
    assert page_language(client, "/accounts/login/", accept_language="xx") == "en"


def test_the_page_cache_keeps_languages_apart(evening: Tournament) -> None:
    seen = []
    for header in ("ru", "en", "hy", "ru"):
        response = Client().get(CLUB, headers={"accept_language": header})
        seen.append((html_lang(response.content.decode()), response[CACHE_HEADER]))
    assert seen == [("ru", "miss"), ("en", "miss"), ("hy", "miss"), ("ru", "hit")]
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}


def test_the_switcher_sets_the_cookie_and_returns_to_the_page_without_a_csrf_token(
    evening: Tournament,
) -> None:
    client = Client(enforce_csrf_checks=True)
    page = f"{CLUB}t/{evening.id}/"
    html = client.get(page).content.decode()
    assert f'<input type="hidden" name="next" value="{page}">' in html
    assert '<option value="hy" lang="hy">Հայերեն</option>' in html
    response = client.post("/language/", {"language": "ru", "next": page})
    assert (response.status_code, response["Location"]) == (302, page)
    assert client.cookies[COOKIE].value == "ru"
    assert page_language(client, page, accept_language="en") == "ru"


def test_the_arbiters_pages_and_the_phone_page_follow_the_same_choice(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    set_club_language(club, "hy")
    assert page_language(arbiter_client, f"{CLUB}arbiter/settings/") == "hy"
    assert page_language(arbiter_client, f"{CLUB}arbiter/settings/", accept_language="ru") == "ru"
    arbiter_client.cookies[COOKIE] = "en"
    assert page_language(arbiter_client, f"{CLUB}arbiter/", accept_language="ru") == "en"
    phone = ml.issue_links(evening, 1, who=WHO)[0].path
    assert page_language(Client(), phone) == "hy"
    assert page_language(Client(), phone, accept_language="ru") == "ru"


def test_the_language_setting_is_one_of_the_catalogues(club: Club, arbiter_client: Client) -> None:
    with pytest.raises(InputError, match=r"^language 'de': expected one of en, hy, ru$"):
        club_settings.parse_settings({"language": "de"})
    html = arbiter_client.get(f"{CLUB}arbiter/settings/").content.decode()
    assert 'name="language" value="en"' in html
    arbiter_client.post(f"{CLUB}arbiter/settings/", {"language": "ru"})
    club.refresh_from_db()
    assert club.language == "ru"


RUSSIAN = {
    "sits out this round": "пропускает этот тур",
    "hangs (moves costing 15 points of win chance or more)": (
        "зевки (ходы, стоящие 15 пунктов шансов или больше)"
    ),
    "moves that threw away 15 points of winning chances or more": (
        "ходы, потерявшие 15 пунктов шансов или больше"
    ),
    "Only the arbiters": "Только судьи",
    "Draft": "Черновик",
    "say which member: pick one from the list": "какой участник? выберите его из списка",
    "Find the best move for Black": "Найдите лучший ход за чёрных",
    "K afterwards (R4)": "K после этого (R4)",
    "the move played lost %(loss)s cp": "сыгранный ход потерял %(loss)s cp",
    "mate in %(moves)s": "мат в %(moves)s хода",
    "Ranked by points, then %(tiebreaks)s": "Места по очкам, затем %(tiebreaks)s",
    "not queued": "не в очереди",
}


# Russian's three forms (one, few, many), as the catalogue's header has them (GNU gettext manual,
# "Plural forms").
RUSSIAN_PLURALS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) "
    "? 1 : 2);"
)


@pytest.fixture
def russian(tmp_path: Path, settings: Settings) -> None:
    """A Russian catalogue of the few messages above, compiled here (the committed one may not have
    them yet)."""
    po = tmp_path / "ru/LC_MESSAGES/django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        + f'"Plural-Forms: {RUSSIAN_PLURALS}\\n"\n\n'
        + "".join(f'msgid "{en}"\nmsgstr "{ru}"\n\n' for en, ru in RUSSIAN.items())
        + 'msgid "%(count)s blunder"\nmsgid_plural "%(count)s blunders"\n'
        'msgstr[0] "%(count)s зевок"\nmsgstr[1] "%(count)s зевка"\nmsgstr[2] "%(count)s зевков"\n',
        encoding="utf-8",
    )
    subprocess.run(["msgfmt", "--check", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
    settings.LOCALE_PATHS = [
        tmp_path
    ]  # Django drops its cached catalogues when LOCALE_PATHS changes


def test_the_pages_words_made_in_python_follow_the_language_and_the_apis_stay_english(
    club: Club, russian: None
) -> None:
    """The tournament page's round off reads the catalogue; the API's document of the same
    evening keeps the contract's English words."""
    t = evening.start_evening(
        club, "Spring Round Robin", dt.date(2024, 3, 5), 1, who=WHO, system="round-robin"
    )
    for name in ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evening.pair_next_round(t, who=WHO)
    page = Client().get(f"{CLUB}t/{t.id}/", headers={"accept-language": "ru"}).content.decode()
    assert RUSSIAN["sits out this round"] in page and "sits out this round" not in page
    doc = (
        Client()
        .get(f"/api/c/riverside/tournaments/{t.id}", headers={"accept-language": "ru"})
        .json()
    )
    assert [b["why"] for b in doc["pairings"]["byes"]] == ["sits out this round"]
    assert "Места по очкам, затем " in page and doc["ranked_by"].startswith(
        "Ranked by points, then "
    )


def test_the_cpi_factors_names_and_meanings_come_from_the_catalogue(russian: None) -> None:
    figures = {
        "average": 0.5,
        "club_average": 0.25,
        "label": LABELS["H"],
        "available": 3,
        "games": 3,
    }
    with translation.override("ru"):
        row = factor_row("H", figures, 12.5)
    assert (row["label"], row["short_label"], row["means"]) == (
        RUSSIAN[LABELS["H"]],
        "зевки",
        RUSSIAN["moves that threw away 15 points of winning chances or more"],
    )
    with translation.override("en"):
        assert factor_row("H", figures, 12.5)["short_label"] == "hangs"


def test_the_choices_people_read_are_translated_their_values_not(
    club: Club, arbiter_client: Client, russian: None
) -> None:
    html = arbiter_client.get(
        f"{CLUB}arbiter/privacy/", headers={"accept-language": "ru"}
    ).content.decode()
    assert 'value="arbiter"> Только судьи</label>' in html and "Only the arbiters" not in html
    assert (
        str(Tournament._meta.get_field("status").choices[0][1]) == "Draft"
    )  # outside a request: English


def test_the_arbiters_messages_made_by_the_views_are_in_the_language(
    club: Club, arbiter_client: Client, russian: None
) -> None:
    response = arbiter_client.post(
        f"{CLUB}arbiter/members/merge/",
        {"absorbed": "", "into": ""},
        headers={"accept-language": "ru"},
        follow=True,
    )
    html = response.content.decode()
    assert (
        RUSSIAN["say which member: pick one from the list"] in html
        and "pick one from the list" not in html
    )


@pytest.mark.parametrize(
    ("count", "russian_words", "english"),
    [
        (1, "1 зевок", "1 blunder"),
        (2, "2 зевка", "2 blunders"),
        (5, "5 зевков", "5 blunders"),
        (11, "11 зевков", "11 blunders"),
        (21, "21 зевок", "21 blunders"),
        (0, "0 зевков", "0 blunders"),
    ],
)
def test_a_count_of_marks_takes_the_languages_plural_form(
    russian: None, count: int, russian_words: str, english: str
) -> None:
    with translation.override("ru"):
        assert _counted(Judgement.BLUNDER, count) == russian_words
    with translation.override("en"):
        assert _counted(Judgement.BLUNDER, count) == english


def test_the_coachs_task_reads_as_the_pure_coach_words_it_in_english_and_translated(
    russian: None,
) -> None:
    task = Exercise.task.fget  # type: ignore[attr-defined]
    words = {
        (f, side): task(SimpleNamespace(factor=f, side_to_move=Color(side)))
        for f in ("T", "E")
        for side in ("white", "black")
    }
    with translation.override("en"):
        assert {key: _task(*key) for key in words} == words
    with translation.override("ru"):
        assert _task("E", "black") == RUSSIAN["Find the best move for Black"]


def test_the_settings_help_is_in_the_language_and_names_every_language(
    club: Club, arbiter_client: Client, russian: None
) -> None:
    html = arbiter_client.get(
        f"{CLUB}arbiter/settings/", headers={"accept-language": "ru"}
    ).content.decode()
    assert RUSSIAN["K afterwards (R4)"] in html and "K afterwards (R4)" not in html
    assert all(
        f"{code}: " in club_settings.BY_KEY["language"].help for code, _name in settings.LANGUAGES
    )


def test_the_coachs_hint_is_english_as_a_string_and_translated_on_the_page(russian: None) -> None:
    hint = Hint("the move played lost %(loss)s cp", loss=120)
    assert (hint, json.dumps(hint), pickle.loads(pickle.dumps(hint)).figures) == (
        "the move played lost 120 cp",
        '"the move played lost 120 cp"',
        {"loss": 120},
    )
    with translation.override("ru"):
        assert _hint(hint) == "сыгранный ход потерял 120 cp"
    with translation.override("en"):
        assert _hint(hint) == "the move played lost 120 cp"
    mate = score_text(Score(cp=None, mate=2))
    with translation.override("ru"):
        assert (mate, _hint(mate)) == ("mate in 2", "мат в 2 хода")


def test_the_analysis_states_are_in_the_language(
    evening: Tournament, arbiter_client: Client, russian: None
) -> None:
    html = arbiter_client.get(
        f"{CLUB}arbiter/t/{evening.id}/analysis/", headers={"accept-language": "ru"}
    ).content.decode()
    assert "не в очереди: 0" in html and "not queued" not in html
