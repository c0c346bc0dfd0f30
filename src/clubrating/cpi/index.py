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

from clubrating.cpi.facts import Color, GameFacts, won
from clubrating.cpi.presets import FITTED, POOLS, PROVENANCE
from clubrating.cpi.registry import COUNTS, SHARES, PlayerFactors, player_factors
from clubrating.cpi.weights import Weights as Weights  # its home is cpi.weights
from clubrating.formats.results import GameResult
from clubrating.words import N_

CPI_FLOOR, CPI_CEILING = 0.0, 4000.0  # spec C2: clamp(CPI, 0, 4000)


# Named settings. "spec" is the specification's arithmetic (C1 weights, C2 running sum), kept
# as the reference; the others are fits of ``clubrating calibrate`` on one rating pool and
# time control each (``benchmarks/fit_presets.py`` writes :mod:`clubrating.cpi.presets`,
# ``acceptance/test_cpi_fit.py`` refits them). A club starts from DEFAULT_PRESET: its games
# are over the board, and FIDE's classical ratings are the scale its members know.
PRESETS: dict[str, Weights] = {
    "spec": Weights(),
    **{name: Weights.from_dict(settings) for name, settings in FITTED.items()},
}
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
        raise ValueError(
            f"unknown CPI preset {name!r}: expected one of {', '.join(PRESETS)}"
        ) from None


def initial_cpi(weights: Weights) -> float:
    """A player's CPI before any game: the club's start (spec), or the pool's mean (fitted)."""
    model = weights.model
    return model.elo.prior_mean if model.tracking else model.start


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
    scored: bool = True  # False: the game is shorter than the settings' ``min_plies``

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "result_bonus": self.result_bonus,
            "delta_cpi": round(self.delta_cpi, 6),
            "scored": self.scored,
            "factors": self.factors.to_dict(),
            "acpl": self.factors.acpl,
            "accuracy": self.factors.accuracy,
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
    date: dt.date | None = None  # when it was played: the ``decay`` setting needs it


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


def game_shows(score: float, weights: Weights) -> float | None:
    """What one game shows on the CPI's scale under settings with an Elo map: the rating whose
    expected score it is, (score − α)/β of the measurement model, clamped as the CPI is (C2);
    None under the spec's arithmetic, whose score is the game's ΔCPI itself."""
    elo = weights.model.elo_map
    if elo is None or weights.model.k <= 0:
        return None
    return clamp_cpi((score - elo.alpha) / elo.beta)


def gain(weights: Weights, played: int) -> float:
    """k of the game after ``played`` scored games: the larger of the settings' ``k`` and the
    weight a posterior mean gives the next game of a player of unchanging strength,
    1/(played + 1 + (σ/β)²/τ²) (the measurement model's noise over the pool's spread). A
    newcomer's CPI leaves the pool's mean at once and then settles, as Elo's K of 40 for the
    first games then 20 (spec R4) does; 1 under the spec (ΔCPI is the game's score)."""
    model, elo = weights.model, weights.model.elo_map
    if elo is None or model.k <= 0:
        return 1.0
    noise = (elo.sigma / elo.beta) ** 2
    return max(model.k, 1.0 / (played + 1 + noise / elo.prior_sd**2))


def ledger_step(
    before: float, score: float, weights: Weights, played: int = 0
) -> tuple[float, float]:
    """(ΔCPI, CPI after) of one game whose score (Σ w·factor + R, spec C1) is ``score``, for a
    player whose CPI was ``before`` after ``played`` scored games; always CPI after =
    clamp(before + ΔCPI, 0, 4000) (C2).

    Under the spec ΔCPI is the score. Under fitted settings ΔCPI = k · (what the game shows −
    CPI before) (:func:`gain`): a game better than the player's CPI raises it, a poorer one
    lowers it, so the CPI follows the pool's rating of the player whatever the number of games
    (k: docs/cpi.md, "The running CPI")."""
    shows = game_shows(score, weights)
    delta = score if shows is None else gain(weights, played) * (shows - before)
    return delta, clamp_cpi(before + delta)


