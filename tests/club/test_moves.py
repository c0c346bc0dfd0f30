"""Moves into stored games: a PGN matched to a tournament's pairings, one game typed."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django_tasks_db.models import DBTaskResult

from clubrating.club.store.models import AuditEntry, Club, CurrentRating, Entry, Game, Tournament
from clubrating.club.services.moves import (
    NeedsConfirmation,
    Status,
    Undecided,
    attach_pgn_moves,
    attach_typed_moves,
    plan_pgn_moves,
)
from clubrating.errors import InputError, Refused
from clubrating.formats.movetext import MoveError
from clubrating.formats.pgn import read_pgn

from .conftest import ARBITER, make_record
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services.clubs import create_club
from clubrating.club.services.names import accept_exact, all_new_members, link
from clubrating.club.services.tournaments import import_tournament, publish

DAY = dt.date(2026, 3, 3)
PLAYERS = ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"]
RESULTS = [
    (1, "Anna Berg", "Ben Cole", "1-0"),
    (1, "Cara Dunn", "Dan Eng", "0-1"),
    (2, "Dan Eng", "Anna Berg", "="),
]
LEGAL = "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"
FOOL = (
    "1. f3 { [%clk 0:09:58] } e5 { [%clk 0:09:57] } 2. "
    "g4 { [%clk 0:09:50] } Qh4# { [%clk 0:09:55] } 0-1"
)
RUY = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1/2-1/2"


def pgn_game(round_: str, white: str, black: str, result: str, moves: str, **tags: str) -> str:
    head = {
        "Event": "Tuesday evening",
        "Site": "Club",
        "Date": "2026.03.03",
        "Round": round_,
        "White": white,
        "Black": black,
        "Result": result,
        "TimeControl": "600",
        **tags,
    }
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{moves}\n\n"


THE_FILE = (
    pgn_game("1.1", "Anna Berg", "Ben Cole", "1-0", LEGAL, WhiteElo="1900")
    + pgn_game("1.2", "Cara Dunn", "Dan Eng", "0-1", FOOL)
    + pgn_game("2.1", "Dan Eng", "Anna Berg", "1/2-1/2", RUY)
)


def record_of(text: str, name: str = "moves.pgn"):
    return read_pgn(io.StringIO(text), name)


def results_only(club: Club, *, published: bool = True) -> Tournament:
    record = make_record("Tuesday evening", DAY, PLAYERS, RESULTS)
    tournament = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    accept_exact(tournament, who=ARBITER)
    all_new_members(tournament, who=ARBITER)
    if published:
        publish(tournament, who=ARBITER)
    tournament.refresh_from_db()
    return tournament


def stored(tournament: Tournament) -> dict[tuple[int, str], tuple[str, dict[str, str], str]]:
    return {
        (g.round, g.white.name): (g.moves, g.headers, game_result_text(g))
        for g in Game.objects.filter(tournament=tournament).select_related("white", "black")
    }


def test_a_pgn_of_a_tournament_stores_what_a_pgn_import_of_it_stores(club) -> None:
    tournament = results_only(club)
    outcome, plan = attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    assert [g.status for g in plan.games] == [Status.EXACT] * 3
    assert str(outcome) == "moves of 3 games stored"
    other = create_club("Other club", who=ARBITER)
    imported = import_tournament(other, record_of(THE_FILE), who=ARBITER, today=dt.date(2030, 1, 1))
    assert stored(tournament) == stored(imported)
    moves, headers, _ = stored(tournament)[1, "Anna Berg"]
    assert "WhiteElo" not in headers and headers["TimeControl"] == "600" and moves == LEGAL
    assert "[%clk 0:09:58]" in stored(tournament)[1, "Cara Dunn"][0]
    assert AuditEntry.objects.filter(club=club, action="attach-moves").count() == 3


def test_a_misspelled_name_is_a_proposal_and_nothing_is_stored_until_it_is_accepted(club) -> None:
    tournament = results_only(club)
    text = THE_FILE.replace('[White "Cara Dunn"]', '[White "Kara Dun"]')
    plan = plan_pgn_moves(tournament, record_of(text))
    proposal = plan.games[1]
    assert (
        proposal.status == Status.PROPOSAL and "'Kara Dun' is 'Cara Dunn'?" in proposal.reasons[0]
    )
    with pytest.raises(Undecided, match="1 name proposal to confirm"):
        attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    assert all(moves == "" for moves, _, _ in stored(tournament).values())  # all or nothing
    attach_pgn_moves(tournament, record_of(text), who=ARBITER, accept=[2])
    assert stored(tournament)[1, "Cara Dunn"][0] == FOOL
    entry = AuditEntry.objects.get(club=club, action="attach-moves", target__contains="Cara Dunn")
    assert "Kara Dun" in entry.summary


def test_a_game_matching_no_pairing_is_listed_and_not_stored(club) -> None:
    tournament = results_only(club)
    text = THE_FILE + pgn_game("3", "Anna Berg", "Cara Dunn", "1-0", LEGAL)  # no round 3 stored
    outcome, plan = attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    assert plan.games[3].status == Status.UNMATCHED
    assert "1 game of the file not stored" in str(outcome)
    assert sum(1 for moves, _, _ in stored(tournament).values() if moves) == 3


def test_a_game_without_round_is_matched_by_its_players_two_games_of_one_pairing_neither_stored(
    club,
):
    tournament = results_only(club)
    text = (
        pgn_game("?", "Dan Eng", "Anna Berg", "1/2-1/2", RUY)
        + pgn_game("?", "Anna Berg", "Ben Cole", "1-0", LEGAL)
        + pgn_game("?", "Anna Berg", "Ben Cole", "1-0", LEGAL)
    )
    _, plan = attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    assert [g.status for g in plan.games] == [Status.EXACT, Status.TWICE, Status.TWICE]
    assert (
        stored(tournament)[2, "Dan Eng"][0] == RUY and stored(tournament)[1, "Anna Berg"][0] == ""
    )


def test_a_differing_result_waits_then_its_moves_are_dropped_or_the_result_corrected(club) -> None:
    tournament = results_only(club)
    text = THE_FILE.replace('"1/2-1/2"]', '"0-1"]').replace("dxc6 1/2-1/2", "dxc6 0-1")
    plan = plan_pgn_moves(tournament, record_of(text))
    assert [g.index for g in plan.differing] == [3] and plan.games[2].stored_result == "1/2-1/2"
    with pytest.raises(Undecided, match="1 result differing"):
        attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    with pytest.raises(InputError, match="not both"):
        attach_pgn_moves(tournament, record_of(text), who=ARBITER, correct=True, drop=True)
    assert all(moves == "" for moves, _, _ in stored(tournament).values())
    before = {r.member.name: r.rating for r in CurrentRating.objects.filter(member__club=club)}
    outcome, _ = attach_pgn_moves(tournament, record_of(text), who=ARBITER, correct=[3])
    assert "1 result corrected" in str(outcome)
    assert stored(tournament)[2, "Dan Eng"][2] == "0-1"
    after = {r.member.name: r.rating for r in CurrentRating.objects.filter(member__club=club)}
    assert after["Anna Berg"] > before["Anna Berg"]  # the full replay ran
    assert AuditEntry.objects.filter(club=club, action="correct-result").count() == 1


def test_dropping_a_differing_games_moves_is_audited_and_keeps_the_result(club) -> None:
    tournament = results_only(club)
    text = THE_FILE.replace('"1/2-1/2"]', '"0-1"]').replace("dxc6 1/2-1/2", "dxc6 0-1")
    outcome, _ = attach_pgn_moves(tournament, record_of(text), who=ARBITER, drop=True)
    assert "moves of 1 game dropped" in str(outcome)
    assert stored(tournament)[2, "Dan Eng"] == ("", {}, "1/2-1/2")
    assert AuditEntry.objects.filter(club=club, action="drop-moves").count() == 1


def test_a_stored_game_with_moves_keeps_them(club) -> None:
    tournament = results_only(club)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    _, plan = attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    assert [g.status for g in plan.games] == [Status.HAS_MOVES] * 3


def test_a_member_known_under_another_spelling_is_matched_exactly(club) -> None:
    tournament = results_only(club)
    old = make_record(
        "Older",
        dt.date(2026, 2, 1),
        ["A. Bergström", "Ben Cole"],
        [(1, "A. Bergström", "Ben Cole", "1-0")],
    )
    older = import_tournament(club, old, who=ARBITER, today=dt.date(2030, 1, 1))
    anna = Entry.objects.get(tournament=tournament, name="Anna Berg").member
    link(Entry.objects.get(tournament=older, name="A. Bergström"), anna, who=ARBITER)
    text = pgn_game("1", "A. Bergström", "Ben Cole", "1-0", LEGAL)
    assert plan_pgn_moves(tournament, record_of(text)).games[0].status == Status.EXACT


@pytest.mark.django_db(transaction=True)
def test_moves_attached_to_a_published_tournament_queue_its_analysis(club) -> None:
    tournament = results_only(club)
    assert not DBTaskResult.objects.exists()  # results only: nothing to analyse
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    queued = DBTaskResult.objects.get()
    assert queued.status == "READY" and queued.args_kwargs["args"] == [tournament.id]


@pytest.mark.django_db(transaction=True)
def test_moves_of_a_draft_queue_nothing_until_it_is_published(club) -> None:
    tournament = results_only(club, published=False)
    attach_pgn_moves(tournament, record_of(THE_FILE), who=ARBITER)
    assert not DBTaskResult.objects.exists()
    publish(tournament, who=ARBITER)
    assert DBTaskResult.objects.count() == 1


# --- one game typed ---------------------------------------------------------------------------


def game_of(tournament: Tournament, round_: int, white: str) -> Game:
    return Game.objects.select_related("white", "black", "tournament").get(
        tournament=tournament, round=round_, white__name=white
    )


def test_typed_moves_are_stored_as_a_pgn_import_stores_them(club) -> None:
    tournament = results_only(club)
    outcome = attach_typed_moves(
        game_of(tournament, 2, "Dan Eng"), "е4 е5 Кf3 Кс6 Сb5 а6 С:c6 d:c6", who=ARBITER
    )
    assert str(outcome) == "round 2 Dan Eng - Anna Berg: 8 half-moves stored"
    moves, headers, _ = stored(tournament)[2, "Dan Eng"]
    assert moves == RUY
    assert headers == {
        "Event": "Tuesday evening",
        "Site": "?",
        "Date": "2026.03.03",
        "Round": "2",
        "White": "Dan Eng",
        "Black": "Anna Berg",
        "Result": "1/2-1/2",
    }
    assert AuditEntry.objects.filter(
        club=club, action="attach-moves", target__contains="round 2"
    ).exists()


def test_an_illegal_typed_move_stores_nothing(club) -> None:
    tournament = results_only(club)
    with pytest.raises(MoveError, match=r"move 2 \(White\) 'Ke3'"):
        attach_typed_moves(game_of(tournament, 2, "Dan Eng"), "1. e4 e5 2. Ke3", who=ARBITER)
    assert stored(tournament)[2, "Dan Eng"][0] == ""


def test_typed_moves_ending_in_mate_against_the_winner_need_the_arbiters_confirmation(club) -> None:
    tournament = results_only(club)
    game = game_of(tournament, 1, "Anna Berg")  # stored 1-0
    with pytest.raises(NeedsConfirmation, match="mate by Black"):
        attach_typed_moves(game, "f3 e5 g4 Qh4#", who=ARBITER)
    assert stored(tournament)[1, "Anna Berg"][0] == ""
    attach_typed_moves(game, "f3 e5 g4 Qh4#", who=ARBITER, confirm=True)
    assert stored(tournament)[1, "Anna Berg"][0] == "1. f3 e5 2. g4 Qh4# 1-0"
    entry = AuditEntry.objects.get(club=club, action="attach-moves")
    assert "mate by Black" in entry.summary


def test_typed_moves_for_a_game_with_moves_or_not_played_are_refused(club) -> None:
    record = make_record("Forfeits", DAY, PLAYERS[:2], [(1, "Anna Berg", "Ben Cole", "+-")])
    tournament = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    with pytest.raises(Refused, match="not played"):
        attach_typed_moves(game_of(tournament, 1, "Anna Berg"), "e4 e5", who=ARBITER)
    evening = results_only(club)
    attach_typed_moves(game_of(evening, 2, "Dan Eng"), "e4 e5", who=ARBITER)
    with pytest.raises(Refused, match="has its moves already"):
        attach_typed_moves(game_of(evening, 2, "Dan Eng"), "d4 d5", who=ARBITER)


def test_a_pgn_with_few_tags_and_no_date_is_matched_all_the_same(club) -> None:
    tournament = results_only(club)
    text = (
        '[Event "?"]\n[Round "1"]\n[White "Anna Berg"]\n[Black '
        '"Ben Cole"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'
    )
    outcome, plan = attach_pgn_moves(tournament, record_of(text), who=ARBITER)
    assert str(outcome) == "moves of 1 game stored"
    assert stored(tournament)[1, "Anna Berg"][0] == "1. e4 e5 2. Nf3 Nc6 1-0"
