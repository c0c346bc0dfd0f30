"""The catalogue's plural forms and the pages' dates in each language, one table row a case:
Russian's one / few / many (1, 21 партия; 2, 22 партии; 5, 11, 25 партий), Armenian's one / other,
English's; a date with the day first and the month in the genitive in Russian and Armenian
(web/formats), where Django alone writes Armenian dates English-style ("Դեկ․ 3, 2026")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import translation

# the fixture: the committed .po files compiled
from .test_translated_pages import catalogue  # noqa: F401

GAMES = ("%(count)s game", "%(count)s games")
LATEST = (
    "ΔCPI of the latest %(games)s analysed game, oldest on the left",
    "ΔCPI of the latest %(games)s analysed games, oldest on the left",
)


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("ru", 1, "1 партия"),
        ("ru", 2, "2 партии"),
        ("ru", 5, "5 партий"),
        ("ru", 11, "11 партий"),
        ("ru", 21, "21 партия"),
        ("ru", 22, "22 партии"),
        ("ru", 25, "25 партий"),
        ("ru", 0, "0 партий"),
        ("en", 1, "1 game"),
        ("en", 2, "2 games"),
        ("en", 0, "0 games"),
        ("hy", 1, "1 խաղ"),
        ("hy", 2, "2 խաղ"),  # Armenian counts with the singular noun
    ],
)
def test_a_count_of_games_takes_the_languages_plural_form(
    catalogue: None, language: str, count: int, expected: str
) -> None:  # noqa: F811
    with translation.override(language):
        assert translation.ngettext(*GAMES, count) % {"count": count} == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "Վերջին 1 վերլուծված խաղի ΔCPI-ը"),
        (2, "Վերջին 2 վերլուծված խաղերի ΔCPI-ը"),
        (21, "Վերջին 21 վերլուծված խաղերի ΔCPI-ը"),
        (0, "Վերջին 0 վերլուծված խաղերի ΔCPI-ը"),
    ],
)
def test_armenian_takes_its_one_form_for_one_alone_and_the_other_for_every_other_count(
    catalogue: None, count: int, expected: str
) -> None:  # noqa: F811
    with translation.override("hy"):
        assert (translation.ngettext(*LATEST, count) % {"games": count}).startswith(expected)


@pytest.mark.parametrize(
    ("language", "day", "expected"),
    [
        ("en", dt.date(2026, 12, 3), "3 December 2026"),
        ("ru", dt.date(2026, 12, 3), "3 декабря 2026 г."),
        ("ru", dt.date(2026, 5, 21), "21 мая 2026 г."),
        ("hy", dt.date(2026, 12, 3), "3 դեկտեմբերի 2026 թ."),
        ("hy", dt.date(2026, 3, 1), "1 մարտի 2026 թ."),
    ],
)
def test_a_pages_date_has_the_day_first_and_the_month_in_the_genitive(
    catalogue: None, language: str, day: dt.date, expected: str
) -> None:  # noqa: F811
    with translation.override(language):
        assert Template('{{ day|date:"DATE_FORMAT" }}').render(Context({"day": day})) == expected
