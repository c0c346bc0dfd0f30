"""The replay of a history that starts from an initial list: the listed players' first
tournament is rated from the listed rating and games, as if they had played them here."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.rating.initial import InitialRating, established_games, initial_standings
from clubrating.rating.policy import club_policy, fide_policy
from clubrating.rating.replay import replay
from clubrating.rating.types import RatedGame, Standing, TournamentInput

DAY = dt.date(2024, 3, 5)
WIN, DRAW = 2, 1


def one_game(white_points: int = WIN) -> TournamentInput:
    return TournamentInput(id="t", date=DAY, games=(RatedGame("anna", "ben", white_points),))


@pytest.mark.parametrize(
    ("listed", "games", "provisional", "k"),
    [
        (InitialRating("anna", 1600, 40), 40, False, 20),  # established: K 20 (R4), counted (R6)
        (InitialRating("anna", 1600, 3), 3, True, 40),  # listed as provisional: K 40
        (InitialRating("anna", 1600, None), 20, False, 20),  # no count given: established
    ],
)
def test_the_first_tournament_is_rated_from_the_listed_rating_and_games(
    listed: InitialRating, games: int, provisional: bool, k: float
) -> None:
    history = replay([one_game()], club_policy(), initial=[listed, InitialRating("ben", 1600, 40)])
    anna = next(c for c in history.outcomes[0].changes if c.player == "anna")
    assert (anna.rating_before, anna.games_before, anna.provisional_before, anna.k) == (
        1600,
        games,
        provisional,
        k,
    )
    assert anna.rating_after == pytest.approx(1600 + k * 0.5, abs=1e-9)
    assert history.final["anna"].games == games + 1


def test_a_player_missing_from_the_list_starts_at_the_start_rating() -> None:
    history = replay([one_game(DRAW)], club_policy(), initial=[InitialRating("anna", 1800, 3)])
    ben = next(c for c in history.outcomes[0].changes if c.player == "ben")
    assert (ben.rating_before, ben.games_before) == (1200, 0)


def test_a_listed_player_who_never_plays_keeps_the_listed_standing() -> None:
    history = replay([one_game()], club_policy(), initial=[InitialRating("cara", 1500, 7)])
    assert history.final["cara"] == Standing(1500, 7)


def test_an_empty_list_replays_as_before() -> None:
    assert replay([one_game()], club_policy(), initial=()) == replay([one_game()], club_policy())


def test_a_snapshot_overrides_the_list_for_the_players_it_holds() -> None:
    history = replay(
        [one_game()],
        club_policy(),
        start={"anna": Standing(1700, 50)},
        initial=[InitialRating("anna", 1600, 40), InitialRating("ben", 1650, 40)],
    )
    before = {c.player: c.rating_before for c in history.outcomes[0].changes}
    assert before == {"anna": 1700, "ben": 1650}


@pytest.mark.parametrize(
    ("policy", "games"),
    [
        (club_policy(), 20),
        (club_policy(k_new_games=3), 5),
        (club_policy(provisional_below=30), 30),
        (fide_policy(), 30),
    ],
)
def test_an_unstated_games_count_is_past_new_k_and_provisional(policy, games: int) -> None:
    assert established_games(policy) == games


def test_a_listed_rating_of_2400_counts_as_reached_2400_under_fide() -> None:
    standings = initial_standings(
        [InitialRating("anna", 2450, 100), InitialRating("ben", 2399, 100)], fide_policy()
    )
    assert standings["anna"].peak_reached_2400 and not standings["ben"].peak_reached_2400


def test_of_two_rows_of_one_player_the_first_counts() -> None:
    standings = initial_standings(
        [InitialRating("anna", 1500, 9), InitialRating("anna", 1900, 9)], club_policy()
    )
    assert standings == {"anna": Standing(1500, 9)}


def test_the_replay_does_not_change_the_list_it_was_given() -> None:
    listed = [InitialRating("anna", 1600, 40)]
    replay([one_game()], club_policy(), initial=listed)
    assert listed == [InitialRating("anna", 1600, 40)]
