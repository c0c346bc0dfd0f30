"""The CPI fit: weights, the Elo map, the estimate from n games, cross-validation,
and the scoring settings that use them (renormalised factors, minimum length, the window)."""

from __future__ import annotations

import dataclasses
import random
import statistics

import chess.pgn
import pytest

from clubrating.cpi.calibrate import (
    FEATURES,
    Side,
    estimate,
    folds_of,
    pseudo_players,
    settings_of,
    time_control_class,
)
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.fitting import rating_of
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import (
    PRESETS,
    LedgerGame,
    Weights,
    delta_cpi,
    gain,
    game_shows,
    ledger,
    ledger_step,
    score_game,
)
from clubrating.cpi.registry import PlayerFactors
from clubrating.cpi.regression import cross_validate, fit
from tests.cpi.helpers import game, ply


def synthetic_sides(n: int = 600, seed: int = 7, noise: float = 0.08) -> list[Side]:
    """Sides whose E and B1 rise with Elo and whose hangs fall, plus noise; T never known."""
    rng = random.Random(seed)
    sides = []
    for i in range(n):
        elo = rng.uniform(800, 2600)
        skill = (elo - 800) / 1800
        values: dict[str, float | None] = {name: None for name in FEATURES}
        values.update(
            E=min(1, max(0, 0.5 + 0.4 * skill + rng.gauss(0, noise))),
            B1=min(1, max(0, 0.25 + 0.3 * skill + rng.gauss(0, noise))),
            B2=rng.random() * 0.3,
            B3=rng.random() * 0.2,
            O=rng.random(),
            H=float(rng.random() < 0.6 - 0.5 * skill),
            Br=0.0,
            M1=float(rng.random() < 0.5 + 0.5 * skill) if i % 5 == 0 else None,
            win=float(i % 3 == 0),
            draw=float(i % 3 == 1),
        )
        sides.append(
            Side(
                elo,
                values,
                group=f"p{i // 4}",
                band=str(int(elo // 200) * 200),
                acpl=100 - 60 * skill,
            )
        )
    return sides


def test_the_fit_finds_the_factors_that_carry_strength_and_scales_to_the_spec_units() -> None:
    model = fit(synthetic_sides())
    assert model.weights["E"] > 0 and model.weights["B1"] > 0 and model.weights["H"] < 0
    assert abs(model.weights["B2"]) < model.weights["E"] / 5  # noise gets little
    shares = ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")
    assert sum(abs(model.weights[n]) for n in shares) == pytest.approx(115)
    assert model.weights["T"] == pytest.approx(0, abs=1e-6)  # never available: no weight
    assert model.beta > 0 and model.sigma > 0


def test_one_game_says_little_and_many_games_converge_on_the_rating() -> None:
    sides = synthetic_sides()
    model = fit(sides)
    strong = [s for s in sides if s.elo > 2300]
    weak = [s for s in sides if s.elo < 1100]
    one_strong, sd1 = estimate([model.delta(strong[0].values)], model)
    many_strong, sd_many = estimate([model.delta(s.values) for s in strong], model)
    many_weak, _ = estimate([model.delta(s.values) for s in weak], model)
    assert abs(one_strong - model.prior_mean) < abs(many_strong - model.prior_mean)
    assert sd_many < sd1 < model.prior_sd
    assert many_strong == pytest.approx(statistics.fmean(s.elo for s in strong), abs=150)
    assert many_weak == pytest.approx(statistics.fmean(s.elo for s in weak), abs=150)


def test_no_games_is_the_prior() -> None:
    model = fit(synthetic_sides())
    assert estimate([], model) == pytest.approx((model.prior_mean, model.prior_sd))


def test_too_few_sides_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="too few"):
        fit(synthetic_sides(10))


def test_sides_all_of_one_rating_are_refused_in_words() -> None:
    """Nothing to fit when every rating is the same (a file whose Elo tags all say 1500)."""
    same = [dataclasses.replace(side, elo=1500.0) for side in synthetic_sides(60)]
    with pytest.raises(ValueError, match="same rating"):
        fit(same)


def test_a_fold_whose_training_sides_share_one_rating_is_left_out_of_the_cross_validation() -> None:
    """Only the held-out fold's player differs: the other folds' training sets still vary, the
    fold holding that player's games cannot be fitted and is skipped, not a crash."""
    sides = [
        dataclasses.replace(side, elo=1500.0 if side.group != "p0" else 1900.0)
        for side in synthetic_sides(120)
    ]
    report = cross_validate(sides, k=2)
    assert report.per_game.n < len(sides)


def test_folds_keep_a_players_games_together() -> None:
    sides = synthetic_sides(80)
    folds = folds_of(sides, 5)
    by_player: dict[str, set[int]] = {}
    for side, fold in zip(sides, folds):
        by_player.setdefault(side.group, set()).add(fold)
    assert all(len(f) == 1 for f in by_player.values())
    assert set(folds) == set(range(5))


def test_pseudo_players_are_ten_sides_of_one_player_or_band() -> None:
    sides = [Side(1500, {}, group=f"game:{i}", band="1400") for i in range(25)] + [
        Side(2000, {}, group="Carlsen", band="2000") for _ in range(12)
    ]
    chunks = pseudo_players(range(len(sides)), sides)
    assert sorted(len(c) for c in chunks) == [10, 10, 10]
    assert any(all(sides[i].group == "Carlsen" for i in c) for c in chunks)


def test_cross_validation_measures_on_held_out_sides_and_beats_a_useless_fit() -> None:
    good = cross_validate(synthetic_sides(), k=5)
    assert good.delta_r > 0.6 and good.per_10.mae < good.per_game.mae
    noise = [
        dataclasses.replace(s, elo=random.Random(i).uniform(800, 2600))
        for i, s in enumerate(synthetic_sides())
    ]
    useless = cross_validate(noise, k=5)
    assert abs(useless.delta_r) < 0.2 and useless.per_10.mae > good.per_10.mae


@pytest.mark.parametrize(
    "headers, expected",
    [
        ({"TimeControl": "60+0"}, "bullet"),
        ({"TimeControl": "180+2"}, "blitz"),  # 180 + 80 = 260 s
        ({"TimeControl": "600+0"}, "rapid"),
        ({"TimeControl": "900+10"}, "rapid"),  # 900 + 400 = 1300 s
        ({"TimeControl": "5400+30"}, "classical"),
        ({"Event": "Rated Blitz game"}, "blitz"),
        ({"Event": "Rated Bullet tournament https://lichess.org/tournament/x"}, "bullet"),
        ({"Event": "Tata Steel Masters"}, "unknown"),
        ({"TimeControl": "-"}, "unknown"),
        ({"TimeControl": "²+0"}, "unknown"),  # a digit to str.isdigit(), float() refuses it
        ({"TimeControl": "600+²"}, "rapid"),
    ],
)
def test_time_control_classes_follow_lichess(headers: dict[str, str], expected: str) -> None:
    assert time_control_class(headers) == expected


def test_a_base_written_in_minutes_is_read_from_the_clock() -> None:
    assert time_control_class({"TimeControl": "90+30"}) == "rapid"  # 90 s + 40 × 30 s
    assert (
        time_control_class({"TimeControl": "90+30"}, first_clock=5398) == "classical"
    )  # a broadcast's 90 min
    assert time_control_class({"TimeControl": "300+3"}, first_clock=299) == "blitz"


# --- the settings that use a fit ------------------------------------------------------------


def factors(**values: float | None) -> PlayerFactors:
    def share(name: str) -> Factor:
        value = values.get(name)
        return Factor(value, 0, 1 if value is not None else 0)

    return PlayerFactors(
        *(share(n) for n in ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")),
        H=Count(0),
        Br=Count(0),
    )


FITTED = Weights.from_dict(settings_of(fit(synthetic_sides()), min_plies=20, window=10))


def test_a_missed_mate_costs_under_fitted_settings_where_no_mate_does_not() -> None:
    no_mate = delta_cpi(factors(E=0.9, B1=0.5), 0, FITTED)
    missed = delta_cpi(factors(E=0.9, B1=0.5, M1=0.0), 0, FITTED)
    found = delta_cpi(factors(E=0.9, B1=0.5, M1=1.0), 0, FITTED)
    assert FITTED.weight("M1") > 0 or FITTED.factor("M1").mean > 0
    assert missed <= no_mate <= found and missed < found


def test_the_spec_settings_keep_the_spec_arithmetic_an_unavailable_factor_adds_0() -> None:
    spec = Weights()
    # spec C5, second example: won, CPL 80, B1 0.34, no mates available, 1 hang -> 9.8
    example = dataclasses.replace(factors(E=0.6, B1=0.34), H=Count(1))
    assert delta_cpi(example, 10, spec) == pytest.approx(9.8)


def run(weights: Weights, scores: list[float]) -> float:
    cpi = weights.model.elo.prior_mean if weights.model.tracking else weights.model.start
    for played, score in enumerate(scores):
        cpi = ledger_step(cpi, score, weights, played)[1]
    return cpi


def test_a_fitted_presets_running_cpi_settles_on_what_the_games_show_whatever_their_number() -> (
    None
):
    same_quality = 25.0
    shows = game_shows(same_quality, FITTED)
    assert shows is not None
    prior = FITTED.model.elo.prior_mean
    few, many = run(FITTED, [same_quality] * 10), run(FITTED, [same_quality] * 200)
    assert many == pytest.approx(shows, abs=0.5)  # 200 games: it has settled
    assert abs(few - shows) < 0.3 * abs(prior - shows)  # 10 games: most of the way
    assert run(Weights(), [same_quality] * 200) > run(
        Weights(), [same_quality] * 10
    )  # the spec's sum counts games


def test_the_ledger_of_a_fitted_preset_steps_from_the_pools_mean_and_leaves_short_games_out(
    short_and_long_games,
) -> None:
    entries = ledger(short_and_long_games, FITTED)
    assert {e.game_id for e in entries} == {"long"}
    scores = score_game(short_and_long_games[1].facts, FITTED)
    for entry in entries:
        shows = game_shows(scores[entry.color].delta_cpi, FITTED)
        assert shows is not None and entry.cpi_before == FITTED.model.elo.prior_mean
        assert entry.delta == pytest.approx(gain(FITTED, 0) * (shows - entry.cpi_before))
        assert entry.cpi_after == entry.cpi_before + entry.delta


def quiet_game(plies: int) -> GameFacts:
    """``plies`` moves, each the engine's first choice at an equal score."""
    return game(
        [ply(n, "e2e4", [("e2e4", 20), ("d2d4", 10), ("g1f3", 5)]) for n in range(1, plies + 1)],
        "1/2-1/2",
    )


@pytest.fixture
def short_and_long_games() -> list[LedgerGame]:
    return [
        LedgerGame("short", "a", "b", quiet_game(6)),
        LedgerGame("long", "a", "b", quiet_game(30)),
    ]


def test_simulated_careers_show_the_running_sum_counts_games_and_the_window_strength() -> None:
    from clubrating.cpi.calibrate import careers, spearman

    sides = synthetic_sides()
    model = fit(sides)
    spec = Weights().to_dict()
    found = careers(
        sides, model, lambda s: sum(spec[n] * (s.values.get(n) or 0) for n in FEATURES), window=10
    )
    assert (
        found["spec_sum_vs_games_played"] > 0.3
        and found["window_vs_strength"] > found["spec_sum_vs_strength"]
    )
    assert found["window_vs_strength"] > 0.8 and abs(found["window_vs_games_played"]) < 0.2
    assert spearman([1, 2, 3, 4], [10, 20, 20, 40]) == pytest.approx(0.9486833)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_under_every_preset_missing_a_mate_lowers_the_score(name: str) -> None:
    """A mate in 1 on the board and another move played scores lower than the same move where no
    mate was there (both added 0 before). Under the fitted presets M1–M3 weigh 0 (the
    data gives them no weight beside E and B1), so the cost comes through E and B1."""
    from tests.cpi.coach_games import OPEN_GAME, build

    missed = build(OPEN_GAME, {5: {"best": [("Bc4", "#1"), ("d4", 50)], "after": 50}}, result="1-0")
    quiet = build(OPEN_GAME, {5: {"best": [("d4", 50), ("Bc4", 40)], "after": 50}}, result="1-0")
    model = dataclasses.replace(PRESETS[name].model, min_plies=0)  # a 10-ply sketch of a game
    weights = dataclasses.replace(PRESETS[name], model=model)
    assert (
        score_game(missed, weights)[Color.WHITE].delta_cpi
        < score_game(quiet, weights)[Color.WHITE].delta_cpi
    )
    assert score_game(missed, weights)[Color.WHITE].factors.M1.value == 0


def test_a_report_without_ten_game_sets_is_strict_json_and_its_summary_prints() -> None:
    """Few sides of one player each: no held-out 10-game set, so those figures are unknown.
    They are null in the JSON (NaN is not JSON) and 'n/a' in the summary, not a crash."""
    import json

    from clubrating.commands.calibrate import summary

    sides = [
        dataclasses.replace(side, group=f"g{i}", band=f"b{i}")
        for i, side in enumerate(synthetic_sides(80))
    ]
    report = cross_validate(sides).to_dict()
    assert report["per_10_games"]["n"] == 0 and report["per_10_games"]["mae"] is None
    text = json.dumps(report, allow_nan=False)
    careers = dict.fromkeys(
        (
            "spec_sum_vs_games_played",
            "spec_sum_vs_strength",
            "window_vs_strength",
            "window_vs_games_played",
        ),
        None,
    )
    document = {
        "pool": "p",
        "time_control": "blitz",
        "cross_validation": json.loads(text),
        "careers": careers,
        "provenance": {"games": 40, "sides": 80},
        "settings": settings_of(fit(sides), min_plies=0, window=10),
    }
    assert "n/a" in summary(document)


@pytest.mark.parametrize("elo", ["²", "9" * 5000, "٣٠٠٠", "99", "3501"])
def test_a_rating_tag_that_is_no_plausible_ascii_number_is_no_rating(elo: str) -> None:
    # found: int() of '²' or of 5,000 digits raised ValueError out of the fitting's game picking
    assert rating_of(chess.pgn.Headers(WhiteElo=elo), "WhiteElo") is None


def test_a_rating_tag_with_blanks_around_is_read() -> None:
    assert rating_of(chess.pgn.Headers(BlackElo=" 2100 "), "BlackElo") == 2100.0
