"""The oracle itself against the specification's numbers and FIDE's rules (worked by hand)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from . import ratings as oracle
from .ratings import Facts, Game, InitialRow, Settings, Tournament

DAY = dt.date(2026, 3, 2)


def tournament(
    tid: int,
    games: list[tuple[int, int, int]],
    *,
    day: dt.date = DAY,
    control: str = "standard",
    published: bool = True,
    bughouse: bool = False,
    played: bool = True,
) -> Tournament:
    return Tournament(
        tid, day, 0, control, published, bughouse, tuple(Game(w, b, p, played) for w, b, p in games)
    )


def test_r9_anna_leaves_on_1413_77() -> None:
    """R9: 1400 after 30 games, 1500 1300 1600 1350, scores 2.5/4 -> +13.77."""
    opponents = {2: 1500.0, 3: 1300.0, 4: 1600.0, 5: 1350.0}
    facts = Facts(
        Settings(),
        {m: None for m in range(1, 6)},
        initial=[InitialRow(1, 1400.0, 30)] + [InitialRow(m, r, 30) for m, r in opponents.items()],
        tournaments=[tournament(1, [(1, 2, 2), (1, 3, 1), (4, 1, 0), (1, 5, 0)])],
    )
    changes, current = oracle.rate(facts)
    anna = changes[(1, 1)]
    assert anna.k == 20 and anna.expected == pytest.approx(1.8117, abs=1e-4)
    assert anna.rating_after == pytest.approx(1413.77, abs=0.005)
    assert (
        current[(1, "standard")].rating == anna.rating_after
        and current[(1, "standard")].games == 34
    )


def test_new_players_start_at_1200_with_k_40_and_equal_ratings_expect_half() -> None:
    changes, current = oracle.rate(
        Facts(Settings(), {1: None, 2: None}, tournaments=[tournament(1, [(1, 2, 2)])])
    )
    assert (changes[(1, 1)].rating_after, changes[(1, 2)].rating_after) == (1220.0, 1180.0)  # R1-R4
    assert current[(1, "standard")].provisional and current[(1, "standard")].last_played == DAY


def test_an_established_player_is_not_moved_by_a_provisional_one_but_moves_him() -> None:
    """R7: member 1 has 30 games, member 2 is new: only member 2's game counts."""
    facts = Facts(
        Settings(),
        {1: None, 2: None},
        initial=[InitialRow(1, 1500.0, 30)],
        tournaments=[tournament(1, [(2, 1, 2)])],
    )
    changes, current = oracle.rate(facts)
    assert (1, 1) not in changes and current[(1, "standard")].rating == 1500.0
    assert changes[(1, 2)].rating_after == pytest.approx(
        1200 + 40 * (1 - oracle.logistic_expected(1200, 1500))
    )


def test_forfeits_byes_bughouse_and_drafts_are_never_rated() -> None:
    facts = Facts(
        Settings(),
        {1: None, 2: None},
        tournaments=[
            tournament(1, [(1, 2, 2)], played=False),
            tournament(2, [(1, 2, 2)], bughouse=True),
            tournament(3, [(1, 2, 2)], published=False),
        ],
    )
    assert oracle.rate(facts) == ({}, {})


def test_a_tournament_is_rated_against_the_ratings_from_before_it() -> None:
    """R5: both games use 1200 vs 1200, whatever the order."""
    changes, _ = oracle.rate(
        Facts(
            Settings(),
            {1: None, 2: None, 3: None},
            tournaments=[tournament(1, [(1, 2, 2), (1, 3, 2)])],
        )
    )
    assert changes[(1, 1)].rating_after == 1240.0


def test_a_merged_member_is_one_person_and_counts_the_first_initial_row() -> None:
    facts = Facts(
        Settings(),
        {1: None, 2: 1, 3: None},
        initial=[InitialRow(2, 1600.0, None), InitialRow(1, 1300.0, 3), InitialRow(3, 1600.0, 8)],
        tournaments=[tournament(1, [(2, 3, 1)])],
    )
    changes, current = oracle.rate(facts)
    assert set(current) == {(1, "standard"), (3, "standard")}
    assert changes[(1, 1)].rating_before == 1600.0 and changes[(1, 1)].games_before == 20


def test_separate_lists_each_start_from_the_initial_list() -> None:
    facts = Facts(
        Settings(separate_lists=True),
        {1: None, 2: None},
        initial=[InitialRow(1, 1500.0, 30)],
        tournaments=[tournament(1, [(1, 2, 0)], control="blitz")],
    )
    _, current = oracle.rate(facts)
    assert (
        current[(1, "standard")].rating == 1500.0 and current[(1, "standard")].last_played is None
    )
    assert (
        current[(1, "blitz")].games == 30
    )  # the new player 2 is provisional: R7 keeps 1 where he was
    assert current[(2, "blitz")].rating > 1200 and (2, "standard") not in current


def test_fide_table_bands() -> None:
    assert [oracle.fide_expected_hundredths(1400 + d, 1400) for d in (0, 3, 4, 100, 400, 500)] == [
        50,
        50,
        51,
        64,
        92,
        92,
    ]
    assert oracle.fide_expected_hundredths(1400, 1900) == 8  # 8.3.1: counted as 400
    assert oracle.fide_expected_hundredths(2813, 2400) == 93  # exempt from 2650: D 413
    assert oracle.fide_expected_hundredths(2700, 1900) == 100  # D 800 > 735


def test_fide_rounds_a_tournament_half_away_from_zero() -> None:
    assert [oracle.round_half_away(Fraction(v)) for v in ("-2.5", "2.5", "-2.49", "0.5")] == [
        -3,
        3,
        -2,
        1,
    ]


def test_fide_k_is_40_then_20_then_10_and_capped_by_700() -> None:
    rules = oracle.Rules(Settings(policy="fide"))
    assert rules.k(oracle.Standing(1500, 29), False, 1) == 40
    assert rules.k(oracle.Standing(1500, 30), False, 1) == 20
    assert rules.k(oracle.Standing(2100, 30, reached_2400=True), False, 1) == 10
    assert (
        rules.k(oracle.Standing(2100, 30, reached_2400=True), True, 1) == 40
    )  # a junior below 2300
    assert rules.k(oracle.Standing(1500, 30), False, 39) == 17  # 17 x 39 <= 700 < 18 x 39


def test_fide_policy_starts_at_1400_and_moves_by_whole_points() -> None:
    changes, _ = oracle.rate(
        Facts(Settings(policy="fide"), {1: None, 2: None}, tournaments=[tournament(1, [(1, 2, 1)])])
    )
    assert changes[(1, 1)].rating_before == 1400.0 and changes[(1, 1)].rating_after == 1400.0
