"""The reference rating core: one tournament at a time, plain Python.

This is the simple, obviously correct statement of the rules; the vectorised
:func:`clubrating.rating.replay.replay` must agree with it (a property test
checks it on random histories for both policies).

- R1/R2: expected score and K x (actual - expected), summed per tournament.
- R5: every game of a tournament uses the ratings, K and provisional status
  the players had before it; the changes are applied at its end.
- R7: a game counts for a player unless the opponent is provisional and the
  player is not (then it is not rated for him and not counted in his games).
- R8: unplayed games and unrated tournaments (bughouse) never change a rating
  nor count as rated games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from clubrating.rating import fide
from clubrating.rating.policy import Policy
from clubrating.rating.types import (
    PlayerChange,
    PlayerKey,
    RatedGame,
    RatingHistory,
    Standing,
    TournamentInput,
    TournamentOutcome,
)

WIN, DRAW, LOSS = 2, 1, 0  # half-points (types.py)
VALID_POINTS = (WIN, DRAW, LOSS)


def expected_score(own: float, opponent: float, scale: float = 400.0) -> float:
    """R1: 1 / (1 + 10^((opponent - own) / 400)). Equal ratings give 0.5."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - own) / scale))


def counts_for(own_provisional: bool, opponent_provisional: bool) -> bool:
    """R7: a provisional opponent moves an established player only if both are provisional."""
    return own_provisional or not opponent_provisional


def check_game(game: RatedGame, tournament_id: Any) -> None:
    if game.white_points not in VALID_POINTS:
        raise ValueError(
            f"tournament {tournament_id!r}: white_points must be 0, 1 or 2, "
            f"not {game.white_points!r}"
        )
    if game.white == game.black:
        raise ValueError(f"tournament {tournament_id!r}: {game.white!r} paired with themself")


@dataclass(slots=True)
class _Tally:
    """One player's rated games in one tournament, accumulated in game order."""

    games: int = 0
    score: float = 0.0
    expected: float = 0.0


def _tallies(
    before: Mapping[PlayerKey, Standing], tournament: TournamentInput, policy: Policy
) -> dict[PlayerKey, _Tally]:
    """Every player of a played game, in order of first appearance, with the rated part."""
    tallies: dict[PlayerKey, _Tally] = {}
    for game in tournament.games:
        check_game(game, tournament.id)
        if not game.played:  # R8
            continue
        white = before.get(game.white) or policy.new_standing()  # R3
        black = before.get(game.black) or policy.new_standing()
        white_provisional, black_provisional = (
            policy.is_provisional(white),
            policy.is_provisional(black),
        )
        sides = (
            (game.white, white, black, game.white_points, white_provisional, black_provisional),
            (
                game.black,
                black,
                white,
                WIN - game.white_points,
                black_provisional,
                white_provisional,
            ),
        )
        for key, own, opponent, points, own_provisional, opponent_provisional in sides:
            tally = tallies.setdefault(key, _Tally())
            if counts_for(own_provisional, opponent_provisional):  # R7
                tally.games += 1
                tally.score += points / 2
                tally.expected += policy.expected_score(own.rating, opponent.rating)
    return tallies


def rate_tournament(
    before: Mapping[PlayerKey, Standing], tournament: TournamentInput, policy: Policy
) -> tuple[TournamentOutcome, dict[PlayerKey, Standing]]:
    """Rate one tournament against the standings everybody had before it (R5).

    Returns the outcome (one change per player with at least one rated game, in
    order of first appearance) and the new standings of exactly those players;
    a player missing from ``before`` is new (R3).
    """
    if not tournament.rated:  # R8: bughouse
        for game in tournament.games:
            check_game(game, tournament.id)
        return TournamentOutcome(tournament.id, ()), {}
    changes: list[PlayerChange] = []
    after: dict[PlayerKey, Standing] = {}
    for key, tally in _tallies(before, tournament, policy).items():
        if tally.games == 0:
            continue
        standing = before.get(key) or policy.new_standing()
        k = policy.k_factor(standing, tally.games, key in tournament.juniors)
        change = policy.settle(k, tally.score - tally.expected)
        rating = standing.rating + change
        changes.append(
            PlayerChange(
                player=key,
                rating_before=standing.rating,
                rating_after=rating,
                change=change,
                k=k,
                games_rated=tally.games,
                score_rated=tally.score,
                expected=tally.expected,
                provisional_before=policy.is_provisional(standing),
                games_before=standing.games,
            )
        )
        after[key] = Standing(
            rating=rating,
            games=standing.games + tally.games,
            peak_reached_2400=reached_2400(standing, rating),
        )
    return TournamentOutcome(tournament.id, tuple(changes)), after


def reached_2400(standing: Standing, rating_after: float) -> bool:
    """FIDE 8.3.3: K 10 for good once the rating has reached 2400."""
    return (
        standing.peak_reached_2400
        or standing.rating >= fide.K_HIGH_FROM
        or rating_after >= fide.K_HIGH_FROM
    )


def in_order(tournaments: Iterable[TournamentInput]) -> list[TournamentInput]:
    """Tournaments by (date, sequence, id), so that import order never matters (R13)."""
    ordered = sorted(tournaments, key=lambda t: t.order_key)
    for earlier, later in zip(ordered, ordered[1:]):
        if earlier.order_key == later.order_key:
            raise ValueError(f"two tournaments share the order key {later.order_key!r}")
    return ordered


def replay_reference(
    tournaments: Iterable[TournamentInput],
    policy: Policy,
    start: Mapping[PlayerKey, Standing] | None = None,
) -> RatingHistory:
    """R13: replay a whole history, tournament by tournament (the reference)."""
    standings: dict[PlayerKey, Standing] = dict(start or {})
    outcomes = []
    for tournament in in_order(tournaments):
        outcome, after = rate_tournament(standings, tournament, policy)
        standings.update(after)
        outcomes.append(outcome)
    return RatingHistory(outcomes=tuple(outcomes), final=standings)
