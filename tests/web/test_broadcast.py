"""The live broadcast feed of a running evening (live.pgn, round/<n>.pgn), in-process on SQLite
and PostgreSQL: read back by python-chess, polled as lichess polls it (If-None-Match,
If-Modified-Since: 304 while nothing changed, 200 after a result), and under the tournament
page's privacy and initials rules."""

from __future__ import annotations

import datetime as dt
import io
import re

import chess.pgn
from django.test import Client
from django.utils import timezone

from clubrating.club.services import evening
from clubrating.club.store.models import AuditEntry, Club, EveningBoard, Game, Member, Tournament
from clubrating.club.services.moves import attach_typed_moves
from clubrating.formats.typed import parse_typed

from .conftest import WHO, make_arbiter
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.members import rename_member, set_member_flags
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament, publish

TODAY = dt.date.today()
NAMES = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]
SCHOLAR = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


def _running(club: Club) -> Tournament:
    t = evening.start_evening(club, "Tuesday Swiss", TODAY, 3, who=WHO)
    for name in NAMES:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evening.pair_next_round(t, who=WHO)
    return t


def _games(text: str) -> list[chess.pgn.Game]:
    handle, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    return games


def _age_the_audit(club: Club) -> None:
    """Every change of the club an hour old, so that Last-Modified is sent (a change within the
    current second is not dated: another may follow in the same second)."""
    AuditEntry.objects.filter(club=club).update(when=timezone.now() - dt.timedelta(hours=1))


def test_the_feed_holds_the_boards_with_the_results_and_moves_entered_so_far(club: Club) -> None:
    t = _running(club)
    boards = list(EveningBoard.objects.filter(tournament=t, round=1).order_by("board"))
    evening.enter_result(boards[0], "1-0", who=WHO)
    first = Game.objects.get(id=EveningBoard.objects.get(id=boards[0].id).game_id)
    attach_typed_moves(first, SCHOLAR, who=WHO)
    response = Client().get(f"/c/riverside/t/{t.id}/live.pgn")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
    games = _games(response.content.decode())
    expected = [
        (f"1.{b.board}", b.white.name, b.black.name, "1-0" if b == boards[0] else "*")
        for b in boards
    ]
    assert [
        (g.headers["Round"], g.headers["White"], g.headers["Black"], g.headers["Result"])
        for g in games
    ] == expected
    assert all(g.headers["Event"] == "Tuesday Swiss" for g in games)
    assert {g.headers["Site"] for g in games} == {"Riverside Chess Club"}
    assert {g.headers["Date"] for g in games} == {f"{TODAY:%Y.%m.%d}"}
    assert (
        " ".join(m.uci() for m in games[0].mainline_moves()) == "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7"
    )
    assert games[0].end().board().is_checkmate()
    assert all(not list(g.mainline_moves()) for g in games[1:])  # still played: no moves yet
    assert "pairing bye" not in response.content.decode()  # a bye is no game


def test_a_round_has_its_own_feed_and_a_round_not_paired_is_404(club: Club) -> None:
    t = _running(club)
    for board in EveningBoard.objects.filter(tournament=t, round=1):
        evening.enter_result(board, "1/2-1/2", who=WHO)
    evening.pair_next_round(t, who=WHO)
    rounds = {
        n: _games(Client().get(f"/c/riverside/t/{t.id}/round/{n}.pgn").content.decode())
        for n in (1, 2)
    }
    assert {g.headers["Round"].split(".")[0] for g in rounds[1]} == {"1"}
    assert {g.headers["Result"] for g in rounds[1]} == {"1/2-1/2"}
    assert {g.headers["Round"].split(".")[0] for g in rounds[2]} == {"2"}
    assert {g.headers["Result"] for g in rounds[2]} == {"*"}
    live = _games(Client().get(f"/c/riverside/t/{t.id}/live.pgn").content.decode())
    assert len(live) == len(rounds[1]) + len(rounds[2])
    for n in (0, 3, 99999):
        assert Client().get(f"/c/riverside/t/{t.id}/round/{n}.pgn").status_code == 404


