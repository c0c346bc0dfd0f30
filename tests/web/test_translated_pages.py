"""The public pages of a small club in Russian and in Armenian: the catalogue's translations
reach the page (counts in each language's plural forms), and the English texts they replace do not.

The catalogue is compiled here from the .po files in the repository (msgfmt --check), so the test
reads the translations as committed, not a .mo left over from an earlier build."""

from __future__ import annotations

import re

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from pytest_django.fixtures import Settings

from clubrating.club.store.models import Club, Tournament
from tests.cpi.coach_games import publish_analysed

from .conftest import WHO, member

LOCALE = Path(django_settings.BASE_DIR) / "locale"


@pytest.fixture
def catalogue(tmp_path: Path, settings: Settings) -> None:
    """The repository's .po files compiled into a directory of their own, which Django reads."""
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        target = tmp_path / po.relative_to(LOCALE)
        target.parent.mkdir(parents=True)
        shutil.copy(po, target)
        subprocess.run(
            ["msgfmt", "--check", "-o", str(target.with_suffix(".mo")), str(target)], check=True
        )
    settings.LOCALE_PATHS = [
        tmp_path
    ]  # Django drops its cached catalogues when LOCALE_PATHS changes


def page(path: str, language: str) -> str:
    """The page as a visitor whose browser asks for LANGUAGE reads it (the real middleware
    chooses it, and the page says so in its <html lang>)."""
    response = Client().get(path, headers={"accept-language": f"{language},en;q=0.5"})
    assert response.status_code == 200, path
    html = response.content.decode()
    assert f'<html lang="{language}">' in html, path
    return html


# Anna Smith of tests/web/conftest's evening: 3 rated games in 3 rounds, 2 as White and 1 as Black;
# everyone is provisional (fewer than 5 rated games).
PAGES = {
    "ru": {
        "club": (
            [
                "Рейтинг-лист",
                "Последние турниры",
                "Все турниры",
                "Найти игрока",
                "Предварительный (меньше 5 рейтинговых партий)",
            ],
            [
                "Rating list",
                "Recent tournaments",
                "All tournaments",
                "Find a player",
                "Provisional",
            ],
        ),
        "player": (
            [
                "История рейтинга",
                "Вся история",
                "Соперник",
                "Личные встречи",
                "после 3 рейтинговых партий",
                "Белыми: +2 =0 −0 (2 партии)",
                "Чёрными: +1 =0 −0 (1 партия)",
            ],
            ["Lifetime history", "Opponent", "Head-to-head", "rated games", "As White", "As Black"],
        ),
        "tournament": (
            ["3 тура", "Турнирная и сводная таблица", "Место", "Очки"],
            ["3 rounds", "Standings and crosstable", "Place", "Points"],
        ),
        "tournaments": (["Турниры", "Контроль времени", "Победитель"], ["Time control", "Winner"]),
    },
    "hy": {
        "club": (
            [
                "Վարկանիշային ցուցակ",
                "Վերջին մրցաշարերը",
                "Բոլոր մրցաշարերը",
                "Գտնել խաղացողին",
                "Ժամանակավոր (5 վարկանիշային խաղից պակաս)",
            ],
            [
                "Rating list",
                "Recent tournaments",
                "All tournaments",
                "Find a player",
                "Provisional",
            ],
        ),
        "player": (
            [
                "Վարկանիշի պատմություն",
                "Ամբողջ պատմությունը",
                "Մրցակից",
                "Դեմ առ դեմ",
                "3 վարկանիշային խաղից հետո",
                "Սպիտակներով՝ +2 =0 −0 (2 խաղ)",
                "Սևերով՝ +1 =0 −0 (1 խաղ)",
            ],
            ["Lifetime history", "Opponent", "Head-to-head", "rated games", "As White", "As Black"],
        ),
        "tournament": (
            ["3 տուր", "Մրցաշարային և խաչաձև աղյուսակ", "Տեղ", "Միավորներ"],
            ["3 rounds", "Standings and crosstable", "Place", "Points"],
        ),
        "tournaments": (["Մրցաշարեր", "Ժամանակի վերահսկում", "Հաղթող"], ["Time control", "Winner"]),
    },
}


@pytest.mark.parametrize("language", sorted(PAGES))
def test_the_public_pages_read_in_the_visitors_language(
    catalogue: None, club: Club, evening: Tournament, language: str
) -> None:
    anna = member(club, "Anna Smith")
    paths = {
        "club": "/c/riverside/",
        "player": f"/c/riverside/p/{anna.id}/",
        "tournament": f"/c/riverside/t/{evening.id}/",
        "tournaments": "/c/riverside/t/",
    }
    for name, (translated, english) in PAGES[language].items():
        html = page(paths[name], language)
        assert [w for w in translated if w not in html] == [], (language, name)
        assert [w for w in english if w in html] == [], (language, name)


