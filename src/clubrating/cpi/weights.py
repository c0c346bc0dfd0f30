"""The CPI's settings, typed: a weight for each factor of the registry (with the pool's mean),
the result bonus R, and the scoring model (spec C1, C2, C4, C5).

The defaults are the spec's. The fitted presets (``clubrating calibrate``) also renormalise
(an unavailable share factor counts as the pool's mean instead of 0, so a missed mate costs
where "no mate on the board" does not), leave short games out (``min_plies``), take the CPI
as the Elo-equivalent of the last ``window`` games from the measurement model
ΔCPI = α + β·Elo + noise(σ) (:class:`~clubrating.cpi.calibrate.EloMap`), let a strength move
``decay`` Elo per √year unseen, and read E as exp(−CPL′/50) on losses capped at 500 cp.

A flat dictionary (``E``, …, ``win``, ``renormalise``, ``mean_E``, ``elo_beta``, …) is the form
of storage, the presets and the JSON only: :meth:`Weights.to_dict` and
:meth:`Weights.from_dict`, its keys and their order a stable contract.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from clubrating.cpi.calibrate import EloMap
from clubrating.cpi.factors import SPEC_E, EvalLossForm
from clubrating.cpi.registry import FACTORS, NAMES, SHARES


@dataclass(frozen=True, slots=True)
class FactorWeight:
    """What one factor adds to ΔCPI a unit; ``mean``, the pool's mean of a share factor, is what
    an unavailable value counts as when the model renormalises."""

    name: str
    weight: float
    mean: float = 0


@dataclass(frozen=True, slots=True)
class ResultBonus:
    """R of spec C1: +10 / +5 / 0 for a win / draw / loss."""

    win: float = 10
    draw: float = 5
    loss: float = 0


NO_ELO_MAP = EloMap(0, 0, 0, 0, 0, 0)  # the spec has no Elo-equivalent


@dataclass(frozen=True, slots=True)
class ScoringModel:
    """How factor values become a CPI: always the running clamp(CPI + ΔCPI, 0, 4000) of spec C2,
    from ``start`` with ΔCPI the game's score (the spec); with a usable Elo map and ``k`` > 0,
    from the pool's mean with ΔCPI = k · (what the game shows − CPI before), and the headline
    "plays like" the Elo-equivalent of the last ``window`` games."""

    start: float = 0  # the starting CPI, a setting (default 0)
    renormalise: bool = False  # spec C5: an unavailable factor adds 0 ("no mates available": 0)
    min_plies: int = 0  # spec: every game counts
    window: int = 0  # games of "plays like 1750 ± 150"; 0: no such headline (spec)
    elo: EloMap = NO_ELO_MAP  # ΔCPI = α + β·Elo + noise(σ), the pool's prior, the floor
    decay: float = 0  # Elo per √year a strength may move unseen (Glicko's c); 0: none
    e_form: EvalLossForm = SPEC_E  # E: spec C3's max(0, 1 − CPL/200), or the fitted form
    k: float = 0  # share of the gap to what a game shows that it moves the CPI; 0: the spec

    @property
    def elo_map(self) -> EloMap | None:
        """The Elo-equivalent of ΔCPI, when the settings come from a fit."""
        elo = self.elo
        return None if elo.beta == 0 or elo.sigma <= 0 or elo.prior_sd <= 0 else elo

    @property
    def windowed(self) -> bool:
        """The headline is "plays like", the Elo-equivalent of the last ``window`` games."""
        return self.window >= 1 and self.elo_map is not None

    @property
    def tracking(self) -> bool:
        """ΔCPI = k · (what the game shows − CPI before): the CPI tracks the pool's rating."""
        return self.k > 0 and self.elo_map is not None


SPEC_FACTORS = tuple(FactorWeight(spec.name, spec.spec_weight) for spec in FACTORS)
_INDEX = {name: i for i, name in enumerate(NAMES)}
_ELO_KEYS = ("elo_alpha", "elo_beta", "elo_sigma", "elo_mean", "elo_sd", "elo_floor")


