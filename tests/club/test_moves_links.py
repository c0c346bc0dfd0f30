"""Players enter their own game through a moves link: issued to each player of a board, hashed,
expiring, revocable; White's and Black's agreeing submissions stored at once, others kept for
the arbiter."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.utils import timezone

from clubrating.club.services import evening
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    EveningBoard,
    Game,
    MovesAttempt,
    MovesLink,
    MovesSubmission,
    SubmissionReason,
    Tournament,
)
from clubrating.club.services import moves_links as ml
from clubrating.club.services.moves import attach_typed_moves
from clubrating.errors import NotFound, Refused
from clubrating.formats.movetext import MoveError

from .conftest import ARBITER
from .test_moves import results_only
from clubrating.club.services.names import accept_exact, all_new_members

NOW = dt.datetime(2026, 3, 3, 21, 0, tzinfo=dt.UTC)
ITALIAN = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"
WHITE_PHONE, BLACK_PHONE, THIRD_PHONE = (
    "w" * 22,
    "b" * 22,
    "t" * 22,
)  # the devices' ids (their cookies)


def _evening_round(club: Club) -> Tournament:
    t = evening.start_evening(
        club, "Tuesday Swiss", dt.date(2026, 3, 3), 3, who=ARBITER, today=dt.date(2026, 3, 3)
    )
    for name in ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"]:
        evening.register(t, name, who=ARBITER)
    accept_exact(t, who=ARBITER)
    all_new_members(t, who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    return t


def board_links(t: Tournament, round_: int = 1) -> tuple[MovesLink, MovesLink]:
    """Board 1's two links, White's and Black's, printed now."""
    issued = ml.issue_links(t, round_, who=ARBITER, now=NOW)
    return issued[0].link, issued[1].link


def test_a_link_is_128_random_bits_stored_only_as_its_sha256_and_expires_after_the_clubs_days(
    club: Club,
) -> None:
    t = results_only(club)
    issued = ml.issue_links(t, 1, who=ARBITER, now=NOW)
    assert len(issued) == 4 and len({i.token for i in issued}) == 4  # two boards, a link per player
    first = issued[0]
    assert (
        len(first.token) >= 22 and first.path == f"/m/{first.token}/"
    )  # 16 bytes of token_urlsafe
    stored = MovesLink.objects.get(id=first.link.id)
    assert stored.token_hash == hashlib.sha256(first.token.encode()).hexdigest()
    assert not MovesLink.objects.filter(token_hash__contains=first.token).exists()
    assert stored.expires == NOW + dt.timedelta(days=14)
    assert ml.open_link(first.token, now=NOW + dt.timedelta(days=13)).id == stored.id
    with pytest.raises(NotFound, match="expired or revoked"):
        ml.open_link(first.token, now=NOW + dt.timedelta(days=14))
    with pytest.raises(NotFound):
        ml.open_link(first.token[:-1] + ("A" if first.token[-1] != "A" else "B"), now=NOW)


def test_the_clubs_setting_sets_the_lifetime_and_printing_again_revokes_the_earlier_link(
    club: Club,
) -> None:
    from clubrating.club.services import club_settings

    club_settings.change_settings(
        club, club_settings.parse_settings({"moves-link-days": "3"}), who=ARBITER
    )
    t = results_only(club)
    old = ml.issue_links(t, 1, who=ARBITER, now=NOW)[0]
    new = ml.issue_links(t, 1, who=ARBITER, now=NOW)[0]
    assert new.link.expires == NOW + dt.timedelta(days=3)
    with pytest.raises(NotFound):
        ml.open_link(old.token, now=NOW)
    ml.revoke_link(ml.open_link(new.token, now=NOW), who=ARBITER, now=NOW)
    with pytest.raises(NotFound):
        ml.open_link(new.token, now=NOW)
    assert AuditEntry.objects.filter(club=club, action="moves-link-revoke").count() == 1


def test_each_player_of_a_board_gets_a_link_of_their_own_with_the_colour_printed(
    club: Club,
) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    assert (white.player_id, white.colour, black.player_id, black.colour) == (
        game.white_id,
        ml.WHITE,
        game.black_id,
        ml.BLACK,
    )
    assert black.game_id == game.id and white.token_hash != black.token_hash


