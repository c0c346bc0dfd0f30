"""The player card's figures on hand-made rows, each against a hand-computed value."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.rating.card import Before, Card, CardBye, CardGame, OwnChange, Status, build_card
from clubrating.rating.policy import club_policy, fide_policy

ME, ANN, BOB, CAT = 1, 2, 3, 4
D1, D2 = dt.date(2024, 1, 10), dt.date(2024, 2, 10)


def game(
    t: int,
    day: dt.date,
    rnd: int,
    colour: str | None,
    opponent: int,
    points: int,
    *,
    played: bool = True,
    rated: bool = True,
) -> CardGame:
    return CardGame(t, day, rnd, colour, opponent, points, played, rated, game_id=100 * t + rnd)


GAMES = [
    game(10, D1, 1, "white", ANN, 2),
    game(10, D1, 2, "black", BOB, 1),
    game(10, D1, 4, "white", CAT, 2, played=False),
    game(20, D2, 1, "black", ANN, 2),
    game(20, D2, 2, "white", BOB, 0),
    game(20, D2, 3, "white", CAT, 2),
    game(30, D2, 1, None, BOB, 2, rated=False),
]
BYES = [CardBye(10, D1, 3, 2)]
CHANGES = [
    OwnChange(10, D1, "standard", 1500.0, 1510.0, 20.0, False),
    OwnChange(20, D2, "standard", 1510.0, 1505.0, 20.0, False),
]
BEFORE = {
    (10, ME): Before(1500, False),
    (10, ANN): Before(1500, False),
    (10, BOB): Before(1700, False),
    (20, ME): Before(1510, False),
    (20, ANN): Before(1800, False),
    (20, BOB): Before(1600, False),
    (20, CAT): Before(1200, True),
}


def card() -> Card:
    return build_card(ME, GAMES, BYES, CHANGES, BEFORE, club_policy(), initial=1520.0)


def test_every_game_and_bye_in_order_with_its_status() -> None:
    lines = card().lines
    assert [(l.tournament_id, l.round, l.status) for l in lines] == [
        (10, 1, Status.RATED),
        (10, 2, Status.RATED),
        (10, 3, Status.BYE),
        (10, 4, Status.FORFEIT),
        (20, 1, Status.RATED),
        (20, 2, Status.RATED),
        (20, 3, Status.PROVISIONAL_OPPONENT),
        (30, 1, Status.BUGHOUSE),
    ]


def test_a_rated_game_has_the_opponents_rating_the_expected_score_and_k_times_the_difference() -> (
    None
):
    first, second = card().lines[:2]
    assert (first.opponent_rating, first.expected, first.change) == (1500, 0.5, pytest.approx(10.0))
    e = 1 / (1 + 10 ** (200 / 400))  # 1500 against 1700
    assert second.opponent_rating == 1700
    assert second.expected == pytest.approx(e) and second.change == pytest.approx(20 * (0.5 - e))


def test_unrated_rows_carry_no_expected_score_nor_change() -> None:
    for line in card().lines:
        if line.status is not Status.RATED:
            assert (line.expected, line.change) == (None, None), line
    provisional = card().lines[6]
    assert provisional.opponent_rating == 1200  # shown, but it did not count (R7)


def test_performance_per_tournament_over_its_rated_games() -> None:
    perf = card().performances
    assert set(perf) == {10, 20}
    assert perf[10].games == 2 and perf[10].score == 1.5 and perf[10].average_opponent == 1600
    fide = build_card(ME, GAMES, BYES, CHANGES, BEFORE, fide_policy()).performances
    assert fide[10].rating == 1600 + 193  # p = .75 (table 8.1.1)
    assert fide[20].rating == 1700 + 0  # 1 of 2 against 1800 and 1600


def test_peak_is_the_highest_rating_held_and_the_initial_list_counts() -> None:
    assert card().peaks["standard"].rating == 1520 and card().peaks["standard"].date is None
    peak = build_card(ME, GAMES, BYES, CHANGES, BEFORE, club_policy()).peaks["standard"]
    assert (peak.rating, peak.date, peak.tournament_id) == (1510, D1, 10)


def test_colours_count_games_at_the_board_only() -> None:
    colours = card().colours
    assert (colours["white"].wins, colours["white"].draws, colours["white"].losses) == (2, 0, 1)
    assert (colours["black"].wins, colours["black"].draws, colours["black"].losses) == (1, 1, 0)
    assert "unknown" not in colours  # the bughouse game is not a chess game at the board


def test_head_to_head_most_games_first_then_the_latest_meeting() -> None:
    rows = card().head_to_head
    assert [(h.opponent, h.tally.games, h.tally.score, h.last_date) for h in rows] == [
        (BOB, 2, 0.5, D2),
        (ANN, 2, 2.0, D2),
        (CAT, 1, 1.0, D2),
    ]


def test_streaks_skip_byes_forfeits_and_bughouse() -> None:
    c = card()
    # at the board: W D | W L W  -> longest winning 1 (the latest), unbeaten W D W = 3
    assert c.winning.length == 1 and c.winning.last is not None and c.winning.last.round == 3
    assert c.unbeaten.length == 3
    assert c.unbeaten.first is not None and (
        c.unbeaten.first.tournament_id,
        c.unbeaten.first.round,
    ) == (10, 1)


def test_best_wins_by_the_opponents_rating_then() -> None:
    wins = card().best_wins
    assert [(w.opponent, w.opponent_rating) for w in wins] == [
        (ANN, 1800),
        (ANN, 1500),
        (CAT, 1200),
    ]


def test_no_games_gives_an_empty_card() -> None:
    empty = build_card(ME, [], [], [], {}, club_policy())
    assert (
        empty.lines == ()
        and empty.winning.length == 0
        and empty.best_wins == ()
        and empty.peaks == {}
    )
