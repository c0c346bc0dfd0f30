"""ΔCPI of one player in one game (spec C1) and the cumulative CPI ledger (spec C2).

Everything here is a pure function of stored facts and weights: the club
rebuilds the ledger whenever history changes (a corrected result, a merge)
and re-scores stored facts when the weights change, without the engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from clubrating.cpi.calibrate import estimate
from clubrating.cpi.facts import Color, GameFacts, won
from clubrating.cpi.presets import FITTED, POOLS, PROVENANCE
from clubrating.cpi.registry import COUNTS, SHARES, PlayerFactors, player_factors
from clubrating.cpi.weights import Weights as Weights   # its home is cpi.weights
from clubrating.formats.results import GameResult
from clubrating.words import N_

CPI_FLOOR, CPI_CEILING = 0.0, 4000.0  # spec C2: clamp(CPI, 0, 4000)


# Named settings. "spec" is the specification's arithmetic (C1 weights, C2 running sum), kept
# as the reference; the others are fits of ``clubrating calibrate`` on one rating pool and
# time control each (``benchmarks/fit_presets.py`` writes :mod:`clubrating.cpi.presets`,
# ``acceptance/test_cpi_fit.py`` refits them). A club starts from DEFAULT_PRESET: its games
# are over the board, and FIDE's classical ratings are the scale its members know.
PRESETS: dict[str, Weights] = {"spec": Weights(), **{name: Weights.from_dict(settings)
                                                    for name, settings in FITTED.items()}}
# what each Elo means, in English: the dashboard and the CLI translate it (marked by N_)
PRESET_POOLS: dict[str, str] = {"spec": N_("the specification's weights"), **POOLS}
DEFAULT_PRESET = "fide-classical"


def fitted_nodes(name: str) -> int | None:
    """The engine's nodes a position the preset was fitted at (its provenance); None for the
    spec's arithmetic, which no engine fitted. A club's analysis may run at another depth:
    the dashboard and the CLI say both (docs/cpi.md, "The engine's depth")."""
    engine = PROVENANCE.get(name, {}).get("engine")
    nodes = engine.get("nodes") if isinstance(engine, dict) else None
    return nodes if isinstance(nodes, int) else None


def preset(name: str) -> Weights:
    """The settings of a named preset; an unknown name is a ValueError naming the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown CPI preset {name!r}: expected one of {', '.join(PRESETS)}") from None


def initial_cpi(weights: Weights) -> float:
    """A player's CPI before any game: the club's start (spec), or the pool's mean (window)."""
    model = weights.model
    return model.elo.prior_mean if model.windowed else model.start


def result_bonus(result: GameResult | None, color: Color, weights: Weights = Weights()) -> float:
    """R: +10 win, +5 draw, 0 loss (spec C1); 0 for an unfinished game (None)."""
    if result is None:
        return 0.0
    if result is GameResult.DRAW:
        return weights.result.draw
    return weights.result.win if won(result, color) else weights.result.loss


def delta_cpi(factors: PlayerFactors, bonus: float, weights: Weights = Weights()) -> float:
    """ΔCPI = Σ w·factor + w_H·H + w_Br·Br + R (spec C1); an unavailable factor adds 0 (spec)
    or counts as the pool's mean (fitted settings, ``renormalise``)."""
    total = 0.0
    for name in SHARES:
        factor = factors.share(name)
        value = factor.value if factor.value is not None else weights.unavailable_value(name)
        total += weights.weight(name) * value
    total += sum(weights.weight(name) * factors.count(name).count for name in COUNTS)
    return total + bonus


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    color: Color
    factors: PlayerFactors
    result_bonus: float
    delta_cpi: float
    scored: bool = True      # False: the game is shorter than the settings' ``min_plies``

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "result_bonus": self.result_bonus,
            "delta_cpi": round(self.delta_cpi, 6), "scored": self.scored, "factors": self.factors.to_dict(),
            "acpl": self.factors.acpl, "accuracy": self.factors.accuracy,
        }


