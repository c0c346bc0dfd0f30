"""The factor definitions of clubrating.cpi.factors, case by case."""

from __future__ import annotations

import dataclasses
import math

import pytest

from clubrating.cpi.facts import BookStatus, Color
from clubrating.cpi.factors import (
    FITTED_E,
    SPEC_E,
    MateAttack,
    acpl,
    brilliancies,
    centipawn_loss,
    engine_choice,
    eval_loss,
    is_sacrifice_candidate,
    lost_on_time,
    mating_attacks,
    move_loss,
    game_accuracy,
    hangs,
    increment_seconds,
    mates,
    move_accuracy,
    opening,
    time_management,
    win_percent,
)
from clubrating.cpi.registry import player_factors
from clubrating.formats.results import GameResult
from tests.cpi.helpers import game, ply, score

W, B = Color.WHITE, Color.BLACK


@pytest.mark.parametrize(
    ("before", "after", "loss"),
    [
        (30, 30, 0),  # the best move loses nothing
        (30, 50, 0),  # a gain is not a negative loss (lila clamps at 0)
        (30, -70, 100),
        (1500, 200, 800),  # before clipped to 1000
        ("#3", 0, 1000),  # a mate for the mover counts as +1000
        (0, "#-2", 1000),  # walking into a mate counts as −1000
        ("#2", "#1", 0),  # keeping the mate loses nothing
        ("#2", "#0", 0),  # delivering it neither
        (-2000, "#-1", 0),  # already lost beyond the ceiling
    ],
)
def test_centipawn_loss_is_clipped_like_lichess(before, after, loss) -> None:
    assert centipawn_loss(ply(1, "a", [("b", before)], after)) == loss


def test_eval_loss_is_one_minus_mean_loss_over_200() -> None:
    plies = [
        ply(1, "a", [("a", 20)]),
        ply(2, "x", [("x", 0)]),
        ply(3, "b", [("c", 20)], -80),
        ply(4, "y", [("y", 0)]),
    ]
    factor = eval_loss(plies, W)
    assert (factor.numerator, factor.denominator) == (100, 2)
    assert factor.value == pytest.approx(1 - 50 / 200)
    assert eval_loss(plies, B).value == 1.0
    fitted = eval_loss(plies, W, FITTED_E)
    assert (fitted.numerator, fitted.denominator) == (100, 2)
    assert fitted.value == pytest.approx(math.exp(-50 / 50))


def test_eval_loss_is_zero_not_negative_when_cpl_exceeds_200() -> None:
    assert eval_loss([ply(1, "a", [("b", 500)], -500)], W).value == 0.0


def test_in_the_fitted_form_one_blunder_counts_at_most_500_cp_and_in_full_in_the_acpl() -> None:
    """Definitions 3: a lost queen in an even game weighed as much as 33 careful
    moves in the spec's E; in the fitted presets' form each move's loss counts at most 500 cp."""
    careful = [ply(2 * i + 1, "a", [("b", 30)], 0) for i in range(19)]  # 30 cp a move
    blunder = ply(39, "a", [("b", 0)], -1000)  # a queen
    spec, fitted = (eval_loss(careful + [blunder], W, form) for form in (SPEC_E, FITTED_E))
    assert spec.numerator == 19 * 30 + 1000
    assert fitted.numerator == 19 * 30 + 500
    assert fitted.value == pytest.approx(math.exp(-(19 * 30 + 500) / 20 / 50))
    assert acpl(careful + [blunder], W) == pytest.approx((19 * 30 + 1000) / 20)
    assert (
        0 < eval_loss([ply(1, "a", [("b", 500)], -500)], W, FITTED_E).value < 0.0001
    )  # never below 0


def test_eval_loss_of_a_player_without_moves_is_unavailable() -> None:
    factor = eval_loss([ply(1, "a", [("a", 0)])], B)
    assert not factor.available and factor.contribution == 0


