"""ΔCPI of one player in one game (spec C1) and the cumulative CPI ledger (spec C2).

Everything here is a pure function of stored facts and weights: the club
rebuilds the ledger whenever history changes (a corrected result, a merge)
and re-scores stored facts when the weights change, without the engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.factors import PlayerFactors, player_factors

CPI_FLOOR, CPI_CEILING = 0.0, 4000.0  # spec C2: clamp(CPI, 0, 4000)


@dataclass(frozen=True, slots=True)
class Weights:
    """The ΔCPI weights; defaults are the spec's preliminary values (C1, C4)."""

    E: float = 30
    T: float = 5
    O: float = 10
    B1: float = 20
    B2: float = 5
    B3: float = 2
    M1: float = 8
    M2: float = 15
    M3: float = 20
    H: float = -25     # spec C1: − 25·H
    Br: float = 30
    win: float = 10    # spec C1: R = +10 / +5 / 0
    draw: float = 5
    loss: float = 0
    start: float = 0   # issue 5: the starting CPI, a setting (default 0)

    def to_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weights:
        return cls(**{key: float(value) for key, value in data.items() if key in cls.__slots__})


SHARE_FACTORS = ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")


def result_bonus(result: str, color: Color, weights: Weights = Weights()) -> float:
    """R: +10 win, +5 draw, 0 loss (spec C1); 0 for an unfinished game ("*")."""
    if result == "1/2-1/2":
        return weights.draw
    if result in ("1-0", "0-1"):
        won = (result == "1-0") == (color is Color.WHITE)
        return weights.win if won else weights.loss
    return 0.0


def delta_cpi(factors: PlayerFactors, bonus: float, weights: Weights = Weights()) -> float:
    """ΔCPI = Σ w·factor (unavailable factors add 0) + w_H·H + w_Br·Br + R (spec C1)."""
    total: float = sum(getattr(weights, name) * getattr(factors, name).contribution for name in SHARE_FACTORS)
    total += weights.H * factors.H.count + weights.Br * factors.Br.count
    return total + bonus


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    color: Color
    factors: PlayerFactors
    result_bonus: float
    delta_cpi: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "result_bonus": self.result_bonus,
            "delta_cpi": round(self.delta_cpi, 6), "factors": self.factors.to_dict(),
            "acpl": self.factors.acpl, "accuracy": self.factors.accuracy,
        }


def score_player(game: GameFacts, color: Color, weights: Weights = Weights()) -> PlayerScore:
    factors = player_factors(game, color)
    bonus = result_bonus(game.result, color, weights)
    name = game.headers.get("White" if color is Color.WHITE else "Black", "?")
    return PlayerScore(name, color, factors, bonus, delta_cpi(factors, bonus, weights))


def score_game(game: GameFacts, weights: Weights = Weights()) -> dict[Color, PlayerScore]:
    """Both players' factors and ΔCPI for one analysed game."""
    return {color: score_player(game, color, weights) for color in Color}


@dataclass(frozen=True, slots=True)
class LedgerGame:
    """One game as the ledger sees it: who played which colour, and the stored facts."""

    game_id: Hashable
    white: Hashable
    black: Hashable
    facts: GameFacts


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    game_id: Hashable
    player: Hashable
    color: Color
    cpi_before: float
    delta: float
    cpi_after: float


def clamp_cpi(value: float) -> float:
    return max(CPI_FLOOR, min(CPI_CEILING, value))


def ledger(games_in_order: Iterable[LedgerGame], weights: Weights = Weights()) -> tuple[LedgerEntry, ...]:
    """Replay every game in the given order (tournament date, round, board):
    per player CPI_new = clamp(CPI_old + ΔCPI, 0, 4000) from ``weights.start`` (spec C2).

    Pure: the same games and weights always give the same entries.
    """
    current: dict[Hashable, float] = {}
    entries: list[LedgerEntry] = []
    for game in games_in_order:
        scores = score_game(game.facts, weights)
        for color, player in ((Color.WHITE, game.white), (Color.BLACK, game.black)):
            before = current.get(player, weights.start)
            delta = scores[color].delta_cpi
            after = clamp_cpi(before + delta)
            current[player] = after
            entries.append(LedgerEntry(game.game_id, player, color, before, delta, after))
    return tuple(entries)


def standings(entries: Iterable[LedgerEntry]) -> dict[Hashable, float]:
    """Each player's CPI after the last game of the ledger."""
    latest: dict[Hashable, float] = {}
    for entry in entries:
        latest[entry.player] = entry.cpi_after
    return latest
