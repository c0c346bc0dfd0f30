"""What the ``decay`` setting does to a player who stops playing (spec C7: "decay
when a player stops playing"), in simulated careers under a fitted measurement model.

Each simulated player's true strength is a random walk; they play ``GAMES_BEFORE`` weekly games,
stay away for one of :data:`GAPS`, and on their return the shown Elo-equivalent is compared with
the true strength (how far off, and how often inside the shown ±). The true drift of club
players is not known, so this shows what each setting promises under each drift; the figures
and the command are in ``docs/cpi.md``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from clubrating.cpi.calibrate import EloMap, estimate

GAPS = (0.0, 0.5, 1.0, 2.0, 4.0)  # ours: years away, from "plays every week" to a long break
GAMES_BEFORE = 10  # ours: the window of the dashboard's "plays like"
WEEK = 7 / 365.2425  # a club night a week, in years
ONE_SD = math.erf(1 / math.sqrt(2))  # 0.683: the share inside ±1 sd of a normal law


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per decay setting and time away: error of the shown figure on return, and coverage."""

    decay: float
    gap: float
    mae: float  # mean |shown − true| in Elo
    coverage: float  # share of players whose true strength lies within shown ± sd
    mean_sd: float  # the mean ± shown


def careers_with_breaks(
    model: EloMap, *, drift: float, decays: Sequence[float], players: int = 2000, seed: int = 1
) -> list[Outcome]:
    """Simulate ``players`` careers per gap of :data:`GAPS` and score each ``decay`` setting."""
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    for gap in GAPS:
        errors: dict[float, list[float]] = {c: [] for c in decays}
        inside: dict[float, int] = {c: 0 for c in decays}
        sds: dict[float, list[float]] = {c: [] for c in decays}
        for _ in range(players):
            true, deltas, ages = _career(model, drift, gap, rng)
            for c in decays:
                mean, sd = estimate(deltas, model, ages=ages, decay=c)
                errors[c].append(abs(mean - true))
                inside[c] += abs(mean - true) <= sd
                sds[c].append(sd)
        outcomes.extend(
            Outcome(
                c, gap, statistics.fmean(errors[c]), inside[c] / players, statistics.fmean(sds[c])
            )
            for c in decays
        )
    return outcomes


def _career(
    model: EloMap, drift: float, gap: float, rng: random.Random
) -> tuple[float, list[float], list[float]]:
    """One player: ΔCPIs of the weekly games, their ages on return, and the strength then."""
    strength = rng.gauss(model.prior_mean, model.prior_sd)
    style = rng.gauss(0, model.floor)
    deltas: list[float] = []
    times: list[float] = []
    for week in range(GAMES_BEFORE):
        if week:
            strength += rng.gauss(0, drift * math.sqrt(WEEK))
        deltas.append(model.alpha + model.beta * (strength + style) + rng.gauss(0, model.sigma))
        times.append(week * WEEK)
    away = gap + WEEK  # the return is the week after the last game at the earliest
    strength += rng.gauss(0, drift * math.sqrt(away))
    now = times[-1] + away
    return strength, deltas, [now - t for t in times]