def test_whites_and_blacks_agreeing_submissions_are_stored_at_once_as_entered_by_the_players(
    club: Club,
) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    said = ml.submit(white, "1.e4 e5 2.Кf3 Кc6 3.Сc4 Сc5", device=WHITE_PHONE, now=NOW)
    assert "the arbiter checks them" in str(said)
    game.refresh_from_db()
    assert game.moves == ""  # one submission stores nothing
    said = ml.submit(
        black, "e4 1:29 e5 Nf3 Nc6 Bc4 Bc5", device=BLACK_PHONE, now=NOW
    )  # the other player, with a clock
    assert "stored" in str(said)
    game.refresh_from_db()
    assert game.moves == f"{ITALIAN} 1-0"
    entry = AuditEntry.objects.get(club=club, action="attach-moves")
    assert entry.who == ml.PLAYERS
    assert sorted(MovesSubmission.objects.values_list("side", "state", "reason")) == [
        (ml.BLACK, ml.ACCEPTED, SubmissionReason.BOTH_SIDES),
        (ml.WHITE, ml.ACCEPTED, SubmissionReason.BOTH_SIDES),
    ]
    with pytest.raises(Refused, match="stored already"):
        ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)


def test_the_same_side_sending_twice_does_not_agree_with_itself(club: Club) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    said = ml.submit(
        white, "e4 e5 Nf3 Nc6 Bc4 Bc5", device=WHITE_PHONE, now=NOW
    )  # one phone, twice
    assert "the arbiter checks them" in str(said)
    game.refresh_from_db()
    assert game.moves == "" and [s.side for s in ml.pending_for(game)] == [ml.WHITE, ml.WHITE]
    ml.submit(
        black, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5", device=BLACK_PHONE, now=NOW
    )  # then Black agrees
    game.refresh_from_db()
    assert game.moves == f"{ITALIAN} 1-0"
    assert sorted(MovesSubmission.objects.values_list("state", "reason")) == [
        (ml.ACCEPTED, SubmissionReason.BOTH_SIDES),
        (ml.ACCEPTED, SubmissionReason.BOTH_SIDES),
        (ml.SET_ASIDE, SubmissionReason.OTHER_ACCEPTED),
    ]


def test_a_link_made_before_links_were_per_player_counts_for_either_side_and_waits_for_the_arbiter(
    club: Club,
) -> None:
    t = results_only(club)
    white, _ = board_links(t)
    MovesLink.objects.filter(id=white.id).update(player=None, colour="")  # as migrated: no player
    old = MovesLink.objects.get(id=white.id)
    game = Game.objects.get(id=old.game_id)
    ml.submit(old, ITALIAN, device=WHITE_PHONE, now=NOW)
    said = ml.submit(old, ITALIAN, device=WHITE_PHONE, now=NOW)
    assert "through a link of either player" in str(said)
    game.refresh_from_db()
    assert game.moves == "" and [s.side for s in ml.pending_for(game)] == [ml.EITHER, ml.EITHER]
    ml.accept_submission(ml.pending_for(game)[1], who=ARBITER)
    game.refresh_from_db()
    assert game.moves == f"{ITALIAN} 1-0"
    assert list(MovesSubmission.objects.values_list("state", "reason")) == [
        (ml.SET_ASIDE, SubmissionReason.OTHER_ACCEPTED),
        (ml.ACCEPTED, SubmissionReason.ARBITER),
    ]
    accepted = AuditEntry.objects.get(club=club, action="moves-accept")
    assert accepted.who == ARBITER and accepted.new["side"] == "either"


def test_two_differing_submissions_wait_and_the_arbiter_sees_where_they_part_and_picks_one(
    club: Club,
) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    ml.submit(black, "1. e4 e5 2. Nf3 Nc6 3. Bb5", device=BLACK_PHONE, now=NOW)
    game.refresh_from_db()
    assert game.moves == ""
    one, other = ml.pending_for(game)
    assert str(ml.first_difference(one.moves, other.moves)) == "move 3 (White): Bc4 / Bb5"
    ml.accept_submission(other, who=ARBITER)
    game.refresh_from_db()
    assert game.moves == "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0"
    assert ml.pending_for(game) == []
    assert MovesSubmission.objects.get(id=one.id).state == ml.SET_ASIDE
    assert MovesSubmission.objects.get(id=other.id).reason == SubmissionReason.ARBITER


def test_an_illegal_move_keeps_nothing(club: Club) -> None:
    t = results_only(club)
    link = ml.issue_links(t, 1, who=ARBITER, now=NOW)[0].link
    with pytest.raises(MoveError, match="move 2"):
        ml.submit(link, "1. e4 e5 2. Ke3", device=WHITE_PHONE, now=NOW)
    assert not MovesSubmission.objects.exists()


