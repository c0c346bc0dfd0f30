"""Stockfish on short games: a small fixed node budget, one thread, a
clean hash per search, so the figures are reproducible. These tests FAIL (never
skip) when Stockfish or the book is missing: ``scripts/bootstrap --test``
installs both."""

from __future__ import annotations

from pathlib import Path

import pytest

from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.cache import MemoryCache
from clubrating.analysis.runner import (
    DEFAULT_BOOK,
    AnalysisConfig,
    Analyzer,
    analyse_games,
    read_pgn_file,
)
from clubrating.cpi.facts import BookStatus, Color, GameFacts, Score
from clubrating.cpi.index import score_game

pytestmark = pytest.mark.engine

DATA = Path(__file__).parent / "data"
NODES = 20_000  # small and fixed: a few seconds for all games
CONFIG = AnalysisConfig(EngineSettings(path=DEFAULT_ENGINE, nodes=NODES), book=DEFAULT_BOOK)
W, B = Color.WHITE, Color.BLACK


@pytest.fixture(scope="module")
def analysed() -> dict[str, GameFacts]:
    names = ["mates", "legal_mate", "hung_queen", "ruy_exchange", "early_exit"]
    games = [read_pgn_file(DATA / f"{name}.pgn")[0] for name in names]
    return dict(zip(names, analyse_games(games, CONFIG, jobs=1)))


def test_stockfish_and_the_book_are_installed() -> None:
    assert Path(DEFAULT_ENGINE).is_file(), "apt-get install stockfish"
    assert Path(DEFAULT_BOOK).is_file(), "apt-get install gnuchess-book"


def test_the_engine_and_its_limits_are_recorded(analysed) -> None:
    engine = analysed["mates"].engine
    assert (
        engine.name == "Stockfish"
        and engine.version
        and engine.nodes == NODES
        and engine.multipv == 3
    )


def test_a_mate_in_one_played_is_found_and_one_missed_is_not(analysed) -> None:
    # 2...d5? lets 3.h3 pass the first Qh4#; 3...Qh4# is the second chance, taken.
    m1 = score_game(analysed["mates"])[B].factors.M1
    assert (m1.numerator, m1.denominator) == (1, 2)
    assert score_game(analysed["mates"])[W].factors.M1.available is False


def test_a_hung_queen_is_counted_once(analysed) -> None:
    scores = score_game(analysed["hung_queen"])
    assert scores[W].factors.H.count == 1 and scores[W].factors.H.plies == (5,)  # 3.Qxe5+??
    assert scores[B].factors.H.count == 0


def test_a_known_sacrifice_is_a_brilliancy(analysed) -> None:
    # Legal's mate: 5.Nxe5!! gives up the knight (and the queen) for a pawn.
    facts = analysed["legal_mate"]
    nxe5 = facts.plies[8]
    assert nxe5.san == "Nxe5" and nxe5.exchange <= -200
    assert nxe5.shallow_best is not None and nxe5.shallow_best != nxe5.uci
    assert score_game(facts)[W].factors.Br.plies == (9,)
    assert facts.shallow_searches == 1


def test_an_ordinary_recapture_is_not_a_brilliancy(analysed) -> None:
    facts = analysed["ruy_exchange"]
    dxc6 = facts.plies[7]
    assert dxc6.san == "dxc6" and dxc6.exchange > 0
    assert all(score.factors.Br.count == 0 for score in score_game(facts).values())
    assert facts.shallow_searches == 0


def test_a_mate_in_two_kept_to_the_end_is_found(analysed) -> None:
    m2 = score_game(analysed["legal_mate"])[W].factors.M2
    assert (m2.numerator, m2.denominator) == (1, 1)


def test_a_game_without_clocks_has_no_time_factor(analysed) -> None:
    assert not score_game(analysed["legal_mate"])[W].factors.T.available
    timed = score_game(analysed["hung_queen"])[W].factors.T
    assert timed.available and 0 <= timed.value <= 1


def test_a_game_leaving_the_book_at_move_3(analysed) -> None:
    plies = analysed["early_exit"].plies
    assert [p.book for p in plies[:5]] == [BookStatus.TOP10] * 4 + [BookStatus.OUT]
    assert all(p.book is BookStatus.NO_POSITION for p in plies[5:])
    opening = score_game(analysed["early_exit"])[W].factors.O
    # moves 4 and 5 start from positions the book does not know: no misses
    assert (opening.numerator, opening.denominator) == (2, 3)


def test_terminal_positions_cost_no_search(analysed) -> None:
    facts = analysed["legal_mate"]  # ends in mate: 13 positions moved from, none after
    assert facts.searches + facts.cache_hits == len(facts.plies)
    assert facts.plies[-1].score_after.mate == 0  # the rules' score: Nd5# has mated


def test_a_mate_delivered_in_an_unfinished_game_record_is_found() -> None:
    """With the Result tag "*" the mating move kept the MultiPV line's
    ``mate 1`` and the attack looked missed; the rules now score a mated position."""
    game = read_pgn_file(DATA / "legal_mate.pgn")[0]
    game.headers["Result"] = "*"
    (facts,) = analyse_games([game], CONFIG, jobs=1)
    assert facts.plies[-1].san == "Nd5#" and facts.plies[-1].score_after == Score(mate=0)
    m2 = score_game(facts)[W].factors.M2
    assert (m2.numerator, m2.denominator) == (1, 1)


def test_the_same_game_twice_gives_the_same_facts() -> None:
    game = read_pgn_file(DATA / "ruy_exchange.pgn")[0]
    (first,) = analyse_games([game], CONFIG, jobs=1)
    (second,) = analyse_games([game], CONFIG, jobs=1)  # a new engine process, no cache
    assert second.cache_hits == 0 and first.plies == second.plies


def test_a_search_does_not_depend_on_which_positions_came_from_the_cache() -> None:
    """Each position is searched with a clean hash, so a resumed analysis (half
    of the positions cached, the rest searched) gives exactly the facts of an
    uninterrupted one: the cached lines are what a fresh search would give."""
    game = read_pgn_file(DATA / "ruy_exchange.pgn")[0]
    whole = MemoryCache()
    with Analyzer(CONFIG, cache=whole) as analyzer:
        uninterrupted = analyzer.analyse(game)
    half = MemoryCache()
    for number, (key, lines) in enumerate(sorted(whole._store.items())):
        if number % 2:
            half.put(*key, lines)
    with Analyzer(CONFIG, cache=half) as analyzer:
        resumed = analyzer.analyse(game)
    assert resumed.cache_hits > 0 and resumed.searches > 0
    assert resumed.plies == uninterrupted.plies
