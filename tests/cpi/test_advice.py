"""Moves marked as lichess marks them (lila Advice.scala): one table row a case."""

from __future__ import annotations

import pytest

from clubrating.cpi.advice import Judgement, game_advice, judge, win_percent, winning_chances
from clubrating.cpi.facts import Score
from tests.cpi.coach_games import build

INACCURACY, MISTAKE, BLUNDER = Judgement.INACCURACY, Judgement.MISTAKE, Judgement.BLUNDER


@pytest.mark.parametrize(
    ("cp", "chances"),
    [
        (0, 0.0),
        (100, 0.18208),
        (-100, -0.18208),
        (1000, 0.95088),
        (5000, 1.0),
        (-5000, -1.0),
    ],
)
def test_winning_chances_are_lila_s_logistic(cp: int, chances: float) -> None:
    assert winning_chances(cp) == pytest.approx(chances, abs=1e-4)


@pytest.mark.parametrize(
    ("score", "percent"),
    [
        (Score(cp=0), 50.0),
        (Score(cp=200), 67.62),
        (Score(mate=3), 97.54),
        (Score(mate=-1), 2.46),
        (Score(cp=3000), 97.54),
    ],
)
def test_win_percent_counts_a_mate_as_the_ceiling(score: Score, percent: float) -> None:
    assert win_percent(score) == pytest.approx(percent, abs=0.01)


@pytest.mark.parametrize(
    ("before", "after", "judgement"),
    [
        (Score(cp=0), Score(cp=-50), None),  # a drop of 0.09
        (Score(cp=0), Score(cp=-100), INACCURACY),  # 0.18
        (Score(cp=0), Score(cp=-120), MISTAKE),  # 0.22
        (Score(cp=0), Score(cp=-170), BLUNDER),  # 0.30
        (Score(cp=1000), Score(cp=700), None),  # still won: 0.09
        (Score(cp=-300), Score(cp=-900), BLUNDER),  # lost more: 0.37
        (Score(cp=50), Score(cp=80), None),  # better than the engine thought
        (Score(cp=20), Score(mate=-1), BLUNDER),  # a mate allowed from an equal position
        (Score(cp=-800), Score(mate=-3), MISTAKE),  # ... from a position already lost by 7 pawns
        (Score(cp=-1200), Score(mate=-2), INACCURACY),  # ... from one lost anyway
        (Score(mate=2), Score(cp=300), BLUNDER),  # a mate missed, 3 pawns left
        (Score(mate=2), Score(cp=800), MISTAKE),
        (Score(mate=2), Score(cp=1200), INACCURACY),
        (Score(mate=2), Score(mate=-3), BLUNDER),  # a mate missed and one allowed
        (Score(mate=2), Score(mate=4), None),  # a mate delayed: lila marks nothing
        (Score(mate=1), Score(mate=0), None),  # the mate given
        (Score(mate=-2), Score(mate=-1), None),  # mated either way
    ],
)
def test_a_move_is_judged_by_the_mover_s_loss_of_winning_chances(
    before: Score, after: Score, judgement: Judgement | None
) -> None:
    assert judge(before, after) is judgement


def test_a_game_s_marks_carry_the_engine_s_choice_and_the_win_percentages() -> None:
    facts = build(
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
        {4: {"best": [("g6", 50)], "after": -80}, 6: {"best": [("g6", 20)], "after": "#-1"}},
    )
    marks = game_advice(facts.plies)
    assert sorted(marks) == [4, 6]
    assert (marks[4].judgement, marks[4].best_san) == (MISTAKE, "g6")
    assert marks[6].judgement is BLUNDER and marks[6].win_before == pytest.approx(51.84, abs=0.01)
    assert marks[6].win_after == pytest.approx(2.46, abs=0.01)


def test_a_game_without_engine_lines_marks_nothing() -> None:
    facts = build(["e4", "e5"], {1: {"best": [], "after": -500}})
    assert game_advice(facts.plies) == {}
