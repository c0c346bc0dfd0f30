"""Fitting the CPI on rated games (spec C4 "the weights are to be fitted on 100+
games of different levels", C7 "a FIDE-equivalent of CPI").

Pure: it takes each player-side of each analysed game as a :class:`Side` (the eleven factors,
the result and the player's rating in one pool) and returns a :class:`Fit`: weights by least
squares of the rating on the factors, scaled to the spec's units; a measurement model
ΔCPI = α + β·Elo + noise; and :func:`estimate`, the posterior Elo-equivalent of n games (the
dashboard's "plays like 1750 ± 150"). The fit itself and its cross-validation, which holds whole
players out, are :mod:`clubrating.cpi.regression` (numpy). The model step by step and the figures
of the shipped presets are in ``docs/cpi.md``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clubrating.cpi.factors import FITTED_E
from clubrating.cpi.facts import Color, won
from clubrating.cpi.registry import COUNTS, SHARES, PlayerFactors
from clubrating.formats.results import GameResult

RESULTS = ("win", "draw")  # a loss is the baseline (spec C1: R = 0 for a loss)
FEATURES = SHARES + COUNTS + RESULTS
SPEC_SHARE_TOTAL = 115.0  # spec C1: 30+5+10+20+5+2+8+15+20, the share factors' weights
RIDGE = 1e-3  # ours: a ridge of 0.1 % of each feature's variance, only
# to keep a factor that never varies (T without clocks) at 0
PSEUDO_PLAYER_GAMES = 10  # the Elo estimate is judged over 10 games
# Decay when inactive, in Elo per √year (Glicko's c): not fitted (no data follows players over
# years); ours, from the simulated careers of cpi.decay (benchmarks/simulate_decay.py): with a
# true drift anywhere from 0 to 100, 50 keeps the shown ± holding the true strength 57-77 % of
# the time after up to four years away (68 % is honest), where no decay falls to 51 %.
DECAY = 50.0
# k of the running CPI under a fitted preset (ΔCPI = k · (what the game shows − CPI before),
# cpi.index.ledger_step): ours, from the careers of benchmarks/measure_cpi_tracking.py on each
# pool's held-out players (docs/cpi.md, "The running CPI"): the k that tracks the rating best
# over settled players and a player rising 400 Elo, equally weighed.
TRACKING_K = 0.1


@dataclass(frozen=True, slots=True)
class Side:
    """One player in one analysed game: factor values (None: unavailable), rating, who."""

    elo: float
    values: dict[str, float | None]  # FEATURES -> value (H, Br counts; win/draw 0 or 1)
    group: str = ""  # the player (folds keep a player's games together)
    band: str = ""  # a rating band, for pseudo-players of anonymous games
    acpl: float | None = None


@dataclass(frozen=True, slots=True)
class Fit:
    """Fitted ΔCPI weights, the pool's means for unavailable factors and the Elo mapping."""

    weights: dict[str, float]  # FEATURES -> ΔCPI weight (spec units)
    means: dict[str, float]  # SHARES -> pool mean (what an unavailable factor counts as)
    alpha: float  # ΔCPI = alpha + beta·Elo + noise(sigma)
    beta: float
    sigma: float
    prior_mean: float  # the pool's ratings: mean and standard deviation
    prior_sd: float
    sides: int

    def delta(self, values: dict[str, float | None]) -> float:
        """ΔCPI of one side under this fit (unavailable shares count as the pool's mean)."""
        total = 0.0
        for name in self.weights:
            value = values.get(name)
            if value is None:
                value = self.means.get(name, 0.0)
            total += self.weights[name] * value
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "weights": dict(self.weights),
            "means": dict(self.means),
            "alpha": self.alpha,
            "beta": self.beta,
            "sigma": self.sigma,
            "prior_mean": self.prior_mean,
            "prior_sd": self.prior_sd,
            "sides": self.sides,
        }


