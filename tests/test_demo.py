"""The demo club (``clubrating demo``: it shows the CPI, and survives faults):
its last evenings played by the real Stockfish with clocks, analysed during the build, the
CPI dashboard and the coach filled; every allowed number of seasons dated up to today;
all or nothing."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import chess
import chess.engine
import chess.pgn
import pytest
from django.test import Client

from clubrating.analysis.engine import DEFAULT_ENGINE, EngineSettings
from clubrating.analysis.runner import AnalysisConfig, Analyzer, analyse_games
from clubrating.demo.selfplay import GameOrder, Referee, side_for
from clubrating.demo.arbiter import build_demo
from clubrating.demo.build import DemoSettings, build_atomically, last_club_night
from clubrating.cpi.facts import Color
from clubrating.cpi.factors import acpl
from clubrating.errors import InputError
from clubrating.formats.records import TournamentKind
from clubrating.demo.simulate import BoardResult, Encounter, simulate_club, stage_club
from tests.web.rendered import flat

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "clubrating"]
needs_engine = pytest.mark.skipif(
    not os.access(DEFAULT_ENGINE, os.X_OK), reason="no Stockfish here"
)
SMALL = DemoSettings(
    seed=5,
    seasons=1,
    members=10,
    with_moves=2,
    play_nodes=300,
    nodes=600,
    jobs=2,
    today=dt.date(2026, 11, 26),
)
RESULTS = {(2, 0): "1-0", (1, 1): "1/2-1/2", (0, 2): "0-1"}


# --- the simulator and its board (pure) ---------------------------------------------------------


def white_always_wins(encounters: Sequence[Encounter]) -> list[BoardResult]:
    """A stand-in board for the pure simulator: White wins every game in two moves."""
    return [
        BoardResult(2, "1. f3 e5 2. g4 Qh4# 1-0", (("TimeControl", "900+10"),)) for _ in encounters
    ]


def test_the_last_evenings_take_the_boards_results_and_the_others_have_results_only() -> None:
    club = simulate_club(4, seasons=1, members=20, play=white_always_wins, with_moves=2)
    chess_nights = [r for r in club.tournaments if r.kind is TournamentKind.CHESS]
    played_over_board = [r for r in club.tournaments if any(p.moves for p in r.pairings)]
    assert played_over_board == chess_nights[-2:]
    for record in played_over_board:
        games = [p for p in record.pairings if p.played]
        assert games and all(p.moves and (p.white_points, p.black_points) == (2, 0) for p in games)
        points = {p.number: 0 for p in record.players}
        for p in record.pairings:
            points[p.white] += p.white_points
            points[p.black] += p.black_points
        for bye in record.byes:
            points[bye.player] += bye.points
        assert points == {
            p.number: p.points for p in record.players
        }  # standings from the board's results


@pytest.mark.parametrize("with_moves", [0, 1, 2, 30])
def test_a_staged_club_gives_its_early_evenings_first_and_then_the_same_club_as_simulate_club(
    with_moves: int,
) -> None:
    last = dt.date(2026, 11, 24)
    staged = stage_club(4, seasons=2, members=20, last_evening=last, with_moves=with_moves)
    whole = simulate_club(
        4, seasons=2, members=20, last_evening=last, play=white_always_wins, with_moves=with_moves
    )
    played = [i for i, r in enumerate(whole.tournaments) if any(p.moves for p in r.pairings)]
    assert staged.early == whole.tournaments[: min(played, default=len(whole.tournaments))]
    assert all(
        staged.early_names[p.name] == whole.true_name[p.name]
        for r in staged.early
        for p in r.players
    )
    assert staged.finish(white_always_wins if with_moves else None) == whole


def test_every_allowed_number_of_seasons_ends_on_or_before_the_last_club_night() -> None:
    today = dt.date(2026, 12, 3)  # a Thursday
    assert last_club_night(today) == dt.date(2026, 12, 1)  # the Tuesday before
    assert last_club_night(dt.date(2026, 12, 1)) == dt.date(2026, 12, 1)
    for seasons in (1, 10, 50):
        club = simulate_club(3, seasons=seasons, members=40, last_evening=last_club_night(today))
        dates = [r.date for r in club.tournaments]
        assert max(dates) <= today and max(dates) > today - dt.timedelta(weeks=4), seasons
        assert all(d.weekday() == 1 for d in dates)


# --- the engine's players -----------------------------------------------------------------------


@needs_engine
@pytest.mark.engine
def test_a_stronger_setting_loses_fewer_centipawns_a_move_than_a_weaker_one() -> None:
    weak, strong = side_for(900), side_for(2000)
    orders = [
        GameOrder(strong, weak, seed) if seed % 2 else GameOrder(weak, strong, seed)
        for seed in range(4)
    ]
    with Referee(jobs=2) as referee:
        played = referee.play(orders)
    pgn = "".join(
        f'[White "{"strong" if o.white == strong else "weak"}"]\n[Black '
        f'"{"strong" if o.black == strong else "weak"}"]\n[Result '
        f'"{g.result}"]\n[TimeControl "900+10"]\n\n{g.moves}\n\n'
        for o, g in zip(orders, played)
    )
    games = []
    handle = io.StringIO(pgn)
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    facts = analyse_games(games, AnalysisConfig(EngineSettings(nodes=5_000)), jobs=2)
    loss: dict[str, list[float]] = {"strong": [], "weak": []}
    for game, fact in zip(games, facts):
        for color, tag in ((Color.WHITE, "White"), (Color.BLACK, "Black")):
            value = acpl(fact.plies, color)
            assert value is not None
            loss[game.headers[tag]].append(value)
    assert statistics.fmean(loss["strong"]) < statistics.fmean(loss["weak"]) - 10, loss
    strong_points = sum(
        g.white_points if o.white == strong else 2 - g.white_points for o, g in zip(orders, played)
    )
    assert strong_points >= 6, strong_points  # at least 3 of 4 points


@needs_engine
@pytest.mark.engine
def test_the_same_seed_plays_the_same_game_move_for_move_and_clock_for_clock() -> None:
    orders = [GameOrder(side_for(1200, 300), side_for(1600, 300), seed) for seed in (11, 12, 13)]
    with Referee(jobs=1) as one, Referee(jobs=2) as two:
        first, second = one.play(orders), two.play(orders)
    assert first == second  # one engine or a pool: the same games
    assert len({game.moves for game in first}) == 3  # another seed, another game


# --- the small demo in the database -------------------------------------------------------------


def final_board(moves: str) -> tuple[chess.Board, int]:
    """The position after the game's last move, and how many moves carry a clock."""
    game = chess.pgn.read_game(io.StringIO(moves))
    assert game is not None and not game.errors
    board, clocks = game.board(), 0
    for node in game.mainline():
        board.push(node.move)
        clocks += node.clock() is not None
    return board, clocks