@pytest.mark.parametrize(
    ("control", "increment"),
    [
        ("300+5", 5),
        ("600", 0),
        ("40/5400+30:1800+30", 30),
        (None, 0),
        ("-", 0),
        ("90+30", 30),
    ],
)
def test_increment_is_read_from_the_time_control(control, increment) -> None:
    assert increment_seconds(control) == increment


def test_time_management_uses_seconds_per_move_with_increment() -> None:
    # White's clocks: 300 -> 295 (+5) -> 280 (+5): spent 10 and 20 s; the first move is skipped.
    plies = [
        ply(1, "a", [("a", 0)], clock=(None, 300)),
        ply(2, "x", [("x", 0)]),
        ply(3, "a", [("a", 0)], clock=(300, 295)),
        ply(4, "x", [("x", 0)]),
        ply(5, "a", [("a", 0)], clock=(295, 280)),
        ply(6, "x", [("x", 0)]),
    ]
    factor = time_management(plies, W, "300+5")
    # Gini of (10, 20): Σ|xi − xj| = 20 over 2·2² = 8 -> 2.5 s, over the mean 15 s
    assert (factor.numerator, factor.denominator) == (pytest.approx(2.5), pytest.approx(15))
    assert factor.value == pytest.approx(1 / 6)


def test_time_management_is_unavailable_without_clocks() -> None:
    plies = [ply(i, "a", [("a", 0)]) for i in range(1, 9)]
    assert time_management(plies, W, "300+5").available is False


def timed(seconds: list[float], start: float = 5400) -> list:
    plies, clock = [], start
    for i, spent in enumerate(seconds):
        plies.append(ply(2 * i + 1, "a", [("a", 0)], clock=(clock, clock - spent)))
        clock -= spent
    return plies


@pytest.mark.parametrize(
    ("seconds", "value"),
    [
        ([60, 60, 60, 60], 0.0),  # the same time for every move: no time kept for anything
        ([1, 1, 1, 987], 0.7469697),  # nearly everything on one move
        ([5, 5, 300, 5, 600, 5], 0.6993),  # fast where it is easy, long thinks at two moments
    ],
)
def test_time_management_rewards_time_concentrated_on_few_moves(seconds, value) -> None:
    # 1 − sd/mean rewarded equal time per move (0 for 440 of 485 OTB sides);
    # the Gini coefficient of the seconds per move rose with FIDE rating (r = +0.31 on
    # 493 sides of the Lezcano memorial, benchmarks/measure_time_factor.py).
    assert time_management(timed(seconds), W, "5400").value == pytest.approx(value, abs=1e-4)


def test_time_management_is_zero_for_a_loss_on_time() -> None:
    plies = timed([10, 200, 30, 60]) + [ply(2, "x", [("x", 0)])]
    assert time_management(plies, W, "5400", flagged=True).value == 0.0
    facts = game(timed([10, 200, 30, 5360]), result="0-1")  # the clock reached 0
    assert lost_on_time(facts, W) and player_factors(facts, W).T.value == 0.0
    chesscom = game(timed([10, 200, 30, 60]), result="0-1")
    chesscom.headers["Termination"] = "B won on time"
    assert lost_on_time(chesscom, W) and not lost_on_time(chesscom, B)
    assert not lost_on_time(game(timed([10, 200, 30, 60]), result="1-0"), W)


def test_time_management_drops_an_unexplained_time_bonus() -> None:
    clocks = [(600, 590), (590, 580), (580, 2380)]  # +30 min after move 40
    plies = [ply(2 * i + 1, "a", [("a", 0)], clock=c) for i, c in enumerate(clocks)]
    factor = time_management(plies, W, "5400+30")
    assert factor.denominator == pytest.approx(40) and factor.value == pytest.approx(0.0)


def test_opening_is_unavailable_when_no_position_was_in_the_book() -> None:
    plies = [ply(1, "a", [("a", 0)], book=BookStatus.NO_POSITION)]
    assert opening(plies, W).available is False
    assert opening([ply(1, "a", [("a", 0)])], W).available is False  # no book probed