def test_an_evening_boards_link_works_before_its_result_and_its_moves_wait_for_it(
    club: Club,
) -> None:
    t = _evening_round(club)
    issued = ml.issue_links(t, 1, who=ARBITER, now=NOW)
    assert [(i.link.board, i.link.colour) for i in issued] == [
        (1, ml.WHITE),
        (1, ml.BLACK),
        (2, ml.WHITE),
        (2, ml.BLACK),
    ]
    white, black = issued[0].link, issued[1].link
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    said = ml.submit(black, ITALIAN, device=BLACK_PHONE, now=NOW)
    assert "result is not entered yet" in str(said)
    board = EveningBoard.objects.get(id=white.evening_board_id)
    said = evening.enter_result(board, "1/2-1/2", who=ARBITER)
    assert "the players' agreeing moves stored" in str(said)  # accepted when the result comes
    board.refresh_from_db()
    game = Game.objects.get(id=board.game_id)
    assert game.moves == f"{ITALIAN} 1/2-1/2" and ml.pending_for(game) == []
    assert AuditEntry.objects.get(club=club, action="attach-moves").who == ml.PLAYERS
    assert set(MovesSubmission.objects.values_list("reason", flat=True)) == {
        SubmissionReason.WITH_RESULT
    }


def test_one_side_sending_twice_before_the_result_is_not_stored_with_it(club: Club) -> None:
    t = _evening_round(club)
    white, _ = board_links(t)
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    board = EveningBoard.objects.get(id=white.evening_board_id)
    said = evening.enter_result(board, "1/2-1/2", who=ARBITER)
    assert "moves" not in str(said)
    game = Game.objects.get(id=EveningBoard.objects.get(id=board.id).game_id)
    assert game.moves == "" and len(ml.pending_for(game)) == 2


def test_agreeing_moves_ending_against_the_result_entered_later_wait_for_the_arbiter(
    club: Club,
) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    mate = "1. f3 e5 2. g4 Qh4#"
    ml.submit(white, mate, device=WHITE_PHONE, now=NOW)
    ml.submit(black, mate, device=BLACK_PHONE, now=NOW)
    board = EveningBoard.objects.get(id=white.evening_board_id)
    said = evening.enter_result(board, "1-0", who=ARBITER)  # White "won" a game Black mated in
    assert "wait for the arbiter" in str(said)
    game = Game.objects.get(id=EveningBoard.objects.get(id=board.id).game_id)
    assert game.moves == "" and len(ml.pending_for(game)) == 2


def test_a_links_own_device_and_the_other_devices_have_separate_throttles(club: Club) -> None:
    t = results_only(club)
    link = ml.issue_links(t, 1, who=ARBITER, now=NOW)[0].link
    assert not any(ml.submission_throttled(link, own=False, now=NOW) for _ in range(ml.PER_LINK))
    assert ml.submission_throttled(
        link, own=False, now=NOW
    )  # the other devices have had their tries
    assert not any(
        ml.submission_throttled(link, own=True, now=NOW) for _ in range(ml.PER_LINK)
    )  # the player's own
    assert ml.submission_throttled(link, own=True, now=NOW)
    assert not ml.submission_throttled(
        link, own=True, now=NOW + ml.THROTTLE_WINDOW
    )  # an hour later


def test_guesses_at_unknown_links_are_counted_per_address_and_the_address_is_not_stored(
    club: Club,
) -> None:
    assert not any(ml.guess_throttled("10.0.0.7", now=NOW) for _ in range(ml.GUESSES))
    assert ml.guess_throttled("10.0.0.7", now=NOW)  # that address has had its guesses
    assert not ml.guess_throttled("10.0.0.8", now=NOW)  # another address has its own
    assert not ml.guess_throttled("10.0.0.7", now=NOW + ml.THROTTLE_WINDOW)
    assert not MovesAttempt.objects.filter(
        key__contains="10.0.0"
    ).exists()  # a keyed hash, not the address


def test_one_device_sending_both_sides_never_agrees_and_the_arbiter_sees_why(club: Club) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    ml.submit(white, ITALIAN, device=THIRD_PHONE, now=NOW)
    said = ml.submit(
        black, ITALIAN, device=THIRD_PHONE, now=NOW
    )  # both QR codes scanned by one phone
    assert "both sides were sent from one device" in str(said)
    game.refresh_from_db()
    assert game.moves == ""
    pending = ml.pending_for(game)
    assert ml.waiting_reasons(pending) == {s.id: ml.ONE_DEVICE for s in pending}
    assert (
        MovesLink.objects.get(id=white.id).device == MovesLink.objects.get(id=black.id).device != ""
    )
    assert THIRD_PHONE not in {s.device for s in pending}  # kept as a keyed hash only
    ml.accept_submission(pending[0], who=ARBITER)  # the arbiter decides
    game.refresh_from_db()
    assert game.moves == f"{ITALIAN} 1-0"