def test_an_english_visitor_reads_the_english_texts(
    catalogue: None, club: Club, evening: Tournament
) -> None:
    html = page("/c/riverside/", "en")
    assert "Recent tournaments" in html and "Provisional (fewer than 5 rated games)" in html
    assert "Последние турниры" not in html and "Վերջին մրցաշարերը" not in html


def test_the_language_switcher_is_labelled_in_the_pages_language(
    catalogue: None, evening: Tournament
) -> None:
    assert '<label for="language">Язык</label>' in page("/c/riverside/", "ru")
    assert '<label for="language">Լեզու</label>' in page("/c/riverside/", "hy")


@pytest.mark.parametrize("language", ["en", "hy", "ru"])
def test_the_language_switcher_names_each_language_in_itself(
    catalogue: None, evening: Tournament, language: str
) -> None:
    options = re.findall(
        r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', page("/c/riverside/", language)
    )
    assert options == [("en", "English"), ("hy", "Հայերեն"), ("ru", "Русский")]


@pytest.mark.parametrize(
    ("language", "translated", "english"),
    [
        (
            "ru",
            ["Импортировать турнир", "Журнал изменений", "Конфиденциальность", "Статус"],
            ["Import a tournament", "Audit log", "Privacy", "Status"],
        ),
        (
            "hy",
            ["Ներմուծել մրցաշար", "Փոփոխությունների մատյան", "Գաղտնիություն", "Կարգավիճակ"],
            ["Import a tournament", "Audit log", "Privacy", "Status"],
        ),
    ],
)
def test_the_arbiters_dashboard_reads_in_the_arbiters_language(
    catalogue: None,
    arbiter_client: Client,
    evening: Tournament,
    language: str,
    translated: list[str],
    english: list[str],
) -> None:
    response = arbiter_client.get("/c/riverside/arbiter/", headers={"accept-language": language})
    assert response.status_code == 200
    html = response.content.decode()
    assert [w for w in translated if w not in html] == []
    assert [w for w in english if w in html] == []


# The dashboard of tests/cpi/coach_games' Anna Berg: five analysed games, H (hangs) her weakest
# factor.
DASHBOARD = {
    "ru": (
        [
            "Самый слабый фактор: <strong>H</strong>, зевки",
            "после 5 проанализированных партий",
            "Средние значения факторов",
            "Тренер по CPI",
            "Найдите лучший ход за белых",
            "<summary>Решение</summary>",
            "Подсказка: сыгранный ход зевнул 340 сотых пешки",
        ],
        [
            "Weakest factor",
            "analysed games",
            "Factor averages",
            "Coach by CPI",
            "Find the best move",
            "Solution",
            "the move played hung",
        ],
    ),
    "hy": (
        [
            "Ամենաթույլ գործոնը՝ <strong>H</strong>, զիջված ֆիգուրներ",
            "5 վերլուծված խաղից հետո",
            "Գործոնների միջիններ",
            "Մարզիչ ըստ CPI-ի",
            "Գտեք սպիտակների լավագույն քայլը",
            "<summary>Լուծում</summary>",
            "Հուշում՝ խաղացված քայլը զիջեց 340 զինվորի հարյուրերորդական",
        ],
        [
            "Weakest factor",
            "analysed games",
            "Factor averages",
            "Coach by CPI",
            "Find the best move",
            "Solution",
            "the move played hung",
        ],
    ),
}


@pytest.mark.parametrize("language", sorted(DASHBOARD))
def test_the_cpi_dashboard_reads_in_the_visitors_language(
    catalogue: None, club: Club, language: str
) -> None:
    publish_analysed(club, 5, who=WHO)
    html = page(f"/c/riverside/p/{member(club, 'Anna Berg').id}/cpi/", language)
    translated, english = DASHBOARD[language]
    assert [w for w in translated if w not in html] == []
    assert [w for w in english if w in html] == []


@pytest.mark.parametrize(("language", "tag"), [("ru", "предварительный"), ("hy", "ժամանակավոր")])
def test_the_lists_provisional_tag_is_translated(
    catalogue: None, club: Club, evening: Tournament, language: str, tag: str
) -> None:
    tags = re.findall(r'<span class="tag">([^<]+)</span>', page("/c/riverside/", language))
    assert tags and set(tags) == {tag}
