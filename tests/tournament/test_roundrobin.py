"""The Berger tables of a round robin (FIDE Handbook C.05, Annex 1): the tables as the annex
prints them, and the rules every table keeps, for every size from 3 to 16 players."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubrating.tournament.roundrobin import (
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    Cycles,
    berger_round,
    drawn_order,
    rounds_of,
    schedule,
)

# C.05 Annex 1, the tables for 4, 6, 8 and 10 players as printed: one line a round, white first.
PUBLISHED = {
    4: """1-4 2-3
          4-3 1-2
          2-4 3-1""",
    6: """1-6 2-5 3-4
          6-4 5-3 1-2
          2-6 3-1 4-5
          6-5 1-4 2-3
          3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5
          8-5 6-4 7-3 1-2
          2-8 3-1 4-7 5-6
          8-6 7-5 1-4 2-3
          3-8 4-2 5-1 6-7
          8-7 1-6 2-5 3-4
          4-8 5-3 6-2 7-1""",
    10: """1-10 2-9 3-8 4-7 5-6
           10-6 7-5 8-4 9-3 1-2
           2-10 3-1 4-9 5-8 6-7
           10-7 8-6 9-5 1-4 2-3
           3-10 4-2 5-1 6-9 7-8
           10-8 9-7 1-6 2-5 3-4
           4-10 5-3 6-2 7-1 8-9
           10-9 1-8 2-7 3-6 4-5
           5-10 6-4 7-3 8-2 9-1""",
}
# The 14-player table's first and last rounds (its longest circle but one).
PUBLISHED_14 = {1: "1-14 2-13 3-12 4-11 5-10 6-9 7-8", 13: "7-14 8-6 9-5 10-4 11-3 12-2 13-1"}


def boards_of(line: str) -> tuple[tuple[int, int], ...]:
    return tuple((int(w), int(b)) for w, b in re.findall(r"(\d+)-(\d+)", line))


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_the_schedule_of_an_even_number_is_the_published_table(players: int) -> None:
    printed = [boards_of(line) for line in PUBLISHED[players].splitlines()]
    assert [r.boards for r in schedule(players)] == printed
    assert all(r.bye is None for r in schedule(players))


@pytest.mark.parametrize(("round_", "line"), sorted(PUBLISHED_14.items()))
def test_the_fourteen_player_table_begins_and_ends_as_printed(round_: int, line: str) -> None:
    assert berger_round(14, round_).boards == boards_of(line)


@pytest.mark.parametrize("players", [3, 5, 7, 9])
def test_an_odd_number_plays_the_next_table_and_the_dummy_s_opponent_has_the_round_off(
    players: int,
) -> None:
    for mine, printed in zip(schedule(players), PUBLISHED[players + 1].splitlines()):
        pairs = boards_of(printed)
        assert mine.boards == tuple(p for p in pairs if players + 1 not in p)
        assert mine.bye == next(
            w if b == players + 1 else b for w, b in pairs if players + 1 in (w, b)
        )


def test_five_players_round_by_round() -> None:
    assert [(r.boards, r.bye) for r in schedule(5)] == [
        (((2, 5), (3, 4)), 1),
        (((5, 3), (1, 2)), 4),
        (((3, 1), (4, 5)), 2),
        (((1, 4), (2, 3)), 5),
        (((4, 2), (5, 1)), 3),
    ]


def test_a_double_round_robin_reverses_colours_and_swaps_the_first_cycle_s_last_two_rounds() -> (
    None
):
    single, double = schedule(6), schedule(6, Cycles.DOUBLE)
    assert len(double) == 10
    assert [r.boards for r in double[:5]] == [
        r.boards for r in (single[0], single[1], single[2], single[4], single[3])
    ]
    assert [r.boards for r in double[5:]] == [tuple((b, w) for w, b in r.boards) for r in single]
    assert [r.round for r in double] == list(range(1, 11))


@pytest.mark.parametrize(
    ("players", "cycles", "rounds"),
    [
        (3, Cycles.SINGLE, 3),
        (4, Cycles.SINGLE, 3),
        (4, Cycles.DOUBLE, 6),
        (9, Cycles.SINGLE, 9),
        (16, Cycles.SINGLE, 15),
        (16, Cycles.DOUBLE, 30),
    ],
)
def test_the_number_of_rounds(players: int, cycles: Cycles, rounds: int) -> None:
    assert rounds_of(players, cycles) == rounds


@pytest.mark.parametrize("players", [0, 2, 17])
def test_a_number_of_players_without_a_table_is_refused(players: int) -> None:
    with pytest.raises(
        ValueError, match=f"{players} players: a round robin here takes from 3 to 16"
    ):
        schedule(players)


def test_a_round_past_the_schedule_is_refused() -> None:
    with pytest.raises(ValueError, match="round 6: a round robin of 6 players has 5 rounds"):
        berger_round(6, 6)


@given(st.integers(MIN_PLAYERS, MAX_PLAYERS), st.sampled_from(list(Cycles)))
def test_every_two_players_meet_once_a_cycle_with_colours_balanced(
    players: int, cycles: Cycles
) -> None:
    rounds = schedule(players, cycles)
    per_cycle = rounds_of(players)
    for cycle in range(cycles):
        met = Counter(
            frozenset(b)
            for r in rounds[cycle * per_cycle : (cycle + 1) * per_cycle]
            for b in r.boards
        )
        assert set(met) == {frozenset(p) for p in itertools.combinations(range(1, players + 1), 2)}
        assert set(met.values()) == {1}
    for r in rounds:  # everyone once a round: on a board, or (an odd number) the round off
        seated = [n for b in r.boards for n in b] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == list(range(1, players + 1))
        assert (r.bye is not None) == (players % 2 == 1)
    colours = {
        n: "".join("W" if n == b[0] else "B" for r in rounds for b in r.boards if n in b)
        for n in range(1, players + 1)
    }
    assert all(abs(c.count("W") - c.count("B")) <= 1 for c in colours.values())
    assert all("WWW" not in c and "BBB" not in c for c in colours.values())  # never three running


@given(st.integers(MIN_PLAYERS, MAX_PLAYERS))
def test_in_a_double_round_robin_each_pair_has_each_colour_once(players: int) -> None:
    games = Counter(b for r in schedule(players, Cycles.DOUBLE) for b in r.boards)
    assert all(games[(b, w)] == 1 for (w, b) in games) and set(games.values()) == {1}


def _keys_by_hand(players: int, seed: int) -> list[tuple[str, int]]:
    """The drawing as docs/website.md says to redo it: each place's SHA-256 of "SEED:PLACE",
    sorted."""
    import hashlib

    return sorted(
        (hashlib.sha256(f"{seed}:{place}".encode()).hexdigest(), place)
        for place in range(1, players + 1)
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (5, 482913), (16, 999_999), (10, 7)])
def test_a_drawing_of_lots_is_the_one_its_seed_gives_by_the_documented_recipe(
    players: int, seed: int
) -> None:
    drawn = drawn_order(players, seed)
    assert drawn == tuple(place for _, place in _keys_by_hand(players, seed))
    assert sorted(drawn) == list(range(1, players + 1)) and drawn_order(players, seed) == drawn


def test_every_order_of_four_players_comes_out_of_the_lot_about_equally_often() -> None:
    # 24 orders over 4,800 seeds: about 200 each; 140 and 260 are more than four standard deviations
    # out
    counts = Counter(drawn_order(4, seed) for seed in range(4_800))
    assert len(counts) == 24 and 140 < min(counts.values()) <= max(counts.values()) < 260


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_a_seed_out_of_range_is_refused(seed: int) -> None:
    with pytest.raises(ValueError, match=f"{seed}: a seed is a whole number from 0 to {MAX_SEED}"):
        drawn_order(4, seed)
