"""Nested cross-validation of the CPI fit: every modelling choice made inside the training folds.

The plain :func:`clubrating.cpi.regression.cross_validate` measures one fixed model; choosing
the E form, the factors or the shrinkage by those same folds lets the test set pick the model,
and its figures flatter. Here each outer fold (whole players held out) chooses among
:class:`Choice` candidates by an inner cross-validation of its own training players only, fits
the winner on them and is measured on its held-out players; the figures are the outer folds'.
An ACPL-only line, fitted and measured on the same folds, is the baseline beside it. For the
players far from the pool's mean, whose ± 1 sd holds too rarely, other intervals are measured
the same way (a widening by rating, a weaker prior, one carrying the prior's pull) and, with
nothing chosen, each fixed scale of the prior (:func:`by_prior_scale`); none is in the product.

Pure: the shell hands in :class:`Side` values holding each candidate E form under its key
(:func:`e_key`). The figures and the command that reproduces them are in ``docs/cpi.md``.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clubrating.cpi.calibrate import (
    FEATURES,
    PSEUDO_PLAYER_GAMES,
    RESULTS,
    RIDGE,
    Errors,
    Fit,
    Side,
    correlation,
    estimate,
    figure,
    folds_of,
    pseudo_players,
)
from clubrating.cpi.difficulty import DIFFICULTY
from clubrating.cpi.factors import FITTED_E, EvalLossForm
from clubrating.cpi.registry import COUNTS
from clubrating.cpi.regression import fit

SET_GAMES = 4  # a FIDE player has 9 games an event at most here: sets of 4 give many sets
OUTER_FOLDS = 5
INNER_FOLDS = 4
ACPL = "acpl"  # the baseline's one feature

# The candidates (ours): E as exp(−CPL′/scale) on losses capped at cap cp around the shipped
# 50/500, and the spec's linear E (scale 0); the factors all, without the counts (H, Br), or
# only E, B1-B3 and the result; shrinkage from the shipped ridge to a heavy one.
E_FORMS = (
    FITTED_E,
    EvalLossForm(exp_scale=30.0, cap=500.0),
    EvalLossForm(exp_scale=80.0, cap=500.0),
    EvalLossForm(exp_scale=50.0, cap=300.0),
    EvalLossForm(exp_scale=50.0, cap=1000.0),
    EvalLossForm(),
)
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "all": FEATURES,
    "no counts": tuple(n for n in FEATURES if n not in COUNTS),
    "E, B, result": ("E", "B1", "B2", "B3", *RESULTS),
}
RIDGES = (RIDGE, 0.1, 1.0)
CURVE_GAMES = (1, 2, 4, 10)  # the error against the number of games read together
TRAINING_SHARES = (0.25, 0.5, 1.0)  # the error against the share of the training players fitted on


def e_key(form: EvalLossForm) -> str:
    """The value key under which a side holds E read with ``form``."""
    return f"E@{form.exp_scale:g}/{form.cap:g}"


@dataclass(frozen=True, slots=True)
class Choice:
    """One modelling choice: how E reads the losses, which features enter, how much shrinkage."""

    e_form: EvalLossForm
    features: str
    ridge: float

    @property
    def label(self) -> str:
        return f"E {e_key(self.e_form)[2:]}, {self.features}, ridge {self.ridge:g}"


# The position-difficulty candidates (cpi/difficulty.py), tried with --difficulty: they did
# not improve the outer folds (docs/cpi.md), so they are not among the default choices.
DIFFICULTY_SETS = {
    "all + difficulty": FEATURES + DIFFICULTY,
    "no counts + difficulty": FEATURE_SETS["no counts"] + DIFFICULTY,
}


def choices_of(feature_sets: dict[str, tuple[str, ...]]) -> tuple[Choice, ...]:
    """Every E form with every feature set and every ridge."""
    return tuple(
        Choice(form, name, ridge) for form in E_FORMS for name in feature_sets for ridge in RIDGES
    )


CHOICES = choices_of(FEATURE_SETS)
WITH_DIFFICULTY = choices_of({**FEATURE_SETS, **DIFFICULTY_SETS})
SHIPPED = Choice(FITTED_E, "all", RIDGE)


def as_chosen(sides: Sequence[Side], choice: Choice) -> list[Side]:
    """The sides with E read the way ``choice`` reads it."""
    key = e_key(choice.e_form)
    return [Side(s.elo, {**s.values, "E": s.values[key]}, s.group, s.band, s.acpl) for s in sides]


def features_of(choice: Choice) -> tuple[str, ...]:
    return {**FEATURE_SETS, **DIFFICULTY_SETS}[choice.features]


def fit_choice(sides: Sequence[Side], choice: Choice) -> Fit:
    return fit(as_chosen(sides, choice), features_of(choice), choice.ridge)


def acpl_sides(sides: Sequence[Side]) -> list[Side]:
    """The sides with ACPL as their only feature (the baseline line)."""
    return [Side(s.elo, {ACPL: s.acpl}, s.group, s.band, s.acpl) for s in sides]


def inner_error(sides: Sequence[Side], choice: Choice, k: int = INNER_FOLDS) -> float:
    """Mean absolute error of the one-game estimate over ``k`` folds of these sides' players."""
    fold = folds_of(sides, k)
    chosen = as_chosen(sides, choice)
    errors: list[float] = []
    for f in range(k):
        train = [s for s, g in zip(chosen, fold) if g != f]
        model = fit(train, features_of(choice), choice.ridge)
        errors += [
            abs(estimate([model.delta(s.values)], model)[0] - s.elo)
            for s, g in zip(chosen, fold)
            if g == f
        ]
    return statistics.fmean(errors)