def side_values(
    factors: PlayerFactors, result: GameResult | None, color: Color
) -> dict[str, float | None]:
    """The features of one player in one game: factor values, H and Br counts, win / draw."""
    values: dict[str, float | None] = {name: factors.share(name).value for name in SHARES}
    values.update({name: float(factors.count(name).count) for name in COUNTS})
    values["win"], values["draw"] = float(won(result, color)), float(result is GameResult.DRAW)
    return values


def impute(
    values: dict[str, float | None], means: dict[str, float], features: Sequence[str] = FEATURES
) -> list[float]:
    """The feature vector: an unavailable share is the pool's mean, a missing count 0."""
    row = []
    for name in features:
        value = values.get(name)
        row.append(float(value) if value is not None else means.get(name, 0.0))
    return row


def pool_means(sides: Sequence[Side], names: Sequence[str] = SHARES) -> dict[str, float]:
    """Each share's mean over the sides where it was available (0.5 if never)."""
    means = {}
    for name in names:
        seen = [v for s in sides if (v := s.values.get(name)) is not None]
        means[name] = statistics.fmean(seen) if seen else 0.5
    return means


def estimate(
    deltas: Sequence[float],
    model: Fit | EloMap,
    *,
    ages: Sequence[float] | None = None,
    decay: float = 0.0,
) -> tuple[float, float]:
    """Posterior mean and standard deviation of the rating after ``deltas`` (ΔCPI of n games,
    oldest first).

    Each game: ΔCPI = α + β·Elo + noise(σ), so (ΔCPI − α)/β measures Elo with
    noise σ/|β|; prior N(μ, τ²). With n games the precision is 1/τ² + n·β²/σ². The games of
    one player are not independent measurements (a style the factors reward or miss stays),
    so the standard deviation also holds a floor that does not shrink with n, measured on
    held-out sets of 10 games (:attr:`Report.floor`).

    Decay when inactive (spec C7's open question): with ``decay`` = c Elo per
    square root of a year and ``ages`` (years from each game to the moment of the estimate),
    the player's strength is a random walk of variance c² a year, as in Glicko's rating
    deviation (Glickman 1999, "Parameter estimation in large dynamic paired comparison
    experiments", step 1): a Kalman filter over the games, the variance growing by c²·Δt
    between games and after the last one. The estimate weighs older games less and its
    interval widens while a player does not play; it does not drift toward the pool's mean.
    Without decay it is the precision sum above, exactly.
    """
    m = model if isinstance(model, EloMap) else EloMap.of(model)
    if ages is not None and len(ages) != len(deltas):
        raise ValueError(f"estimate: {len(deltas)} games but {len(ages)} ages")
    mean, variance = m.prior_mean, m.prior_sd**2
    if m.beta != 0 and m.sigma > 0:
        noise = (m.sigma / m.beta) ** 2
        when = ages if ages is not None and decay > 0 else [0.0] * len(deltas)
        for i, d in enumerate(deltas):
            if i:
                variance += decay**2 * max(0.0, when[i - 1] - when[i])
            gain = variance / (variance + noise)
            mean += gain * ((d - m.alpha) / m.beta - mean)
            variance *= 1 - gain
        if deltas:
            variance += decay**2 * max(0.0, when[-1])
    return mean, math.sqrt(variance + m.floor**2)


@dataclass(frozen=True, slots=True)
class EloMap:
    """The measurement model alone: what the club keeps to turn ΔCPI into an Elo-equivalent."""

    alpha: float
    beta: float
    sigma: float
    prior_mean: float
    prior_sd: float
    floor: float = 0.0  # Elo: the part of the error that more games do not take away

    @classmethod
    def of(cls, model: Fit) -> EloMap:
        return cls(model.alpha, model.beta, model.sigma, model.prior_mean, model.prior_sd)


