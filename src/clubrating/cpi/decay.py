"""What the ``decay`` setting does to a player who stops playing (spec C7: "decay
when a player stops playing"), in simulated careers under a fitted measurement model.

Each simulated player has a true strength that moves as a random walk (``drift`` Elo per
square root of a year), plays ``GAMES_BEFORE`` weekly games, then stays away for one of
:data:`GAPS`; on their return, before their next game, the club shows their Elo-equivalent
(:func:`clubrating.cpi.calibrate.estimate` over the window of their last games). Each game's
ΔCPI follows the fitted model, ΔCPI = α + β·(strength + style) + noise(σ), where the style is a
player's own lasting offset of standard deviation ``floor`` (the part of the error that more
games do not take away). We report, per ``decay`` setting, how far the shown figure falls from
the true strength on return and how often the true strength lies inside the shown ± (one
standard deviation: 68 % when the interval is honest).

Nobody's real strength is known on return from a break, so the true drift of club players is
not measured here; the simulation shows what each setting promises under each drift.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from clubrating.cpi.calibrate import EloMap, estimate

GAPS = (0.0, 0.5, 1.0, 2.0, 4.0)   # ours: years away, from "plays every week" to a long break
GAMES_BEFORE = 10                   # ours: the window of the dashboard's "plays like"
WEEK = 7 / 365.2425                 # a club night a week, in years
ONE_SD = math.erf(1 / math.sqrt(2))  # 0.683: the share inside ±1 sd of a normal law


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per decay setting and time away: error of the shown figure on return, and coverage."""

    decay: float
    gap: float
    mae: float          # mean |shown − true| in Elo
    coverage: float     # share of players whose true strength lies within shown ± sd
    mean_sd: float      # the mean ± shown


def careers_with_breaks(model: EloMap, *, drift: float, decays: Sequence[float], players: int = 2000,
                        seed: int = 1) -> list[Outcome]:
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
        outcomes.extend(Outcome(c, gap, statistics.fmean(errors[c]), inside[c] / players,
                                statistics.fmean(sds[c])) for c in decays)
    return outcomes


def _career(model: EloMap, drift: float, gap: float, rng: random.Random
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
    away = gap + WEEK   # the return is the week after the last game at the earliest
    strength += rng.gauss(0, drift * math.sqrt(away))
    now = times[-1] + away
    return strength, deltas, [now - t for t in times]
