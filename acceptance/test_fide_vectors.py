"""The ``fide`` policy against FIDE's own published calculations.

``../shared/data/vectors/fide_published_calculations_per_game.csv``: 79 games
of 8 rating periods (2025-26), each with FIDE's rating used (Ro), K, the
opponent's rating as used after the 400-point rule, score - PD and K x that.
Every row must come out exactly (to the two decimals FIDE prints); so must the
cases of ``misc_vectors.json`` that apply. The data is required: a missing
file fails these checks, it does not skip them.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from clubrating.rating import fide
from clubrating.rating.elo import rate_tournament
from clubrating.rating.policy import fide_policy
from clubrating.rating.types import PlayerChange, RatedGame, Standing, TournamentInput

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "vectors"
PER_GAME = DATA / "fide_published_calculations_per_game.csv"
MISC = DATA / "misc_vectors.json"
PUBLISHED_GAMES = 79
BEYOND_CAP = 123  # a capped opponent is placed this much further than 400 points away
TOLERANCE = 1e-9  # FIDE prints two decimals; our values must be those decimals


@dataclass(frozen=True)
class Row:
    line: int
    case: str
    ro: int
    k: int
    opponent_used: int
    capped: bool
    score: float
    score_minus_pd: float
    k_change: float

    @property
    def period(self) -> tuple[str, int]:
        """FIDE rates a rating period against one Ro: our tournament."""
        return (self.case, self.ro)

    @property
    def opponent_actual(self) -> int:
        """A capped opponent was further away than 400 points; any such rating must give the
        same."""
        if not self.capped:
            return self.opponent_used
        return self.opponent_used + (BEYOND_CAP if self.opponent_used > self.ro else -BEYOND_CAP)


def load_rows() -> list[Row]:
    if not PER_GAME.is_file():
        return []
    with PER_GAME.open(encoding="utf-8", newline="") as handle:
        return [
            Row(
                line=number,
                case=r["case"],
                ro=int(r["Ro"]),
                k=int(r["K"]),
                opponent_used=int(r["opp_rating_used"]),
                capped=r["capped_marker"] == "1",
                score=float(r["score"]),
                score_minus_pd=float(r["fide_chg_score_minus_PD"]),
                k_change=float(r["fide_K_chg"]),
            )
            for number, r in enumerate(csv.DictReader(handle), start=2)
        ]


ROWS = load_rows()
PERIODS: dict[tuple[str, int], list[Row]] = defaultdict(list)
for _row in ROWS:
    PERIODS[_row.period].append(_row)


def rate_period(rows: list[Row]) -> PlayerChange:
    """The player's whole period as one tournament, rated by the fide policy."""
    player = "player"
    k_listed_before_cap = fide.K_HIGH if rows[0].k == fide.K_HIGH else fide.K_STANDARD
    before = {
        player: Standing(
            rating=rows[0].ro, games=100, peak_reached_2400=k_listed_before_cap == fide.K_HIGH
        )
    }
    games = []
    for i, row in enumerate(rows):
        opponent = f"opponent {i}"
        before[opponent] = Standing(rating=row.opponent_actual, games=100)
        games.append(RatedGame(player, opponent, int(row.score * 2)))
    tournament = TournamentInput(id=rows[0].period, date=dt.date(2025, 12, 1), games=tuple(games))
    outcome, _ = rate_tournament(before, tournament, fide_policy())
    return next(change for change in outcome.changes if change.player == player)


def test_the_published_calculations_are_all_there() -> None:
    assert PER_GAME.is_file(), f"missing {PER_GAME}: the acceptance data is required"
    assert len(ROWS) == PUBLISHED_GAMES


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.case}-line{r.line}" for r in ROWS])
def test_each_published_game_reproduces_exactly(row: Row) -> None:
    policy = fide_policy()
    score_minus_pd = row.score - policy.expected_score(row.ro, row.opponent_actual)
    assert score_minus_pd == pytest.approx(row.score_minus_pd, abs=TOLERANCE)
    change = rate_period(PERIODS[row.period])
    assert change.k == row.k
    assert change.k * score_minus_pd == pytest.approx(row.k_change, abs=TOLERANCE)


@pytest.mark.parametrize("period", sorted(PERIODS), ids=[f"{c}-{ro}" for c, ro in sorted(PERIODS)])
def test_each_period_change_is_the_published_sum_rounded(period: tuple[str, int]) -> None:
    rows = PERIODS[period]
    change = rate_period(rows)
    assert change.games_rated == len(rows)
    assert change.change == fide.round_half_away(round(sum(r.k_change for r in rows), 2))


def misc() -> dict[str, dict[str, object]]:
    assert MISC.is_file(), f"missing {MISC}: the acceptance data is required"
    loaded: dict[str, dict[str, object]] = json.loads(MISC.read_text(encoding="utf-8"))
    return loaded


def test_a_period_change_of_minus_2_50_is_published_as_minus_3() -> None:
    case = misc()["fide_rounding_F-P01"]
    period_change = float(case["period_change"])  # type: ignore[arg-type]
    assert fide.round_half_away(period_change) == case["published"]
    assert rate_period(PERIODS[("F-P01", 2813)]).change == case["published"]


def test_k_is_capped_so_that_k_times_games_stays_within_700() -> None:
    case = misc()["fide_K_times_n_cap_F-P05"]
    period = PERIODS[("F-P05", 2054)]
    change = rate_period(period)
    assert (len(period), change.k) == (case["n"], case["K_used"])
    k_list, n = float(case["K_list"]), int(case["n"])  # type: ignore[arg-type]
    assert fide_policy().capped_k(k_list, n) == case["K_used"]
    assert change.change == case["published_change"]


def test_the_2650_exemption_applies_to_the_higher_player_only() -> None:
    case = misc()["fide_2650_exemption_F-P01_F-P02"]
    higher, lower = float(case["higher_PD"]), float(case["lower_PD"])  # type: ignore[arg-type]
    assert fide.expected_hundredths(2813, 2400) == round(100 * higher)
    assert fide.expected_hundredths(2400, 2813) == round(100 * lower)


def test_a_first_rating_is_the_published_one() -> None:
    case = misc()["fide_initial_rating_F-N01"]
    ratings = case["opponent_ratings"]
    scores = case["scores"]
    first = fide.first_rating(ratings, scores)  # type: ignore[arg-type]
    assert first == case["published_first_rating_Dec2025"]
