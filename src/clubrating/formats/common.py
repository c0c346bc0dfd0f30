"""What the TRF, PGN and CSV readers share: dates, time controls, players by name,
the one-game-per-round check and the text decoding decision.

Pure: no file is opened here (docs/architecture.md, the pure packages).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from clubrating.errors import InputError
from clubrating.formats.bounds import check_date
from clubrating.formats.records import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_ROUNDS,
    Bye,
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentRecord,
)
from clubrating.words import LAYOUT, N_, control_name, find_control

# FIDE Laws of Chess (2023), Appendices A.1 and B.1: blitz is 10 minutes or less
# of (time + 60 x increment) per player, rapid more than 10 and less than 60,
# standard (classical) 60 minutes or more.
BLITZ_MAX_SECONDS = 10 * 60
RAPID_BELOW_SECONDS = 60 * 60
MOVES_PER_INCREMENT = 60  # FIDE A.1: "the time allotted + 60 times any increment"

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january", "janv", "jän", "januar"),
            ("feb", "february", "febr", "februar"),
            ("mar", "march", "mär", "märz", "mars"),
            ("apr", "april", "avr"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juni", "juin"),
            ("jul", "july", "juli", "juil"),
            ("aug", "august", "août", "aout"),
            ("sep", "sept", "september"),
            ("oct", "october", "okt", "oktober"),
            ("nov", "november"),
            ("dec", "december", "dez", "dezember", "déc"),
        ),
        start=1,
    )
    for name in names
}

_YMD = re.compile(r"^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})$")
_DMY = re.compile(r"^(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4})$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_MONTH_DAY_YEAR = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2}),?\s+(\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})\.?\s+([^\W\d_]+)\.?,?\s+(\d{4})$")

DATE_SPELLINGS = (
    "YYYY-MM-DD",
    "YYYY/MM/DD",
    "YYYY.MM.DD",
    "DD.MM.YYYY",
    "DD. MM. YYYY",
    "DD/MM/YYYY",
    "YYYYMMDD",
    "Jun 26, 2020",
    "26 Jun 2020",
)


def parse_date(text: str) -> dt.date | None:
    """A date in one of the spellings real tournament files use, or None if blank.

    ``DD/MM/YYYY`` is read day first (the European and FIDE habit) unless the
    first number cannot be a month's day order (e.g. ``09/24/2010``).
    Raises ValueError when the text is not a date.
    """
    text = text.strip()
    if not text:
        return None
    if match := _YMD.match(text) or _COMPACT.match(text):
        year, month, day = (int(part) for part in match.groups())
    elif match := _DMY.match(text):
        day, month, year = (int(part) for part in match.groups())
        if month > 12 >= day:
            day, month = month, day
    elif match := _MONTH_DAY_YEAR.match(text):
        month, day, year = _month(match.group(1)), int(match.group(2)), int(match.group(3))
    elif match := _DAY_MONTH_YEAR.match(text):
        day, month, year = int(match.group(1)), _month(match.group(2)), int(match.group(3))
    else:
        raise InputError(
            N_("expected a date such as %(spellings)s, got %(text)s"),
            spellings=", ".join(DATE_SPELLINGS),
            text=repr(text),
        )
    try:
        date = dt.date(year, month, day)
    except ValueError:  # 2026-02-30, year 0: Python's words would reach the user untranslated
        raise InputError(N_("%(text)s is not a day of the calendar"), text=repr(text)) from None
    check_date(date)
    return date


def _month(name: str) -> int:
    number = _MONTHS.get(name.lower())
    if number is None:
        raise InputError(N_("unknown month name %(name)s"), name=repr(name))

    return number


def classify_seconds(base_seconds: float, increment_seconds: float = 0) -> TimeControl:
    """The FIDE category of a time control (Laws of Chess, Appendices A.1, B.1)."""
    total = base_seconds + MOVES_PER_INCREMENT * increment_seconds
    if total <= BLITZ_MAX_SECONDS:
        return TimeControl.BLITZ
    if total < RAPID_BELOW_SECONDS:
        return TimeControl.RAPID
    return TimeControl.STANDARD


# lichess broadcast exports write minutes in [TimeControl] ("90+30" for 90'+30",
# the acceptance data's games/otb_broadcast_clk): a base under 3 "seconds-minutes" with an
# increment of 10 s or more is read as minutes; no one plays 90 s + 30 s.
MINUTES_WRITTEN_BELOW = 180
MINUTES_WRITTEN_INCREMENT = 10

_KEYWORDS = (
    (TimeControl.BLITZ, re.compile(r"blitz|bullet|lightning", re.I)),
    (TimeControl.RAPID, re.compile(r"rapid|schnell|\bactive\b", re.I)),
    (TimeControl.STANDARD, re.compile(r"standard|classic|\bslow\b", re.I)),
)
_MINUTES_PLUS = re.compile(r"\b(\d{1,3})\s*(?:\+|plus|min\s*\+)\s*(\d{1,2})\b", re.I)


def time_control_from_text(*texts: str) -> TimeControl | None:
    """A time control named in free text ("Blitz", "Rapid", "5 Plus 0", "5+3"), if any.

    Keywords win over numbers; ``m+s`` is read as minutes plus seconds of increment.
    """
    for text in texts:
        for control, pattern in _KEYWORDS:
            if pattern.search(text):
                return control
    for text in texts:
        if match := _MINUTES_PLUS.search(text):
            return classify_seconds(int(match.group(1)) * 60, int(match.group(2)))
    return None


def parse_time_control(text: str) -> TimeControl | None:
    """The category of a value of PGN's ``[TimeControl]`` tag (PGN standard 9.6.1):
    ``300+2``, ``5400``, ``40/5400:1800`` (first period counts), ``*180`` (sandclock);
    None for ``?``/``-``/blank or anything unreadable."""
    first = text.strip().split(":")[0]
    if first.startswith("*"):
        first = first[1:]
    if "/" in first:
        first = first.split("/", 1)[1]
    base, _, increment = first.partition("+")
    try:
        base_seconds, increment_seconds = float(base), float(increment or 0)
    except ValueError:
        return None
    if base_seconds < MINUTES_WRITTEN_BELOW and increment_seconds >= MINUTES_WRITTEN_INCREMENT:
        base_seconds *= 60  # '90+30' is 90 minutes + 30 s (lichess broadcasts), not 90 s
    return classify_seconds(base_seconds, increment_seconds)


class PlayerNumbers:
    """Players numbered 1, 2, ... in order of first appearance (PGN, CSV) in ``source``; the
    first beyond :data:`MAX_PLAYERS` is refused at once, before the rest of the file is read."""

    def __init__(self, source: str = "<input>") -> None:
        self.source = source
        self._numbers: dict[str, int] = {}
        self._lines: dict[str, int | None] = {}

    def number(self, name: str, line: int | None) -> int:
        key = " ".join(name.split())
        if key not in self._numbers:
            if len(self._numbers) >= MAX_PLAYERS:
                raise InputError(
                    N_("player %(count)s: at most %(MAX_PLAYERS)s in one tournament"),
                    file=self.source,
                    line=line,
                    count=format(MAX_PLAYERS + 1, ","),
                    MAX_PLAYERS=format(MAX_PLAYERS, ","),
                )
            self._numbers[key] = len(self._numbers) + 1
            self._lines[key] = line
        return self._numbers[key]

    def entries(self) -> tuple[PlayerEntry, ...]:
        return tuple(
            PlayerEntry(number=n, name=name, line=self._lines[name])
            for name, n in self._numbers.items()
        )


def check_one_game_per_round(
    pairings: Iterable[Pairing], byes: Iterable[Bye], names: dict[int, str], source: str
) -> None:
    """Refuse a player who appears twice in one round (two games, or a game and a bye)."""
    seen: dict[tuple[int, int], int | None] = {}
    entries: list[tuple[int, int, int | None]] = []
    for pairing in pairings:
        entries += [
            (pairing.round, pairing.white, pairing.line),
            (pairing.round, pairing.black, pairing.line),
        ]
    entries += [(bye.round, bye.player, bye.line) for bye in byes]
    for round_, player, line in entries:
        if (round_, player) in seen:
            first = seen[(round_, player)]
            raise InputError(
                N_(
                    "%(value)s appears twice in round %(round)s"
                    " (first at line %(first)s); expected one game or bye per round"
                ),
                file=source,
                line=line,
                value=str(names.get(player, player)),
                round=round_,
                first=first,
            )
        seen[(round_, player)] = line


def check_bounds(record: TournamentRecord) -> None:
    """Refuse a tournament beyond :data:`MAX_ROUNDS` rounds, :data:`MAX_PLAYERS` players (or
    board numbers) or a name longer than :data:`MAX_NAME_LENGTH`, naming the line."""
    source = record.source or "<input>"
    for entry in record.players:
        check_name(entry.name, source, entry.line)
    if len(record.players) > MAX_PLAYERS:
        raise InputError(
            N_("%(count)s players: at most %(MAX_PLAYERS)s in one tournament"),
            file=source,
            line=record.players[MAX_PLAYERS].line,
            count=format(len(record.players), ","),
            MAX_PLAYERS=format(MAX_PLAYERS, ","),
        )
    for pairing in record.pairings:
        check_round(pairing.round, source, pairing.line)
        if pairing.board is not None and not 1 <= pairing.board <= MAX_PLAYERS:
            raise InputError(
                N_("board %(board)s: expected a board number from 1 to %(MAX_PLAYERS)s"),
                file=source,
                line=pairing.line,
                board=pairing.board,
                MAX_PLAYERS=format(MAX_PLAYERS, ","),
            )
    for bye in record.byes:
        check_round(bye.round, source, bye.line)
    if len(record.teams) > MAX_PLAYERS:  # a team has one player at least, or the file is hostile
        raise InputError(
            N_("%(count)s teams: at most %(MAX_PLAYERS)s in one tournament"),
            file=source,
            line=record.teams[MAX_PLAYERS].line,
            count=format(len(record.teams), ","),
            MAX_PLAYERS=format(MAX_PLAYERS, ","),
        )


def check_round(number: int, source: str, line: int | None) -> None:
    if not 1 <= number <= MAX_ROUNDS:
        raise InputError(
            N_("round %(number)s: expected a round number from 1 to %(MAX_ROUNDS)s"),
            file=source,
            line=line,
            number=number,
            MAX_ROUNDS=MAX_ROUNDS,
        )


def check_name(name: str, source: str, line: int | None) -> None:
    if len(name) > MAX_NAME_LENGTH:
        raise InputError(
            N_(
                "a name of %(count)s characters (%(value)s...): expected at most "
                "%(MAX_NAME_LENGTH)s"
            ),
            file=source,
            line=line,
            count=format(len(name), ","),
            value=repr(name[:20]),
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        )


def check_text(text: str, source: str, first_line: int = 1) -> None:
    """Refuse a text holding a control character other than layout (tab, line ends), naming
    its line and column: a stray ESC or NUL is a damaged or a hostile file, never a name to
    store (words.CONTROL_RANGES)."""
    at = find_control(text, LAYOUT)
    if at < 0:
        return
    line = first_line + text.count("\n", 0, at)
    column = at - text.rfind("\n", 0, at)
    if text[at] == "\x00":
        raise InputError(
            N_("a NUL byte: expected a text file (TRF, PGN or CSV)"), file=source, line=line
        )
    raise InputError(
        N_("a control character %(character)s in column %(column)s: expected printable text"),
        file=source,
        line=line,
        character=control_name(text[at]),
        column=column,
    )


def points_text(half_points: int) -> str:
    """Half-points as a score: 7 -> '3.5'."""
    return f"{half_points // 2}.5" if half_points % 2 else f"{half_points // 2}.0"


class NumberedLines:
    """Lines of a text handle with their 1-based numbers, line ends removed (CRLF too)."""

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle

    def __iter__(self) -> Iterator[tuple[int, str]]:
        for number, line in enumerate(self._handle, start=1):
            text = line.rstrip("\r\n")
            yield number, (text.lstrip("\ufeff") if number == 1 else text)


# Files a person may give where a text file is expected, by their first bytes: what they are
# and what reads them (instead of "a control character U+001F in column 1").
GZIP = (b"\x1f\x8b", N_("a gzip file: a club archive is read by clubrating import-club"))
SQLITE = (b"SQLite format 3\x00", N_("a SQLite database: a backup is read by clubrating restore"))
PG_DUMP = (b"PGDMP", N_("a pg_dump file: a backup is read by clubrating restore"))
ZIP = (b"PK\x03\x04", N_("a ZIP file: expected a text file, unpack it first"))
NOT_TEXT = (GZIP, SQLITE, PG_DUMP, ZIP)


def refuse_kinds(head: bytes, kinds: Iterable[tuple[bytes, str]], source: str | None) -> None:
    """An InputError saying what the file is when its first bytes are one of ``kinds``'s (a
    tournament file, a backup or an archive given where another was expected)."""
    for start, what in kinds:
        if head.startswith(start):
            raise InputError(what, file=source)


def decode_text(data: bytes, source: str | None = None) -> str:
    """The text of a file's bytes: UTF-8 (with or without BOM), UTF-16 with a BOM,
    else Windows-1252, else Latin-1 (which decodes every byte). A UTF-16 BOM before bytes that
    are no UTF-16 (an odd count, a lone surrogate) is a damaged file, and a file of
    :data:`NOT_TEXT` no text at all: an InputError."""
    refuse_kinds(data, NOT_TEXT, source)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise InputError(
                N_("the file starts as UTF-16 but is not (%(reason)s at byte %(start)s)"),
                file=source,
                reason=error.reason,
                start=error.start + 2,
            ) from None
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")
