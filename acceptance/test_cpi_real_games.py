"""The CPI on a few real games at a tiny node budget: invariants, not figures.

Uses ../shared/data (FAILS, never skips, when it is missing) and Stockfish."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games, read_pgn_file
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import LedgerGame, ledger, score_game

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
SOURCES = [
    ("otb_broadcast_clk/lezcano_memorial_2025_broadcast.pgn", True),
    ("otb_twic/twic1362.pgn", False),
    ("lichess_2018-06_bands/band_1100-1300.pgn", False),
]
CONFIG = AnalysisConfig(EngineSettings(nodes=3_000))
SHARES = ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")


@pytest.fixture(scope="module")
def analysed() -> list[tuple[GameFacts, bool]]:
    assert GAMES.is_dir(), f"real games missing: {GAMES}"
    picked = []
    for name, clocks in SOURCES:
        games = [
            g for g in read_pgn_file(GAMES / name)[:20] if len(list(g.mainline_moves())) >= 30
        ][:2]
        assert games, name
        picked += [(game, clocks) for game in games]
    facts = analyse_games([game for game, _ in picked], CONFIG, jobs=2)
    return [(f, clocks) for f, (_, clocks) in zip(facts, picked)]


def test_every_factor_is_a_share_or_unavailable(analysed) -> None:
    for facts, _ in analysed:
        for score in score_game(facts).values():
            for name in SHARES:
                factor = getattr(score.factors, name)
                assert factor.value is None or 0 <= factor.value <= 1, (name, factor)
                assert factor.available == (factor.value is not None)
            assert score.factors.H.count >= 0 and score.factors.Br.count >= 0
            assert math.isfinite(score.delta_cpi)


def test_at_most_one_search_per_position(analysed) -> None:
    for facts, _ in analysed:
        assert facts.searches + facts.cache_hits <= len(facts.plies) + 1


def test_time_management_is_available_exactly_with_clocks(analysed) -> None:
    for facts, clocks in analysed:
        for score in score_game(facts).values():
            assert score.factors.T.available == clocks, facts.headers.get("White")


def test_the_opening_book_knows_real_openings(analysed) -> None:
    for facts, _ in analysed:
        assert score_game(facts)[Color.WHITE].factors.O.available


def test_facts_survive_storage_and_the_ledger_replays(analysed) -> None:
    stored = [GameFacts.from_dict(json.loads(json.dumps(f.to_dict()))) for f, _ in analysed]
    assert [s.plies for s in stored] == [f.plies for f, _ in analysed]
    history = [
        LedgerGame(i, f.headers["White"], f.headers["Black"], f) for i, f in enumerate(stored)
    ]
    entries = ledger(history)
    assert len(entries) == 2 * len(stored) and all(0 <= e.cpi_after <= 4000 for e in entries)
