"""Pairing a Keizer evening: everyone present plays or has the bye, no rematch within the gap
when a pairing without one exists (checked against every pairing there is), top-down nearest
partners, colours balanced."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clubrating.tournament.keizer import Absence, Game, Rest, Rules, Season
from clubrating.tournament.keizer_pairing import pair_evening, rematches
from clubrating.tournament.pairing import PairingFailed


def all_pairings(players: list[int]) -> Iterator[list[frozenset[int]]]:
    """Every way of splitting an even number of players into pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        for more in all_pairings(rest[:index] + rest[index + 1 :]):
            yield [frozenset((first, partner)), *more]


def recent(season: Season, round_: int, gap: int) -> set[frozenset[int]]:
    return {
        frozenset((g.white, g.black))
        for g in season.games
        if not g.forfeit and round_ - gap <= g.round < round_
    }


@st.composite
def histories(draw: st.DrawFn) -> tuple[Season, list[int], set[int], int, int]:
    players = draw(st.integers(1, 9))
    numbers = list(range(1, players + 1))
    round_ = draw(st.integers(1, 7))
    games = []
    for r in range(1, round_):
        pool = draw(st.permutations(numbers))
        for w, b in zip(pool[0::2], pool[1::2], strict=False):
            if draw(st.integers(0, 3)):
                games.append(Game(r, w, b, 2, 0, forfeit=draw(st.integers(0, 9)) == 0))
    ranking = draw(st.permutations(numbers))
    present = set(draw(st.lists(st.sampled_from(numbers), unique=True)))
    gap = draw(st.integers(0, 5))
    return Season(tuple(numbers), tuple(games)), list(ranking), present, round_, gap


@settings(max_examples=200, deadline=None)
@given(histories())
def test_everyone_present_is_paired_once_or_has_the_bye(
    case: tuple[Season, list[int], set[int], int, int],
) -> None:
    season, ranking, present, round_, gap = case
    plan = pair_evening(season, Rules(rematch_gap=gap), ranking, present, round_)
    seated = [p for board in plan.boards for p in board]
    assert len(seated) == len(set(seated))
    assert set(seated) | ({plan.bye} if plan.bye is not None else set()) == present
    assert (plan.bye is not None) == (len(present) % 2 == 1)
    assert plan.bye not in seated


@settings(max_examples=200, deadline=None)
@given(histories())
def test_no_rematch_within_the_gap_when_any_pairing_avoids_one(
    case: tuple[Season, list[int], set[int], int, int],
) -> None:
    season, ranking, present, round_, gap = case
    blocked = recent(season, round_, gap)
    players = sorted(present)
    byes: list[int | None] = list(players) if len(players) % 2 else [None]
    possible = any(
        not set(pairs) & blocked
        for bye in byes
        for pairs in all_pairings([p for p in players if p != bye])
    )
    plan = pair_evening(season, Rules(rematch_gap=gap), ranking, present, round_)
    made = {frozenset(board) for board in plan.boards}
    assert not (possible and made & blocked)
    assert rematches(plan, season, gap) == [b for b in plan.boards if frozenset(b) in blocked]


@settings(max_examples=200, deadline=None)
@given(histories())
def test_the_top_player_meets_the_nearest_allowed_player_below_when_that_can_be_completed(
    case: tuple[Season, list[int], set[int], int, int],
) -> None:
    season, ranking, present, round_, gap = case
    plan = pair_evening(season, Rules(rematch_gap=gap), ranking, present, round_)
    assume(plan.boards and not rematches(plan, season, gap))
    order = [p for p in ranking if p in present and p != plan.bye]
    blocked = recent(season, round_, gap)
    top = order[0]
    for partner in order[1:]:  # the nearest partner the rest can be completed around
        rest = [p for p in order[1:] if p != partner]
        if frozenset((top, partner)) not in blocked and any(
            not set(pairs) & blocked for pairs in all_pairings(rest)
        ):
            break
    assert frozenset((top, partner)) in {frozenset(b) for b in plan.boards}


def test_with_no_history_the_ranking_pairs_one_two_three_four() -> None:
    plan = pair_evening(Season((1, 2, 3, 4, 5)), Rules(), [5, 4, 3, 2, 1], {1, 2, 3, 4, 5}, 1)
    assert [frozenset(b) for b in plan.boards] == [frozenset((5, 4)), frozenset((3, 2))]
    assert plan.bye == 1


