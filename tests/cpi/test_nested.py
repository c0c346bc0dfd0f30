"""The nested cross-validation (cpi.nested): the choice is made on training players only, it
finds the E form that carries the signal, and the ACPL line is measured on the same folds."""

from __future__ import annotations

import math
import random

import pytest

from clubrating.cpi.calibrate import FEATURES, Fit, Side, folds_of
from clubrating.cpi.factors import FITTED_E, EvalLossForm
from clubrating.cpi.calibrate import estimate
from clubrating.cpi.nested import (
    CHOICES,
    CURVE_GAMES,
    FLAT,
    PRIOR_SCALES,
    SHIPPED,
    SPREADS,
    Choice,
    by_prior_scale,
    choose,
    e_key,
    grid_estimate,
    nested_cross_validate,
    noise_slope,
    rating_range,
    training_share,
    with_prior_scale,
)

SIGNAL = EvalLossForm(exp_scale=30.0, cap=500.0)
FEW = (SHIPPED, Choice(SIGNAL, "all", 0.1), Choice(EvalLossForm(), "E, B, result", 1.0))


def synthetic(
    players: int = 60,
    games: int = 8,
    seed: int = 3,
    signal: EvalLossForm = SIGNAL,
    acpl_noise: float = 40.0,
) -> list[Side]:
    """Players of random strength; E read the ``signal`` way tracks it, every other feature
    and E form is noise; ACPL falls with strength plus ``acpl_noise``."""
    rng = random.Random(seed)
    sides = []
    for player in range(players):
        elo = rng.uniform(1400, 2600)
        for _ in range(games):
            values: dict[str, float | None] = {name: rng.random() for name in FEATURES}
            for form in {choice.e_form for choice in CHOICES}:
                values[e_key(form)] = rng.random()
            values[e_key(signal)] = (elo - 1400) / 1200 + rng.gauss(0, 0.15)
            acpl = max(1.0, 150 - (elo - 1400) / 10 + rng.gauss(0, acpl_noise))
            sides.append(
                Side(elo, values, group=f"p{player}", band=str(int(elo // 200) * 200), acpl=acpl)
            )
    return sides


def test_the_choice_is_the_e_form_that_carries_the_strength() -> None:
    assert choose(synthetic(), FEW).e_form == SIGNAL
    assert choose(synthetic(signal=FITTED_E), FEW).e_form == FITTED_E


def test_a_fold_chooses_without_seeing_its_held_out_players() -> None:
    sides = synthetic()
    fold = folds_of(sides, 5)
    # the held-out players of fold 0 now look as if the spec's linear E carried their strength
    poisoned = [
        Side(
            s.elo,
            {**s.values, e_key(EvalLossForm()): (s.elo - 1400) / 1200},
            s.group,
            s.band,
            s.acpl,
        )
        if g == 0
        else s
        for s, g in zip(sides, fold)
    ]
    assert (
        nested_cross_validate(poisoned, choices=FEW)["chosen"][0]
        == nested_cross_validate(sides, choices=FEW)["chosen"][0]
        == Choice(SIGNAL, "all", 0.1).label
    )


def test_the_outer_folds_measure_the_cpi_beside_an_acpl_line_on_the_same_players() -> None:
    noisy_acpl = nested_cross_validate(synthetic(acpl_noise=80.0), choices=FEW)
    assert noisy_acpl["cpi"]["r"] > noisy_acpl["acpl_line"]["r"] > 0 > noisy_acpl["acpl_r"]
    assert (
        noisy_acpl["cpi"]["one_game_mae"]
        < noisy_acpl["acpl_line"]["one_game_mae"]
        < noisy_acpl["mean_mae"]
    )
    assert noisy_acpl["cpi"]["sets"] == noisy_acpl["acpl_line"]["sets"] == 60 * 8 // 4
    exact_acpl = nested_cross_validate(synthetic(acpl_noise=1.0), choices=FEW)
    assert exact_acpl["acpl_line"]["one_game_mae"] < exact_acpl["cpi"]["one_game_mae"]
    assert 0.4 <= noisy_acpl["cpi"]["set_cover"] <= 0.95


def test_the_cover_is_also_measured_on_the_dashboards_window_and_by_rating_range() -> None:
    report = nested_cross_validate(synthetic(acpl_noise=80.0), choices=FEW)["cpi"]
    by_range = report["set_cover_by_range"]
    assert set(by_range) <= {"below", "within", "above"} and "within" in by_range
    assert sum(cell["sets"] for cell in by_range.values()) == report["sets"]
    assert report["window_sets"] > 0 and 0.3 <= report["window_cover"] <= 1.0


def test_the_error_falls_with_the_games_read_together_and_the_players_fitted_on() -> None:
    report = nested_cross_validate(synthetic(players=100, acpl_noise=80.0), choices=FEW)
    for model in ("cpi", "acpl_line"):
        curve = report[model]["mae_by_games"]
        assert list(curve) == [str(n) for n in CURVE_GAMES]
        assert curve["1"]["sets"] == 100 * 8 and curve["4"]["sets"] == 100 * 8 // 4
        assert curve["1"]["mae"] > curve["4"]["mae"]  # four games tell more than one
        assert curve["1"]["mae"] == report[model]["one_game_mae"]
    assert curve["10"]["sets"] > 0  # 10 sides of one band stand in
    learning = report["by_training_share"]
    assert [learning[share]["training_sides"] for share in ("0.25", "0.5", "1")] == [160, 320, 640]
    assert learning["1"]["one_game_mae"] == report["cpi"]["one_game_mae"]
    assert learning["0.25"]["one_game_mae"] > learning["1"]["one_game_mae"]


def test_a_training_share_keeps_whole_players() -> None:
    sides = synthetic(players=40, games=3)
    half = training_share(sides, 0.5)
    kept = {s.group for s in half}
    assert len(kept) == 20 and len(half) == 60
    assert sum(1 for s in sides if s.group in kept) == len(half)  # every game of a kept player
    assert training_share(sides, 1.0) == sides


@pytest.mark.parametrize(
    ("elo", "where"), [(1599.0, "below"), (1600.0, "within"), (2400.0, "within"), (2401.0, "above")]
)
def test_a_rating_is_placed_against_the_training_pools_mean_and_spread(
    elo: float, where: str
) -> None:
    model = Fit({}, {}, 0.0, 1.0, 1.0, prior_mean=2000.0, prior_sd=400.0, sides=10)
    assert rating_range(elo, model) == where


def test_a_widening_by_rating_is_chosen_inside_the_training_folds_and_only_widens() -> None:
    report = nested_cross_validate(synthetic(acpl_noise=80.0), choices=FEW)["cpi"]
    widened = report["widened_by_rating"]
    assert len(widened["spreads"]) == 5 and all(spread in SPREADS for spread in widened["spreads"])
    for where, cover in widened["by_range"].items():
        assert cover >= report["set_cover_by_range"][where]["cover"]  # never narrower than before
    assert widened["set_cover"] >= report["set_cover"]


def test_a_weaker_prior_is_chosen_in_the_training_folds_beside_an_interval_with_the_pull() -> None:
    report = nested_cross_validate(synthetic(acpl_noise=80.0), choices=FEW)["cpi"]
    weaker = report["weaker_prior"]
    assert len(weaker["scales"]) == 5 and all(scale in PRIOR_SCALES for scale in weaker["scales"])
    assert set(weaker["by_range"]) == set(report["set_cover_by_range"])
    assert 0.3 <= weaker["set_cover"] <= 1.0 and 0.3 <= weaker["window_cover"] <= 1.0
    pulled = weaker["carrying_the_pull"]
    for where, cover in pulled["by_range"].items():  # the pull only widens the shipped interval
        assert cover >= report["set_cover_by_range"][where]["cover"]


POOL = Fit({}, {}, alpha=10.0, beta=0.01, sigma=6.0, prior_mean=2000.0, prior_sd=400.0, sides=100)


@pytest.mark.parametrize(
    ("deltas", "scale", "expected_mean"),
    [
        ([], 1.0, 2000.0),  # no game: the prior's mean
        ([26.0], FLAT, 1600.0),  # no prior: the game's own reading, (26 − 10) / 0.01
        ([26.0, 26.0, 26.0, 26.0], FLAT, 1600.0),
        (
            [26.0],
            1.0,
            2000.0 - 400 * 0.16 / (0.16 + 0.36),
        ),  # prior 400², noise 600²: the weight 0.31
    ],
)
def test_a_scaled_prior_pulls_less_and_a_flat_one_not_at_all(
    deltas: list[float], scale: float, expected_mean: float
) -> None:
    mean, sd = estimate(deltas, with_prior_scale(POOL, scale))
    assert mean == pytest.approx(expected_mean, abs=0.01)
    assert grid_estimate(deltas, POOL, scale, slope=0.0)[0] == pytest.approx(expected_mean, abs=1.0)
    assert grid_estimate(deltas, POOL, scale, slope=0.0)[1] == pytest.approx(sd, rel=0.01)


def test_the_noise_slope_is_negative_when_weaker_players_games_are_noisier() -> None:
    rng = random.Random(5)
    sides = []
    for _ in range(4000):
        elo = rng.gauss(2000, 400)
        noise = 6.0 * math.exp(-0.2 * (elo - 2000) / 400)
        sides.append(Side(elo, {"x": 10.0 + 0.01 * elo + rng.gauss(0, noise)}))
    model = Fit(
        {"x": 1.0},
        {},
        alpha=10.0,
        beta=0.01,
        sigma=6.0,
        prior_mean=2000.0,
        prior_sd=400.0,
        sides=4000,
    )
    assert noise_slope(model, sides) == pytest.approx(-0.2, abs=0.05)


def test_each_fixed_prior_scale_is_measured_by_rating_range_and_no_prior_removes_the_pull() -> None:
    table = by_prior_scale(
        synthetic(acpl_noise=80.0), choice=Choice(SIGNAL, "all", 0.1), scales=(1.0, FLAT)
    )
    assert set(table) == {"1", "flat"}
    for row in table.values():
        assert (
            row["all"]["sets"]
            == 60 * 8 // 4
            == sum(row[where]["sets"] for where in ("below", "within", "above"))
        )
    pulled, flat = table["1"]["below"], table["flat"]["below"]
    assert (
        pulled["bias"] > 0 and abs(flat["bias"]) < pulled["bias"]
    )  # the prior lifts the weak players
    assert flat["half_width"] > pulled["half_width"]
