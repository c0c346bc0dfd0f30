"""The engine time one game may take: a budget per game (engine.game_budget), the analysis stopped
beyond it with the real Stockfish, and a game over MAX_PLIES refused before any search."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import chess.pgn
import pytest

from clubrating.analysis.analyzer import OverBudget
from clubrating.analysis.engine import DEFAULT_ENGINE, GAME_SECONDS_ENV, EngineSettings, game_budget
from clubrating.analysis.runner import DEFAULT_BOOK, AnalysisConfig, Analyzer, read_pgn_file
from clubrating.analysis.cache import MemoryCache
from clubrating.errors import InputError
from clubrating.formats.movetext import MAX_PLIES

DATA = Path(__file__).parent / "data"
NODES = 2_000
CONFIG = AnalysisConfig(
    EngineSettings(path=DEFAULT_ENGINE, nodes=NODES), book=DEFAULT_BOOK, memory_cache=False
)


@pytest.mark.parametrize(
    "settings, env, seconds",
    [
        (EngineSettings(), None, 1_200 * 150_000 / 85_000),  # the default: 2,118 s, 35 minutes
        (EngineSettings(nodes=2_000), None, 1_200 * 2_000 / 85_000),  # scales with the node budget
        (EngineSettings(), "90", 90.0),  # $CLUBRATING_GAME_SECONDS
        (EngineSettings(game_seconds=5.0), "90", 5.0),  # the settings' own first
    ],
)
def test_a_games_budget_is_max_plies_at_half_the_measured_speed_unless_set(
    monkeypatch: pytest.MonkeyPatch, settings: EngineSettings, env: str | None, seconds: float
) -> None:
    monkeypatch.delenv(GAME_SECONDS_ENV, raising=False)
    if env is not None:
        monkeypatch.setenv(GAME_SECONDS_ENV, env)
    assert game_budget(settings) == pytest.approx(seconds, abs=1e-9)


@pytest.mark.parametrize("bad", ["0", "-3", "soon", "nan"])
def test_a_budget_that_is_not_seconds_above_zero_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.setenv(GAME_SECONDS_ENV, bad)
    with pytest.raises(InputError, match=f"{GAME_SECONDS_ENV} must be a number of seconds above 0"):
        game_budget(EngineSettings())


@pytest.mark.engine
def test_the_analysis_stops_once_the_engine_has_spent_the_games_budget() -> None:
    game = read_pgn_file(DATA / "hung_queen.pgn")[0]
    plies = sum(1 for _ in game.mainline_moves())
    with Analyzer(
        dataclasses.replace(CONFIG, engine=dataclasses.replace(CONFIG.engine, game_seconds=1e-6))
    ) as spent:
        with pytest.raises(OverBudget) as stopped:
            spent.analyse(game)
    assert str(stopped.value).startswith("the engine spent ")
    assert str(stopped.value).endswith(
        f"more than its budget of 1e-06 s at 2,000 nodes a position; "
        f"stopped after 0 of {plies} half-moves"
    )
    with Analyzer(CONFIG) as enough:  # the default budget at these nodes: 28 s for a game
        assert len(enough.analyse(game).plies) == plies


@pytest.mark.engine
def test_a_game_longer_than_max_plies_is_refused_before_any_search() -> None:
    moves = " ".join(["Nf3", "Nf6", "Ng1", "Ng8"] * ((MAX_PLIES + 4) // 4))
    game = chess.pgn.read_game(io.StringIO(moves))
    assert game is not None and sum(1 for _ in game.mainline_moves()) > MAX_PLIES
    cache = MemoryCache()
    with Analyzer(CONFIG, cache=cache) as analyzer:
        with pytest.raises(InputError, match="longer than 1,200 half-moves"):
            analyzer.analyse(game)
        assert analyzer.searcher.info.nodes == NODES
    assert len(cache) == 0  # nothing was searched


@pytest.mark.engine
def test_a_stored_game_going_on_after_the_75_move_rule_is_refused_before_any_search() -> None:
    """Its positions would each walk back the whole game for repetitions (cache.position_key):
    1,200 such half-moves cost minutes before the engine's first search."""
    game = chess.pgn.read_game(io.StringIO(" ".join(["Nf3", "Nf6", "Ng1", "Ng8"] * 300)))
    assert game is not None and not game.errors  # python-chess plays on past the rule
    cache = MemoryCache()
    with Analyzer(CONFIG, cache=cache) as analyzer:
        with pytest.raises(
            InputError, match=r"move 76 \(White\) 'Ng1': the game was over before it: 75 moves"
        ):
            analyzer.analyse(game)
    assert len(cache) == 0
