"""Coach by CPI (spec C6): the weakest factor and the exercises, from hand-written facts."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from clubrating.analysis.see import exchange
from clubrating.cpi.coach import (
    FACTORS,
    CoachGame,
    Exercise,
    choose_exercises,
    coach,
    factor_averages,
    score_text,
    shortfalls,
    weakest_factor,
)
from clubrating.cpi.facts import BookStatus, Color, GameFacts, Score
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.registry import PlayerFactors
from clubrating.cpi.index import Weights
from tests.cpi.coach_games import (
    AFTER_FOUR,
    BLUNDER,
    BOOK,
    CLOCKS,
    HASTY,
    OPEN_GAME,
    SACRIFICE,
    build,
    mate_missed,
)


def one(facts: GameFacts, game_id: int = 1, color: Color = Color.WHITE) -> CoachGame:
    return CoachGame(game_id, color, facts, dt.date(2026, 3, 3))


@pytest.mark.parametrize(
    ("factor", "notes", "best", "hint"),
    [
        ("E", BLUNDER, "Bc4", "the move played lost 340 cp"),
        ("B1", BLUNDER, "Bc4", "the move played lost 340 cp"),
        ("B2", BLUNDER, "Bc4", "the move played lost 340 cp"),
        ("B3", BLUNDER, "Bc4", "the move played lost 340 cp"),
        ("M1", mate_missed(1), "Bc4", "White has a mate in 1"),
        ("M2", mate_missed(2), "Bc4", "White has a mate in 2"),
        ("M3", mate_missed(3), "Bc4", "White has a mate in 3"),
        ("H", BLUNDER, "Bc4", "the move played hung 340 cp: find a move that keeps the balance"),
        ("O", BOOK, "d4", "move 3 left the opening book's 10 main moves"),
        (
            "T",
            HASTY,
            "Bc4",
            "0:05 spent here against a mean of 0:46, and the move played lost 340 cp: "
            "a moment to take your time",
        ),
        (
            "Br",
            SACRIFICE,
            "Nxe5",
            "a sacrifice is the strongest move here; the move played lost 80 cp",
        ),
    ],
)
def test_each_factor_finds_the_position_before_the_players_wrong_move(
    factor, notes, best, hint
) -> None:
    exercises = choose_exercises([one(build(OPEN_GAME, notes))], factor, exchange=exchange)
    assert len(exercises) == 1
    exercise = exercises[0]
    assert (exercise.factor, exercise.game_id, exercise.ply, exercise.move_number) == (
        factor,
        1,
        5,
        3,
    )
    assert exercise.fen == AFTER_FOUR
    assert exercise.side_to_move is Color.WHITE and exercise.played_san == "d4"
    assert exercise.best_san == best and exercise.hint == hint
    assert exercise.task == (
        "White to move: take your time here" if factor == "T" else "Find the best move for White"
    )


@pytest.mark.parametrize("factor", FACTORS)
def test_a_game_without_a_fault_gives_no_exercise(factor) -> None:
    assert choose_exercises([one(build(OPEN_GAME))], factor, exchange=exchange) == ()


@pytest.mark.parametrize("factor", FACTORS)
def test_the_opponents_faults_are_not_the_players_exercises(factor) -> None:
    notes = {
        p: {**BLUNDER.get(p, {}), **CLOCKS.get(p, {}), **BOOK.get(p, {})} for p in range(1, 11)
    }
    notes = SACRIFICE if factor == "Br" else notes
    notes = mate_missed(int(factor[1])) if factor.startswith("M") else notes
    assert (
        choose_exercises(
            [one(build(OPEN_GAME, notes), color=Color.BLACK)], factor, exchange=exchange
        )
        == ()
    )


def test_a_loss_under_a_pawn_is_no_exercise_and_a_played_first_choice_never() -> None:
    small = {5: {"best": [("Bc4", 30)], "after": -60}}  # 90 cp: an inaccuracy
    assert choose_exercises([one(build(OPEN_GAME, small))], "E") == ()
    first = {5: {"best": [("d4", 30)], "after": -300}}  # the engine's choice, scored badly after
    assert choose_exercises([one(build(OPEN_GAME, first))], "E") == ()


def test_a_mate_carried_out_is_no_exercise() -> None:
    # Fool's mate: Black has mate in 1 at ply 4 and plays it.
    facts = build(
        ["f3", "e5", "g4", "Qh4#"], {4: {"best": [("Qh4#", "#1")], "after": "#0"}}, result="0-1"
    )
    assert choose_exercises([one(facts, color=Color.BLACK)], "M1") == ()
    missed = build(
        ["f3", "e5", "g4", "d5"], {4: {"best": [("Qh4#", "#1")], "after": -200}}, result="1-0"
    )
    (exercise,) = choose_exercises([one(missed, color=Color.BLACK)], "M1")
    assert exercise.best_san == "Qh4#" and exercise.hint == "Black has a mate in 1"
    assert exercise.task == "Find the best move for Black" and exercise.fen.split()[1] == "b"


def test_a_hang_in_a_decided_position_is_not_an_exercise() -> None:
    decided = {5: {"best": [("Bc4", 1200)], "after": 600}}  # +12 to +6: still winning
    assert choose_exercises([one(build(OPEN_GAME, decided))], "H") == ()
    assert len(choose_exercises([one(build(OPEN_GAME, decided))], "E")) == 1  # but a mistake for E


def test_only_the_first_move_that_leaves_the_book_counts_and_unknown_positions_never() -> None:
    unknown = {1: {"book": BookStatus.NO_POSITION}, 3: {"book": BookStatus.NO_POSITION}}
    assert choose_exercises([one(build(OPEN_GAME, unknown))], "O") == ()
    (exercise,) = choose_exercises([one(build(OPEN_GAME, BOOK))], "O")
    assert exercise.ply == 5


def test_without_the_exchange_function_there_is_no_sacrifice_exercise() -> None:
    assert choose_exercises([one(build(OPEN_GAME, SACRIFICE))], "Br") == ()


def test_a_set_up_position_is_read_from_the_fen_header() -> None:
    start = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30"
    facts = build(
        ["Kf1"], {59: {"best": [("Ra8#", "#1")], "after": 0}}, headers={"FEN": start, "SetUp": "1"}
    )
    (exercise,) = choose_exercises([one(facts)], "M1")
    assert exercise.fen == start and exercise.best_san == "Ra8#" and exercise.move_number == 30


# --- order, variety, limit, duplicates ---------------------------------------------------------


def _losses(*plies_losses: tuple[int, int]) -> dict[int, dict[str, Any]]:
    moves = dict(zip(range(1, 11), OPEN_GAME))
    alternative = {1: "d4", 3: "Nc3", 5: "Bc4", 7: "Qxd4", 9: "Bd3"}
    return {
        p: {"best": [(alternative[p], 0)], "after": -loss} for p, loss in plies_losses if p in moves
    }


def test_one_position_per_game_comes_first_then_the_rest_by_loss() -> None:
    a = one(build(OPEN_GAME, _losses((3, 500), (7, 400))), game_id=10)
    b = one(build(OPEN_GAME, _losses((9, 150))), game_id=20)
    chosen = choose_exercises([a, b], "E")
    assert [(e.game_id, e.ply) for e in chosen] == [(10, 3), (20, 9), (10, 7)]


def test_at_most_limit_exercises_and_the_same_position_only_once() -> None:
    same = [one(build(OPEN_GAME, _losses((5, 300))), game_id=g) for g in (1, 2, 3)]
    assert len(choose_exercises(same, "E")) == 1  # one position, reached in three games
    many = [
        one(build(OPEN_GAME, _losses((1, 200), (3, 300), (5, 400), (7, 500), (9, 600))), game_id=1)
    ]
    assert [e.ply for e in choose_exercises(many, "E", limit=3)] == [9, 7, 5]


def test_ties_go_to_the_earlier_game_and_the_order_is_the_same_every_time() -> None:
    games = [
        one(build(OPEN_GAME, _losses((3, 300))), game_id=1),
        one(build(OPEN_GAME, _losses((7, 300))), game_id=2),
    ]
    first = choose_exercises(games, "E")
    assert [e.game_id for e in first] == [1, 2] and choose_exercises(games, "E") == first
    assert [e.game_id for e in choose_exercises(games[::-1], "E")] == [2, 1]


def test_an_unknown_factor_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown factor 'X'"):
        choose_exercises([], "X")


def test_an_exercise_hides_its_solution_when_asked() -> None:
    (exercise,) = choose_exercises([one(build(OPEN_GAME, BLUNDER))], "E")
    shown = exercise.to_dict(solution=False)
    assert (
        "best" not in shown
        and "played" not in shown
        and shown["hint"] == "the move played lost 340 cp"
    )
    full = exercise.to_dict()
    assert (full["best"], full["best_score"], full["played"], full["date"]) == (
        "Bc4",
        "+0.30",
        "d4",
        "2026-03-03",
    )


@pytest.mark.parametrize(
    ("score", "text"),
    [
        (Score(cp=45), "+0.45"),
        (Score(cp=-120), "-1.20"),
        (Score(mate=2), "mate in 2"),
        (Score(mate=-3), "mated in 3"),
    ],
)
def test_scores_are_written_from_the_movers_point_of_view(score, text) -> None:
    assert score_text(score) == text


# --- the weakest factor ------------------------------------------------------------------------

PERFECT = {name: 1.0 for name in ("E", "T", "O", "B1", "B2", "B3", "M1", "M2", "M3")}


def factors(hangs: int = 0, brilliancies: int = 0, **values: float | None) -> PlayerFactors:
    shares = {**PERFECT, **values}
    return PlayerFactors(
        **{n: Factor(v, 0, 1 if v is not None else 0) for n, v in shares.items()},
        H=Count(hangs),
        Br=Count(brilliancies),
    )


@pytest.mark.parametrize(
    ("games", "weakest", "cost"),
    [
        ([factors(E=0.5)], "E", 15.0),  # 30 · (1 − 0.5)
        ([factors(E=0.5, hangs=1)], "H", 25.0),  # |−25| · 1 hang a game
        ([factors(E=0.5), factors(E=0.5, hangs=1)], "E", 15.0),  # H: 12.5 a game
        ([factors(E=0.95, T=0.0), factors(E=0.95, T=None)], "T", 2.5),  # T: 5 · 1 · ½ of the games
        ([factors(E=0.8, B1=0.7)], "E", 6.0),  # a tie with B1 (20 · 0.3): E first
        (
            [factors(M3=0.0), factors(M3=None), factors(M3=None), factors(M3=None)],
            "M3",
            5.0,
        ),  # 20 · 1 · ¼
        ([factors(B2=0.0, B3=0.0, O=0.9)], "O", 1.0),  # B2, B3, Br are no candidates
    ],
)
def test_the_weakest_factor_costs_the_most_cpi_per_game(games, weakest, cost) -> None:
    found = weakest_factor(factor_averages(games))
    assert found is not None and found.factor == weakest
    assert found.cost_per_game == pytest.approx(cost, abs=1e-9)


def test_no_games_have_no_weakest_factor_and_unavailable_factors_no_cost() -> None:
    assert weakest_factor(factor_averages([])) is None
    averages = factor_averages([factors(T=None, O=None, M1=None, M2=None, M3=None)])
    assert (
        averages["T"].average is None and averages["T"].available == 0 and averages["T"].games == 1
    )
    assert set(shortfalls(averages)) == {"E", "B1", "H"}


def test_the_weights_decide_the_weakest_factor() -> None:
    games = [factors(E=0.8, B1=0.6)]  # E 6, B1 8
    assert weakest_factor(factor_averages(games)).factor == "B1"  # type: ignore[union-attr]
    weakest = weakest_factor(factor_averages(games), Weights.spec(E=50))
    assert weakest.factor == "E"  # type: ignore[union-attr]


def test_the_coach_trains_the_weakest_factor_unless_another_is_asked_for() -> None:
    games = [one(build(OPEN_GAME, HASTY))]  # d4 loses 340 cp in 5 s
    report = coach(games)
    assert report.weakest is not None and report.factor == report.weakest.factor == "H"
    assert [e.factor for e in report.exercises] == ["H"]
    asked = coach(games, factor="T")
    assert asked.weakest == report.weakest and [e.ply for e in asked.exercises] == [5]
    assert coach([]).exercises == () and coach([]).factor is None


def test_an_exercise_is_a_frozen_value() -> None:
    (exercise,) = choose_exercises([one(build(OPEN_GAME, BLUNDER))], "E")
    assert isinstance(exercise, Exercise)
    with pytest.raises(dataclasses.FrozenInstanceError):
        exercise.hint = "x"  # type: ignore[misc]