def choose(sides: Sequence[Side], choices: Sequence[Choice] = CHOICES) -> Choice:
    """The choice with the smallest inner-fold error on these sides alone."""
    return min(choices, key=lambda choice: inner_error(sides, choice))


def set_floor(
    sides: Sequence[Side], model_of: Any, k: int = INNER_FOLDS, size: int = SET_GAMES
) -> float:
    """The error more games do not take away, measured on sets of ``size`` games held out of
    ``k`` folds of these sides: sqrt(mean squared error − mean posterior variance)."""
    fold = folds_of(sides, k)
    squared, variances = [], []
    for f in range(k):
        model = model_of([s for s, g in zip(sides, fold) if g != f])
        held = [i for i, g in enumerate(fold) if g == f]
        for chunk in pseudo_players(held, sides, size):
            mean, sd = estimate([model.delta(sides[i].values) for i in chunk], model)
            squared.append((mean - statistics.fmean(sides[i].elo for i in chunk)) ** 2)
            variances.append(sd * sd)
    if not squared:
        return 0.0
    return math.sqrt(max(0.0, statistics.fmean(squared) - statistics.fmean(variances)))


# A candidate widening by rating (measured, not in the product): ± sqrt(sd² + floor² +
# (spread·(estimate − pool mean))²), the spread the smallest of SPREADS whose inner-fold sets
# beyond the pool's mean ± 1 sd are held 68 % of the time (docs/cpi.md, "Honest intervals").
SPREADS = tuple(step / 20 for step in range(41))
HONEST_COVER = 0.68


def widened(sd: float, floor: float, spread: float, mean: float, model: Fit) -> float:
    return math.sqrt(sd * sd + floor * floor + (spread * (mean - model.prior_mean)) ** 2)