def test_absent_players_are_skipped_and_the_next_present_one_below_is_the_partner() -> None:
    plan = pair_evening(Season((1, 2, 3, 4)), Rules(), [1, 2, 3, 4], {1, 3, 4}, 1)
    assert [frozenset(b) for b in plan.boards] == [frozenset((1, 3))]
    assert plan.bye == 4


def test_a_recent_opponent_is_passed_over_for_the_next_one_below() -> None:
    season = Season((1, 2, 3, 4), (Game(1, 1, 2, 2, 0), Game(1, 3, 4, 1, 1)))
    plan = pair_evening(season, Rules(rematch_gap=3), [1, 2, 3, 4], {1, 2, 3, 4}, 2)
    assert {frozenset(b) for b in plan.boards} == {frozenset((1, 3)), frozenset((2, 4))}


def test_when_the_nearest_partner_strands_a_player_the_search_steps_back() -> None:
    # 1-3 would leave 2 with 4, whom 2 has just met: 1 takes 4 instead, and 2 meets 3.
    season = Season((1, 2, 3, 4), (Game(1, 1, 2, 2, 0), Game(1, 2, 4, 1, 1)))
    plan = pair_evening(season, Rules(rematch_gap=3), [1, 2, 3, 4], {1, 2, 3, 4}, 2)
    assert {frozenset(b) for b in plan.boards} == {frozenset((1, 4)), frozenset((2, 3))}


def test_after_the_gap_the_same_two_meet_again() -> None:
    season = Season((1, 2, 3, 4), (Game(1, 1, 2, 2, 0), Game(1, 3, 4, 1, 1)))
    plan = pair_evening(season, Rules(rematch_gap=1), [1, 2, 3, 4], {1, 2, 3, 4}, 3)
    assert {frozenset(b) for b in plan.boards} == {frozenset((1, 2)), frozenset((3, 4))}


def test_when_only_a_rematch_is_possible_it_is_made_and_reported() -> None:
    season = Season((1, 2), (Game(1, 1, 2, 2, 0),))
    plan = pair_evening(season, Rules(rematch_gap=5), [1, 2], {1, 2}, 2)
    assert plan.boards == ((2, 1),)  # the colours of their last game reversed
    assert rematches(plan, season, 5) == [(2, 1)]


def test_the_bye_goes_to_the_lowest_ranked_who_has_had_fewest_byes() -> None:
    season = Season((1, 2, 3), absences=(Absence(1, 3, Rest.BYE),))
    plan = pair_evening(season, Rules(), [1, 2, 3], {1, 2, 3}, 2)
    assert plan.bye == 2


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ((), (2, 1)),  # equal and never met: the lower-ranked player has white
        ((Game(1, 1, 3, 2, 0),), (2, 1)),  # 1 has had white more: 2 has it
        ((Game(1, 2, 3, 2, 0),), (1, 2)),  # 2 has had white more: 1 has it
        ((Game(1, 2, 1, 1, 1), Game(2, 3, 4, 1, 1)), (1, 2)),  # equal, met: last game reversed
        ((Game(1, 1, 3, 2, 0, forfeit=True),), (2, 1)),  # a forfeit gives no colour
    ],
)
def test_colours(history: tuple[Game, ...], expected: tuple[int, int]) -> None:
    season = Season((1, 2, 3, 4), history)
    plan = pair_evening(season, Rules(rematch_gap=0), [1, 2, 3, 4], {1, 2}, 3)
    assert plan.boards == (expected,)


def test_a_present_player_outside_the_ranking_is_refused() -> None:
    with pytest.raises(PairingFailed):
        pair_evening(Season((1, 2)), Rules(), [1, 2], {1, 2, 3}, 1)


def test_a_long_season_with_everyone_met_still_pairs_in_a_moment() -> None:
    players = list(range(1, 41))
    games = [
        Game(r, a, b, 1, 1)
        for r, (a, b) in enumerate(itertools.combinations(players, 2), start=1)
        if r < 200
    ]
    plan = pair_evening(
        Season(tuple(players), tuple(games)), Rules(rematch_gap=99), players, set(players), 200
    )
    assert len(plan.boards) == 20
