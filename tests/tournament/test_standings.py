"""The standings rule, pure: the points written in a file and its ranks when they order those
points, else points and FIDE's default tie-breaks for the system (C.07), computed by
tiebreak-core."""

from __future__ import annotations

import pytest

from clubrating.formats.records import Bye, ByeKind, Pairing
from clubrating.tournament import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Rule,
    System,
    file_points,
    points_differences,
    rank_table,
    system_of,
    tiebreak_standings,
)

# Four players, two rounds: 3 beats 1, 2 beats 4; then 3-2 drawn, 1 beats 4.
# Points: 1 -> 1, 2 -> 1.5, 3 -> 1.5, 4 -> 0.
SWISS = (
    Pairing(1, 1, 3, 0, 2),
    Pairing(1, 4, 2, 0, 2),
    Pairing(2, 3, 2, 1, 1),
    Pairing(2, 1, 4, 2, 0),
)
NUMBERS = (1, 2, 3, 4)
UNRATED = {n: None for n in NUMBERS}


def places(table_rows: object) -> list[tuple[int | None, int]]:
    return [(row.place, row.number) for row in table_rows]  # type: ignore[attr-defined]


def test_the_ranks_written_in_the_file_rank_the_table_even_against_start_numbers() -> None:
    ranks = {3: 1, 2: 2, 1: 3, 4: 4}  # level on 1.5, the file puts 3 above 2
    table = rank_table(UNRATED, ranks, SWISS, (), 2, System.SWISS)
    assert table.rule is Rule.WRITTEN and table.describe() == "Ranked as written in the file"
    assert places(table.rows) == [(1, 3), (2, 2), (3, 1), (4, 4)]
    assert [row.points for row in table.rows] == [3, 3, 2, 0]
    assert len(table.rows[0].tiebreaks) == len(
        SWISS_TIEBREAKS
    )  # the columns are shown all the same


def test_a_player_the_file_leaves_unranked_comes_last_without_a_place() -> None:
    table = rank_table(UNRATED, {3: 1, 2: 2, 1: None, 4: 3}, SWISS, (), 2, System.SWISS)
    assert table.rule is Rule.WRITTEN
    assert places(table.rows) == [(1, 3), (2, 2), (3, 4), (None, 1)]


@pytest.mark.parametrize(
    ("ranks", "why"),
    [
        ({1: 1, 2: 2, 3: 3, 4: 4}, "put player 1 above player 2, who has more points"),
        ({1: 1, 2: 1, 3: 2, 4: 3}, "gives players 1 and 2 the same rank with different points"),
    ],
)
def test_ranks_that_contradict_the_points_are_not_used_and_the_table_says_why(
    ranks: dict[int, int], why: str
) -> None:
    table = rank_table(UNRATED, ranks, SWISS, (), 2, System.SWISS)
    assert table.rule is Rule.TIEBREAKS
    assert why in table.describe() and "so they are not used" in table.describe()
    assert [row.number for row in table.rows][-2:] == [1, 4]


# The event's own result: the file writes 2 points for player 4 (a team event's unplayed round
# counted by its program), who has none from the results, and ranks 4 first.
WRITTEN = {1: 2, 2: 3, 3: 3, 4: 4}
WRITTEN_RANKS = {4: 1, 3: 2, 2: 3, 1: 4}


def test_the_points_and_ranks_in_the_file_are_the_standings_whatever_the_results_compute() -> None:
    table = rank_table(UNRATED, WRITTEN_RANKS, SWISS, (), 2, System.SWISS, WRITTEN)
    assert table.rule is Rule.WRITTEN and table.why is None
    assert [(row.place, row.number, row.points) for row in table.rows] == [
        (1, 4, 4),
        (2, 3, 3),
        (3, 2, 3),
        (4, 1, 2),
    ]


def test_the_file_s_points_rank_the_table_when_its_ranks_are_placeholders() -> None:
    ranks = {1: 1, 2: 2, 3: 3, 4: 4}  # start numbers, not places: 1 (1 point) above 2 (1.5)
    table = rank_table(UNRATED, ranks, SWISS, (), 2, System.SWISS, WRITTEN)
    assert table.rule is Rule.TIEBREAKS
    assert table.why is not None and table.why.params == {"above": 1, "below": 2}
    assert "put player 1 above player 2, who has more points" in table.note
    assert [row.number for row in table.rows][0] == 4 and [row.points for row in table.rows] == [
        4,
        3,
        3,
        2,
    ]


def test_tied_ranks_of_equal_points_order_the_points() -> None:
    table = rank_table(UNRATED, {3: 1, 2: 1, 1: 3, 4: 4}, SWISS, (), 2, System.SWISS)
    assert table.rule is Rule.WRITTEN and [row.place for row in table.rows] == [1, 1, 3, 4]