def choose_spread(
    sides: Sequence[Side], model_of: Any, floor: float, k: int = INNER_FOLDS, size: int = SET_GAMES
) -> float:
    """The smallest spread of :data:`SPREADS` under which ± 1 sd holds 68 % of the inner folds'
    held-out sets whose rating lies beyond the training pool's mean ± 1 sd."""
    fold = folds_of(sides, k)
    outside: list[tuple[float, float, float, Fit]] = []
    for f in range(k):
        model = model_of([s for s, g in zip(sides, fold) if g != f])
        held = [i for i, g in enumerate(fold) if g == f]
        for chunk in pseudo_players(held, sides, size):
            mean, sd = estimate([model.delta(sides[i].values) for i in chunk], model)
            truth = statistics.fmean(sides[i].elo for i in chunk)
            if rating_range(truth, model) != "within":
                outside.append((mean, sd, truth, model))
    for spread in SPREADS:
        if (
            not outside
            or statistics.fmean(
                abs(m - t) <= widened(sd, floor, spread, m, model) for m, sd, t, model in outside
            )
            >= HONEST_COVER
        ):
            return spread
    return SPREADS[-1]


# A weaker prior (measured; docs/cpi.md, "Honest intervals"): the prior's sd times a scale of
# PRIOR_SCALES, the one whose inner-fold sets are held by ± 1 sd (with the floor measured under
# that prior) nearest 68 % in the worst of the three rating ranges. FLAT: no prior at all.
FLAT = 1e6
PRIOR_SCALES = (1.0, 1.25, 1.5, 2.0, 3.0, 5.0, FLAT)


def with_prior_scale(model: Fit, scale: float) -> Fit:
    """The fit with its prior's standard deviation multiplied by ``scale`` (its ranges kept)."""
    return dataclasses.replace(model, prior_sd=model.prior_sd * scale)


@dataclass(frozen=True, slots=True)
class PriorScale:
    """A scale of the prior chosen in the training folds, and the floors measured under it."""

    scale: float
    floor: float  # sets of SET_GAMES
    window_floor: float  # sets of the dashboard's window


def range_covers(
    sides: Sequence[Side],
    model_of: Callable[[Sequence[Side]], Fit],
    scale: float,
    floor: float,
    k: int = INNER_FOLDS,
    size: int = SET_GAMES,
) -> dict[str, float]:
    """Per rating range (of the unscaled fit), the share of ``k`` folds' held-out sets inside
    ± 1 sd under the prior scaled by ``scale``."""
    fold = folds_of(sides, k)
    found: dict[str, list[bool]] = {}
    for f in range(k):
        model = model_of([s for s, g in zip(sides, fold) if g != f])
        scaled = with_prior_scale(model, scale)
        for chunk in pseudo_players([i for i, g in enumerate(fold) if g == f], sides, size):
            mean, sd = estimate([model.delta(sides[i].values) for i in chunk], scaled)
            truth = statistics.fmean(sides[i].elo for i in chunk)
            found.setdefault(rating_range(truth, model), []).append(
                abs(mean - truth) <= math.hypot(sd, floor)
            )
    return {name: statistics.fmean(cells) for name, cells in found.items()}


def choose_prior_scale(
    sides: Sequence[Side],
    model_of: Callable[[Sequence[Side]], Fit],
    scales: Sequence[float] = PRIOR_SCALES,
) -> PriorScale:
    """The scale of :data:`PRIOR_SCALES` whose worst rating range is held nearest 68 % on the
    inner folds of these sides, with its floors."""
    best: tuple[float, PriorScale] | None = None
    for scale in scales:

        def scaled_of(t: Sequence[Side], s: float = scale) -> Fit:
            return with_prior_scale(model_of(t), s)

        floor = set_floor(sides, scaled_of)
        worst = max(
            abs(cover - HONEST_COVER)
            for cover in range_covers(sides, model_of, scale, floor).values()
        )
        if best is None or worst < best[0] - 1e-9:
            best = (
                worst,
                PriorScale(scale, floor, set_floor(sides, scaled_of, size=PSEUDO_PLAYER_GAMES)),
            )
    assert best is not None
    return best[1]


