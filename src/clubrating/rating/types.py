"""The values the rating core takes and returns.

Players are identified by any hashable, orderable key (a member id in the
club, a name in ``clubrating rate``). Points are half-points (``int``): 2 for a
win, 1 for a draw, 0 for a loss.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

PlayerKey = Any  # hashable and orderable: int member ids, str names
HalfPoints = int


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating state between tournaments."""

    rating: float
    games: int = 0  # rated games played so far (in this list)
    peak_reached_2400: bool = False  # FIDE K 10 once 2400 was reached (FIDE 8.3.3)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One pairing as the rating core sees it.

    ``played`` False (forfeit, result without a move) is carried so that the
    core itself enforces R8: such a game never changes a rating.
    """

    white: PlayerKey
    black: PlayerKey
    white_points: HalfPoints  # 2, 1 or 0; black gets 2 - white_points
    played: bool = True


@dataclass(frozen=True, slots=True)
class TournamentInput:
    """One tournament of a history, in the order key (date, sequence, id)."""

    id: Hashable
    date: dt.date
    games: tuple[RatedGame, ...]
    sequence: int = 0
    rated: bool = True  # False for bughouse (R8)
    juniors: frozenset[PlayerKey] = field(default_factory=frozenset)  # FIDE K 40 flag

    @property
    def order_key(self) -> tuple[dt.date, int, Any]:
        return (self.date, self.sequence, self.id)


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """One player's rating change in one tournament (the stable JSON of ``rate``)."""

    player: PlayerKey
    rating_before: float
    rating_after: float
    change: float
    k: float
    games_rated: int
    score_rated: float
    expected: float
    provisional_before: bool
    games_before: int = 0


@dataclass(frozen=True, slots=True)
class TournamentOutcome:
    """The rating changes of one tournament, one entry per player who took part
    in a rated game (players with only byes or forfeits do not appear)."""

    id: Hashable
    changes: tuple[PlayerChange, ...]


@dataclass(frozen=True, slots=True)
class RatingHistory:
    """A whole history replayed: every tournament's outcome, in order, and where it ends."""

    outcomes: tuple[TournamentOutcome, ...]
    final: Mapping[PlayerKey, Standing]
