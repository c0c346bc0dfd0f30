"""The CPI settings, typed (factor weights with the pool's means, R, the scoring model), and
their flat form at the edges: the presets and a club's stored overrides load, and the keys
and their order are the JSON contract's."""

from __future__ import annotations

import pytest

from clubrating.cpi.index import PRESETS
from clubrating.cpi.presets import FITTED
from clubrating.cpi.registry import NAMES, SHARES
from clubrating.cpi.weights import SETTING_NAMES, Weights

CONTRACT_ORDER = (
    *NAMES,
    "win",
    "draw",
    "loss",
    "start",
    "renormalise",
    *(f"mean_{n}" for n in SHARES),
    "min_plies",
    "window",
    "elo_alpha",
    "elo_beta",
    "elo_sigma",
    "elo_mean",
    "elo_sd",
    "elo_floor",
    "decay",
    "e_scale",
    "e_cap",
    "k",
)


def test_the_flat_form_has_the_contracts_keys_in_its_order() -> None:
    assert SETTING_NAMES == CONTRACT_ORDER
    assert all(tuple(weights.to_dict()) == CONTRACT_ORDER for weights in PRESETS.values())


@pytest.mark.parametrize("name", sorted(FITTED))
def test_a_fitted_preset_loads_typed_and_writes_back_its_settings(name: str) -> None:
    weights = PRESETS[name]
    model = weights.model
    assert (
        model.renormalise is True
        and isinstance(model.min_plies, int)
        and isinstance(model.window, int)
    )
    assert model.elo_map is not None and model.windowed
    assert (
        weights.weight("B1") == FITTED[name]["B1"]
        and weights.factor("M1").mean == FITTED[name]["mean_M1"]
    )
    assert {**weights.to_dict()} == {"start": 0, **FITTED[name]}
    assert Weights.from_dict(weights.to_dict()) == weights


def test_the_spec_is_the_default_and_writes_its_whole_numbers_as_integers() -> None:
    spec = Weights().to_dict()
    assert spec["E"] == 30 and isinstance(spec["E"], int) and spec["H"] == -25
    assert spec["renormalise"] == 0 and isinstance(spec["renormalise"], int)
    assert Weights().model.elo_map is None and not Weights().model.windowed


def test_a_stored_override_changes_one_setting_and_an_unknown_key_is_ignored() -> None:
    weights = Weights.from_dict({"B1": 25, "window": 7.5, "min_plies": 19.5, "gone": 3})
    assert weights.weight("B1") == 25.0 and weights.weight("E") == 30
    assert (weights.model.window, weights.model.min_plies) == (7, 20)  # n plies < 19.5 as n < 20
    with pytest.raises(ValueError, match="unknown CPI settings"):
        Weights.spec(gone=3)