@dataclass
class _Prior:
    """The held-out sets under a weaker prior, and under the interval that carries the prior's
    pull."""

    scales: list[float] = field(default_factory=list)
    sets: list[float] = field(default_factory=list)
    truth: list[float] = field(default_factory=list)
    by_range: dict[str, list[bool]] = field(default_factory=dict)
    window: list[bool] = field(default_factory=list)
    pulled: dict[str, list[bool]] = field(default_factory=dict)

    def measure(
        self,
        model: Fit,
        deltas: dict[int, float],
        sides: Sequence[Side],
        held: list[int],
        prior: PriorScale,
        floor: float,
    ) -> None:
        self.scales.append(prior.scale)
        scaled, flat = with_prior_scale(model, prior.scale), with_prior_scale(model, FLAT)
        for chunk in pseudo_players(held, sides, SET_GAMES):
            mean, sd = estimate([deltas[i] for i in chunk], scaled)
            truth = statistics.fmean(sides[i].elo for i in chunk)
            self.sets.append(mean)
            self.truth.append(truth)
            where = rating_range(truth, model)
            self.by_range.setdefault(where, []).append(
                abs(mean - truth) <= math.hypot(sd, prior.floor)
            )
            shown, shown_sd = estimate(
                [deltas[i] for i in chunk], model
            )  # the shipped estimate, its ±
            pull = shown - estimate([deltas[i] for i in chunk], flat)[0]
            self.pulled.setdefault(where, []).append(
                abs(shown - truth) <= math.sqrt(shown_sd**2 + floor**2 + pull**2)
            )
        for chunk in pseudo_players(held, sides, PSEUDO_PLAYER_GAMES):
            mean, sd = estimate([deltas[i] for i in chunk], scaled)
            truth = statistics.fmean(sides[i].elo for i in chunk)
            self.window.append(abs(mean - truth) <= math.hypot(sd, prior.window_floor))

    def to_dict(self) -> dict[str, Any]:
        every = [inside for cells in self.by_range.values() for inside in cells]
        pulled = [inside for cells in self.pulled.values() for inside in cells]
        return {
            "scales": self.scales,
            "set_mae": figure(Errors.of(self.sets, self.truth).mae, 1),
            "set_cover": figure(statistics.fmean(every), 3),
            "by_range": {
                k: figure(statistics.fmean(v), 3) for k, v in sorted(self.by_range.items())
            },
            "window_cover": figure(statistics.fmean(self.window), 3) if self.window else None,
            "carrying_the_pull": {
                "set_cover": figure(statistics.fmean(pulled), 3),
                "by_range": {
                    k: figure(statistics.fmean(v), 3) for k, v in sorted(self.pulled.items())
                },
            },
        }