def cpi_per_point(weights: Weights, played: int | None = None) -> float:
    """ΔCPI a game per point of a game's score (C1's units): 1 under the spec, k/β under fitted
    settings (a factor's weight times its value moves the game's Elo-equivalent by w·v/β, and
    the CPI by k of that; ``played``: the :func:`gain` of that game, else the settled ``k``).
    What a factor costs or adds, in the ledger's ΔCPI."""
    elo = weights.model.elo_map
    if elo is None or weights.model.k <= 0:
        return 1.0
    return (weights.model.k if played is None else gain(weights, played)) / elo.beta


def contributions(
    score: PlayerScore, before: float, weights: Weights, played: int = 0
) -> dict[str, float]:
    """What each factor and the result added to this game's ΔCPI (``ledger_step``), in the
    direction a player reads them, and ``"rest"`` for what the CPI before contributes (under
    fitted settings: the pull of an average game toward the pool's mean); they sum to ΔCPI.

    Under the spec a factor adds w·value and the result R. Under fitted settings a share factor
    adds k·w·(value − the pool's mean)/β (above the pool's mean: more), a count k·w·count/β, the
    result k·R/β (R ≥ 0: the fit keeps the result's sign, docs/cpi.md)."""
    unit = cpi_per_point(weights, played)
    fitted = game_shows(score.delta_cpi, weights) is not None
    parts: dict[str, float] = {}
    for name in SHARES:
        value = score.factors.share(name).value
        mean = weights.factor(name).mean if fitted else 0.0
        parts[name] = 0.0 if value is None else unit * weights.weight(name) * (value - mean)
    parts.update(
        {name: unit * weights.weight(name) * score.factors.count(name).count for name in COUNTS}
    )
    parts["result"] = unit * score.result_bonus
    delta, _ = ledger_step(before, score.delta_cpi, weights, played)
    parts["rest"] = delta - sum(parts.values())
    return parts


DAYS_A_YEAR = 365.2425  # the Gregorian calendar's mean year


def years_before(dates: Sequence[dt.date | None], moment: dt.date | None) -> list[float] | None:
    """Years from each date to ``moment`` (0 for a game after it); None when a date is unknown."""
    if moment is None or any(d is None for d in dates):
        return None
    return [max(0, (moment - d).days) / DAYS_A_YEAR for d in dates if d is not None]


def ledger(
    games_in_order: Iterable[LedgerGame], weights: Weights = Weights()
) -> tuple[LedgerEntry, ...]:
    """Replay every game in the given order (tournament date, round, board): per player the
    CPI before, ΔCPI and CPI after each scored game (:func:`ledger_step`), from
    :func:`initial_cpi`; a game shorter than ``min_plies`` has no entry.

    Pure: the same games and weights always give the same entries.
    """
    current: dict[Hashable, float] = {}
    played: dict[Hashable, int] = {}
    entries: list[LedgerEntry] = []
    for game in games_in_order:
        scores = score_game(game.facts, weights)
        for color, player in ((Color.WHITE, game.white), (Color.BLACK, game.black)):
            if not scores[color].scored:
                continue
            before = current.get(player, initial_cpi(weights))
            delta, after = ledger_step(
                before, scores[color].delta_cpi, weights, played.get(player, 0)
            )
            current[player], played[player] = after, played.get(player, 0) + 1
            entries.append(LedgerEntry(game.game_id, player, color, before, delta, after))
    return tuple(entries)


def standings(entries: Iterable[LedgerEntry]) -> dict[Hashable, float]:
    """Each player's CPI after the last game of the ledger."""
    latest: dict[Hashable, float] = {}
    for entry in entries:
        latest[entry.player] = entry.cpi_after
    return latest