# --- cross-validation ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Errors:
    """How far estimates fall from the ratings: count, mean absolute and root mean square error,
    and the correlation of the estimates with the ratings."""

    n: int
    mae: float
    rmse: float
    r: float

    @classmethod
    def of(cls, estimates: Sequence[float], truths: Sequence[float]) -> Errors:
        diffs = [e - t for e, t in zip(estimates, truths)]
        if not diffs:
            return cls(0, math.nan, math.nan, math.nan)
        return cls(
            len(diffs),
            statistics.fmean(abs(d) for d in diffs),
            math.sqrt(statistics.fmean(d * d for d in diffs)),
            correlation(estimates, truths),
        )

    def to_dict(self) -> dict[str, float | None]:
        return {
            "n": self.n,
            "mae": figure(self.mae, 1),
            "rmse": figure(self.rmse, 1),
            "r": figure(self.r, 3),
        }


def figure(value: float, digits: int) -> float | None:
    """A figure for the JSON report, rounded; None where it is unknown (NaN is not JSON)."""
    return round(value, digits) if math.isfinite(value) else None


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return math.nan
    return statistics.correlation(list(xs), list(ys))


@dataclass(frozen=True, slots=True)
class Report:
    """Held-out errors per game and per 10 games, and the baselines beside them."""

    folds: int
    per_game: Errors  # the n = 1 estimate of each held-out side
    per_10: Errors  # 10 held-out sides of one player (or band) together
    delta_r: float  # correlation of the held-out ΔCPI with Elo (mean over folds)
    acpl_r: float  # correlation of ACPL alone with Elo (the baseline)
    spec_r: float  # correlation of the spec's ΔCPI with Elo
    interval_cover_10: float  # share of 10-game truths inside estimate ± 1 sd (with the floor)
    floor: float = 0.0  # Elo: sqrt(mean squared 10-game error − mean posterior variance)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "folds": self.folds,
            "per_game": self.per_game.to_dict(),
            "per_10_games": self.per_10.to_dict(),
            "delta_r": figure(self.delta_r, 3),
            "acpl_r": figure(self.acpl_r, 3),
            "spec_delta_r": figure(self.spec_r, 3),
            "interval_cover_10": figure(self.interval_cover_10, 3),
            "floor": round(self.floor, 1),
            **self.extra,
        }


def folds_of(sides: Sequence[Side], k: int) -> list[int]:
    """A fold per side: whole groups in one fold, groups dealt round-robin in first-seen order
    (deterministic: the same sides give the same folds)."""
    order: dict[str, int] = {}
    for side in sides:
        order.setdefault(side.group, len(order))
    return [order[side.group] % k for side in sides]


def pseudo_players(
    indices: Sequence[int], sides: Sequence[Side], size: int = PSEUDO_PLAYER_GAMES
) -> list[list[int]]:
    """Groups of ``size`` held-out sides that stand for one player: a player's own games when
    they have that many, else consecutive sides of one rating band (lichess's anonymous games,
    a rating band 200 points wide)."""
    by_player: dict[str, list[int]] = {}
    for i in indices:
        by_player.setdefault(sides[i].group, []).append(i)
    by_key: dict[str, list[int]] = {}
    for player, own in by_player.items():
        for i in own:
            key = f"player:{player}" if len(own) >= size else f"band:{sides[i].band}"
            by_key.setdefault(key, []).append(i)
    chunks = []
    for members in by_key.values():
        chunks += [members[j : j + size] for j in range(0, len(members) - size + 1, size)]
    return chunks


def settings_of(model: Fit, *, min_plies: int, window: int, floor: float = 0.0) -> dict[str, float]:
    """The fit as CPI settings (the fields of :class:`clubrating.cpi.index.Weights`)."""
    settings = {name: round(model.weights[name], 4) for name in SHARES + COUNTS}
    settings.update(
        win=round(model.weights["win"], 4),
        draw=round(model.weights["draw"], 4),
        loss=0.0,
        renormalise=1.0,
        min_plies=float(min_plies),
        window=float(window),
        elo_alpha=round(model.alpha, 4),
        elo_beta=round(model.beta, 6),
        elo_sigma=round(model.sigma, 4),
        elo_mean=round(model.prior_mean, 1),
        elo_sd=round(model.prior_sd, 1),
        elo_floor=round(floor, 1),
        decay=DECAY,
        e_scale=FITTED_E.exp_scale,
        e_cap=FITTED_E.cap,
        k=TRACKING_K,
    )
    settings.update({f"mean_{name}": round(model.means[name], 4) for name in SHARES})
    return settings