@dataclass
class _Held:
    """What one model says of the held-out sides of every outer fold."""

    one: list[float]
    one_truth: list[float]
    fold_r: list[float]
    sets: list[float]
    set_truth: list[float]
    covered: int = 0
    window: list[bool] = field(
        default_factory=list
    )  # sets of the dashboard's window: inside ± 1 sd?
    by_range: dict[str, list[bool]] = field(default_factory=dict)  # sets of 4 by their rating range
    widened: dict[str, list[bool]] = field(default_factory=dict)  # the same under the spread chosen
    spreads: list[float] = field(default_factory=list)
    prior: _Prior = field(default_factory=_Prior)
    by_games: dict[int, tuple[list[float], list[float]]] = field(
        default_factory=dict
    )  # estimates, truths

    @classmethod
    def empty(cls) -> _Held:
        return cls([], [], [], [], [])

    def measure(
        self,
        model: Fit,
        sides: Sequence[Side],
        held: list[int],
        floor: float,
        window_floor: float | None = None,
        spread: float | None = None,
        prior: PriorScale | None = None,
    ) -> None:
        """Score the held-out sides; ``window_floor``: also the sets of the dashboard's window
        (:data:`PSEUDO_PLAYER_GAMES`) with the floor measured on such sets, as the preset's."""
        deltas = {i: model.delta(sides[i].values) for i in held}
        for i in held:
            self.one.append(estimate([deltas[i]], model)[0])
            self.one_truth.append(sides[i].elo)
        self.fold_r.append(correlation([deltas[i] for i in held], [sides[i].elo for i in held]))
        for size in CURVE_GAMES:
            estimates, truths = self.by_games.setdefault(size, ([], []))
            for chunk in pseudo_players(held, sides, size):
                estimates.append(estimate([deltas[i] for i in chunk], model)[0])
                truths.append(statistics.fmean(sides[i].elo for i in chunk))
        for chunk in pseudo_players(held, sides, SET_GAMES):
            mean, sd = estimate([deltas[i] for i in chunk], model)
            truth = statistics.fmean(sides[i].elo for i in chunk)
            self.sets.append(mean)
            self.set_truth.append(truth)
            inside = abs(mean - truth) <= math.sqrt(sd * sd + floor * floor)
            self.covered += inside
            self.by_range.setdefault(rating_range(truth, model), []).append(inside)
            if spread is not None:
                self.widened.setdefault(rating_range(truth, model), []).append(
                    abs(mean - truth) <= widened(sd, floor, spread, mean, model)
                )
        if spread is not None:
            self.spreads.append(spread)
        if prior is not None:
            self.prior.measure(model, deltas, sides, held, prior, floor)
        if window_floor is not None:
            for chunk in pseudo_players(held, sides, PSEUDO_PLAYER_GAMES):
                mean, sd = estimate([deltas[i] for i in chunk], model)
                truth = statistics.fmean(sides[i].elo for i in chunk)
                self.window.append(abs(mean - truth) <= math.sqrt(sd * sd + window_floor**2))

    def to_dict(self) -> dict[str, Any]:
        one, sets = Errors.of(self.one, self.one_truth), Errors.of(self.sets, self.set_truth)
        found: dict[str, Any] = {
            "r": figure(statistics.fmean(self.fold_r), 3),
            "one_game_mae": figure(one.mae, 1),
            "sets": len(self.sets),
            "set_mae": figure(sets.mae, 1),
            "set_cover": figure(self.covered / len(self.sets), 3) if self.sets else None,
            "set_cover_by_range": {
                k: {"sets": len(v), "cover": figure(statistics.fmean(v), 3)}
                for k, v in sorted(self.by_range.items())
            },
            "mae_by_games": {
                str(size): {
                    "sets": len(estimates),
                    "mae": figure(Errors.of(estimates, truths).mae, 1) if estimates else None,
                }
                for size, (estimates, truths) in sorted(self.by_games.items())
            },
        }
        if self.window:
            found.update(
                window_sets=len(self.window), window_cover=figure(statistics.fmean(self.window), 3)
            )
        if self.spreads:
            every = [inside for cells in self.widened.values() for inside in cells]
            found["widened_by_rating"] = {
                "spreads": self.spreads,
                "set_cover": figure(statistics.fmean(every), 3),
                "by_range": {
                    k: figure(statistics.fmean(v), 3) for k, v in sorted(self.widened.items())
                },
            }
        if self.prior.scales:
            found["weaker_prior"] = self.prior.to_dict()
        return found


def rating_range(elo: float, model: Fit) -> str:
    """Where a rating lies in the training pool: more than one sd below its mean, within, above."""
    if elo < model.prior_mean - model.prior_sd:
        return "below"
    return "above" if elo > model.prior_mean + model.prior_sd else "within"


