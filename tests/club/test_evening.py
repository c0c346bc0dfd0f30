"""Tonight's evening run by clubrating: register, seed, pair, results, byes, withdrawals,
standings and publication, on the real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import (
    Bye,
    Club,
    Entry,
    Evening,
    EveningBoard,
    Game,
    Member,
    RatingChange,
    Tournament,
    TournamentStatus,
)
from clubrating.errors import InputError, NotFound, Refused

from .conftest import ARBITER, EVENING_DAY, REGULARS, register_all
from clubrating.club.services.members import merge
from clubrating.club.services.names import new_member
from clubrating.club.services.tournaments import publish

TODAY = EVENING_DAY


def _start(club: Club, names: list[str], rounds: int = 5) -> Tournament:
    t = evening.start_evening(club, "Tuesday Swiss", TODAY, rounds, who=ARBITER, today=TODAY)
    register_all(t, names)
    return t


def _boards(t: Tournament, rnd: int) -> list[EveningBoard]:
    return list(
        EveningBoard.objects.filter(tournament=t, round=rnd).select_related("white", "black")
    )


def _play_round(t: Tournament, rnd: int, result: str = "1-0") -> None:
    for board in _boards(t, rnd):
        evening.enter_result(board, result, who=ARBITER)


def _number(t: Tournament, name: str) -> int:
    return Entry.objects.get(tournament=t, name=name).number


def test_round_one_seeds_by_club_rating_with_the_unrated_last_by_name(regulars: Club) -> None:
    t = _start(regulars, ["Zoe New", "Dan Eng", "Anna Berg", "Carl Late", "Cara Dunn", "Ben Cole"])
    evening.pair_next_round(t, who=ARBITER)
    order = list(
        Entry.objects.filter(tournament=t).order_by("number").values_list("name", flat=True)
    )
    assert order == ["Anna Berg", "Cara Dunn", "Ben Cole", "Dan Eng", "Carl Late", "Zoe New"]
    # FIDE Dutch round 1: the top half against the bottom half, colours alternating by board
    assert [(b.white.number, b.black.number) for b in _boards(t, 1)] == [(1, 4), (5, 2), (3, 6)]


def test_five_rounds_never_repeat_a_pairing_and_give_the_odd_player_one_pairing_bye(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox", "Finn Gray", "Gus Hale"])
    for rnd in range(1, 6):
        evening.pair_next_round(t, who=ARBITER)
        _play_round(t, rnd, ["1-0", "0-1", "1/2-1/2"][rnd % 3])
    met = [frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(tournament=t)]
    assert len(met) == len(set(met)) == 15  # 7 players: 3 boards a round
    pab = list(Bye.objects.filter(tournament=t, kind="U").values_list("entry_id", flat=True))
    assert (
        len(pab) == 5
        and len(set(pab)) == 5
        and all(p == 2 for p in Bye.objects.values_list("points", flat=True))
    )


def test_a_withdrawn_player_is_not_paired_again_and_keeps_the_rounds_played(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox", "Finn Gray"])
    evening.pair_next_round(t, who=ARBITER)
    _play_round(t, 1)
    eva = Entry.objects.get(tournament=t, name="Eva Fox")
    assert "not paired from round 2" in str(evening.withdraw(eva, who=ARBITER))
    for rnd in (2, 3):
        evening.pair_next_round(t, who=ARBITER)
        _play_round(t, rnd)
        assert all(eva.id not in (b.white_id, b.black_id) for b in _boards(t, rnd))
        assert not Bye.objects.filter(tournament=t, round=rnd, entry=eva).exists()
    assert (
        Game.objects.filter(tournament=t, round=1).filter(white=eva).count()
        + Game.objects.filter(tournament=t, round=1, black=eva).count()
        == 1
    )
    with pytest.raises(Refused, match="withdrew already"):
        evening.withdraw(eva, who=ARBITER)


def test_a_requested_bye_scores_half_a_point_and_the_pairing_bye_a_whole_one(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox", "Finn Gray"])
    dan = Entry.objects.get(tournament=t, name="Dan Eng")
    evening.request_bye(dan, 1, who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)  # five present: one pairing bye
    assert all(dan.id not in (b.white_id, b.black_id) for b in _boards(t, 1))
    pab = Bye.objects.get(tournament=t, round=1, kind="U")
    _play_round(t, 1, "1/2-1/2")
    points = {e.name: row.points for row, e in evening.standings_of(t)}
    assert points["Dan Eng"] == 1 and points[pab.entry.name] == 2 and points["Anna Berg"] == 1


def test_standings_rank_by_points_then_buchholz_cut_1_and_show_every_tie_break(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS)
    for rnd in (1, 2, 3):
        evening.pair_next_round(t, who=ARBITER)
        _play_round(t, rnd)  # white wins everything
    rows = evening.standings_of(t)
    assert [row.place for row, _ in rows] == [1, 2, 3, 4]
    assert all(len(row.tiebreaks) == 4 for row, _ in rows)
    points = [row.points for row, _ in rows]
    assert points == sorted(points, reverse=True)
    for (a, _), (b, _) in itertools.pairwise(rows):
        if a.points == b.points:
            assert a.tiebreaks >= b.tiebreaks
    # Buchholz of each player = the sum of the opponents' scores (C.07 8.1; nobody missed a round)
    score = {e.id: row.points / 2 for row, e in rows}
    for row, entry in rows:
        opponents = [
            g.black_id if g.white_id == entry.id else g.white_id
            for g in Game.objects.filter(tournament=t).filter(white=entry)
            | Game.objects.filter(black=entry)
        ]
        assert row.tiebreaks[1] == pytest.approx(sum(score[o] for o in opponents))


def test_a_result_of_the_current_round_is_corrected_and_a_closed_round_refused(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS)
    evening.pair_next_round(t, who=ARBITER)
    board = _boards(t, 1)[0]
    evening.enter_result(board, "1-0", who=ARBITER)
    assert "1-0 -> 0-1" in str(evening.enter_result(board, "0-1", who=ARBITER))
    game = Game.objects.get(evening_board=board)
    assert (game.white_points, game.black_points) == (0, 2)
    _play_round(t, 1)
    evening.pair_next_round(t, who=ARBITER)
    board.refresh_from_db()
    with pytest.raises(Refused, match="round 1 is closed"):
        evening.enter_result(board, "1-0", who=ARBITER)


def test_the_next_round_waits_for_every_result_and_a_late_entry_joins_it(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    evening.pair_next_round(t, who=ARBITER)
    evening.enter_result(_boards(t, 1)[0], "1-0", who=ARBITER)
    with pytest.raises(Refused, match="1 result of round 1 is not entered yet"):
        evening.pair_next_round(t, who=ARBITER)
    _play_round(t, 1)
    late = evening.register(t, "Eva Fox", who=ARBITER)
    with pytest.raises(Refused, match="'Eva Fox' is not confirmed yet"):
        evening.pair_next_round(t, who=ARBITER)
    assert not EveningBoard.objects.filter(tournament=t, round=2).exists()
    new_member(late, who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    late.refresh_from_db()
    assert late.number == 5 and Bye.objects.filter(tournament=t, round=2, kind="U").count() == 1


def test_bad_input_is_one_line_and_nothing_is_stored(regulars: Club) -> None:
    before = Tournament.objects.count()
    with pytest.raises(InputError, match="'five' is not a number of rounds"):
        evening.start_evening(regulars, "X", TODAY, "five", who=ARBITER, today=TODAY)
    with pytest.raises(InputError, match="in the future"):
        evening.start_evening(
            regulars, "X", TODAY + dt.timedelta(days=1), 5, who=ARBITER, today=TODAY
        )
    assert Tournament.objects.count() == before
    t = _start(regulars, REGULARS)
    with pytest.raises(Refused, match="'Anna Berg' is registered already"):
        evening.register(t, "anna  berg", who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    with pytest.raises(InputError):
        evening.enter_result(_boards(t, 1)[0], "2-0", who=ARBITER)
    assert not Game.objects.filter(tournament=t).exists()
    with pytest.raises(InputError, match="a bye is asked for a round not paired yet, 2 to 5"):
        evening.request_bye(Entry.objects.get(tournament=t, name="Ben Cole"), 1, who=ARBITER)


def test_a_member_registered_under_a_name_merged_into_them_is_registered_already(
    regulars: Club,
) -> None:
    t = _start(regulars, ["Anna Berg", "Ben Cole", "Cara Dunn", "Eva Fax"])
    eva = Entry.objects.get(tournament=t, name="Eva Fax").member
    dan = Member.objects.get(club=regulars, name="Dan Eng")
    merge(eva, dan, who=ARBITER)  # Eva Fax was Dan Eng all along
    with pytest.raises(Refused, match="'Eva Fax' is registered already \\(number 4\\)"):
        evening.register(t, "Dan Eng", who=ARBITER)
    assert Entry.objects.filter(tournament=t).count() == 4


def test_an_impossible_round_is_refused_in_one_line_and_stores_nothing(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    for rnd in (1, 2, 3):  # four players have all met after three rounds
        evening.pair_next_round(t, who=ARBITER)
        _play_round(t, rnd)
    audit_before = regulars.audit.count()
    with pytest.raises(Refused, match="round 4 cannot be paired"):
        evening.pair_next_round(t, who=ARBITER)
    assert not EveningBoard.objects.filter(tournament=t, round=4).exists()
    assert not Bye.objects.filter(tournament=t, round=4).exists()
    assert (
        Evening.objects.get(tournament=t).paired_rounds == 3
        and regulars.audit.count() == audit_before
    )


def test_the_published_evening_rates_like_an_import_byes_and_forfeits_never_rated(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox"])
    with pytest.raises(Refused, match="no round is paired yet"):
        evening.publish_evening(t, who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    boards = _boards(t, 1)
    evening.enter_result(boards[0], "+-", who=ARBITER)
    with pytest.raises(Refused, match="1 result of round 1 is not entered yet"):
        evening.publish_evening(t, who=ARBITER)
    evening.enter_result(boards[1], "1-0", who=ARBITER)
    assert "published 'Tuesday Swiss'" in str(evening.publish_evening(t, who=ARBITER))
    t.refresh_from_db()
    assert t.status == TournamentStatus.PUBLISHED and t.rounds == 1
    rated = {c.member.name: c.games_rated for c in RatingChange.objects.filter(tournament=t)}
    played = boards[1]
    assert rated.get(played.white.name) == 1 and rated.get(played.black.name) == 1
    for name in (
        boards[0].white.name,
        boards[0].black.name,
        Bye.objects.get(tournament=t).entry.name,
    ):
        assert rated.get(name, 0) == 0  # a forfeit and the pairing bye: never rated (R8)
    with pytest.raises(Refused, match="is published"):
        evening.pair_next_round(t, who=ARBITER)


def test_an_imported_tournament_is_not_an_evening(regulars: Club) -> None:
    imported = Tournament.objects.get(club=regulars, name="February")
    with pytest.raises(NotFound, match="is not an evening"):
        evening.pair_next_round(imported, who=ARBITER)
    assert Member.objects.filter(club=regulars).count() == 4


def test_a_name_registered_after_the_last_round_paired_is_not_published_and_a_refusal_keeps_it(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS)
    evening.pair_next_round(t, who=ARBITER)
    _play_round(t, 1)
    evening.register(t, "Eva Fox", who=ARBITER)  # for round 2, never paired
    evening.request_bye(Entry.objects.get(tournament=t, name="Anna Berg"), 2, who=ARBITER)
    EveningBoard.objects.filter(tournament=t).update(game=None)  # as if a result were missing
    with pytest.raises(Refused, match="not entered yet"):
        evening.publish_evening(t, who=ARBITER)
    assert (
        Entry.objects.filter(tournament=t).count() == 5
        and Bye.objects.filter(tournament=t, round=2).exists()
    )
    Game.objects.filter(tournament=t).delete()
    _play_round(t, 1)
    evening.publish_evening(t, who=ARBITER)
    assert not Entry.objects.filter(tournament=t, name="Eva Fox").exists()
    assert not Bye.objects.filter(tournament=t, round=2).exists()


def test_the_generic_publish_refuses_an_evening_with_a_board_still_waiting_for_its_result(
    regulars: Club,
) -> None:
    """The tournament's own page offers "Publish and rate" for an evening too: it must not rate
    an evening whose paired boards have no result (their games would simply be missing)."""
    t = _start(regulars, REGULARS)
    evening.pair_next_round(t, who=ARBITER)
    first, *_ = _boards(t, 1)
    evening.enter_result(first, "1-0", who=ARBITER)
    with pytest.raises(Refused, match="round 1 board 2 has no result yet"):
        publish(t, who=ARBITER)
    t.refresh_from_db()
    assert (
        t.status == TournamentStatus.DRAFT
        and not RatingChange.objects.filter(tournament=t).exists()
    )