@dataclass(frozen=True, slots=True)
class Weights:
    """The CPI settings: one :class:`FactorWeight` per registry factor (in its order), R and
    the scoring model; the defaults are the spec's."""

    factors: tuple[FactorWeight, ...] = SPEC_FACTORS
    result: ResultBonus = field(default_factory=ResultBonus)
    model: ScoringModel = field(default_factory=ScoringModel)

    def __post_init__(self) -> None:
        if tuple(f.name for f in self.factors) != NAMES:
            raise ValueError(
                f"weights for {[f.name for f in self.factors]}, expected {list(NAMES)}"
            )

    def factor(self, name: str) -> FactorWeight:
        return self.factors[_INDEX[name]]

    def weight(self, name: str) -> float:
        return self.factors[_INDEX[name]].weight

    def unavailable_value(self, name: str) -> float:
        """What an unavailable share factor counts as: 0 (spec) or the pool's mean (fitted)."""
        return self.factor(name).mean if self.model.renormalise else 0.0

    def to_dict(self) -> dict[str, float]:
        """The flat form (storage, presets, JSON), keys in the contract's order; a number is
        written as it was given (the spec's whole numbers as integers, a stored setting as a
        float), a model setting as a float unless it is 0."""
        model, elo = self.model, self.model.elo
        out = {f.name: f.weight for f in self.factors}
        out.update(
            win=self.result.win,
            draw=self.result.draw,
            loss=self.result.loss,
            start=model.start,
            renormalise=_setting(model.renormalise),
        )
        out.update({f"mean_{name}": self.factor(name).mean for name in SHARES})
        out.update(min_plies=_setting(model.min_plies), window=_setting(model.window))
        out.update(
            zip(
                _ELO_KEYS,
                map(
                    _setting,
                    (elo.alpha, elo.beta, elo.sigma, elo.prior_mean, elo.prior_sd, elo.floor),
                ),
            )
        )
        out.update(
            decay=_setting(model.decay),
            e_scale=_setting(model.e_form.exp_scale),
            e_cap=_setting(model.e_form.cap),
            k=_setting(model.k),
        )
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weights:
        """Settings from the flat form; a key it does not name keeps the spec's value, an
        unknown key is ignored (a stored override of an older release)."""
        flat = {**SPEC.to_dict(), **{k: float(v) for k, v in data.items() if k in SETTING_NAMES}}
        factors = tuple(
            FactorWeight(name, flat[name], flat.get(f"mean_{name}", 0.0)) for name in NAMES
        )
        model = ScoringModel(
            start=flat["start"],
            renormalise=bool(flat["renormalise"]),
            # a game of n plies is scored when n ≥ min_plies, the same test for a whole number
            min_plies=math.ceil(flat["min_plies"]),
            window=int(flat["window"]),
            elo=EloMap(*(flat[key] for key in _ELO_KEYS)),
            decay=flat["decay"],
            e_form=EvalLossForm(flat["e_scale"], flat["e_cap"]),
            k=flat["k"],
        )
        return cls(factors, ResultBonus(flat["win"], flat["draw"], flat["loss"]), model)

    @classmethod
    def spec(cls, **changes: float) -> Weights:
        """The spec's settings with some flat settings changed: ``Weights.spec(H=-30)``."""
        unknown = sorted(set(changes) - set(SETTING_NAMES))
        if unknown:
            raise ValueError(
                f"unknown CPI settings {unknown}: expected some of {', '.join(SETTING_NAMES)}"
            )
        return cls.from_dict(changes)


def _setting(value: float) -> float:
    return 0 if value == 0 else float(value)


SPEC = Weights()
SETTING_NAMES: tuple[str, ...] = tuple(SPEC.to_dict())  # E … Br, win/draw/loss, start, …