def nested_cross_validate(
    sides: Sequence[Side], k: int = OUTER_FOLDS, choices: Sequence[Choice] = CHOICES
) -> dict[str, Any]:
    """The outer folds' figures of the CPI chosen inside each training set, of the shipped
    choice, and of the ACPL-only line, all on the same folds; which choice each fold made."""
    fold = folds_of(sides, k)
    baseline = acpl_sides(sides)
    cpi, shipped, acpl = _Held.empty(), _Held.empty(), _Held.empty()
    mean_truth, mean_error, acpl_r, picked = [], [], [], []
    learning: dict[float, _Held] = {share: _Held.empty() for share in TRAINING_SHARES}
    trained_on: dict[float, int] = dict.fromkeys(TRAINING_SHARES, 0)
    for f in range(k):
        train = [s for s, g in zip(sides, fold) if g != f]
        held = [i for i, g in enumerate(fold) if g == f]
        choice = choose(train, choices)
        picked.append(choice.label)
        for share, result in learning.items():
            part = training_share(train, share)
            trained_on[share] += len(part)
            result.measure(fit_choice(part, choice), as_chosen(sides, choice), held, 0.0)
        for result, pick in ((cpi, choice), (shipped, SHIPPED)):

            def model_of(t: Sequence[Side], c: Choice = pick) -> Fit:
                return fit(t, features_of(c), c.ridge)

            chosen = as_chosen(train, pick)
            floor = set_floor(chosen, model_of)
            spread = choose_spread(chosen, model_of, floor) if result is cpi else None
            prior = choose_prior_scale(chosen, model_of) if result is cpi else None
            result.measure(
                fit_choice(train, pick),
                as_chosen(sides, pick),
                held,
                floor,
                set_floor(chosen, model_of, size=PSEUDO_PLAYER_GAMES),
                spread,
                prior,
            )
        line = [s for s, g in zip(baseline, fold) if g != f]
        acpl.measure(fit(line, (ACPL,)), baseline, held, set_floor(line, lambda t: fit(t, (ACPL,))))
        centre = statistics.fmean(s.elo for s in train)
        mean_error += [abs(centre - sides[i].elo) for i in held]
        mean_truth += [sides[i].elo for i in held]
        acpl_r.append(
            correlation([sides[i].acpl or 0.0 for i in held], [sides[i].elo for i in held])
        )
    return {
        "folds": k,
        "sides": len(sides),
        "players": len({s.group for s in sides}),
        "elo_mean": figure(statistics.fmean(mean_truth), 0),
        "elo_sd": figure(statistics.stdev(mean_truth), 0),
        "mean_mae": figure(statistics.fmean(mean_error), 1),
        "acpl_r": figure(statistics.fmean(acpl_r), 3),
        "cpi": cpi.to_dict(),
        "shipped": shipped.to_dict(),
        "acpl_line": acpl.to_dict(),
        "chosen": picked,
        "by_training_share": {
            f"{share:g}": _learned(result.to_dict(), round(trained_on[share] / k))
            for share, result in learning.items()
        },
    }


def _learned(found: dict[str, Any], training_sides: int) -> dict[str, Any]:
    """A point of the learning curve: the sides fitted on and what the held-out players gave."""
    return {
        "training_sides": training_sides,
        **{key: found[key] for key in ("r", "one_game_mae", "mae_by_games")},
    }


def training_share(train: Sequence[Side], share: float) -> list[Side]:
    """The sides of a deterministic ``share`` of the training players (every player whose place
    in first-seen order falls in that share of each run of 20), for the learning curve."""
    order: dict[str, int] = {}
    for side in train:
        order.setdefault(side.group, len(order))
    return [side for side in train if order[side.group] % 20 < round(share * 20)]


# --- what each fixed scale of the prior gives (a diagnostic: nothing is chosen here) ------------

Estimator = Callable[[Sequence[float]], tuple[float, float]]


def noise_slope(model: Fit, sides: Sequence[Side]) -> float:
    """κ of a measurement noise σ·exp(κ·z) growing or shrinking with the rating (z: in the pool's
    sds from its mean): half the least-squares slope of the log squared residual on z."""
    z = np.array([(s.elo - model.prior_mean) / model.prior_sd for s in sides])
    residual = np.array([model.delta(s.values) - model.alpha - model.beta * s.elo for s in sides])
    return float(np.polyfit(z, np.log(residual**2 + 1e-9), 1)[0] / 2)