def score_player(game: GameFacts, color: Color, weights: Weights = Weights()) -> PlayerScore:
    factors = player_factors(game, color, weights.model.e_form)
    bonus = result_bonus(game.outcome, color, weights)
    name = game.headers.get("White" if color is Color.WHITE else "Black", "?")
    if len(game.plies) < weights.model.min_plies:
        return PlayerScore(name, color, factors, bonus, 0.0, scored=False)
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
    date: dt.date | None = None   # when it was played: the ``decay`` setting needs it


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


def cpi_after(before: float, recent: Sequence[float], weights: Weights,
              dates: Sequence[dt.date | None] | None = None) -> float:
    """The CPI after a game: the spec's clamp(CPI + ΔCPI, 0, 4000) (C2), or with a ``window``
    and an Elo map, the Elo-equivalent of the last ``window`` ΔCPIs (``recent``, newest last,
    played on ``dates``), so that two players' CPIs compare whatever the number of games they
    played."""
    model = weights.model
    elo = model.elo_map
    if model.window >= 1 and elo is not None:
        n = model.window
        window = recent[-n:]
        ages = years_before(dates[-n:], dates[-1]) if dates and model.decay > 0 else None
        return clamp_cpi(estimate(window, elo, ages=ages, decay=model.decay)[0])
    return clamp_cpi(before + recent[-1])


def cpi_intervals(deltas: Sequence[float], weights: Weights,
                  dates: Sequence[dt.date | None] | None = None) -> list[float] | None:
    """The standard deviation of the CPI after each of a player's games (``deltas`` oldest
    first), as :func:`cpi_after` estimates it from the same window; None for settings whose
    CPI is the spec's running sum (no Elo map: no interval to draw)."""
    model = weights.model
    elo = model.elo_map
    if model.window < 1 or elo is None:
        return None
    n, sds = model.window, []
    for end in range(1, len(deltas) + 1):
        when = dates[max(0, end - n):end] if dates else None
        ages = years_before(when, when[-1]) if when and model.decay > 0 else None
        sds.append(estimate(deltas[max(0, end - n):end], elo, ages=ages, decay=model.decay)[1])
    return sds


DAYS_A_YEAR = 365.2425   # the Gregorian calendar's mean year


def years_before(dates: Sequence[dt.date | None], moment: dt.date | None) -> list[float] | None:
    """Years from each date to ``moment`` (0 for a game after it); None when a date is unknown."""
    if moment is None or any(d is None for d in dates):
        return None
    return [max(0, (moment - d).days) / DAYS_A_YEAR for d in dates if d is not None]


def ledger(games_in_order: Iterable[LedgerGame], weights: Weights = Weights()) -> tuple[LedgerEntry, ...]:
    """Replay every game in the given order (tournament date, round, board): per player the
    CPI after each scored game (:func:`cpi_after`) from ``weights.model.start``; a game shorter than
    ``min_plies`` has no entry.

    Pure: the same games and weights always give the same entries.
    """
    current: dict[Hashable, float] = {}
    recent: dict[Hashable, list[float]] = {}
    dates: dict[Hashable, list[dt.date | None]] = {}
    entries: list[LedgerEntry] = []
    for game in games_in_order:
        scores = score_game(game.facts, weights)
        for color, player in ((Color.WHITE, game.white), (Color.BLACK, game.black)):
            if not scores[color].scored:
                continue
            before = current.get(player, initial_cpi(weights))
            delta = scores[color].delta_cpi
            played = recent.setdefault(player, [])
            played.append(delta)
            when = dates.setdefault(player, [])
            when.append(game.date)
            after = cpi_after(before, played, weights, when)
            current[player] = after
            entries.append(LedgerEntry(game.game_id, player, color, before, delta, after))
    return tuple(entries)


def standings(entries: Iterable[LedgerEntry]) -> dict[Hashable, float]:
    """Each player's CPI after the last game of the ledger."""
    latest: dict[Hashable, float] = {}
    for entry in entries:
        latest[entry.player] = entry.cpi_after
    return latest
