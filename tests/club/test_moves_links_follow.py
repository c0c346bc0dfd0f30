"""The moves links follow their game through the arbiter's pairing changes: a swap of colours
keeps each link its player's (and their waiting moves their side); pairing the round again or
exchanging players revokes the links of players no longer paired together and sets their
waiting moves aside with the reason."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.club.services import evening
from clubrating.club.services import pairing_changes
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    EveningBoard,
    MovesLink,
    MovesSubmission,
    SubmissionReason,
)
from clubrating.club.services import moves_links as ml
from clubrating.errors import NotFound

from .conftest import ARBITER, REGULARS
from .test_pairing_changes import _entry, _start

NOW = dt.datetime(2024, 3, 5, 19, 0, tzinfo=dt.UTC)
ITALIAN = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"


def _links(t: object, rnd: int = 1) -> list[ml.IssuedLink]:
    return ml.issue_links(t, rnd, who=ARBITER, now=NOW)  # type: ignore[arg-type]


def test_swapping_colours_keeps_each_link_its_players_and_their_moves_agree_with_the_other_side(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS)
    issued = _links(t)
    first_white, first_black = issued[0].link, issued[1].link
    ml.submit(first_white, ITALIAN, device="phone 1", now=NOW)  # sent while its player has white
    board = EveningBoard.objects.get(tournament=t, round=1, board=1)
    said = pairing_changes.swap_colours(board, who=ARBITER)
    assert "the moves links follow their players" in str(said)
    now_black = MovesLink.objects.get(id=first_white.id)
    assert (
        now_black.player_id == first_white.player_id and now_black.colour == ml.WHITE
    )  # as printed
    assert (
        ml.side_of(now_black) == ml.BLACK
        and ml.side_of(MovesLink.objects.get(id=first_black.id)) == ml.WHITE
    )
    assert list(MovesSubmission.objects.values_list("side", flat=True)) == [ml.BLACK]
    ml.submit(
        MovesLink.objects.get(id=first_black.id), ITALIAN, device="phone 2", now=NOW
    )  # the other player, white now
    said = evening.enter_result(EveningBoard.objects.get(id=board.id), "1-0", who=ARBITER)
    assert "the players' agreeing moves stored" in str(said)
    assert set(MovesSubmission.objects.values_list("reason", flat=True)) == {
        SubmissionReason.WITH_RESULT
    }
    assert AuditEntry.objects.filter(action="moves-links-follow").count() == 1


def test_pairing_the_round_again_keeps_the_links_of_the_same_boards_working(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    issued = _links(t)
    ml.submit(issued[0].link, ITALIAN, device="phone", now=NOW)
    said = pairing_changes.repair_round(t, who=ARBITER)
    assert "the same boards" in str(said) and "revoked" not in str(said)
    for i in issued:
        link = ml.open_link(i.token, now=NOW)
        board = link.evening_board
        assert board is not None and link.player_id == i.link.player_id in (
            board.white_id,
            board.black_id,
        )
        assert {board.white.name, board.black.name} == {i.white, i.black}
    assert MovesSubmission.objects.get().state == ml.PENDING


def test_pairing_the_round_again_revokes_the_links_of_players_no_longer_paired_together(
    regulars: Club,
) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox"])
    issued = _links(t)
    gone = issued[0]  # board 1's white player withdraws
    ml.submit(gone.link, ITALIAN, device="phone", now=NOW)
    evening.withdraw(_entry(t, gone.player), who=ARBITER)
    said = pairing_changes.repair_round(t, who=ARBITER)
    assert "moves links revoked (their players no longer play each other)" in str(said)
    for i in issued[:2]:  # board 1's two players no longer meet
        with pytest.raises(NotFound):
            ml.open_link(i.token, now=NOW)
    assert MovesLink.objects.get(id=gone.link.id).evening_board is None
    assert list(MovesSubmission.objects.values_list("state", "reason")) == [
        (ml.SET_ASIDE, SubmissionReason.PAIRING_CHANGED)
    ]
    entry = AuditEntry.objects.get(action="moves-links-follow")
    assert entry.new["revoked"] >= 2 and entry.new["kept"] + entry.new["revoked"] == 4


def test_exchanging_two_players_revokes_the_links_of_both_boards(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    issued = _links(t)
    one, other = (
        _entry(t, issued[0].player),
        _entry(t, issued[2].player),
    )  # the two boards' white players
    said = pairing_changes.exchange_players(t, one, other, who=ARBITER, confirm_rematch=True)
    assert "4 moves links revoked" in str(said)
    assert MovesLink.objects.filter(revoked=None).count() == 0