def grid_estimate(
    deltas: Sequence[float], model: Fit, scale: float, slope: float
) -> tuple[float, float]:
    """Posterior mean and sd of the rating on a grid of ratings: the prior's sd times ``scale``,
    each game's noise σ·exp(slope·z) (``slope`` 0: the conjugate :func:`estimate`, floor aside)."""
    mean, sd = model.prior_mean, model.prior_sd
    grid = np.linspace(mean - 6 * sd, mean + 6 * sd, 601)
    noise = model.sigma * np.exp(slope * (grid - mean) / sd)
    log_p = -0.5 * ((grid - mean) / (sd * scale)) ** 2
    for delta in deltas:
        log_p += -np.log(noise) - 0.5 * ((delta - model.alpha - model.beta * grid) / noise) ** 2
    weight = np.exp(log_p - log_p.max())
    weight /= weight.sum()
    centre = float((weight * grid).sum())
    return centre, math.sqrt(float((weight * (grid - centre) ** 2).sum()))


def estimator_of(model: Fit, train: Sequence[Side], scale: float, by_rating: bool) -> Estimator:
    """The estimate under the prior scaled by ``scale``; ``by_rating``: with the noise's slope
    fitted on ``train``."""
    if not by_rating:
        scaled = with_prior_scale(model, scale)
        return lambda deltas: estimate(deltas, scaled)
    slope = noise_slope(model, train)
    return lambda deltas: grid_estimate(deltas, model, scale, slope)


def _set_errors(
    sides: Sequence[Side],
    train: Sequence[Side],
    held: Sequence[int],
    choice: Choice,
    scale: float,
    by_rating: bool,
) -> list[tuple[str, float, float]]:
    """(rating range, estimate − rating, sd) of every held-out set of SET_GAMES."""
    model = fit(train, features_of(choice), choice.ridge)
    read = estimator_of(model, train, scale, by_rating)
    found = []
    for chunk in pseudo_players(held, sides, SET_GAMES):
        mean, sd = read([model.delta(sides[i].values) for i in chunk])
        truth = statistics.fmean(sides[i].elo for i in chunk)
        found.append((rating_range(truth, model), mean - truth, sd))
    return found


def _folds(sides: Sequence[Side], k: int) -> list[tuple[list[Side], list[int]]]:
    fold = folds_of(sides, k)
    return [
        ([s for s, g in zip(sides, fold) if g != f], [i for i, g in enumerate(fold) if g == f])
        for f in range(k)
    ]


def by_prior_scale(
    sides: Sequence[Side],
    choice: Choice = SHIPPED,
    scales: Sequence[float] = PRIOR_SCALES,
    by_rating: bool = False,
    k: int = OUTER_FOLDS,
) -> dict[str, Any]:
    """For each fixed scale of the prior, the outer folds' sets of 4 by rating range: ± 1 sd's
    cover (the floor measured on the training players' inner folds under the same estimate),
    the mean error (estimate − rating), the mean absolute error and the mean half-width."""
    sides = as_chosen(sides, choice)
    table: dict[str, Any] = {}
    for scale in scales:
        cells: list[tuple[str, float, float]] = []
        for train, held in _folds(sides, k):
            inner = [
                cell
                for t, h in _folds(train, INNER_FOLDS)
                for cell in _set_errors(train, t, h, choice, scale, by_rating)
            ]
            floor = math.sqrt(
                max(
                    0.0,
                    statistics.fmean(e * e for _, e, _ in inner)
                    - statistics.fmean(sd * sd for _, _, sd in inner),
                )
            )
            cells += [
                (where, error, math.hypot(sd, floor))
                for where, error, sd in _set_errors(sides, train, held, choice, scale, by_rating)
            ]

        def summary(rows: list[tuple[str, float, float]]) -> dict[str, float | None]:
            if not rows:
                return {"sets": 0}
            return {
                "sets": len(rows),
                "cover": figure(statistics.fmean(abs(e) <= w for _, e, w in rows), 3),
                "bias": figure(statistics.fmean(e for _, e, _ in rows), 0),
                "mae": figure(statistics.fmean(abs(e) for _, e, _ in rows), 0),
                "half_width": figure(statistics.fmean(w for _, _, w in rows), 0),
            }

        table["flat" if scale == FLAT else f"{scale:g}"] = {
            "all": summary(cells),
            **{
                where: summary([c for c in cells if c[0] == where])
                for where in ("below", "within", "above")
            },
        }
    return table