def test_engine_choices_count_only_positions_with_enough_legal_moves() -> None:
    three = [("a", 10), ("b", 0), ("c", -5)]
    plies = [
        ply(1, "a", three),
        ply(3, "b", three),
        ply(5, "c", three),
        ply(7, "d", three, -90),
        ply(9, "a", [("a", 0)], legal=1),  # forced: counts for B1 only
        ply(11, "b", [("a", 5), ("b", 0)], legal=2),  # two legal moves: B1, B2
    ]
    assert engine_choice(plies, W, 1).numerator == 2 and engine_choice(plies, W, 1).denominator == 6
    assert (engine_choice(plies, W, 2).numerator, engine_choice(plies, W, 2).denominator) == (2, 5)
    assert (engine_choice(plies, W, 3).numerator, engine_choice(plies, W, 3).denominator) == (1, 4)


def test_a_mate_in_one_played_is_found_and_one_missed_is_not() -> None:
    plies = [
        ply(1, "a", [("m", "#1"), ("a", 200)]),
        ply(2, "x", [("x", -200)]),
        ply(3, "m", [("m", "#1")], "#0"),
    ]
    m1 = mates(plies, W, GameResult.WHITE_WINS)[1]
    assert (m1.numerator, m1.denominator) == (1, 2)


def test_a_mating_attack_counts_once_at_its_first_position() -> None:
    plies = [
        ply(1, "a", [("a", "#3")], "#3"),
        ply(2, "x", [("x", "#-2")]),
        ply(3, "b", [("b", "#2")], "#2"),
        ply(4, "y", [("y", "#-1")]),
        ply(5, "c", [("c", "#1")], "#0"),
    ]
    found = mates(plies, W, GameResult.WHITE_WINS)
    assert (found[3].numerator, found[3].denominator) == (1, 1)
    assert found[1].denominator == 0 and found[2].denominator == 0
    assert found[1].available is False


def test_a_mating_attack_kept_until_resignation_is_found() -> None:
    plies = [ply(1, "a", [("a", "#2")], "#2"), ply(2, "x", [("x", "#-1")])]
    assert mates(plies, W, GameResult.WHITE_WINS)[2].value == 1.0
    assert mates(plies, W, GameResult.DRAW)[2].value == 0.0


def test_a_mate_let_go_ends_the_attack_and_a_later_one_starts_anew() -> None:
    plies = [
        ply(1, "a", [("m", "#2"), ("a", 300)]),
        ply(2, "x", [("x", -300)]),
        ply(3, "b", [("b", "#1")], "#0"),
    ]
    found = mates(plies, W, GameResult.WHITE_WINS)
    assert (found[2].numerator, found[2].denominator) == (0, 1)
    assert (found[1].numerator, found[1].denominator) == (1, 1)


def test_a_long_mate_counts_for_no_mate_factor() -> None:
    plies = [ply(1, "a", [("a", "#5")], "#5"), ply(2, "x", [("x", "#-4")])]
    assert all(f.denominator == 0 for f in mates(plies, W, GameResult.WHITE_WINS).values())


@pytest.mark.parametrize(
    ("before", "after", "counted"),
    [
        (0, -200, True),  # win % 50 -> 32.4: a drop of 17.6 points, a lichess blunder
        (0, -150, False),  # 50 -> 36.5: 13.5 points, a mistake, no hang
        (0, -300, True),
        (500, 100, True),  # 86.3 % -> 59.1 %
        (800, 200, True),  # 94.9 % -> 67.6 %: a won game thrown back to a fight
        (999, 400, True),  # the bound: below the ceiling is not yet decided
        (1000, 300, False),  # at lichess's ceiling: decided, win % no longer moves
        (-501, -900, False),  # 13.3 % -> 3.5 %: nearly lost already, 9.8 points
        (-400, -700, False),  # 300 cp, but 18.7 % -> 7.1 %: the game was nearly lost already
        (300, 0, True),  # 75.1 % -> 50 %
        (200, "#-3", True),  # walking into a mate from a balanced position
        (0, "#-1", True),
        ("#2", 0, False),  # losing a mate: decided before (see M instead)
    ],
)
def test_a_hang_drops_the_win_percent_by_15_points_from_an_undecided_position(
    before, after, counted
) -> None:
    assert hangs([ply(1, "a", [("b", before)], after)], W).count == int(counted)


