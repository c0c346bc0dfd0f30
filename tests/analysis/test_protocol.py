"""The analysis shell against a scripted fake UCI engine: what is sent, how often."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn

from clubrating.analysis.cache import MemoryCache, SqliteCache, position_key
from clubrating.analysis.runner import Analyzer, analyse_games, read_pgn_file

DATA = Path(__file__).parent / "data"


def game(text: str) -> chess.pgn.Game:
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None
    return parsed


QUIET = game("1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 *")  # the fake prefers captures: none here


def test_each_position_is_searched_exactly_once(fake_engine) -> None:
    (facts,) = analyse_games([QUIET], fake_engine.config())
    sent = fake_engine.searches()
    assert len(sent) == len(set(sent)) == facts.searches
    assert (
        len(list(QUIET.mainline_moves())) <= facts.searches <= len(list(QUIET.mainline_moves())) + 1
    )


def test_positions_are_sent_with_their_move_history(fake_engine) -> None:
    analyse_games([QUIET], fake_engine.config())
    assert "position startpos moves g1f3 g8f6 f3g1" in fake_engine.searches()


def test_a_terminal_position_is_never_searched(fake_engine) -> None:
    (facts,) = analyse_games(read_pgn_file(DATA / "mates.pgn"), fake_engine.config())
    final = "position startpos moves f2f3 e7e5 g2g4 d7d5 h2h3 d8h4"
    assert final not in fake_engine.searches()
    assert facts.plies[-1].score_after.mate in (0, 1)


def test_every_search_starts_a_new_game_for_the_engine(fake_engine) -> None:
    games = read_pgn_file(DATA / "ruy_exchange.pgn") + read_pgn_file(DATA / "early_exit.pgn")
    facts = analyse_games(games, fake_engine.config())
    searches = sum(f.searches + f.shallow_searches for f in facts)
    commands = fake_engine.commands()
    assert (
        commands.count("ucinewgame")
        == searches
        == len([c for c in commands if c.startswith("go ")])
    )


def test_repeated_positions_across_games_hit_the_cache(fake_engine) -> None:
    cache = MemoryCache()
    with Analyzer(fake_engine.config(), cache=cache) as analyzer:
        first = analyzer.analyse(QUIET)
        second = analyzer.analyse(QUIET)
    assert first.cache_hits == 0 and second.searches == 0
    assert second.cache_hits == first.searches and second.plies == first.plies
    assert len(fake_engine.searches()) == first.searches


def test_an_interrupted_analysis_resumes_from_the_cache_file(fake_engine, tmp_path) -> None:
    cache = str(tmp_path / "searches.sqlite")
    analyse_games([QUIET], fake_engine.config(cache=cache))
    before = len(fake_engine.searches())
    later = game("1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 4. Nb1 Nb8 *")
    (facts,) = analyse_games([later], fake_engine.config(cache=cache))
    assert facts.cache_hits == before and facts.searches == len(fake_engine.searches()) - before


def test_different_limits_do_not_share_cached_searches(fake_engine, tmp_path) -> None:
    cache = str(tmp_path / "searches.sqlite")
    analyse_games([QUIET], fake_engine.config(cache=cache, nodes=1000))
    (facts,) = analyse_games([QUIET], fake_engine.config(cache=cache, nodes=2000))
    assert facts.cache_hits == 0


def test_two_engine_processes_give_the_same_facts_as_one(fake_engine) -> None:
    games = [
        read_pgn_file(DATA / f"{name}.pgn")[0] for name in ("legal_mate", "hung_queen", "mates")
    ]
    one = analyse_games(games, fake_engine.config(), jobs=1)
    two = analyse_games(games, fake_engine.config(), jobs=2)
    assert [f.plies for f in one] == [f.plies for f in two]
    assert [f.headers for f in one] == [f.headers for f in two]


def test_clocks_come_from_the_pgn_comments(fake_engine) -> None:
    (facts,) = analyse_games(read_pgn_file(DATA / "hung_queen.pgn"), fake_engine.config())
    assert facts.plies[0].clock_before is None and facts.plies[0].clock_after == 300
    assert facts.plies[2].clock_before == 300 and facts.plies[2].clock_after == 298


def test_the_position_key_tells_apart_a_pending_repetition() -> None:
    board = chess.Board()
    direct = board.copy()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
        board.push_uci(uci)
    assert board.board_fen() == direct.board_fen()
    assert position_key(board) != position_key(direct)
    again = chess.Board()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
        again.push_uci(uci)
    assert position_key(again) == position_key(board)


def test_a_transposition_ending_in_a_pawn_move_shares_the_key() -> None:
    one, two = chess.Board(), chess.Board()
    for uci in ("d2d4", "d7d5", "c2c4", "e7e6"):
        one.push_uci(uci)
    for uci in ("c2c4", "e7e6", "d2d4", "d7d5"):
        two.push_uci(uci)
    assert position_key(one) == position_key(two)


def test_the_sqlite_cache_round_trips_lines(tmp_path) -> None:
    from clubrating.cpi.facts import Score

    cache = SqliteCache(tmp_path / "c.sqlite")
    cache.put("fen", "engine", (("e2e4", Score(cp=30)), ("d2d4", Score(mate=-3))))
    cache.close()
    again = SqliteCache(tmp_path / "c.sqlite")
    assert again.get("fen", "engine") == (("e2e4", Score(cp=30)), ("d2d4", Score(mate=-3)))
    assert again.get("fen", "other") is None


def test_both_engine_adapters_send_the_same_searches_and_agree(fake_engine) -> None:
    from dataclasses import replace

    games = [read_pgn_file(DATA / f"{name}.pgn")[0] for name in ("legal_mate", "hung_queen")]
    lean = analyse_games(games, fake_engine.config(), jobs=1)
    sent_lean = fake_engine.searches()
    fake_engine.log.unlink()
    config = fake_engine.config()
    chatty = analyse_games(
        games, replace(config, engine=replace(config.engine, protocol="python-chess"))
    )
    assert [f.plies for f in lean] == [f.plies for f in chatty]
    assert fake_engine.searches() == sent_lean


def test_raw_info_lines_are_parsed_like_python_chess() -> None:
    from clubrating.analysis.rawuci import parse_info
    from clubrating.cpi.facts import Score

    line = (
        "info depth 12 seldepth 18 multipv 2 score cp "
        "-31 nodes 20000 nps 1 time 20 pv g8f6 c2c4 e7e6"
    )
    assert parse_info(line) == (2, "g8f6", Score(cp=-31))
    assert parse_info("info depth 5 score mate -3 upperbound pv e1e2") == (
        1,
        "e1e2",
        Score(mate=-3),
    )
    assert parse_info("info depth 3 currmove e2e4 currmovenumber 1") is None
