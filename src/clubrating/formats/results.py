"""A game's result: one type, read from every spelling and written in one place.

The services, the CSV reader, the typed-results form, the ``correct`` command
and the pages all read and write results through :class:`GameResult`, so a
spelling docs/formats.md documents is understood everywhere alike. A result
given without a move (TRF ``W``/``D``/``L``, CSV ``1-0 unplayed``) is the
played result with :attr:`~clubrating.formats.records.Unplayed.NO_MOVES`: the
CSV reader adds that word itself.
"""

from __future__ import annotations

import enum

from clubrating.errors import InputError, Text
from clubrating.formats.records import HalfPoints, Unplayed
from clubrating.words import N_


class GameResult(enum.Enum):
    """A game's result, named by its value in the club's words (the arbiter's form, ``correct``)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_BY_FORFEIT = "+-"  # TRF '+' / '-': black did not show up (never rated, R8)
    BLACK_WINS_BY_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"  # TRF '-' against '-': neither showed up

    @property
    def points(self) -> tuple[HalfPoints, HalfPoints]:
        """White's and black's half-points."""
        return _POINTS[self]

    @property
    def white_points(self) -> HalfPoints:
        return _POINTS[self][0]

    @property
    def black_points(self) -> HalfPoints:
        return _POINTS[self][1]

    @property
    def played(self) -> bool:
        """Played over the board (a forfeit is not: it counts in standings, never in ratings)."""
        return self in _PLAYED

    @property
    def unplayed(self) -> Unplayed | None:
        """Why the game was not played: None for a game played over the board."""
        if self.played:
            return None
        return Unplayed.DOUBLE_FORFEIT if self is GameResult.DOUBLE_FORFEIT else Unplayed.FORFEIT

    @classmethod
    def find(cls, text: str) -> GameResult | None:
        """The result a spelling of docs/formats.md stands for (spaces and case ignored), or
        None."""
        return SPELLINGS.get("".join(text.split()).casefold())

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """A result as the arbiter types it; an InputError that lists the spellings otherwise."""
        found = cls.find(text)
        if found is None:
            raise InputError(
                N_("unknown result %(text)s: expected one of %(EXPECTED)s"),
                text=repr(text),
                EXPECTED=EXPECTED,
            )
        return found

    @classmethod
    def of(cls, white: HalfPoints, black: HalfPoints, played: bool = True) -> GameResult | None:
        """The result with these half-points (a forfeit when not played), or None for points no
        result gives (say 0-0 played). An unplayed draw (TRF ``D``) reads as a draw."""
        if not played and (white, black) in _FORFEIT_OF:
            return _FORFEIT_OF[white, black]
        return _PLAYED_OF.get((white, black))


_POINTS: dict[GameResult, tuple[HalfPoints, HalfPoints]] = {
    GameResult.WHITE_WINS: (2, 0),
    GameResult.BLACK_WINS: (0, 2),
    GameResult.DRAW: (1, 1),
    GameResult.WHITE_WINS_BY_FORFEIT: (2, 0),
    GameResult.BLACK_WINS_BY_FORFEIT: (0, 2),
    GameResult.DOUBLE_FORFEIT: (0, 0),
}
_PLAYED = frozenset({GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW})
_PLAYED_OF = {_POINTS[r]: r for r in _PLAYED}
_FORFEIT_OF = {_POINTS[r]: r for r in GameResult if r not in _PLAYED}

SPELLINGS: dict[str, GameResult] = {
    # docs/formats.md, "CSV": every spelling of a game's result; the PGN standard's three (8.2.6)
    "1-0": GameResult.WHITE_WINS,
    "1:0": GameResult.WHITE_WINS,
    "0-1": GameResult.BLACK_WINS,
    "0:1": GameResult.BLACK_WINS,
    "1/2-1/2": GameResult.DRAW,
    "½-½": GameResult.DRAW,
    "½:½": GameResult.DRAW,
    "0.5-0.5": GameResult.DRAW,
    "=": GameResult.DRAW,
    "+:-": GameResult.WHITE_WINS_BY_FORFEIT,
    "+-": GameResult.WHITE_WINS_BY_FORFEIT,
    "+/-": GameResult.WHITE_WINS_BY_FORFEIT,
    "-:+": GameResult.BLACK_WINS_BY_FORFEIT,
    "-+": GameResult.BLACK_WINS_BY_FORFEIT,
    "-/+": GameResult.BLACK_WINS_BY_FORFEIT,
    "-:-": GameResult.DOUBLE_FORFEIT,
    "--": GameResult.DOUBLE_FORFEIT,
    "-/-": GameResult.DOUBLE_FORFEIT,
}
"""Every spelling read, without spaces and case-folded, and the result it stands for."""

EXPECTED = Text(
    N_(
        "1-0, 0-1, 1/2-1/2, +- (white wins by forfeit), -+ (black wins by forfeit), "
        "-- (double forfeit)"
    )
)
"""The spellings named in a message (docs/formats.md lists the others)."""

PGN_UNFINISHED = "*"  # PGN standard 8.2.6: a game still in progress, or its result unknown


def result_text(white: HalfPoints, black: HalfPoints, played: bool = True) -> str:
    """A stored game's result in the club's words ("1-0", "+-", ...), or its half-points
    ("2-2") when no result gives them."""
    found = GameResult.of(white, black, played)
    return found.value if found is not None else f"{white}-{black}"


def pgn_result(white: HalfPoints, black: HalfPoints) -> str:
    """The PGN Result tag of a game with these half-points: ``*`` when no finished result gives
    them."""
    found = GameResult.of(white, black)
    return found.value if found is not None else PGN_UNFINISHED
