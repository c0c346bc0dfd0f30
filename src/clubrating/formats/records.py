"""Plain records that every reader produces and every writer takes.

A tournament file, whatever its format (TRF, PGN, CSV), is read into one
:class:`TournamentRecord`: the players as written, the pairings (played or
not) and the byes. Points are kept exactly, as half-points (``int``): a win is
2, a draw 1, a loss 0: never a float, so a sum is exact.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, field

from clubrating.errors import Text

HalfPoints = int
"""Points counted in halves: 2 = one point, 1 = a draw."""

# Bounds of one tournament: a typo or a hostile file is refused in one line instead of
# overflowing the database's integers or making a page of megabytes, and no real event comes near.
MAX_ROUNDS = 99
"""The longest events a club runs: a weekly ladder over a year (52 rounds), a double round robin
of 50 members (98 rounds)."""
MAX_PLAYERS = 9_999
"""FIDE TRF-16 writes a start number in four columns (5-8 of a 001 line): 9,999 at most; also the
largest board number."""
MAX_NAME_LENGTH = 200
"""The database keeps 200 characters of a name (club.store.models, CharField(max_length=200)), as
identity.normalize checks; no one's name is longer."""


class TimeControl(enum.Enum):
    """The rating list a tournament belongs to. Bughouse belongs to none (spec R8)."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


class TournamentKind(enum.Enum):
    """A rated kind of chess, or bughouse: standings published, never rated (R8)."""

    CHESS = "chess"
    BUGHOUSE = "bughouse"


class Unplayed(enum.Enum):
    """Why a pairing was not played over the board (spec R8; TRF 2016 result codes)."""

    FORFEIT = "forfeit"  # TRF '+' / '-': one side did not show up
    NO_MOVES = "no-moves"  # TRF 'W' / 'D' / 'L': a result without a move played
    DOUBLE_FORFEIT = "double-forfeit"


class ByeKind(enum.Enum):
    """A round without an opponent (TRF 2016 codes)."""

    HALF_POINT = "H"  # half-point bye
    FULL_POINT = "F"  # full-point bye
    PAIRING = "U"  # pairing-allocated bye (odd number of players)
    ZERO_POINT = "Z"  # zero-point bye
    ABSENT = " "  # blank: not paired, absent
    UNFIELDED = "0000"  # team event: player not fielded


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A player as written in the file: start number and name, nothing more (R18)."""

    number: int
    name: str
    points: HalfPoints | None = None  # the total written in the file, if any
    line: int | None = None
    rank: int | None = None  # the place written in the file (TRF columns 86-89); None: none given


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players paired in one round, with the points each received.

    ``played`` is False for forfeits and results given without a move: those
    count in the standings and never in the rating (R8).
    """

    round: int
    white: int
    black: int
    white_points: HalfPoints
    black_points: HalfPoints
    played: bool = True
    unplayed: Unplayed | None = None
    colours_known: bool = True
    board: int | None = None
    moves: str | None = None  # PGN movetext (with comments such as %clk) when known
    headers: tuple[tuple[str, str], ...] = ()  # the PGN tags of the game, when read from PGN
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """A round in which one player had no opponent."""

    round: int
    player: int
    points: HalfPoints
    kind: ByeKind
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Team:
    """A team of a team event (TRF-16 ``013`` line): its name and its players' start numbers in
    board order."""

    name: str
    members: tuple[int, ...]
    line: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One tournament file, read."""

    name: str
    date: dt.date | None
    players: tuple[PlayerEntry, ...]
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...] = ()
    rounds: int = 0
    end_date: dt.date | None = None
    time_control: TimeControl = TimeControl.STANDARD
    kind: TournamentKind = TournamentKind.CHESS
    source: str = ""  # the file name, for messages
    format: str = ""  # "trf", "pgn" or "csv"
    warnings: tuple[Text, ...] = field(default=())  # recoverable oddities, with file:line
    planned_rounds: int | None = (
        None  # TRF 'XXR': rounds announced (``rounds`` counts those in the file)
    )
    dropped: tuple[
        str, ...
    ] = ()  # R18: PGN tags not kept (sorted), and "comments" when any were dropped
    headers: tuple[
        tuple[str, str], ...
    ] = ()  # TRF header lines (code, text) about the event, as written
    teams: tuple[Team, ...] = ()  # a team event's teams (TRF 013 lines), in the file's order
