"""Seeded simulations: a realistic club for the demo, a federation for the benchmark.

Pure: everything comes from ``random.Random(seed)``; nothing is read or written.
The same seed always gives the same club, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from clubrating.rating.types import RatedGame, TournamentInput

DRAW_BAND = 0.25                   # share of draws between equal players (a round figure for clubs)
SEASON_START = dt.date(2021, 9, 7)  # a Tuesday: club night


def game_points(rng: random.Random, white_strength: float, black_strength: float) -> int:
    """White's half-points from hidden strengths: the R1 curve, with a band of draws."""
    p = 1.0 / (1.0 + math.pow(10.0, (black_strength - white_strength) / 400.0))
    u = rng.random()
    if u < p - DRAW_BAND / 2:
        return 2
    return 1 if u < p + DRAW_BAND / 2 else 0


# -- federation-sized histories (benchmark) ------------------------------------------------

CLUB_SIZE = 100          # players per club of the synthetic federation
OPEN_SHARE = 0.15        # tournaments open to a region of clubs instead of one club
REGION_CLUBS = 10
UNPLAYED_SHARE = 0.01    # forfeits (R8)
ROUNDS = 5


def simulate_history(seed: int, games: int = 1_000_000, players: int = 50_000,
                     tournaments: int = 20_000, years: int = 10) -> list[TournamentInput]:
    """A federation's history: clubs of 100 players, club and regional Swiss events.

    Player keys are ints ``0 .. players-1``; exactly ``games`` pairings (about 1 %
    unplayed) spread evenly over ``tournaments`` tournaments of five rounds.
    """
    if min(games, players, tournaments) <= 0 or players < 2:
        raise ValueError("games, players and tournaments must be positive")
    rng = random.Random(seed)
    strength = [rng.gauss(1500.0, 300.0) for _ in range(players)]
    clubs = [list(range(lo, min(lo + CLUB_SIZE, players))) for lo in range(0, players, CLUB_SIZE)]
    history = []
    for index in range(tournaments):
        target = games // tournaments + (1 if index < games % tournaments else 0)
        pool = _pool(rng, clubs)
        boards = max(1, min(len(pool) // 2, math.ceil(target / ROUNDS)))
        entrants = rng.sample(pool, 2 * boards)
        pairings = _random_rounds(rng, entrants, target, strength)
        days = index * years * 365 // tournaments
        history.append(TournamentInput(
            id=index, date=dt.date(2010, 1, 1) + dt.timedelta(days=days), sequence=index,
            games=tuple(pairings),
            juniors=frozenset(p for p in entrants if p % 23 == 0),
        ))
    return history


def _pool(rng: random.Random, clubs: list[list[int]]) -> list[int]:
    first = rng.randrange(len(clubs))
    if rng.random() >= OPEN_SHARE:
        return clubs[first]
    region = range(first - first % REGION_CLUBS, min(len(clubs), first - first % REGION_CLUBS + REGION_CLUBS))
    return [p for c in region for p in clubs[c]]


def _random_rounds(rng: random.Random, entrants: list[int], target: int,
                   strength: list[float]) -> list[RatedGame]:
    pairings: list[RatedGame] = []
    while len(pairings) < target:
        rng.shuffle(entrants)
        for board in range(0, len(entrants) - 1, 2):
            if len(pairings) == target:
                break
            white, black = entrants[board], entrants[board + 1]
            played = rng.random() >= UNPLAYED_SHARE
            points = game_points(rng, strength[white], strength[black]) if played else rng.choice((0, 2))
            pairings.append(RatedGame(white, black, points, played))
    return pairings
