"""Decay when inactive (spec C7): a strength that may move while a player does not
play (a random walk, Glicko's c) widens the interval with time away and weighs older games
less; without the setting nothing changes."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from clubrating.cpi.calibrate import EloMap, estimate

# ΔCPI = -100 + 0.1·Elo, σ 10 a game (one game measures Elo ± 100), pool 1500 ± 400.
MODEL = EloMap(alpha=-100, beta=0.1, sigma=10, prior_mean=1500, prior_sd=400)
WEAK, STRONG = 0.1 * 1300 - 100, 0.1 * 1900 - 100  # the ΔCPI of a 1300 and of a 1900 game


def test_without_decay_the_filter_is_the_precision_sum() -> None:
    deltas = [WEAK, STRONG, 40.0, 75.0, 66.0]
    precision = 1 / 400**2 + len(deltas) / 100**2
    mean = (1500 / 400**2 + sum((d + 100) / 0.1 for d in deltas) / 100**2) / precision
    for ages, decay in ((None, 0.0), ([4, 3, 2, 1, 0], 0.0), (None, 50.0)):
        got = estimate(deltas, MODEL, ages=ages, decay=decay)
        assert got == pytest.approx((mean, (1 / precision) ** 0.5))


def test_time_away_widens_the_interval_and_leaves_the_estimate() -> None:
    deltas = [STRONG] * 10
    now = estimate(deltas, MODEL, ages=[0.0] * 10, decay=60)
    later = estimate(deltas, MODEL, ages=[2.0] * 10, decay=60)
    assert later[0] == pytest.approx(now[0])
    assert later[1] ** 2 == pytest.approx(now[1] ** 2 + 60**2 * 2)  # c²·t, Glicko's step 1


def test_with_decay_recent_games_count_more() -> None:
    improving = [WEAK] * 5 + [STRONG] * 5  # five weak games, then five strong
    ages = [3.0 - 0.1 * i for i in range(5)] + [0.4 - 0.1 * i for i in range(5)]
    still, _ = estimate(improving, MODEL)
    moving, _ = estimate(improving, MODEL, ages=ages, decay=100)
    assert still == pytest.approx(1600, abs=10)  # the plain mean of 1300 and 1900 (shrunk)
    assert moving > still + 100  # the recent 1900s weigh more


def test_ages_must_match_the_games() -> None:
    with pytest.raises(ValueError, match="3 games but 2 ages"):
        estimate([1.0, 2.0, 3.0], MODEL, ages=[1.0, 0.0], decay=10)


def test_simulated_breaks_keep_the_interval_honest_only_with_decay() -> None:
    from clubrating.cpi.decay import ONE_SD, careers_with_breaks

    model = dataclasses.replace(MODEL, floor=50)
    outcomes = {
        (o.decay, o.gap): o
        for o in careers_with_breaks(model, drift=100, decays=(0, 100), players=600)
    }
    assert abs(outcomes[0, 0.0].coverage - ONE_SD) < 0.06  # no break: both honest
    assert abs(outcomes[100, 0.0].coverage - ONE_SD) < 0.06
    assert outcomes[0, 4.0].coverage < ONE_SD - 0.12  # four years away, no decay: overconfident
    assert abs(outcomes[100, 4.0].coverage - ONE_SD) < 0.06  # decay = the true drift: honest again
    assert outcomes[100, 4.0].mean_sd > outcomes[0, 4.0].mean_sd + 100