def test_a_link_belongs_to_the_device_that_opened_it_first_and_another_devices_moves_wait(
    club: Club,
) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    assert ml.open_on(white, WHITE_PHONE) and not ml.open_on(
        white, BLACK_PHONE
    )  # opened by White, then another
    assert ml.open_on(white, WHITE_PHONE)
    said = ml.submit(
        white, ITALIAN, device=BLACK_PHONE, now=NOW
    )  # the opponent, through White's link
    assert "the link is in use on another device" in str(said)
    ml.submit(black, ITALIAN, device=BLACK_PHONE, now=NOW)  # and through their own
    game.refresh_from_db()
    assert game.moves == ""  # one person vouched for both sides
    reasons = ml.waiting_reasons(ml.pending_for(game))
    assert sorted(reasons.values()) == sorted([ml.OTHER_DEVICE, ml.ONE_DEVICE])
    said = ml.submit(
        white, ITALIAN, device=WHITE_PHONE, now=NOW
    )  # White, from the link's own phone
    assert "agreeing with your opponent's: stored" in str(said)
    assert (
        AuditEntry.objects.filter(club=club, action="moves-link-device").count() == 2
    )  # each link's first opening


def test_the_arbiter_frees_a_link_for_another_phone_and_what_the_first_sent_no_longer_agrees(
    club: Club,
) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    with pytest.raises(Refused, match="not opened on any phone yet"):
        ml.release_device(black, who=ARBITER)
    ml.submit(white, ITALIAN, device=THIRD_PHONE, now=NOW)  # something opened White's link first
    said = ml.release_device(MovesLink.objects.get(id=white.id), who=ARBITER)
    assert "the next phone that opens it is the one it belongs to" in str(said)
    assert ml.open_on(MovesLink.objects.get(id=white.id), WHITE_PHONE)  # now White's phone
    ml.submit(black, ITALIAN, device=BLACK_PHONE, now=NOW)
    game.refresh_from_db()
    assert game.moves == ""  # the first phone's moves agree no more
    assert "agreeing with your opponent's: stored" in str(
        ml.submit(MovesLink.objects.get(id=white.id), ITALIAN, device=WHITE_PHONE, now=NOW)
    )
    entry = AuditEntry.objects.get(club=club, action="moves-link-release")
    assert entry.who == ARBITER and entry.target.startswith(f"tournament {t.id} round 1")


def test_one_device_sending_both_sides_before_the_result_is_not_stored_with_it(club: Club) -> None:
    t = _evening_round(club)
    white, black = board_links(t)
    ml.submit(white, ITALIAN, device=THIRD_PHONE, now=NOW)
    ml.submit(black, ITALIAN, device=THIRD_PHONE, now=NOW)
    board = EveningBoard.objects.get(id=white.evening_board_id)
    said = evening.enter_result(board, "1/2-1/2", who=ARBITER)
    assert "moves" not in str(said)
    game = Game.objects.get(id=EveningBoard.objects.get(id=board.id).game_id)
    assert game.moves == "" and len(ml.pending_for(game)) == 2


def test_submissions_kept_before_devices_were_never_agree(club: Club) -> None:
    t = results_only(club)
    white, black = board_links(t)
    game = Game.objects.get(id=white.game_id)
    ml.submit(white, ITALIAN, device=WHITE_PHONE, now=NOW)
    MovesSubmission.objects.update(device="")  # as migrated
    ml.submit(black, ITALIAN, device=BLACK_PHONE, now=NOW)
    game.refresh_from_db()
    assert game.moves == ""
    assert list(ml.waiting_reasons(ml.pending_for(game)).values()) == [ml.NO_DEVICE]


def test_a_game_with_moves_is_not_offered_a_link(club: Club) -> None:
    t = results_only(club)
    game = Game.objects.filter(tournament=t, round=2).get()
    attach_typed_moves(game, ITALIAN, who=ARBITER)
    with pytest.raises(Refused, match="no board waiting"):
        ml.issue_links(t, 2, who=ARBITER, now=timezone.now())


def test_moves_the_arbiter_types_close_the_waiting_submissions_and_the_link_stops_accepting(
    club: Club,
) -> None:
    t = results_only(club)
    link = ml.issue_links(t, 1, who=ARBITER, now=NOW)[0].link
    game = Game.objects.get(id=link.game_id)
    ml.submit(link, "1. e4 e5 2. Nf3 Nc6 3. Bb5", device=WHITE_PHONE, now=NOW)
    attach_typed_moves(game, ITALIAN, who=ARBITER)  # the arbiter's own scoresheet
    assert ml.pending_for(game) == []
    assert list(MovesSubmission.objects.values_list("state", flat=True)) == [ml.SUPERSEDED]
    with pytest.raises(Refused, match="stored already"):
        ml.submit(link, ITALIAN, device=WHITE_PHONE, now=NOW)
    assert MovesSubmission.objects.count() == 1