def test_a_poller_gets_304_while_nothing_changed_and_200_after_a_result(club: Club) -> None:
    t = _running(club)
    path = f"/c/riverside/t/{t.id}/live.pgn"
    _age_the_audit(club)
    first = Client().get(path)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag) and modified.endswith(" GMT")
    unchanged = Client().get(path, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag
    since = Client().get(path, headers={"If-Modified-Since": modified})
    assert since.status_code == 304
    evening.enter_result(EveningBoard.objects.filter(tournament=t).first(), "0-1", who=WHO)
    changed = Client().get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "0-1" in [g.headers["Result"] for g in _games(changed.content.decode())]
    assert "Last-Modified" not in changed  # the change is of this second: not dated yet
    _age_the_audit(club)
    AuditEntry.objects.filter(club=club, action="evening-result").update(
        when=timezone.now() - dt.timedelta(minutes=1)
    )
    later = Client().get(path, headers={"If-Modified-Since": modified})
    assert later.status_code == 200 and later["Last-Modified"] != modified


def test_a_private_clubs_feed_is_404_to_the_public_and_its_arbiter_reads_it(club: Club) -> None:
    t = _running(club)
    set_privacy(club, who=WHO, visibility="arbiter")
    club.refresh_from_db()
    for base in ("/c/riverside/", f"/u/{club.token}/"):
        for feed in ("live.pgn", "round/1.pgn"):
            assert Client().get(f"{base}t/{t.id}/{feed}").status_code == 404
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "anna-arbiter"))
    response = arbiter.get(f"/c/riverside/t/{t.id}/live.pgn")
    assert response.status_code == 200 and "Anna Smith" in response.content.decode()
    assert "no-store" in response["Cache-Control"]  # an arbiter's answer is kept nowhere
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    assert Client().get(f"/c/riverside/t/{t.id}/live.pgn").status_code == 404
    assert Client().get(f"/u/{club.token}/t/{t.id}/live.pgn").status_code == 200


def test_the_feed_names_players_exactly_as_the_tournament_page_does(club: Club) -> None:
    t = _running(club)
    set_member_flags(Member.objects.get(club=club, name="Dana White"), who=WHO, junior=True)
    page = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    feed = Client().get(f"/c/riverside/t/{t.id}/live.pgn").content.decode()
    shown = {g.headers[side] for g in _games(feed) for side in ("White", "Black")}
    assert "Dana White" not in feed and "D. W." in shown
    assert all(name in page for name in shown)  # every name of the feed is the page's
    set_privacy(club, who=WHO, names="initials")
    feed = Client().get(f"/c/riverside/t/{t.id}/live.pgn").content.decode()
    assert not any(name in feed for name in NAMES)


def test_a_draft_is_404_and_a_published_tournament_keeps_its_feed(club: Club) -> None:
    waiting = evening.start_evening(club, "Registering", TODAY, 3, who=WHO)
    evening.register(waiting, "Anna Smith", who=WHO)
    imported = import_tournament(
        club,
        parse_typed("1, Anna Smith, Bob Jones, 1-0\n", name="Upload", date=dt.date(2024, 2, 1)),
        who=WHO,
        today=TODAY,
    )
    for draft in (waiting, imported):
        assert Client().get(f"/c/riverside/t/{draft.id}/live.pgn").status_code == 404
    accept_exact(imported, who=WHO)
    all_new_members(imported, who=WHO)
    publish(imported, who=WHO)
    games = _games(Client().get(f"/c/riverside/t/{imported.id}/round/1.pgn").content.decode())
    assert [(g.headers["White"], g.headers["Result"]) for g in games] == [("Anna Smith", "1-0")]


def test_a_name_with_quotes_and_backslashes_reads_back_as_it_is_stored(club: Club) -> None:
    t = _running(club)
    odd = 'Anna "the Rook\\" Smith'
    rename_member(Member.objects.get(club=club, name="Anna Smith"), odd, who=WHO)
    feed = Client().get(f"/c/riverside/t/{t.id}/live.pgn").content.decode()
    # python-chess keeps a tag's value as written; the PGN standard (8.1.1) escapes \\ and \"
    shown = {
        re.sub(r"\\(.)", r"\1", g.headers[side])
        for g in _games(feed)
        for side in ("White", "Black")
    }
    assert odd in shown and len(_games(feed)) == 2  # no game split or swallowed by the quotes