def assert_result_is_the_games_outcome(
    board: chess.Board, result: str, engine: chess.engine.SimpleEngine
) -> None:
    """Mate, stalemate, repetition ... give the result by the rules; a resignation, an agreed
    draw or an adjudication must agree with a deeper search of the final position."""
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        assert result == outcome.result(), (board.fen(), result)
        return
    score = (
        engine.analyse(board, chess.engine.Limit(nodes=50_000))["score"]
        .white()
        .score(mate_score=10_000)
    )
    assert score is not None
    expected = "1/2-1/2" if abs(score) < 150 else ("1-0" if score > 0 else "0-1")
    assert result == expected or (result == "1/2-1/2" and abs(score) < 300), (
        board.fen(),
        result,
        score,
    )


@needs_engine
@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_a_small_demo_plays_last_evenings_with_clocks_analyses_all_and_fills_a_cpi_dashboard() -> (
    None
):
    """One build for the three claims: the build is most of the time. The third: every view of the
    demo club (pages, exports, API, commands) agrees with the store (tests/club/crawl.py)."""
    from clubrating.club.store.models import Club
    from tests.club.crawl import assert_views_agree

    summary = build_demo(SMALL)
    assert_played_with_clocks_and_analysed(summary)
    assert_the_busiest_players_cpi_dashboard_has_numbers_and_exercises()
    assert_views_agree(Club.objects.get())