def test_an_all_zero_points_column_is_no_result_and_the_results_count() -> None:
    computed = {1: 2, 2: 3, 3: 3, 4: 0}
    assert file_points({1: 0, 2: 0, 3: 0, 4: 0}, computed) == computed
    assert points_differences({1: 0, 2: 0, 3: 0, 4: 0}, computed) == []
    assert points_differences({1: 2, 2: 3, 3: 3, 4: 2, 5: None}, computed | {5: 1}) == [(4, 2, 0)]


def test_without_ranks_a_swiss_is_ranked_by_points_then_buchholz_cut_1_buchholz_sb_ps() -> None:
    table = rank_table(UNRATED, {n: None for n in NUMBERS}, SWISS, (), 2, System.SWISS)
    assert table.rule is Rule.TIEBREAKS and table.tiebreaks == SWISS_TIEBREAKS
    assert table.describe() == (
        "Ranked by points, then Buchholz Cut-1, Buchholz, Sonneborn-Berger, progressive scores"
    )
    # 2 and 3 level on 1.5: 3's opponents (1: 1, 2: 1.5) against 2's (4: 0, 3: 1.5): BH 2.5 to 1.5;
    # Cut-1 drops the lowest: 3 keeps 1.5, 2 keeps 1.5, so Buchholz decides
    rows = {row.number: row for row in table.rows}
    assert rows[3].tiebreaks[:2] == (1.5, 2.5) and rows[2].tiebreaks[:2] == (1.5, 1.5)
    assert places(table.rows) == [(1, 3), (2, 2), (3, 1), (4, 4)]


# A round robin of four: 1 beats 2, 4 beats 1, the rest drawn, so 1 and 4 tie on 1.5 with 2.
ROUND_ROBIN = (
    Pairing(1, 1, 2, 2, 0),
    Pairing(1, 3, 4, 1, 1),
    Pairing(2, 4, 1, 2, 0),
    Pairing(2, 2, 3, 1, 1),
    Pairing(3, 1, 3, 1, 1),
    Pairing(3, 2, 4, 1, 1),
)


def test_a_round_robin_is_told_by_its_games_and_ranked_by_direct_encounter_first() -> None:
    assert system_of(NUMBERS, ROUND_ROBIN) is System.ROUND_ROBIN
    table = rank_table(UNRATED, {}, ROUND_ROBIN, (), 3, System.ROUND_ROBIN)
    assert table.tiebreaks == ROUND_ROBIN_TIEBREAKS
    assert table.describe().startswith("Ranked by points, then direct encounter, number of wins")
    points = {row.number: row.points for row in table.rows}
    assert points == {1: 3, 2: 2, 3: 3, 4: 4}
    assert [row.number for row in table.rows][:3] == [
        4,
        1,
        3,
    ]  # 1 and 3 on 1.5: 1 has a win, 3 none
    assert table.rows[0].tiebreaks[0] is None  # direct encounter ranks groups: no value of its own


@pytest.mark.parametrize(
    ("hint", "system"),
    [
        ("Individual: Swiss-System", System.SWISS),
        ("Individual: Round Robin", System.ROUND_ROBIN),
        ("Berger", System.ROUND_ROBIN),
        ("", System.ROUND_ROBIN),
    ],
)
def test_the_file_s_own_word_on_its_system_comes_first(hint: str, system: System) -> None:
    assert system_of(NUMBERS, ROUND_ROBIN, hint) is system


def test_a_swiss_where_not_everyone_met_is_a_swiss() -> None:
    assert system_of(NUMBERS, SWISS) is System.SWISS


def test_a_pairing_bye_scores_its_point_and_an_absent_round_nothing() -> None:
    pairings = (Pairing(1, 1, 2, 2, 0),)
    byes = (Bye(1, 3, 2, ByeKind.PAIRING), Bye(1, 4, 0, ByeKind.ABSENT))
    rows = {
        row.number: row
        for row in tiebreak_standings({1: None, 2: None, 3: None, 4: None}, pairings, byes, 1)
    }
    assert {n: row.points for n, row in rows.items()} == {1: 2, 2: 0, 3: 2, 4: 0}
    assert sorted(row.place for row in rows.values()) == [1, 2, 3, 4] and rows[4].place == 4


def test_no_round_played_ranks_by_start_number() -> None:
    rows = tiebreak_standings({2: None, 1: 1500}, (), (), 0)
    assert [(row.place, row.number, row.points) for row in rows] == [(1, 1, 0), (2, 2, 0)]
