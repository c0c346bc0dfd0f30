"""The factor registry: the spec's eleven factors in the spec's order, then ours (W), and
what a factor added after the fact keeps working (positional construction, stored settings)."""

from __future__ import annotations

import pytest

from clubrating.cpi.facts import Color
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.index import PRESETS, Weights, delta_cpi, score_game
from clubrating.cpi.presets import FITTED
from clubrating.cpi.registry import BY_NAME, COUNTS, NAMES, SHARES, Kind, PlayerFactors
from tests.cpi.helpers import game, ply

SPEC_ELEVEN = ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3", "H", "Br")
NONE = Factor(None, 0, 0)


def eleven() -> PlayerFactors:
    """The spec's eleven factors, built positionally as callers did before W."""
    return PlayerFactors(Factor(0.5, 100, 1), NONE, Factor.share(3, 4), Factor.share(5, 10), Factor.share(2, 10),
                         Factor.share(1, 10), Factor.share(1, 1), NONE, Factor.share(0, 1), Count(1, (7,)),
                         Count(0))


def test_the_registry_is_the_specs_eleven_factors_then_ours() -> None:
    assert NAMES == (*SPEC_ELEVEN, "W")
    assert SHARES[-1] == "W" and COUNTS == ("H", "Br")
    w = BY_NAME["W"]
    assert (w.kind, w.spec_weight, w.sign, w.drill) == (Kind.SHARE, 0, 1, False)
    assert w.higher_is_better is True and w.label == "win chance kept" and w.means


def test_the_eleven_factors_built_positionally_leave_w_unavailable() -> None:
    factors = eleven()
    assert factors.W == NONE and factors.share("W") == NONE
    assert list(factors.to_dict()) == [*SPEC_ELEVEN, "W"]
    assert factors.to_dict()["W"] == {"value": None, "numerator": 0, "denominator": 0, "available": False}


@pytest.mark.parametrize("name", ["spec", *sorted(FITTED)])
def test_w_moves_no_score_under_the_spec_or_a_preset_fitted_without_it(name: str) -> None:
    stored = {key: value for key, value in PRESETS[name].to_dict().items() if key not in ("W", "mean_W")}
    weights = Weights.from_dict(stored)
    without = eleven()
    for w in (NONE, Factor(0.0, 300, 3), Factor(0.97, 9, 3), Factor(1.0, 0, 3)):
        with_w = PlayerFactors(**{n: getattr(without, n) for n in NAMES if n != "W"}, W=w)
        assert delta_cpi(with_w, 5, weights) == delta_cpi(without, 5, weights)


def test_a_scored_game_measures_w_beside_the_others() -> None:
    facts = game([ply(1, "a", [("b", 0)], -100), ply(2, "x", [("x", 100)])], "0-1")
    white = score_game(facts)[Color.WHITE]
    assert white.factors.W.denominator == 1 and white.factors.W.numerator == pytest.approx(9.1026, abs=1e-4)
    assert list(white.to_dict()["factors"])[-2:] == ["Br", "W"]
