"""The least squares of the CPI on rated games, and its cross-validation by players: the numpy
part of the fit (:mod:`clubrating.cpi.calibrate` holds the sides, the fitted model and the Elo
estimate, which a club's pages use without numpy).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

import numpy as np

from clubrating.cpi.calibrate import (
    FEATURES,
    RESULTS,
    RIDGE,
    SPEC_SHARE_TOTAL,
    Errors,
    Fit,
    Report,
    Side,
    correlation,
    estimate,
    folds_of,
    impute,
    pool_means,
    pseudo_players,
)
from clubrating.cpi.registry import FACTORS, SHARES
from clubrating.errors import InputError
from clubrating.words import N_

# The direction each factor is defined in (spec C3): more of it is never worse (+1) or never
# better (−1); a fitted weight of the other sign is a sampling accident and is held at 0.
# The registry's ``sign``: B2/B3 are left free (the data says which way); the result, as
# the points scored, never negative (spec C1's R).
SIGNS = {spec.name: spec.sign for spec in FACTORS if spec.sign}
POINTS = "points"  # the result as one feature (see _result_as_points)
RESULT_POINTS = {"win": 1.0, "draw": 0.5}  # spec C1: R = +10 / +5 / 0, in proportion to the points
SIGNS[POINTS] = 1


def _least_squares(
    x: np.ndarray, y: np.ndarray, features: Sequence[str] = FEATURES, ridge_share: float = RIDGE
) -> np.ndarray:
    """Coefficients of y ~ x (centred), with a ridge of ``ridge_share`` of each column's variance
    and the signs of :data:`SIGNS` kept by an active set: a weight of the wrong sign is fixed at
    0 and the others refitted, until none is left (at most one pass per feature)."""
    centred, target = x - x.mean(axis=0), y - y.mean()
    gram = centred.T @ centred
    ridge = ridge_share * np.diag(np.diag(gram)) + 1e-9 * np.eye(x.shape[1])
    free = list(range(x.shape[1]))
    coef = np.zeros(x.shape[1])
    for _ in range(x.shape[1]):
        coef = np.zeros(x.shape[1])
        sub = np.ix_(free, free)
        coef[free] = np.linalg.solve(gram[sub] + ridge[sub], centred[:, free].T @ target)
        wrong = [i for i in free if SIGNS.get(features[i], 0) * coef[i] < 0]
        if not wrong:
            break
        free = [i for i in free if i not in wrong]
    return coef


def _result_as_points(
    x: np.ndarray, elo: np.ndarray, features: Sequence[str], ridge: float
) -> np.ndarray:
    """The least squares of :func:`_least_squares` with the result as one feature, the points
    scored (1, ½, 0), of a weight never below 0: R of spec C1 is +10 / +5 / 0, a bonus in
    proportion to the points, so a fitted R never reads backwards (a win lowering the CPI, a
    draw worth more than a win). Conditioned on the moves' quality a win says little of the
    rating (docs/cpi.md, "The result"): where the data asks for a negative R, R is 0."""
    if not set(RESULTS) <= set(features):
        return _least_squares(x, elo, features, ridge)
    win, draw = features.index("win"), features.index("draw")
    others = [i for i in range(len(features)) if i not in (win, draw)]
    points = x[:, win] + RESULT_POINTS["draw"] * x[:, draw]
    names = [features[i] for i in others] + [POINTS]
    part = _least_squares(np.column_stack([x[:, others], points]), elo, names, ridge)
    coef = np.zeros(len(features))
    coef[others] = part[:-1]
    coef[win], coef[draw] = part[-1] * RESULT_POINTS["win"], part[-1] * RESULT_POINTS["draw"]
    return coef


def fit(sides: Sequence[Side], features: Sequence[str] = FEATURES, ridge: float = RIDGE) -> Fit:
    """Weights, measurement model and prior from rated sides (see the module's text).

    ``features`` and ``ridge`` are the modelling choices a nested cross-validation tries
    (:mod:`clubrating.cpi.nested`); a feature left out weighs 0."""
    if len(sides) < 2 * len(FEATURES):
        raise InputError(
            N_("too few rated player-sides to fit: %(sides)s, at least %(least)s"),
            sides=len(sides),
            least=2 * len(FEATURES),
        )
    elo = np.array([s.elo for s in sides])
    if elo.std() == 0:
        raise InputError(
            N_(
                "every rated player-side has the same rating "
                "(%(rating)s): nothing to fit the ratings with"
            ),
            rating=f"{elo[0]:g}",
        )

    means = pool_means(sides, SHARES + tuple(n for n in features if n not in FEATURES))
    x = np.array([impute(s.values, means, features) for s in sides])
    coef = _result_as_points(x, elo, features, ridge)
    share_total = float(sum(abs(c) for c, n in zip(coef, features) if n in SHARES))
    scale = share_total / SPEC_SHARE_TOTAL if share_total > 0 else 1.0
    weights = {name: 0.0 for name in FEATURES}
    weights.update({name: float(c / scale) for name, c in zip(features, coef)})
    deltas = x @ np.array([weights[n] for n in features])
    beta, alpha = (float(v) for v in np.polyfit(elo, deltas, 1))
    sigma = float(np.std(deltas - (alpha + beta * elo), ddof=2))
    return Fit(
        weights, means, alpha, beta, sigma, float(elo.mean()), float(elo.std(ddof=1)), len(sides)
    )


def cross_validate(
    sides: Sequence[Side], k: int = 5, spec_delta: Callable[[Side], float] | None = None
) -> Report:
    """k-fold cross-validation by groups: estimates per game and per 10 games on held-out sides."""
    fold = folds_of(sides, k)
    est1: list[float] = []
    truth1: list[float] = []
    fold_r: list[float] = []
    est10: list[float] = []
    truth10: list[float] = []
    var10: list[float] = []
    for f in range(k):
        train = [s for s, g in zip(sides, fold) if g != f]
        held = [i for i, g in enumerate(fold) if g == f]
        if not held:
            continue
        try:
            model = fit(train)
        except ValueError:  # too few sides, or one rating for all: this fold measures nothing
            continue
        held_delta = {i: model.delta(sides[i].values) for i in held}
        for i in held:
            est1.append(estimate([held_delta[i]], model)[0])
            truth1.append(sides[i].elo)
        fold_r.append(correlation([held_delta[i] for i in held], [sides[i].elo for i in held]))
        for chunk in pseudo_players(held, sides):
            mean, sd = estimate([held_delta[i] for i in chunk], model)
            est10.append(mean)
            truth10.append(statistics.fmean(sides[i].elo for i in chunk))
            var10.append(sd * sd)
    with_acpl = [(s.acpl, s.elo) for s in sides if s.acpl is not None]
    squared = [(e - t) ** 2 for e, t in zip(est10, truth10)]
    floor = (
        math.sqrt(max(0.0, statistics.fmean(squared) - statistics.fmean(var10))) if squared else 0.0
    )
    covered = sum(1 for sq, var in zip(squared, var10) if sq <= var + floor**2)
    return Report(
        folds=k,
        per_game=Errors.of(est1, truth1),
        per_10=Errors.of(est10, truth10),
        delta_r=statistics.fmean(fold_r) if fold_r else math.nan,
        acpl_r=correlation([a for a, _ in with_acpl], [e for _, e in with_acpl]),
        spec_r=correlation([spec_delta(s) for s in sides], [s.elo for s in sides])
        if spec_delta
        else math.nan,
        interval_cover_10=covered / len(est10) if est10 else math.nan,
        floor=floor,
    )
