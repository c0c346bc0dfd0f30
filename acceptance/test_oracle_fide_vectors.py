"""The tests' independent rating oracle (``tests/oracle/ratings.py``) against FIDE's own
published calculations, as ``test_fide_vectors.py`` checks the product: the oracle's
``fide`` rules must give FIDE's expected score (table 8.1.2 after the 400-point rule), K
and rounded change of each of the 79 games of ``../shared/data/vectors``. The oracle is
loaded from its file: it belongs to the tests, not to the package.
"""

from __future__ import annotations

import csv
import datetime as dt
import importlib.util
import json
import sys
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from types import ModuleType

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "vectors"
PER_GAME = DATA / "fide_published_calculations_per_game.csv"
MISC = DATA / "misc_vectors.json"
ORACLE_FILE = Path(__file__).resolve().parents[1] / "tests" / "oracle" / "ratings.py"
PUBLISHED_GAMES = 79
BEYOND_CAP = 123  # a capped opponent is placed this much further than 400 points away


def load_oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rating_oracle", ORACLE_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


oracle = load_oracle()


def periods() -> dict[tuple[str, int], list[dict[str, str]]]:
    found: dict[tuple[str, int], list[dict[str, str]]] = defaultdict(list)
    if PER_GAME.is_file():
        with PER_GAME.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                found[(row["case"], int(row["Ro"]))].append(row)
    return found


PERIODS = periods()


def opponent_rating(row: dict[str, str]) -> int:
    """The opponent's real rating: a capped one was more than 400 points away."""
    used, own = int(row["opp_rating_used"]), int(row["Ro"])
    if row["capped_marker"] != "1":
        return used
    return used + (BEYOND_CAP if used > own else -BEYOND_CAP)


def rate_period(rows: list[dict[str, str]]) -> object:
    """The player's period as one tournament of the oracle, K 10 players marked as past 2400."""
    own = int(rows[0]["Ro"])
    standings = {0: oracle.Standing(float(own), 100, reached_2400=rows[0]["K"] == "10")}
    games = []
    for number, row in enumerate(rows, 1):
        standings[number] = oracle.Standing(float(opponent_rating(row)), 100)
        games.append(oracle.Game(0, number, int(float(row["score"]) * 2)))
    tournament = oracle.Tournament(
        1, dt.date(2025, 12, 1), 0, "standard", True, False, tuple(games)
    )
    changes: dict[tuple[int, int], object] = {}
    oracle.rate_tournament(
        tournament,
        "standard",
        standings,
        oracle.Rules(oracle.Settings(policy="fide")),
        set(),
        {},
        changes,
    )
    return changes[(1, 0)]


def test_the_published_calculations_are_all_there() -> None:
    assert PER_GAME.is_file(), f"missing {PER_GAME}: the acceptance data is required"
    assert sum(len(rows) for rows in PERIODS.values()) == PUBLISHED_GAMES


@pytest.mark.parametrize("period", sorted(PERIODS), ids=[f"{c}-{ro}" for c, ro in sorted(PERIODS)])
def test_each_game_and_period_reproduces_fides_figures(period: tuple[str, int]) -> None:
    rows = PERIODS[period]
    for row in rows:
        expected = oracle.fide_expected_hundredths(int(row["Ro"]), opponent_rating(row))
        assert float(row["score"]) - expected / 100 == pytest.approx(
            float(row["fide_chg_score_minus_PD"]), abs=1e-9
        )
    change = rate_period(rows)
    k, games_rated = change.k, change.games_rated  # type: ignore[attr-defined]
    assert k == int(rows[0]["K"]) and games_rated == len(rows)
    published = Decimal(sum(Decimal(r["fide_K_chg"]) for r in rows)).quantize(
        Decimal(1), ROUND_HALF_UP
    )
    after, before = change.rating_after, change.rating_before  # type: ignore[attr-defined]
    assert after - before == int(published)


def test_the_misc_cases_rounding_k_cap_and_2650_exemption() -> None:
    assert MISC.is_file(), f"missing {MISC}: the acceptance data is required"
    misc = json.loads(MISC.read_text(encoding="utf-8"))
    rounding = misc["fide_rounding_F-P01"]
    p01 = rate_period(PERIODS[("F-P01", 2813)])
    after, before = p01.rating_after, p01.rating_before  # type: ignore[attr-defined]
    assert after - before == rounding["published"]
    cap = misc["fide_K_times_n_cap_F-P05"]
    p05 = rate_period(PERIODS[("F-P05", 2054)])
    assert (p05.games_rated, p05.k) == (cap["n"], cap["K_used"])  # type: ignore[attr-defined]
    after, before = p05.rating_after, p05.rating_before  # type: ignore[attr-defined]
    assert after - before == cap["published_change"]
    exempt = misc["fide_2650_exemption_F-P01_F-P02"]
    assert oracle.fide_expected_hundredths(2813, 2400) == round(100 * exempt["higher_PD"])
    assert oracle.fide_expected_hundredths(2400, 2813) == round(100 * exempt["lower_PD"])


def test_table_8_1_2_is_the_normal_model_but_at_its_six_published_exceptions() -> None:
    """misc_vectors.json: PD(H) = round(100 Phi(D / (2000/7))) / 100 for D 0..799 except six D."""
    from statistics import NormalDist

    model = json.loads(MISC.read_text(encoding="utf-8"))["fide_table_8_1_2_model"]["fact"]
    exceptions = {int(d) for d in model.split("{")[1].split("}")[0].split(",")}
    phi = NormalDist(0, 2000 / 7)
    differ = {
        d
        for d in range(800)
        if oracle.fide_expected_hundredths(2700 + d, 2700) != round(100 * phi.cdf(d))
    }
    assert differ == exceptions