def assert_played_with_clocks_and_analysed(summary: dict[str, Any]) -> None:
    from clubrating.club.store.models import CpiEntry, Game, GameAnalysis, Tournament

    with_moves = list(Game.objects.exclude(moves="").select_related("tournament"))
    assert len(with_moves) == summary["games_with_moves"] > 10
    assert len({g.tournament_id for g in with_moves}) == 2
    assert max(Tournament.objects.values_list("date", flat=True)) <= SMALL.today
    with chess.engine.SimpleEngine.popen_uci(DEFAULT_ENGINE) as engine:
        for game in with_moves:
            board, clocks = final_board(game.moves)
            assert clocks == board.ply() and game.headers.get("TimeControl") == "900+10"
            assert_result_is_the_games_outcome(
                board, RESULTS[game.white_points, game.black_points], engine
            )
    analysed = GameAnalysis.objects.filter(game__in=[g.id for g in with_moves if g.played])
    assert analysed.count() == len(with_moves) == summary["analysis"]["games"]
    assert analysed.filter(nodes=SMALL.nodes).count() == len(with_moves)
    assert CpiEntry.objects.count() >= len(with_moves)  # two sides a game, short games aside
    # Analysed by the process that played it, stored as analyse-club would have analysed it anew:
    from clubrating.club.jobs.analysis import analysis_config, pgn_text

    config = analysis_config(nodes=SMALL.nodes)
    with Analyzer(config) as analyzer:
        for game in Game.objects.exclude(moves="").select_related("analysis", "white", "black"):
            fresh = analyzer.analyse(chess.pgn.read_game(io.StringIO(pgn_text(game))))
            assert same_facts(game.analysis.facts, fresh.to_dict()), game.id


def same_facts(stored: dict[str, object], fresh: dict[str, object]) -> bool:
    """The facts but what depends on the search cache (how many searches ran, their depths)."""
    cost = ("searches", "cache_hits", "depth")
    return {k: v for k, v in stored.items() if k not in cost} == {
        k: v for k, v in fresh.items() if k not in cost
    }


def moves_and_analyses(database: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT t.date, g.round, g.board, g.white_points, g.moves, a.facts FROM club_game g "
            "JOIN club_tournament t ON t.id = g.tournament_id "
            "LEFT JOIN club_gameanalysis a ON a.game_id = g.id "
            "WHERE g.moves <> '' ORDER BY t.date, g.round, g.board"
        ).fetchall()
    cost = ("searches", "cache_hits", "depth")
    return [
        (*row[:5], {k: v for k, v in json.loads(row[5]).items() if k not in cost}) for row in rows
    ]


@needs_engine
@pytest.mark.engine
def test_two_builds_of_one_seed_one_engine_or_a_pool_give_the_same_games_and_analyses(
    tmp_path: Path,
) -> None:
    small = [
        "--seasons",
        "1",
        "--members",
        "8",
        "--with-moves",
        "1",
        "--play-nodes",
        "200",
        "--nodes",
        "200",
    ]
    built = []
    for jobs in ("1", "2"):
        database = tmp_path / f"demo-{jobs}.sqlite3"
        run = run_demo(database, *small, "--jobs", jobs)
        assert run.returncode == 0, run.stderr
        built.append(moves_and_analyses(database))
    assert len(built[0]) > 3 and all(row[5]["plies"] for row in built[0])
    assert built[0] == built[1]


