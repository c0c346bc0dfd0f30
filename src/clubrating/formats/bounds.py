"""The ranges of the numbers a person or a file gives the product, in one place.

The rating list's reader, the settings (command line and web page) and the club archive's
import all read these, so a value one of them refuses is refused by every other one too
(docs/operations.md, "Values out of range"). A value outside its range is a typo or a
hostile file: it is refused in one line before anything is stored, instead of overflowing a
database integer or making ratings no list has.
"""

from __future__ import annotations

import datetime as dt

from clubrating.errors import InputError
from clubrating.words import N_

EARLIEST_DATE = dt.date(1851, 1, 1)
"""The earliest date of a tournament, an evening or a date in a file: the year of London 1851,
the first international tournament. An earlier one is a typo (``0001``), and a day before
0001-01-01 is no date of Python's (a tournament's neighbour days are looked at)."""

MIN_RATING = 0.0
MAX_RATING = 4000.0
"""A rating in a list (the initial list, ``rate --prior``): no rating list goes near 4000
(FIDE's highest ever is 2882), and none has a rating below 0."""

MIN_START_RATING = 100.0
MAX_START_RATING = 3000.0
"""A new player's rating (R3, ``start-rating``): 100 is the lowest any rating system starts a
player at (chess.com's floor), and a start above a world champion's rating is a typo. A start
next to 0 (``1e-320``) would make ratings below 0 after the first loss, which no list holds."""

MAX_GAMES = 100_000
"""Rated games a list says a player has played: ten a day for 27 years; a larger number is a
typo (and ``9223372036854775807`` would overflow the ledger's counts)."""

MAX_K = 100.0
"""A club's K (R4): FIDE's largest is 40; above 100 is a typo."""

MIN_K = 1.0

MAX_SETTING_GAMES = 1000
"""``k-new-games`` and ``provisional-games`` (R4, R6): a thousand games is a decade of evenings."""

MAX_MONTHS = 1200
"""``inactive-months``: a hundred years."""

MAX_LINK_DAYS = 366
"""``moves-link-days``: a moves link is for one event's games, a year at most."""

MAX_LIST_DAY = 28
"""``list-day``: a day every month has (February's 28th at the latest)."""


MAX_NUMBER = 10**30 - 1
"""A round, board or start number read from a file: past it, no number (30 digits: a number
past the limits checked later, such as records.MAX_ROUNDS, is still named by them, and never
one ``int()`` refuses, as it does thousands of digits)."""


def whole_number(text: str, high: int) -> int | None:
    """``text`` as a whole number from 0 to ``high`` (ASCII digits, blanks around them), else
    None. Never ``int()`` of what is no such number: of thousands of digits Python raises a
    ValueError ("Exceeds the limit"), of '²' or '٣' (digits to ``str.isdigit``) too or a number
    nobody typed."""
    text = text.strip()
    digits = text.lstrip("0") or "0"
    if (
        not (text.isascii() and text.isdigit())
        or len(digits) > len(str(high))
        or int(digits) > high
    ):
        return None
    return int(digits)


def check_date(date: dt.date, *, file: str | None = None) -> None:
    """An InputError when ``date`` is before :data:`EARLIEST_DATE`."""
    if date < EARLIEST_DATE:
        raise InputError(
            N_("%(date)s is before %(earliest)s: expected the date of a chess event"),
            file=file,
            date=date.isoformat(),
            earliest=EARLIEST_DATE.isoformat(),
        )
