"""A rating list: members with their ratings and, optionally, rated games played.

Read by ``clubrating seed-ratings`` (the club's initial list) and by ``clubrating
rate --prior``. Two shapes, told apart by the first line that is not blank:

- CSV with ``,`` or ``;`` (the header line decides), header names in any case, in English,
  Armenian or Russian (:data:`HEADER_WORDS`): ``name`` and ``rating`` required, ``games``
  optional, other columns ignored;
- a FIDE TRF-16 file: each ``001`` line's name (columns 15-47) and rating
  (columns 49-52); a player without a rating is not listed (new), and a TRF
  gives no games count.

Pure: reads a text handle, every problem names the source and the line.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from clubrating.errors import InputError
from clubrating.formats.bounds import MAX_GAMES, MAX_RATING, MIN_RATING, whole_number
from clubrating.formats.common import NumberedLines, check_name, check_text
from clubrating.formats.records import MAX_NAME_LENGTH, MAX_PLAYERS
from clubrating.words import N_

TRF_NAME = slice(14, 47)  # TRF-16 columns 15-47: the player's name
TRF_RATING = slice(48, 52)  # TRF-16 columns 49-52: the player's rating
TRF_CODE = slice(0, 3)  # every TRF line starts with its three-digit code
COLUMNS = ("name", "rating", "games")
# The header words each column is known by, casefolded: English, and the glossary's Armenian and
# Russian (docs/glossary.md: name, rating, game) with their common synonyms in club lists (a
# member, a player; Elo; rated games, games played), so that a club's own list reads as it is.
HEADER_WORDS = {
    "name": (
        "name",
        "full name",
        "player",
        "member",
        "անուն",
        "անուն ազգանուն",
        "ազգանուն անուն",
        "խաղացող",
        "անդամ",
        "имя",
        "фио",
        "игрок",
        "участник",
        "член клуба",
        "имя фамилия",
        "фамилия имя",
    ),
    "rating": ("rating", "elo", "վարկանիշ", "էլո", "рейтинг", "эло"),
    "games": (
        "games",
        "rated games",
        "games played",
        "խաղեր",
        "խաղերի թիվ",
        "վարկանիշային խաղեր",
        "խաղացած խաղեր",
        "партии",
        "партий",
        "игры",
        "рейтинговые партии",
        "количество партий",
        "число партий",
        "сыграно партий",
    ),
}
COLUMN_OF = {word: column for column, words in HEADER_WORDS.items() for word in words}


@dataclass(frozen=True, slots=True)
class ListedRating:
    """One member of a rating list. ``games`` None: the list does not say (a TRF)."""

    name: str
    rating: float
    games: int | None
    line: int


def name_key(name: str) -> str:
    """Names match whatever their case and spacing ("anna  SMITH" is "Anna Smith")."""
    return " ".join(name.split()).casefold()


def read_rating_list(handle: TextIO, source: str = "<list>") -> tuple[ListedRating, ...]:
    """Every row of the list, in file order; a bad row raises :class:`InputError` (file:line)."""
    lines = [(n, text) for n, text in NumberedLines(handle)]
    for n, text in lines:
        check_text(text, source, first_line=n)
    first = next(((n, t) for n, t in lines if t.strip()), None)
    if first is None:
        raise InputError(
            N_("the file is empty: expected a header line name,rating[,games] or a TRF"),
            file=source,
        )
    if _is_trf(first[1]):
        rows = _trf_rows(lines, source)
    else:
        rows = _csv_rows(lines, source)
    return _checked(rows, source)


def _is_trf(text: str) -> bool:
    code = text[TRF_CODE]
    return len(text) > 3 and code.isdigit() and text[3] == " "


def _trf_rows(lines: Iterable[tuple[int, str]], source: str) -> list[ListedRating]:
    rows = []
    for number, text in lines:
        if not text.startswith("001"):
            continue
        name = text[TRF_NAME].strip()
        if not name:
            raise InputError(
                N_("expected the player's name in columns 15-47, found it blank"),
                file=source,
                line=number,
            )
        rating = text[TRF_RATING].strip()
        if rating and rating != "0":
            rows.append(
                ListedRating(name, _rating(rating, source, number, "columns 49-52: "), None, number)
            )
    if not rows:
        raise InputError(
            N_("no 001 line with a rating in columns 49-52: expected a TRF with ratings"),
            file=source,
        )
    return rows


def _csv_rows(lines: list[tuple[int, str]], source: str) -> list[ListedRating]:
    body = [(n, t) for n, t in lines if t.strip()]
    header_line, header_text = body[0]
    delimiter = ";" if header_text.count(";") > header_text.count(",") else ","
    header = [
        COLUMN_OF.get(name, name)
        for name in (
            " ".join(cell.split()).casefold()
            for cell in _split(header_text, delimiter, source, header_line)
        )
    ]
    where = {column: header.index(column) for column in COLUMNS if column in header}
    if "name" not in where or "rating" not in where or len(set(header)) != len(header):
        raise InputError(
            N_(
                "expected a header with the columns name, rating and optionally games "
                "(in any case, separated by ',' or ';'), got %(value)s"
            ),
            file=source,
            line=header_line,
            value=repr(header_text.strip()[:80]),
        )
    rows = []
    for number, text in body[1:]:
        cells = _split(text, delimiter, source, number)
        if len(cells) != len(header):
            raise InputError(
                N_("expected %(count)s fields (%(value)s), found %(count2)s"),
                file=source,
                line=number,
                count=len(header),
                value=delimiter.join(header),
                count2=len(cells),
            )
        name = cells[where["name"]].strip()
        games = cells[where["games"]].strip() if "games" in where else ""
        rows.append(
            ListedRating(
                name,
                _rating(cells[where["rating"]].strip(), source, number),
                _games(games, source, number) if games else None,
                number,
            )
        )
    return rows


def _split(text: str, delimiter: str, source: str, line: int) -> list[str]:
    try:
        return next(csv.reader([text], delimiter=delimiter))
    except csv.Error as error:  # "field larger than field limit": no name is that long
        raise InputError(
            N_(
                "unreadable fields (%(error)s): expected a name of at most %(MAX_NAME_LENGTH)s"
                " characters, a rating and a number of games"
            ),
            file=source,
            line=line,
            error=error,
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        ) from None


def _rating(text: str, source: str, line: int, where: str = "") -> float:
    try:
        value = float(text.replace(",", ".")) if text.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not MIN_RATING <= value <= MAX_RATING:
        raise InputError(
            N_(
                "%(where)srating %(text)s: expected a number such as 1450 or 1413.8 "
                "(%(MIN_RATING)s to %(MAX_RATING)s)"
            ),
            file=source,
            line=line,
            where=where,
            text=repr(text[:40]),
            MIN_RATING=format(MIN_RATING, "g"),
            MAX_RATING=format(MAX_RATING, "g"),
        )
    return value


def _games(text: str, source: str, line: int) -> int:
    games = whole_number(text, MAX_GAMES)
    if games is None:
        raise InputError(
            N_("games %(text)s: expected a whole number of rated games from 0 to %(MAX_GAMES)s"),
            file=source,
            line=line,
            text=repr(text[:40]),
            MAX_GAMES=MAX_GAMES,
        )
    return games


def _checked(rows: list[ListedRating], source: str) -> tuple[ListedRating, ...]:
    if not rows:
        raise InputError(
            N_("the list holds no player: expected a line per player after the header"), file=source
        )
    if len(rows) > MAX_PLAYERS:
        raise InputError(
            N_("%(count)s players: expected at most %(MAX_PLAYERS)s"),
            file=source,
            count=format(len(rows), ","),
            MAX_PLAYERS=format(MAX_PLAYERS, ","),
        )
    seen: dict[str, ListedRating] = {}
    for row in rows:
        check_name(row.name, source, row.line)
        key = name_key(row.name)
        if not key:
            raise InputError(
                N_("empty name: expected the player's name"), file=source, line=row.line
            )
        if key in seen:
            raise InputError(
                N_("%(name)s is listed twice (first on line %(line_number)s)"),
                file=source,
                line=row.line,
                name=repr(row.name),
                line_number=seen[key].line,
            )
        seen[key] = row
    return tuple(rows)
