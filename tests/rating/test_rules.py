"""The club rules R1-R9 and the FIDE rules, as small table cases."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.rating import fide
from clubrating.rating.elo import expected_score, rate_tournament, replay_reference
from clubrating.rating.policy import club_policy, fide_policy
from clubrating.rating.replay import replay
from clubrating.rating.types import PlayerChange, RatedGame, Standing, TournamentInput

DAY = dt.date(2024, 3, 5)
WIN, DRAW, LOSS = 2, 1, 0


def tournament(
    *games: RatedGame, id: object = "t", rated: bool = True, juniors: frozenset[str] = frozenset()
) -> TournamentInput:
    return TournamentInput(id=id, date=DAY, games=games, rated=rated, juniors=juniors)


def change_of(outcome_changes: tuple[PlayerChange, ...], player: str) -> PlayerChange | None:
    return next((c for c in outcome_changes if c.player == player), None)


# R1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "opponent", "expected", "tolerance"),
    [
        (1500, 1500, 0.5, 0),  # equal ratings
        (1700, 1500, 0.76, 0.001),  # +200 gives about 0.76
        (1900, 1500, 0.91, 0.001),  # +400 gives about 0.91
        (1500, 1900, 0.09, 0.001),
    ],
)
def test_expected_score_follows_r1(
    own: float, opponent: float, expected: float, tolerance: float
) -> None:
    assert expected_score(own, opponent) == pytest.approx(expected, abs=tolerance)
    assert club_policy().expected_score(own, opponent) == pytest.approx(expected, abs=tolerance)


# R9 -------------------------------------------------------------------------------------


def anna_r9() -> PlayerChange:
    before = {
        "Anna": Standing(1400, 30),
        "B": Standing(1500, 30),
        "C": Standing(1300, 30),
        "D": Standing(1600, 30),
        "E": Standing(1350, 30),
    }
    games = (
        RatedGame("Anna", "B", DRAW),
        RatedGame("C", "Anna", DRAW),
        RatedGame("Anna", "D", WIN),
        RatedGame("E", "Anna", DRAW),
    )
    outcome, _ = rate_tournament(before, tournament(*games), club_policy())
    change = change_of(outcome.changes, "Anna")
    assert change is not None
    return change


def test_the_worked_example_r9_leaves_anna_on_1413_77() -> None:
    anna = anna_r9()
    assert anna.k == 20
    assert anna.expected == pytest.approx(1.8117, abs=1e-4)
    assert anna.score_rated == 2.5
    assert anna.change == pytest.approx(13.77, abs=0.005)
    assert anna.rating_after == pytest.approx(1413.77, abs=0.005)
    assert f"{anna.rating_after:.1f}" == "1413.8"


# R3, R4 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games_before", "k"),
    [
        (0, 40),
        (19, 40),  # the first 20 rated games
        (20, 20),
        (200, 20),  # afterwards
    ],
)
def test_k_is_40_for_the_first_20_rated_games_then_20(games_before: int, k: float) -> None:
    before = {"a": Standing(1500, games_before), "b": Standing(1500, 100)}
    outcome, _ = rate_tournament(before, tournament(RatedGame("a", "b", WIN)), club_policy())
    assert change_of(outcome.changes, "a").k == k  # type: ignore[union-attr]


def test_a_new_player_starts_at_1200() -> None:
    outcome, after = rate_tournament({}, tournament(RatedGame("new", "other", DRAW)), club_policy())
    assert change_of(outcome.changes, "new").rating_before == 1200  # type: ignore[union-attr]
    assert after["new"] == Standing(1200, 1)


def test_the_policy_numbers_are_settings() -> None:
    policy = club_policy(start_rating=1000, k_new=32, k_new_games=10, provisional_below=3)
    outcome, _ = rate_tournament({}, tournament(RatedGame("a", "b", WIN)), policy)
    a = change_of(outcome.changes, "a")
    assert (a.rating_before, a.k, a.change) == (1000, 32, 16)  # type: ignore[union-attr]


# R5 -------------------------------------------------------------------------------------


def test_a_tournament_is_rated_against_the_ratings_before_it_started() -> None:
    before = {"a": Standing(1500, 19), "b": Standing(1500, 30), "c": Standing(1500, 30)}
    games = (RatedGame("a", "b", WIN), RatedGame("a", "c", WIN))
    outcome, after = rate_tournament(before, tournament(*games), club_policy())
    a = change_of(outcome.changes, "a")
    # both games from 1500 vs 1500
    assert a.expected == pytest.approx(1.0)  # type: ignore[union-attr]
    assert a.k == 40  # K as it stood: 19 games before  # type: ignore[union-attr]
    assert a.change == pytest.approx(40.0)  # type: ignore[union-attr]
    assert after["a"] == Standing(1540, 21)


def test_the_order_of_the_boards_does_not_matter() -> None:
    before = {p: Standing(1400 + 50 * i, 30) for i, p in enumerate("abcd")}
    games = (RatedGame("a", "b", WIN), RatedGame("c", "d", DRAW), RatedGame("a", "c", LOSS))
    forward, _ = rate_tournament(before, tournament(*games), club_policy())
    backward, _ = rate_tournament(before, tournament(*reversed(games)), club_policy())
    changes_forward = {c.player: c.change for c in forward.changes}
    changes_backward = {c.player: c.change for c in backward.changes}
    assert changes_forward == pytest.approx(changes_backward, abs=1e-12)


# R6, R7 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a_games", "b_games", "rated_for_a", "rated_for_b"),
    [
        (30, 30, True, True),  # both established
        (30, 4, False, True),  # established a, provisional b: only b's rating moves
        (4, 30, True, False),
        (4, 4, True, True),  # both provisional: counts fully for both
        (5, 4, False, True),  # 5 games is established (R6: provisional below 5)
        (0, 0, True, True),  # a new club: everybody provisional, every game counts
    ],
)
def test_a_provisional_opponent_moves_only_provisional_players(
    a_games: int, b_games: int, rated_for_a: bool, rated_for_b: bool
) -> None:
    before = {"a": Standing(1500, a_games), "b": Standing(1300, b_games)}
    outcome, after = rate_tournament(before, tournament(RatedGame("a", "b", LOSS)), club_policy())
    for player, rated, games in (("a", rated_for_a, a_games), ("b", rated_for_b, b_games)):
        change = change_of(outcome.changes, player)
        assert (change is not None) == rated
        standing = after.get(player, before[player])
        assert standing.games == games + rated
        assert (standing.rating != before[player].rating) == rated


def test_provisional_status_is_taken_as_it_stood_before_the_tournament() -> None:
    # b reaches 5 games during the tournament, but stays provisional for all of it (R5).
    before = {"a": Standing(1500, 30), "b": Standing(1300, 3)}
    games = (RatedGame("a", "b", WIN), RatedGame("b", "a", LOSS), RatedGame("a", "b", DRAW))
    outcome, after = rate_tournament(before, tournament(*games), club_policy())
    assert change_of(outcome.changes, "a") is None
    assert after["b"].games == 6
    assert change_of(outcome.changes, "b").provisional_before is True  # type: ignore[union-attr]


# R8 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "rated"),
    [
        ((RatedGame("a", "b", WIN, played=False),), True),  # forfeit
        ((RatedGame("a", "b", DRAW, played=False),), True),  # result without a move
        ((RatedGame("a", "b", WIN),), False),  # bughouse tournament
    ],
)
def test_unplayed_games_and_bughouse_are_never_rated(
    games: tuple[RatedGame, ...], rated: bool
) -> None:
    before = {"a": Standing(1500, 30), "b": Standing(1500, 30)}
    outcome, after = rate_tournament(before, tournament(*games, rated=rated), club_policy())
    assert outcome.changes == ()
    assert after == {}


def test_a_forfeit_beside_played_games_changes_nothing_of_them() -> None:
    before = {"a": Standing(1500, 30), "b": Standing(1400, 30)}
    played = RatedGame("a", "b", DRAW)
    with_forfeit, _ = rate_tournament(
        before, tournament(played, RatedGame("b", "a", WIN, played=False)), club_policy()
    )
    alone, _ = rate_tournament(before, tournament(played), club_policy())
    assert with_forfeit == alone


def test_a_bad_result_is_refused() -> None:
    with pytest.raises(ValueError, match="white_points"):
        rate_tournament({}, tournament(RatedGame("a", "b", 3)), club_policy())
    with pytest.raises(ValueError, match="themself"):
        rate_tournament({}, tournament(RatedGame("a", "a", 1)), club_policy())


# R13 ordering ---------------------------------------------------------------------------


def test_tournaments_are_ordered_by_date_then_sequence_then_id() -> None:
    game = (RatedGame("a", "b", WIN),)
    late = TournamentInput(id=1, date=DAY, sequence=2, games=game)
    early = TournamentInput(id=2, date=DAY, sequence=1, games=game)
    history = replay_reference([late, early], club_policy())
    assert [o.id for o in history.outcomes] == [2, 1]
    assert [o.id for o in replay([late, early], club_policy()).outcomes] == [2, 1]


def test_two_tournaments_with_one_order_key_are_refused() -> None:
    t = TournamentInput(id=1, date=DAY, games=())
    with pytest.raises(ValueError, match="order key"):
        replay_reference([t, t], club_policy())


# FIDE -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "opponent", "hundredths"),
    [
        (2000, 2000, 50),
        (2003, 2000, 50),
        (2004, 2000, 51),  # first bands of table 8.1.2
        (2100, 2000, 64),
        (2000, 2100, 36),
        (2400, 2000, 92),
        (2500, 2000, 92),
        (2000, 2500, 8),  # 400-point rule
        (2813, 2400, 93),
        (2400, 2813, 8),  # 2650 exemption, higher side only
        (2813, 1787, 100),
        (2700, 1965, 99),
        (2700, 1964, 100),  # 735 is the last .99
    ],
)
def test_fide_expected_scores_come_from_table_8_1_2(
    own: int, opponent: int, hundredths: int
) -> None:
    assert fide.expected_hundredths(own, opponent) == hundredths


def test_table_8_1_2_is_the_normal_model_but_for_six_published_differences() -> None:
    import math

    def model(d: int) -> int:
        return round(100 * 0.5 * (1 + math.erf(d / (2000 / 7) / math.sqrt(2))))

    differing = [d for d in range(800) if fide.pd_higher_hundredths(d) != model(d)]
    assert differing == [54, 343, 344, 358, 392, 620]


@pytest.mark.parametrize(
    ("standing", "junior", "games", "k"),
    [
        (Standing(1800, 0), False, 5, 40),  # first 30 games
        (Standing(1800, 29), False, 5, 40),
        (Standing(1800, 30), False, 5, 20),
        (Standing(2399, 30), False, 5, 20),
        (Standing(2400, 30), False, 5, 10),  # reached 2400
        (Standing(2350, 30, peak_reached_2400=True), False, 5, 10),  # ... and stays at 10
        (Standing(2250, 30), True, 5, 40),  # flagged junior below 2300
        (Standing(2300, 30), True, 5, 20),
        (Standing(1800, 30), False, 36, 19),  # 20 x 36 > 700: K = 700 // 36
        (Standing(1800, 0), False, 18, 38),  # 40 x 18 > 700
        (Standing(1800, 0), False, 17, 40),  # 40 x 17 = 680
    ],
)
def test_fide_k_factors(standing: Standing, junior: bool, games: int, k: float) -> None:
    assert fide_policy().k_factor(standing, games, junior) == k


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (-2.5, -3),
        (2.5, 3),
        (-2.49, -2),
        (0.5, 1),
        (-0.5, -1),
        (92.48, 92),
        (0.0, 0),
    ],
)
def test_fide_rounds_half_away_from_zero(value: float, rounded: int) -> None:
    assert fide.round_half_away(value) == rounded


def test_a_flagged_junior_gets_k_40_in_a_fide_tournament() -> None:
    before = {"kid": Standing(2000, 100), "adult": Standing(2000, 100)}
    games = (RatedGame("kid", "adult", WIN),)
    outcome, after = rate_tournament(
        before, tournament(*games, juniors=frozenset({"kid"})), fide_policy()
    )
    assert [(c.player, c.k, c.change) for c in outcome.changes] == [
        ("kid", 40, 20),
        ("adult", 20, -10),
    ]
    assert after["kid"].rating == 2020


def test_reaching_2400_is_remembered_for_k_10() -> None:
    before = {"a": Standing(2395, 100), "b": Standing(2395, 100)}
    _, after = rate_tournament(before, tournament(RatedGame("a", "b", WIN)), fide_policy())
    assert after["a"] == Standing(2405, 101, peak_reached_2400=True)
    assert after["b"] == Standing(2385, 101, peak_reached_2400=False)
