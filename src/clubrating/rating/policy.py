"""A rating policy: every number of the rules as a setting, and two presets.

``club_policy()`` is the specification's club rating (spec R1-R8, our rule
numbers); ``fide_policy()`` follows the FIDE Rating Regulations of 1 March 2024
as amended 1 October 2025 (see :mod:`clubrating.rating.fide`).
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from clubrating.rating import fide
from clubrating.rating.performance import PerformanceMethod
from clubrating.rating.types import Standing


class ExpectedScore(enum.Enum):
    """How the expected score of one game is computed."""

    LOGISTIC = "logistic"  # spec R1: 1 / (1 + 10^((opponent - you) / 400))
    FIDE_TABLE = "fide-table"  # FIDE table 8.1.2 with the 400-point rule (8.3.1)


@dataclass(frozen=True, slots=True)
class Policy:
    """The numbers of a rating list. Defaults are the club rules of the spec."""

    name: str = "club"
    start_rating: float = 1200.0  # R3
    k_new: float = 40.0  # R4: K for the first ``k_new_games`` rated games
    k_new_games: int = 20  # R4
    k_established: float = 20.0  # R4: afterwards
    provisional_below: int = 5  # R6: provisional while fewer rated games
    expected: ExpectedScore = ExpectedScore.LOGISTIC  # R1
    logistic_scale: float = 400.0  # R1
    k_junior: float | None = None  # FIDE 8.3.3: flagged juniors ...
    k_junior_below: float = 2300.0  # ... while rated below this
    k_high: float | None = None  # FIDE 8.3.3: K once ``k_high_from`` was reached
    k_high_from: float = 2400.0
    k_games_cap: int | None = None  # FIDE 8.3.3: K x n <= 700
    round_change: bool = False  # FIDE 8.3.4: change rounded per tournament
    performance: PerformanceMethod = (
        PerformanceMethod.LOGISTIC
    )  # the player card's performance rating

    def __post_init__(self) -> None:
        if self.k_new <= 0 or self.k_established <= 0 or self.k_new_games < 0:
            raise ValueError("K factors must be positive and game counts non-negative")
        if self.provisional_below < 0:
            raise ValueError("provisional_below must be non-negative")

    def is_provisional(self, standing: Standing) -> bool:
        """R6: fewer than ``provisional_below`` rated games."""
        return standing.games < self.provisional_below

    def new_standing(self) -> Standing:
        """R3: a player without rated games."""
        return Standing(rating=self.start_rating, games=0)

    def base_k(self, standing: Standing, junior: bool = False) -> float:
        """R4 / FIDE 8.3.3: K as it stands before a tournament, before the K x n cap."""
        if standing.games < self.k_new_games:
            return self.k_new
        if junior and self.k_junior is not None and standing.rating < self.k_junior_below:
            return self.k_junior
        if self.k_high is not None and (
            standing.peak_reached_2400 or standing.rating >= self.k_high_from
        ):
            return self.k_high
        return self.k_established

    def capped_k(self, k: float, games_rated: int) -> float:
        """FIDE 8.3.3: if K x n > 700, K is the largest whole number with K x n <= 700."""
        if self.k_games_cap is not None and games_rated > 0 and k * games_rated > self.k_games_cap:
            return float(self.k_games_cap // games_rated)
        return k

    def k_factor(self, standing: Standing, games_rated: int, junior: bool = False) -> float:
        return self.capped_k(self.base_k(standing, junior), games_rated)

    def expected_score(self, own: float, opponent: float) -> float:
        """R1 (logistic) or FIDE table 8.1.2 after the 400-point rule."""
        if self.expected is ExpectedScore.FIDE_TABLE:
            return fide.expected_hundredths(own, opponent) / 100
        return 1.0 / (1.0 + math.pow(10.0, (opponent - own) / self.logistic_scale))

    def settle(self, k: float, score_minus_expected: float) -> float:
        """R2 summed over a tournament: K x (actual - expected), rounded if FIDE 8.3.4."""
        if not self.round_change:
            return k * score_minus_expected
        if self.expected is ExpectedScore.FIDE_TABLE:
            # table values are whole hundredths: settle on the exact sum (-2.50 stays -2.50)
            hundredths = round(100 * score_minus_expected)
            return float(fide.round_half_away(k * hundredths / 100))
        return float(fide.round_half_away(k * score_minus_expected))

    def with_changes(self, **overrides: Any) -> Policy:
        return dataclasses.replace(self, **overrides)


def club_policy(**overrides: Any) -> Policy:
    """The spec's club rating: start 1200, K 40 for 20 games then 20, provisional below 5."""
    return Policy(**overrides)


def fide_policy() -> Policy:
    """FIDE Rating Regulations 1 March 2024 (amended 1 Oct 2025) for rated players.

    Provisional status (fewer than 5 rated games, R7) stands for FIDE's
    "unrated": games against such players do not move a rated player.
    """
    return Policy(
        name="fide",
        start_rating=1400.0,  # the 2024 rating floor: the lowest published rating
        k_new=fide.K_NEW,
        k_new_games=fide.K_NEW_GAMES,
        k_established=fide.K_STANDARD,
        k_junior=fide.K_JUNIOR,
        k_junior_below=fide.K_JUNIOR_BELOW,
        k_high=fide.K_HIGH,
        k_high_from=fide.K_HIGH_FROM,
        k_games_cap=fide.K_GAMES_CAP,
        expected=ExpectedScore.FIDE_TABLE,
        round_change=True,
        performance=PerformanceMethod.FIDE_TABLE,  # FIDE B02 8.1.1: Rp = Ra + dp
    )


POLICIES: dict[str, Callable[[], Policy]] = {"club": club_policy, "fide": fide_policy}


def policy_named(name: str) -> Policy:
    """A preset by name (``club`` or ``fide``)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(
            f"unknown rating policy {name!r} (expected one of {', '.join(POLICIES)})"
        ) from None
