"""Every page meant for reading writes its numbers in the reader's convention: a decimal comma in
Armenian and Russian, a decimal point in English; the files for programs (CSV, JSON) keep the
point whatever the language. The pages are those of the languages crawl (its club and visits)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .test_every_page_translated import Site, read, site  # noqa: F401  (the crawl's club)
from .test_translated_pages import catalogue  # noqa: F401  (the committed .po files compiled)

# A figure with a decimal point or comma between digits, not part of a longer run of figures and
# dots (a date 2024.01.09, a version 16.1.2, an address).
POINT = re.compile(r"(?<![\d.,])\d+\.\d+(?![\d.,]*\d)")
COMMA = re.compile(r"(?<![\d.,])\d+,(?!\d{3}\b)\d+(?![\d.,]*\d)")  # not 10,000: a grouping
WRONG = {"hy": POINT, "ru": POINT, "en": COMMA}
SECTION = re.compile(r"\b[A-Z]\.\d+ \d+(\.\d+)*")  # FIDE Handbook C.07 9.1: a name, not a number


@pytest.mark.parametrize("language", ["hy", "ru", "en"])
def test_every_page_writes_decimals_with_the_readers_separator(
    catalogue: None,  # noqa: F811
    site: Site,  # noqa: F811
    language: str,
) -> None:
    arbiter = Client()
    arbiter.force_login(User.objects.get(username="anna-arbiter"))
    found: list[str] = []
    for visit in [v for visits in site.visits.values() for v in visits]:
        for text in read(visit, language, arbiter):
            text = text.removeprefix("<tbody>")
            for name in site.names:
                text = text.replace(name, " ")
            text = SECTION.sub(" ", text)
            if hits := WRONG[language].findall(text):
                found.append(f"{visit.path}: {hits} in {text[:80]!r}")
    assert found == [], "\n".join(found)


def test_the_check_sees_a_point_in_russian_and_passes_dates_and_versions() -> None:
    assert POINT.findall("стоит 0.3 ΔCPI, на 0,1") == ["0.3"]
    assert POINT.findall("2024.01.09 · Stockfish 16.1.2 · 1/2-1/2 · ½") == []
    assert POINT.findall(SECTION.sub(" ", "(FIDE Handbook C.07 9.1)")) == []
    assert COMMA.findall("costs 0,3 ΔCPI, 2, 3 games at 10,000 nodes") == ["0,3"]


@pytest.mark.parametrize("language", ["hy", "ru"])
def test_the_files_for_programs_keep_the_point_in_every_language(
    catalogue: None,  # noqa: F811
    site: Site,  # noqa: F811
    language: str,
) -> None:
    t = next(v.path for v in site.visits["c/<slug:slug>/t/<int:tournament_id>/"])
    client, headers = Client(), {"accept-language": language}
    standings = client.get(f"{t}standings.csv", headers=headers).content.decode()
    rows = list(csv.reader(io.StringIO(standings)))
    cells = [cell for row in rows[1:] for cell in row[4:]]  # the tie-breaks and the ratings
    assert any("." in c for c in cells) and not any("," in c for c in cells), standings
    tid = t.rstrip("/").split("/")[-1]
    for api in (f"/api/c/riverside/tournaments/{tid}", "/api/c/riverside/ratings"):
        document = client.get(api, headers=headers).content.decode()
        assert json.loads(document) and not re.search(r'"[^"]*\d,\d[^"]*"', document), api
    page = client.get(t, headers=headers).content.decode()
    assert re.search(r">\d+,\d+<", page)  # the same tie-breaks on the page, with a comma