def _seconds(text: str) -> bool:
    """Whether ``text`` is seconds float() reads: ASCII digits, one dot at most ('²' is a digit to
    str.isdigit() and float() refuses it)."""
    digits = text.replace(".", "", 1)
    return digits.isascii() and digits.isdigit()


def time_control_class(headers: dict[str, str], first_clock: float | None = None) -> str:
    """bullet / blitz / rapid / classical from the TimeControl tag (base + 40 × increment, the
    estimate lichess uses: lila ``modules/core/src/main/chess.scala`` ``Speed``), else from a
    lichess Event ("Rated Blitz game"); "unknown" when neither says. ``first_clock``, the
    seconds a player had after their first move (``%clk``), corrects a base written in
    minutes, as broadcasts do ("90+30" for 90 minutes and 30 seconds)."""
    control = headers.get("TimeControl", "")
    base, _, increment = control.partition("+")
    if _seconds(base):
        base_seconds = float(base)
        if first_clock is not None and first_clock > base_seconds * 2 + 60:
            base_seconds *= 60  # the clock shows minutes where the tag said seconds
        seconds = base_seconds + 40 * (float(increment) if _seconds(increment) else 0.0)
        for limit, name in ((29, "ultrabullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid")):
            if seconds <= limit:
                return name
        return "classical"
    words = headers.get("Event", "").casefold().split()
    for name in ("ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"):
        if name in words:
            return name
    return "unknown"


# --- why the CPI is a window, not a running sum (spec C2, C7) ----------------------

CAREER_LENGTHS = (5, 10, 20, 50, 100, 200)  # ours: from a season's newcomer to a decade's regular
SPEC_CEILING = 4000.0  # spec C2: clamp(CPI, 0, 4000)


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank (for Spearman's correlation)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    return correlation(ranks(xs), ranks(ys))


def careers(
    sides: Sequence[Side],
    model: Fit,
    spec: Callable[[Side], float],
    *,
    window: int,
    players: int = 300,
    seed: int = 1,
) -> dict[str, float | None]:
    """Simulated careers from real sides: each player is a rating band and a number of games
    (:data:`CAREER_LENGTHS`) drawn from that band's sides. Compares how the spec's running sum
    (C2) and the window's Elo-equivalent rank the players: by strength, or by games played."""
    rng = random.Random(seed)
    bands: dict[str, list[Side]] = {}
    for side in sides:
        bands.setdefault(side.band, []).append(side)
    names = sorted(bands)
    strength: list[float] = []
    played: list[float] = []
    running: list[float] = []
    windowed: list[float] = []
    for _ in range(players):
        band = bands[rng.choice(names)]
        games = [rng.choice(band) for _ in range(rng.choice(CAREER_LENGTHS))]
        cpi = 0.0
        for side in games:
            cpi = max(0.0, min(SPEC_CEILING, cpi + spec(side)))
        strength.append(statistics.fmean(s.elo for s in band))
        played.append(len(games))
        running.append(cpi)
        windowed.append(estimate([model.delta(s.values) for s in games[-window:]], model)[0])
    return {
        "players": players,
        "spec_sum_vs_strength": figure(spearman(running, strength), 3),
        "spec_sum_vs_games_played": figure(spearman(running, played), 3),
        "window_vs_strength": figure(spearman(windowed, strength), 3),
        "window_vs_games_played": figure(spearman(windowed, played), 3),
        "spec_sum_at_ceiling": round(sum(1 for c in running if c >= SPEC_CEILING) / players, 3),
    }