def test_a_hung_queen_is_counted_once() -> None:
    plies = [
        ply(1, "q", [("b", 30)], -850),
        ply(2, "x", [("x", 850)]),
        ply(3, "c", [("d", -850)], -900),
        ply(4, "y", [("y", 900)]),
    ]
    assert hangs(plies, W).count == 1 and hangs(plies, B).count == 0


@pytest.mark.parametrize(
    ("exchange", "after", "shallow", "counted"),
    [
        (-300, 50, "other", True),  # a sacrifice, best, not worse, not obvious
        (-300, 50, "s", False),  # the shallow search found it: obvious
        (-300, 50, None, False),  # no shallow search recorded
        (-100, 50, "other", False),  # a pawn is not a sacrifice here
        (0, 50, "other", False),  # an ordinary recapture
        (-300, -80, "other", False),  # leaves the player worse
    ],
)
def test_brilliancies_need_a_non_obvious_sound_sacrifice(exchange, after, shallow, counted) -> None:
    p = ply(1, "s", [("s", after), ("b", -20)], exchange=exchange, shallow=shallow)
    assert brilliancies([p], W).count == int(counted)


def test_a_sacrifice_within_a_few_centipawns_of_the_best_counts() -> None:
    p = ply(1, "s", [("b", 58), ("c", 55)], 50, exchange=-500, shallow="b")
    assert brilliancies([p], W).count == 1
    far = ply(1, "s", [("b", 90)], 50, exchange=-500, shallow="b")
    assert brilliancies([far], W).count == 0


@pytest.mark.parametrize(("cp", "win"), [(0, 50.0), (1000, 97.5), (-1000, 2.5), (5000, 97.5)])
def test_win_percent_follows_lichess(cp, win) -> None:
    assert win_percent(cp) == pytest.approx(win, abs=0.05)


@pytest.mark.parametrize(
    ("before", "after", "accuracy"),
    [
        (60, 60, 100.0),
        (60, 70, 100.0),
        (60, 50, 103.1668100711649 * math.exp(-0.04354415386753951 * 10) - 3.166924740191411 + 1),
        (100, 0, 0.0),
    ],
)
def test_move_accuracy_follows_lichess(before, after, accuracy) -> None:
    assert move_accuracy(before, after) == pytest.approx(accuracy, abs=1e-9)


def test_game_accuracy_is_100_for_perfect_play_and_lower_with_a_blunder() -> None:
    perfect = [ply(i, "a", [("a", 15 if i % 2 else -15)]) for i in range(1, 21)]
    assert game_accuracy(perfect, W) == pytest.approx(100.0)
    blunder = list(perfect)
    blunder[4] = ply(5, "b", [("a", 15)], -600)
    assert game_accuracy(blunder, W) < 90
    assert game_accuracy([], W) is None


# Factor defects, each on a constructed game.


def test_a_delivered_mate_is_found_whatever_the_result_tag_and_the_stored_score() -> None:
    # Facts stored by earlier versions kept the MultiPV line's score (#1) after a mating move;
    # with the Result tag "*" the attack looked missed.
    mating = ply(3, "d8h4", [("d8h4", "#1")], "#1")
    plies = [
        ply(1, "f2f3", [("e7e5", 0)], -50),
        ply(2, "e7e5", [("e7e5", 0)]),
        ply(3, "g2g4", [("e2e4", 0)], -900),
        mating,
    ]
    plies[3] = dataclasses.replace(mating, ply=4, color=B, san="Qh4#")
    for result in (None, GameResult.BLACK_WINS):
        m1 = mates(plies, B, result)[1]
        assert (m1.numerator, m1.denominator, m1.value) == (1, 1, 1.0), result
        assert mating_attacks(plies, B, result) == [MateAttack(4, 1, True)]


