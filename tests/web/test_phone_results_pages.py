"""Results from the players' phones on the website (SQLite and PostgreSQL): the phone page offers
the result of an evening's board, two phones agreeing enter it and the public page and the feed
show it at once; answers that differ wait on the arbiter's pages with both shown; the throttle
and the device rules are the moves' own."""

from __future__ import annotations

import datetime as dt

from django.test import Client

from clubrating.club.services import evening as ev
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    EveningBoard,
    ResultSubmission,
    Tournament,
)
from clubrating.club.services import moves_links as ml

from .conftest import WHO
from clubrating.club.services.names import all_new_members

NAMES = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White"]


def _running(club: Club) -> tuple[Tournament, list[str]]:
    """An evening with round 1 paired and its links printed (White's, Black's, board by board)."""
    t = ev.start_evening(club, "Tuesday Swiss", dt.date.today(), 3, who=WHO)
    for name in NAMES:
        ev.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    ev.pair_next_round(t, who=WHO)
    return t, [i.token for i in ml.issue_links(t, 1, who=WHO)]


def send(client: Client, token: str, result: str, moves: str = "") -> tuple[int, str]:
    """The phone page opened, then its form sent (each Client is a phone: its own cookies)."""
    client.get(f"/m/{token}/")
    response = client.post(
        f"/m/{token}/",
        {
            "moves": moves,
            "result": result,
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    return response.status_code, response.content.decode()


def test_the_phone_page_offers_the_result_of_a_board_still_played_and_not_once_it_is_entered(
    club: Club,
) -> None:
    t, tokens = _running(club)
    page = Client().get(f"/m/{tokens[0]}/").content.decode()
    assert 'name="result" value="1-0"' in page and 'value="1/2-1/2"' in page
    assert "<script" not in page
    ev.enter_result(EveningBoard.objects.get(tournament=t, board=1), "0-1", who=WHO)
    page = Client().get(f"/m/{tokens[0]}/").content.decode()
    assert 'name="result"' not in page and "The result 0-1 is entered." in page


def test_two_phones_agreeing_enter_the_result_and_the_public_page_and_feed_show_it_at_once(
    club: Club,
) -> None:
    t, tokens = _running(club)
    status, page = send(Client(), tokens[0], "1/2-1/2")
    assert status == 200 and "it is entered when your opponent sends the same" in page
    status, page = send(Client(), tokens[1], "1/2-1/2")
    assert status == 200 and "agreeing with your opponent&#x27;s: entered" in page
    public = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "½-½" in public or "1/2-1/2" in public
    feed = Client().get(f"/c/riverside/t/{t.id}/round/1.pgn").content.decode()
    assert '[Round "1.1"]' in feed and '[Result "1/2-1/2"]' in feed
    assert AuditEntry.objects.get(club=club, action="evening-result").who == ml.PLAYERS


def test_answers_that_differ_wait_on_the_arbiters_pages_with_both_shown(
    club: Club, arbiter_client: Client
) -> None:
    t, tokens = _running(club)
    send(Client(), tokens[0], "1-0")
    status, page = send(Client(), tokens[1], "0-1")
    assert status == 200 and "your opponent sent another result" in page
    for path in ("", "round/"):
        html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/{path}").content.decode()
        shown = html.split('id="answers-1"', 1)[1].split("</", 1)[0]
        assert "White&#x27;s phone <strong>1-0" in html and "Black&#x27;s phone <strong>0-1" in html
        assert "they differ" in html and shown
    arbiter_client.post(
        f"/c/riverside/arbiter/evening/{t.id}/result/",
        {"board": str(EveningBoard.objects.get(tournament=t, board=1).id), "result": "1-0"},
    )
    html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/round/").content.decode()
    assert 'id="answers-1"' not in html
    assert set(ResultSubmission.objects.values_list("state", flat=True)) == {ml.SUPERSEDED}


def test_one_phone_sending_both_results_waits_and_the_arbiter_sees_why_in_russian(
    club: Club, arbiter_client: Client
) -> None:
    t, tokens = _running(club)
    bystander = Client()
    send(bystander, tokens[0], "1-0")
    status, page = send(bystander, tokens[1], "1-0")
    assert status == 200 and "both sides were sent from one device" in page
    assert not EveningBoard.objects.filter(tournament=t, board=1).exclude(game=None).exists()
    html = arbiter_client.get(
        f"/c/riverside/arbiter/evening/{t.id}/round/", headers={"Accept-Language": "ru"}
    ).content.decode()
    assert "Прислано с телефонов игроков, ждёт вас:" in html


def test_a_phones_results_share_the_moves_throttle_and_a_refused_one_stores_nothing(
    club: Club,
) -> None:
    t, tokens = _running(club)
    phone = Client()
    for _ in range(ml.PER_LINK):
        assert send(phone, tokens[0], "+-")[0] == 200  # refused on the page: no forfeits here
    assert not ResultSubmission.objects.exists()
    status, page = send(phone, tokens[0], "1-0")
    assert status == 429 and not ResultSubmission.objects.exists()


def test_the_running_evenings_page_reloads_itself_while_results_are_to_come(club: Club) -> None:
    t, tokens = _running(club)
    refresh = '<meta http-equiv="refresh" content="60">'
    assert refresh in Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    for board in EveningBoard.objects.filter(tournament=t):
        ev.enter_result(board, "1-0", who=WHO)
    page = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "every result is in" in page and refresh not in page
