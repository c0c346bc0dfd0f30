"""A club's initial list: the ratings its members bring from before its first tournament.

The replay starts from it (:func:`clubrating.rating.replay.replay`, ``initial=``):
a listed player's first tournament is rated from the listed rating and games,
like a player who had played them here. A list that gives no games count (a
TRF's rating column) means an established rating: the player counts as having
played :meth:`established_games` rated games, so is neither provisional (R6)
nor on the K of a new player (R4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from clubrating.rating import fide
from clubrating.rating.policy import Policy
from clubrating.rating.types import PlayerKey, Standing


@dataclass(frozen=True, slots=True)
class InitialRating:
    """One player of the initial list. ``games`` None: the list does not say."""

    player: PlayerKey
    rating: float
    games: int | None = None


def established_games(policy: Policy) -> int:
    """The games an unstated count stands for: past both R4's new-player K and R6's provisional."""
    return max(policy.k_new_games, policy.provisional_below)


def initial_standings(
    initial: Iterable[InitialRating], policy: Policy
) -> dict[PlayerKey, Standing]:
    """Each listed player's standing before the first tournament.

    A player listed twice keeps the first row (the callers refuse duplicates;
    two members merged into one are the case left). A rating of 2400 or more
    counts as FIDE's "once reached 2400" (FIDE 8.3.3).
    """
    standings: dict[PlayerKey, Standing] = {}
    for row in initial:
        if row.player in standings:
            continue
        games = established_games(policy) if row.games is None else row.games
        standings[row.player] = Standing(
            rating=float(row.rating), games=games, peak_reached_2400=row.rating >= fide.K_HIGH_FROM
        )
    return standings