def assert_the_busiest_players_cpi_dashboard_has_numbers_and_exercises() -> None:
    from django.db.models import Count

    from clubrating.club.store.models import CpiEntry

    busiest = (
        CpiEntry.objects.values("member_id")
        .annotate(games=Count("id"))
        .order_by("-games", "member_id")
    )[0]
    response = Client().get(f"/c/demo/p/{busiest['member_id']}/cpi/")
    assert response.status_code == 200
    html = flat(response.content.decode())
    headline = re.search(
        r'<p id="cpi-headline" class="headline">(CPI|Plays like) <strong>[^<]+</strong>', html
    )
    games = re.search(r"(?:after|; )(\d+) analysed games?(?: in all)?\.</p>", html)
    assert headline is not None and games is not None and int(games.group(1)) == busiest["games"]
    assert (
        'class="chart cpi-line"' in html
        and "not available" not in html.split('id="coach"')[0].split("Factor averages")[0]
    )
    assert (
        html.count('<li class="exercise">') >= 1 and "<details><summary>Solution</summary>" in html
    )


# --- all or nothing -----------------------------------------------------------------------------


def run_demo(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    return subprocess.run(
        [*CLI, "--database", f"sqlite:///{database}", "demo", *args],
        cwd=database.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )


@needs_engine
@pytest.mark.engine
def test_the_largest_number_of_seasons_builds_a_whole_club_dated_up_to_today(
    tmp_path: Path,
) -> None:
    database = tmp_path / "demo.sqlite3"
    run = run_demo(
        database,
        "--seasons",
        "50",
        "--members",
        "8",
        "--with-moves",
        "1",
        "--play-nodes",
        "200",
        "--nodes",
        "200",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.sqlite3"]  # no partial file left
    with closing(sqlite3.connect(database)) as db:
        dates = [
            dt.date.fromisoformat(d) for (d,) in db.execute("SELECT date FROM club_tournament")
        ]
        published = db.execute(
            "SELECT COUNT(*) FROM club_tournament WHERE status = 'published'"
        ).fetchone()[0]
    assert len(dates) == published == summary["tournaments"] > 500
    assert max(dates) <= dt.date.today() and min(dates).year <= dt.date.today().year - 48


@pytest.mark.parametrize(
    ("option", "why"),
    [
        (
            ["--engine", "/nowhere/stockfish"],
            "no executable UCI engine here",
        ),  # when the games are played
        (
            ["--book", "/nowhere/book.bin"],
            "no Polyglot opening book here",
        ),  # when they are analysed: all stored
    ],
)
def test_a_failure_during_the_build_leaves_no_database_and_says_one_line(
    tmp_path: Path, option: list[str], why: str
) -> None:
    database = tmp_path / "demo.sqlite3"
    failed = run_demo(
        database,
        *option,
        "--seasons",
        "1",
        "--members",
        "8",
        "--with-moves",
        "1",
        "--play-nodes",
        "200",
        "--nodes",
        "200",
    )
    errors = [line for line in failed.stderr.splitlines() if not line.startswith("demo: ")]
    assert failed.returncode == 2 and len(errors) == 1 and why in errors[0], failed.stderr
    assert (
        errors[0].startswith("clubrating demo: error: /nowhere/")
        and "Traceback" not in failed.stderr
    )
    assert list(tmp_path.iterdir()) == []


@needs_engine
@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_a_failure_in_a_database_that_exists_already_leaves_no_club() -> None:
    from clubrating.club.store.models import Club, Game, Member, Tournament

    settings = DemoSettings(
        seed=5,
        seasons=1,
        members=8,
        with_moves=1,
        play_nodes=200,
        nodes=200,
        book="/nowhere/book.bin",
        today=SMALL.today,
    )
    with pytest.raises(InputError, match="no Polyglot opening book here"):
        build_atomically(
            settings, "sqlite:///any.sqlite3", lambda: None, build_demo
        )  # Django runs: one transaction
    assert not Club.objects.exists() and not Tournament.objects.exists()
    assert not Member.objects.exists() and not Game.objects.exists()
