"""The CPI factors, one row each (spec C1, C3): the single list every layer reads.

A :class:`FactorSpec` says what a factor is called, whether it is a share (a value in [0, 1]
from a numerator and a denominator) or a count, its label, the spec's weight, how it is
measured from a game's facts, which way the calibration may weigh it and whether the coach
may name it a player's weakest. :class:`PlayerFactors`, the JSON, the weights, the text and
the charts are all built from :data:`FACTORS`. Adding a factor is a row here, a field of
:class:`PlayerFactors` (with a default, so that stored ledgers and callers without it still
read) and its measure in :mod:`clubrating.cpi.factors`; the exercises of a factor the coach
drills go in :mod:`clubrating.cpi.coach`, and the presets are refitted (``clubrating calibrate``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.factors import (
    SPEC_E,
    Count,
    EvalLossForm,
    Factor,
    acpl,
    brilliancies,
    engine_choice,
    eval_loss,
    game_accuracy,
    hangs,
    lost_on_time,
    mates,
    opening,
    time_management,
)
from clubrating.words import N_


class Kind(enum.Enum):
    SHARE = "share"  # a Factor: value = f(numerator, denominator), or unavailable
    COUNT = "count"  # a Count: how many times it happened, and at which plies


Measure = Callable[[GameFacts, Color, EvalLossForm], Factor | Count]


@dataclass(frozen=True, slots=True)
class FactorSpec:
    name: str
    kind: Kind
    label: str  # N_: translated where the web shows it (gettext), English in the CLI
    spec_weight: float  # spec C1: ΔCPI = Σ w·factor (+ R)
    measure: Measure
    sign: int = 1  # calibration: +1 more is never worse, −1 never better, 0 free
    drill: bool = True  # the coach may name it the weakest factor (cpi.coach)
    means: str = ""  # what it means, in one line a player reads (CLI and web)

    @property
    def higher_is_better(self) -> bool | None:
        """Which way is better for a player, as the calibration's ``sign`` says: True (more is
        better), False (fewer is better), None (neither by itself: B2, B3)."""
        return None if self.sign == 0 else self.sign > 0


def _mate(distance: int) -> Measure:
    return lambda game, color, form: mates(game.plies, color, game.outcome)[distance]


FACTORS: tuple[FactorSpec, ...] = (
    FactorSpec(
        "E",
        Kind.SHARE,
        N_("eval loss (average centipawn loss)"),
        30,
        lambda game, color, form: eval_loss(game.plies, color, form),
        means=N_("how little the moves lost (100 %: the evaluation never dropped)"),
    ),
    FactorSpec(
        "T",
        Kind.SHARE,
        N_("time management"),
        5,
        lambda game, color, form: time_management(
            game.plies, color, game.time_control, lost_on_time(game, color)
        ),
        means=N_("how the thinking time was spread (0 %: every move the same time)"),
    ),
    FactorSpec(
        "O",
        Kind.SHARE,
        N_("opening (book moves)"),
        10,
        lambda game, color, form: opening(game.plies, color),
        means=N_("book moves among the first ten played from a known opening"),
    ),
    FactorSpec(
        "B1",
        Kind.SHARE,
        N_("engine's first choice"),
        20,
        lambda game, color, form: engine_choice(game.plies, color, 1),
        means=N_("moves the engine would have chosen first"),
    ),
    # B2/B3 are left free by the fit (a second choice: the data says which way) and not drilled
    FactorSpec(
        "B2",
        Kind.SHARE,
        N_("engine's second choice"),
        5,
        lambda game, color, form: engine_choice(game.plies, color, 2),
        sign=0,
        drill=False,
        means=N_("moves that were the engine's second choice"),
    ),
    FactorSpec(
        "B3",
        Kind.SHARE,
        N_("engine's third choice"),
        2,
        lambda game, color, form: engine_choice(game.plies, color, 3),
        sign=0,
        drill=False,
        means=N_("moves that were the engine's third choice"),
    ),
    FactorSpec(
        "M1",
        Kind.SHARE,
        N_("mates in 1 found"),
        8,
        _mate(1),
        means=N_("mates in 1 found, of those on the board"),
    ),
    FactorSpec(
        "M2",
        Kind.SHARE,
        N_("mates in 2 found"),
        15,
        _mate(2),
        means=N_("mates in 2 found, of those on the board"),
    ),
    FactorSpec(
        "M3",
        Kind.SHARE,
        N_("mates in 3 found"),
        20,
        _mate(3),
        means=N_("mates in 3 found, of those on the board"),
    ),
    FactorSpec(
        "H",
        Kind.COUNT,
        N_("hangs (moves costing 15 points of win chance or more)"),
        -25,
        lambda game, color, form: hangs(game.plies, color),
        sign=-1,
        means=N_("moves that threw away 15 points of winning chances or more"),
    ),
    FactorSpec(
        "Br",
        Kind.COUNT,
        N_("brilliancies (sound sacrifices)"),
        30,
        lambda game, color, form: brilliancies(game.plies, color),
        drill=False,
        means=N_("sound sacrifices the engine confirms"),
    ),
)

NAMES: tuple[str, ...] = tuple(spec.name for spec in FACTORS)
SHARES: tuple[str, ...] = tuple(spec.name for spec in FACTORS if spec.kind is Kind.SHARE)
COUNTS: tuple[str, ...] = tuple(spec.name for spec in FACTORS if spec.kind is Kind.COUNT)
LABELS: dict[str, str] = {spec.name: spec.label for spec in FACTORS}
BY_NAME: dict[str, FactorSpec] = {spec.name: spec for spec in FACTORS}


@dataclass(frozen=True, slots=True)
class PlayerFactors:
    """The factors of one player in one game (one field per row of :data:`FACTORS`, in its
    order), plus lichess-style figures."""

    E: Factor
    T: Factor
    O: Factor
    B1: Factor
    B2: Factor
    B3: Factor
    M1: Factor
    M2: Factor
    M3: Factor
    H: Count
    Br: Count
    acpl: float | None = None
    accuracy: float | None = None

    def share(self, name: str) -> Factor:
        value = getattr(self, name)
        assert isinstance(value, Factor), name
        return value

    def count(self, name: str) -> Count:
        value = getattr(self, name)
        assert isinstance(value, Count), name
        return value

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name).to_dict() for name in NAMES}


if tuple(f.name for f in fields(PlayerFactors))[: len(NAMES)] != NAMES:  # pragma: no cover
    raise AssertionError("PlayerFactors' fields must be the registry's factors, in its order")


def player_factors(game: GameFacts, color: Color, e_form: EvalLossForm = SPEC_E) -> PlayerFactors:
    """All factors of one player in one analysed game (E in the given form)."""
    measured: dict[str, Any] = {spec.name: spec.measure(game, color, e_form) for spec in FACTORS}
    return PlayerFactors(
        **measured, acpl=acpl(game.plies, color), accuracy=game_accuracy(game.plies, color)
    )
