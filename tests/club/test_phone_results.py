"""Results from the players' phones (SQLite and PostgreSQL): White's and Black's agreeing results
entered as if the arbiter had typed them, audited as the players', correctable by the arbiter;
anything else waiting for the arbiter with every answer shown; and what an attacker would try:
one device for both players, a link of another board, a result after publication, replays, a
result the arbiter entered, a forfeit."""

from __future__ import annotations

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    EveningBoard,
    Game,
    MovesSubmission,
    ResultSubmission,
    SubmissionReason,
    Tournament,
)
from clubrating.club.services import moves_links as ml
from clubrating.club.services import phone_results as pr
from clubrating.errors import NotFound, Refused
from clubrating.formats.movetext import MoveError

from .conftest import ARBITER
from .test_moves_links import (
    BLACK_PHONE,
    ITALIAN,
    NOW,
    THIRD_PHONE,
    WHITE_PHONE,
    _evening_round,
    board_links,
)
from clubrating.club.read.tournaments import game_result_text


def _board(link: ml.MovesLink) -> EveningBoard:
    return EveningBoard.objects.select_related("game").get(id=link.evening_board_id)


def _result(link: ml.MovesLink) -> str | None:
    game = _board(link).game
    return None if game is None else game_result_text(game)


def test_whites_and_blacks_agreeing_results_are_entered_as_the_arbiter_would_and_audited_as_theirs(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    said = pr.submit_result(white, "1-0", device=WHITE_PHONE, now=NOW)
    assert "when your opponent sends the same" in str(said) and _result(white) is None
    said = pr.submit_result(black, "1-0", device=BLACK_PHONE, now=NOW)
    assert "agreeing with your opponent's: entered" in str(said)
    assert _result(white) == "1-0"
    entry = AuditEntry.objects.get(club=club, action="evening-result")
    assert entry.who == ml.PLAYERS and entry.new == {"result": "1-0"}
    assert AuditEntry.objects.filter(club=club, action="phone-result").count() == 2
    assert set(ResultSubmission.objects.values_list("state", "reason")) == {
        (ml.ACCEPTED, SubmissionReason.RESULTS_AGREED)
    }
    said = evening.enter_result(_board(white), "1/2-1/2", who=ARBITER)  # the arbiter corrects it
    assert "1-0 -> 1/2-1/2" in str(said) and _result(white) == "1/2-1/2"
    correction = AuditEntry.objects.filter(club=club, action="evening-result").first()
    assert correction is not None and correction.who == ARBITER
    assert correction.old == {"result": "1-0"}


def test_results_that_differ_wait_for_the_arbiter_with_both_shown_until_the_result_is_entered(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    pr.submit_result(white, "1-0", device=WHITE_PHONE, now=NOW)
    said = pr.submit_result(black, "0-1", device=BLACK_PHONE, now=NOW)
    assert "your opponent sent another result" in str(said) and _result(white) is None
    shown = pr.answers_of_round(t, 1)[white.evening_board_id]
    assert [(a.side, a.result) for a in shown] == [(ml.WHITE, "1-0"), (ml.BLACK, "0-1")]
    evening.enter_result(_board(white), "0-1", who=ARBITER)
    assert pr.answers_of_round(t, 1) == {}
    assert set(ResultSubmission.objects.values_list("state", "reason")) == {
        (ml.SUPERSEDED, SubmissionReason.RESULT_ENTERED)
    }
    assert AuditEntry.objects.get(club=club, action="evening-result").who == ARBITER


def test_one_device_sending_both_players_results_never_agrees_and_the_arbiter_sees_why(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    pr.submit_result(white, "1-0", device=THIRD_PHONE, now=NOW)
    said = pr.submit_result(black, "1-0", device=THIRD_PHONE, now=NOW)
    assert "both sides were sent from one device" in str(said) and _result(white) is None
    shown = pr.answers_of_round(t, 1)[white.evening_board_id]
    assert {a.why for a in shown} == {ml.ONE_DEVICE}


def test_a_link_in_use_on_another_device_does_not_vouch_for_its_player(club: Club) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    assert ml.open_on(white, WHITE_PHONE)  # the player's phone opened it first
    said = pr.submit_result(white, "0-1", device=THIRD_PHONE, now=NOW)  # the opponent, say
    assert "in use on another device" in str(said)
    pr.submit_result(black, "0-1", device=BLACK_PHONE, now=NOW)
    assert _result(white) is None
    assert ml.OTHER_DEVICE in {a.why for a in pr.answers_of_round(t, 1)[white.evening_board_id]}


def test_a_link_of_another_board_agrees_with_nothing_here(club: Club) -> None:
    t = _evening_round(club)
    issued = ml.issue_links(t, 1, who=ARBITER, now=NOW)
    white_of_1, black_of_2 = issued[0].link, issued[3].link
    pr.submit_result(white_of_1, "1-0", device=WHITE_PHONE, now=NOW)
    pr.submit_result(black_of_2, "1-0", device=BLACK_PHONE, now=NOW)
    assert _result(white_of_1) is None and _result(black_of_2) is None
    assert not Game.objects.filter(tournament=t).exists()


def test_a_replayed_result_is_one_side_agreeing_with_itself_and_refused_once_entered(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    for _ in range(3):
        pr.submit_result(white, "1-0", device=WHITE_PHONE, now=NOW)
    assert _result(white) is None
    pr.submit_result(black, "1-0", device=BLACK_PHONE, now=NOW)
    assert _result(white) == "1-0"
    count = ResultSubmission.objects.count()
    for link, phone in ((black, BLACK_PHONE), (white, WHITE_PHONE)):
        with pytest.raises(Refused, match="entered already"):
            pr.submit_result(link, "0-1", device=phone, now=NOW)
    assert ResultSubmission.objects.count() == count and _result(white) == "1-0"
    assert AuditEntry.objects.filter(club=club, action="evening-result").count() == 1


def test_a_result_the_arbiter_entered_is_never_overwritten_by_phones(club: Club) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    evening.enter_result(_board(white), "1/2-1/2", who=ARBITER)
    for link, phone in ((white, WHITE_PHONE), (black, BLACK_PHONE)):
        with pytest.raises(Refused, match=r"entered already \(1/2-1/2\)"):
            pr.submit_result(link, "1-0", device=phone, now=NOW)
    assert _result(white) == "1/2-1/2" and not ResultSubmission.objects.exists()


def test_a_result_after_publication_is_refused_and_stores_nothing(club: Club) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    for board in EveningBoard.objects.filter(tournament=t):
        evening.enter_result(board, "1-0", who=ARBITER)
    evening.publish_evening(Tournament.objects.get(id=t.id), who=ARBITER)
    audit = AuditEntry.objects.count()
    with pytest.raises(Refused, match="published"):
        pr.submit_result(black, "0-1", device=BLACK_PHONE, now=NOW)
    assert not ResultSubmission.objects.exists() and AuditEntry.objects.count() == audit


@pytest.mark.parametrize("sent", ["+-", "-+", "--", "2-0", "", "1-0; DROP TABLE", "1" * 10_000])
def test_a_phone_sends_only_a_played_result_and_anything_else_stores_nothing(
    club: Club, sent: str
) -> None:
    t = _evening_round(club)
    white, _ = board_links(t)
    with pytest.raises(Refused, match="1-0, 0-1 or 1/2-1/2"):
        pr.submit_result(white, sent, device=WHITE_PHONE, now=NOW)
    assert not ResultSubmission.objects.exists() and _result(white) is None


def test_a_revoked_link_takes_no_result(club: Club) -> None:
    t = _evening_round(club)
    white, _ = board_links(t)
    ml.revoke_link(white, who=ARBITER, now=NOW)
    with pytest.raises(NotFound):
        pr.submit_result(white, "1-0", device=WHITE_PHONE, now=NOW)
    assert not ResultSubmission.objects.exists()


def test_moves_and_result_sent_together_are_entered_together_when_both_players_agree(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    pr.submit_from_phone(white, ITALIAN, "1/2-1/2", device=WHITE_PHONE, now=NOW)
    said = pr.submit_from_phone(black, ITALIAN, "1/2-1/2", device=BLACK_PHONE, now=NOW)
    assert "entered, with the moves" in str(said)
    game = _board(white).game
    assert game is not None and game.moves == f"{ITALIAN} 1/2-1/2"
    assert set(MovesSubmission.objects.values_list("reason", flat=True)) == {
        SubmissionReason.WITH_RESULT
    }


def test_an_illegal_move_sent_with_a_result_keeps_neither(club: Club) -> None:
    t = _evening_round(club)
    white, _ = board_links(t)
    with pytest.raises(MoveError):
        pr.submit_from_phone(white, "1. e4 e5 2. Ke3", "1-0", device=WHITE_PHONE, now=NOW)
    assert not ResultSubmission.objects.exists() and not MovesSubmission.objects.exists()
    with pytest.raises(Refused, match="nothing was sent"):
        pr.submit_from_phone(white, "  ", "", device=WHITE_PHONE, now=NOW)


def test_a_player_who_sends_again_changed_their_mind_and_only_the_last_answer_counts(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    pr.submit_result(white, "1-0", device=WHITE_PHONE, now=NOW)
    pr.submit_result(white, "0-1", device=WHITE_PHONE, now=NOW)  # a slip of the finger, put right
    said = pr.submit_result(black, "1-0", device=BLACK_PHONE, now=NOW)
    assert "your opponent sent another result" in str(said) and _result(white) is None
    shown = pr.answers_of_round(t, 1)[white.evening_board_id]
    assert [(a.side, a.result) for a in shown] == [(ml.WHITE, "0-1"), (ml.BLACK, "1-0")]
    pr.submit_result(black, "0-1", device=BLACK_PHONE, now=NOW)
    assert _result(white) == "0-1"