def test_a_mate_in_one_missed_twice_is_zero_of_two_not_unavailable() -> None:
    plies = [
        ply(1, "a", [("m", "#1"), ("a", 300)]),
        ply(2, "x", [("x", -300)]),
        ply(3, "b", [("m", "#1"), ("b", 300)]),
        ply(4, "y", [("y", -300)]),
    ]
    m1 = mates(plies, W, GameResult.WHITE_WINS)[1]
    assert (m1.numerator, m1.denominator, m1.value, m1.available) == (0, 2, 0.0, True)
    none = mates([ply(1, "a", [("a", 30)])], W, GameResult.WHITE_WINS)[1]
    assert (none.value, none.available) == (None, False)


@pytest.mark.parametrize(
    ("before", "after", "counted"),
    [
        (30, 25, True),  # equal position, 5 cp from the best on raw scores: a sacrifice
        (200, 195, True),  # the bound: +200 cp is not yet winning
        (400, 395, False),  # trading down when already winning (+4 pawns) is no brilliancy
        (1500, 1200, False),  # clipped, both were +1000: "within 10 cp" only by clipping
        ("#3", "#3", False),  # a mate was already there
        (-150, -180, False),  # 30 cp from the best on raw scores
    ],
)
def test_a_brilliancy_is_a_sound_sacrifice_in_a_position_not_already_won(
    before, after, counted
) -> None:
    p = ply(1, "s", [("b", before), ("s", after)], exchange=-300, shallow="b")
    assert brilliancies([p], W).count == int(counted)
    assert is_sacrifice_candidate(p) == counted


def test_scores_are_compared_raw_and_a_mate_only_equals_the_same_mate() -> None:
    assert not is_sacrifice_candidate(ply(1, "s", [("b", 100), ("s", "#-9")], exchange=-300))
    # a move better than the engine's first line (a mate its search missed) is near the best
    assert is_sacrifice_candidate(ply(1, "s", [("b", 100)], "#5", exchange=-300))
    assert move_loss(score(-40), score(-40)) == 0 and move_loss(score(-40), score(-49)) == 9
    assert move_loss(score("#4"), score("#4")) == 0 and move_loss(score("#4"), score(1200)) > 10
    assert move_loss(score("#4"), score("#6")) > 10 and move_loss(score(0), score("#2")) < 0


def test_opening_counts_only_moves_from_book_positions() -> None:
    # White leaves the book at move 3; moves 4-10 start from positions the book does not know
    # (after the opponent's or the player's deviation): they are no misses.
    statuses = [BookStatus.TOP10, BookStatus.TOP10, BookStatus.OUT] + [BookStatus.NO_POSITION] * 9
    plies = []
    for i, status in enumerate(statuses):
        plies += [ply(2 * i + 1, "a", [("a", 0)], book=status), ply(2 * i + 2, "x", [("x", 0)])]
    factor = opening(plies, W)
    assert (factor.numerator, factor.denominator) == (2, 3)
    assert factor.value == pytest.approx(2 / 3)


def test_opening_does_not_blame_the_player_for_the_opponents_deviation() -> None:
    # Black's first move leaves the book; every later White position is unknown to it.
    plies = [
        ply(1, "e2e4", [("e2e4", 0)], book=BookStatus.TOP10),
        ply(2, "a7a5", [("c7c5", 0)], -60, book=BookStatus.OUT),
    ]
    for number in range(3, 21):
        plies.append(ply(number, "a", [("a", 0)], book=BookStatus.NO_POSITION))
    assert (
        opening(plies, W).numerator,
        opening(plies, W).denominator,
        opening(plies, W).value,
    ) == (1, 1, 1.0)
    assert (opening(plies, B).numerator, opening(plies, B).denominator) == (0, 1)
