"""Round-robin evenings, single and double: the Berger table's boards released round by round,
the players fixed at round 1, a round off for the odd player, forfeits for a player who withdrew,
and the round-robin tie-breaks, on the real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import Bye, Club, Entry, Evening, EveningBoard, Game, Tournament
from clubrating.club.read.tournaments import table_of
from clubrating.errors import InputError, Refused
from clubrating.tournament import ROUND_ROBIN_TIEBREAKS, System
from clubrating.tournament.roundrobin import Cycles, schedule

from .conftest import ARBITER, EVENING_DAY, REGULARS, register_all

TODAY = EVENING_DAY


def _start(club: Club, names: list[str], system: str = "round-robin") -> Tournament:
    t = evening.start_evening(
        club, "Club championship", TODAY, "", who=ARBITER, today=TODAY, system=system
    )
    register_all(t, names)
    return t


def _numbered(t: Tournament, rnd: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (b.white.number, b.black.number)
        for b in EveningBoard.objects.filter(tournament=t, round=rnd).select_related(
            "white", "black"
        )
    )


def _play_round(t: Tournament, rnd: int, result: str = "1-0") -> None:
    for board in EveningBoard.objects.filter(tournament=t, round=rnd, game=None):
        evening.enter_result(board, result, who=ARBITER)


def test_a_round_robin_of_five_releases_the_berger_table_round_by_round(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox"])
    assert Evening.objects.get(tournament=t).system == "round-robin"
    for plan in schedule(5):
        evening.pair_next_round(t, who=ARBITER)
        assert _numbered(t, plan.round) == plan.boards
        rest = Bye.objects.get(tournament=t, round=plan.round)
        assert (rest.entry.number, rest.points, rest.kind) == (
            plan.bye,
            0,
            "Z",
        )  # the round off scores nothing
        _play_round(t, plan.round, "1/2-1/2")
    ev = Evening.objects.get(tournament=t)
    assert ev.planned_rounds == ev.paired_rounds == 5
    met = Counter(frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(tournament=t))
    assert len(met) == 10 and set(met.values()) == {1}
    names = list(
        Entry.objects.filter(tournament=t).order_by("number").values_list("name", flat=True)
    )
    assert names[:4] == ["Anna Berg", "Cara Dunn", "Ben Cole", "Dan Eng"]  # numbered by club rating
    with pytest.raises(Refused, match="all 5 rounds are paired: publish the evening"):
        evening.pair_next_round(t, who=ARBITER)


def test_a_double_round_robin_plays_everyone_twice_once_with_each_colour(regulars: Club) -> None:
    t = _start(regulars, REGULARS, "double round robin")
    for rnd in range(1, 7):
        evening.pair_next_round(t, who=ARBITER)
        _play_round(t, rnd)
    games = Counter(
        (g.white.number, g.black.number)
        for g in Game.objects.filter(tournament=t).select_related("white", "black")
    )
    assert len(games) == 12 and all(games[(b, w)] == 1 for w, b in games)
    assert [_numbered(t, r) for r in range(1, 7)] == [p.boards for p in schedule(4, Cycles.DOUBLE)]


def test_the_players_are_fixed_at_round_one_and_byes_are_not_asked_for(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    anna = Entry.objects.get(tournament=t, name="Anna Berg")
    with pytest.raises(Refused, match="a round robin has no byes to ask for"):
        evening.request_bye(anna, 2, who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    with pytest.raises(Refused, match="a round robin's players are fixed when round 1 is paired"):
        evening.register(t, "Late Comer", who=ARBITER)
    assert Entry.objects.filter(tournament=t).count() == 4


@pytest.mark.parametrize("names", [REGULARS[:2], [f"Player {i}" for i in range(17)]])
def test_a_round_robin_without_a_table_is_refused_and_stores_nothing(
    regulars: Club, names: list[str]
) -> None:
    t = _start(regulars, names)
    with pytest.raises(
        Refused, match=f"{len(names)} players present: a round robin takes from 3 to 16"
    ):
        evening.pair_next_round(t, who=ARBITER)
    assert not EveningBoard.objects.filter(tournament=t).exists()
    assert Evening.objects.get(tournament=t).paired_rounds == 0


def test_an_unknown_system_is_one_line(regulars: Club) -> None:
    with pytest.raises(
        InputError,
        match="'knockout' is not a pairing system: expected swiss, round-robin, "
        "double-round-robin or keizer",
    ):
        evening.start_evening(
            regulars, "Cup", TODAY, 3, who=ARBITER, today=TODAY, system="knockout"
        )
    assert not Tournament.objects.filter(name="Cup").exists()


def test_a_player_who_withdraws_loses_the_remaining_games_by_forfeit(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox", "Finn Gray"])
    evening.pair_next_round(t, who=ARBITER)
    _play_round(t, 1)
    finn = Entry.objects.get(tournament=t, name="Finn Gray")
    evening.withdraw(finn, who=ARBITER)
    for rnd in range(2, 6):
        evening.pair_next_round(t, who=ARBITER)
        forfeit = Game.objects.get(tournament=t, round=rnd, played=False)
        assert finn.id in (forfeit.white_id, forfeit.black_id)
        assert (forfeit.white_points if forfeit.black_id == finn.id else forfeit.black_points) == 2
        assert (
            EveningBoard.objects.filter(tournament=t, round=rnd, game=None).count() == 2
        )  # the others wait
        _play_round(t, rnd)
    assert Game.objects.filter(tournament=t).count() == 15


def test_the_standings_rank_by_the_round_robin_tie_breaks_even_once_published(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS)
    results = {1: ["1/2-1/2", "1/2-1/2"], 2: ["1-0", "0-1"], 3: ["0-1", "1-0"]}
    for rnd, board_results in results.items():
        evening.pair_next_round(t, who=ARBITER)
        for board, result in zip(
            EveningBoard.objects.filter(tournament=t, round=rnd), board_results
        ):
            evening.enter_result(board, result, who=ARBITER)
    table = table_of(t)
    assert table.system is System.ROUND_ROBIN and table.tiebreaks == ROUND_ROBIN_TIEBREAKS
    rows = evening.standings_of(t)
    points = [row.points for row, _ in rows]
    assert points == sorted(points, reverse=True)
    for (a, ea), (b, eb) in itertools.pairwise(rows):
        if (
            a.points == b.points
        ):  # direct encounter first (C.07 6): the winner of their game is ahead
            game = Game.objects.filter(tournament=t, white__in=[ea, eb], black__in=[ea, eb]).first()
            if game is not None and game.white_points != game.black_points:
                winner = game.white_id if game.white_points > game.black_points else game.black_id
                assert winner == ea.id
    evening.publish_evening(t, who=ARBITER)
    published = table_of(Tournament.objects.get(pk=t.pk))
    assert published.system is System.ROUND_ROBIN
    assert [r.number for r in published.rows] == [row.number for row, _ in rows]
