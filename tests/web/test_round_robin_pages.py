"""A round-robin evening on the arbiter's pages, in-process (SQLite and PostgreSQL): started from
the form, its schedule shown once round 1 is paired, its standings by the round-robin tie-breaks."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Entry, Evening, EveningBoard, Tournament

from .conftest import WHO
from .rendered import flat
from clubrating.club.services.names import all_new_members

TODAY = dt.date.today()
NAMES = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]


def _messages(response: object) -> list[str]:
    html = response.content.decode()  # type: ignore[attr-defined]
    return re.findall(r'class="msg[^"]*">([^<]*)', html)


def _started(club: Club, client: Client, system: str) -> Tournament:
    client.post(
        "/c/riverside/arbiter/evening/",
        {
            "name": "Championship",
            "date": TODAY.isoformat(),
            "rounds": "3",
            "system": system,
            "time_control": "standard",
        },
    )
    t = Tournament.objects.get(club=club, name="Championship")
    for name in NAMES:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    return t


def test_the_start_form_offers_the_four_systems_swiss_first(
    club: Club, arbiter_client: Client
) -> None:
    html = arbiter_client.get("/c/riverside/arbiter/evening/").content.decode()
    systems = html.split('<select id="ev-system"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="([a-z-]+)">', systems) == [
        "swiss",
        "round-robin",
        "double-round-robin",
        "keizer",
    ]


def test_a_round_robin_started_from_the_form_shows_its_rounds_to_come_and_its_tie_breaks(
    club: Club, arbiter_client: Client
) -> None:
    t = _started(club, arbiter_client, "round-robin")
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    html = arbiter_client.get(page).content.decode()
    assert (
        "round robin · one round for each opponent: the schedule is fixed when round 1 is paired"
        in html
    )
    assert "½ bye" not in html and "Rounds to come" not in html
    arbiter_client.post(f"{page}pair/")
    assert Evening.objects.get(tournament=t).planned_rounds == 5
    html = flat(arbiter_client.get(page).content.decode())
    schedule = html.split('id="schedule"')[1].split("</table>")[0]
    assert len(re.findall(r'<td class="num">\d+</td>', schedule)) == 4  # rounds 2 to 5
    assert schedule.count("no game:") == 4 and "Release round 2" in html
    assert (
        "1 Anna Smith: no game this round<" in html
        and 'action="/c/riverside/arbiter/evening/%d/register/"' % t.id not in html
    )
    standings = html.split('id="standings"')[1].split("</thead>")[0]
    assert re.findall(r"<abbr[^>]*>([A-Z-]+\d?)</abbr>", standings) == ["DE", "WIN", "SB", "KS"]
    assert EveningBoard.objects.filter(tournament=t, round=1).count() == 2


def test_a_double_round_robin_plays_ten_rounds_of_five(club: Club, arbiter_client: Client) -> None:
    t = _started(club, arbiter_client, "double-round-robin")
    arbiter_client.post(f"/c/riverside/arbiter/evening/{t.id}/pair/")
    html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert "double round robin" in html and "round 1 of 10 paired" in html


def _swiss(club: Club, client: Client) -> Tournament:
    t = _started(club, client, "swiss")
    client.post(f"/c/riverside/arbiter/evening/{t.id}/pair/")
    return t


def _seats(t: Tournament) -> list[tuple[str, str]]:
    return [
        (b.white.name, b.black.name)
        for b in EveningBoard.objects.filter(tournament=t, round=1).select_related("white", "black")
    ]


def test_the_arbiter_swaps_colours_and_exchanges_players_from_the_page_without_script(
    club: Club, arbiter_client: Client
) -> None:
    t = _swiss(club, arbiter_client)
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    html = arbiter_client.get(page).content.decode()
    assert (
        "<script" not in html and "Swap colours on board 2" in html and "Pair round 1 again" in html
    )
    (w1, b1), (w2, b2) = _seats(t)
    board = EveningBoard.objects.get(tournament=t, round=1, board=1)
    response = arbiter_client.post(f"{page}colours/", {"board": board.id}, follow=True)
    assert _messages(response)[-1] == f"round 1 board 1: {b1} now has white, {w1} black"
    one, other = (Entry.objects.get(tournament=t, name=n) for n in (w1, w2))
    response = arbiter_client.post(
        f"{page}exchange/", {"one": one.id, "other": other.id}, follow=True
    )
    assert _messages(response) == [f"round 1: {w1} and {w2} changed places"]  # one message a change
    assert _seats(t) == [(b1, w2), (w1, b2)]
    response = arbiter_client.post(f"{page}repair/", follow=True)
    assert _messages(response)[0].startswith("round 1 paired again: 2 boards")


def test_a_change_after_the_first_result_is_one_message_and_the_forms_are_gone(
    club: Club, arbiter_client: Client
) -> None:
    t = _swiss(club, arbiter_client)
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    board = EveningBoard.objects.get(tournament=t, round=1, board=1)
    arbiter_client.post(f"{page}result/", {"board": board.id, "result": "1-0"})
    before = _seats(t)
    other = EveningBoard.objects.get(tournament=t, round=1, board=2)
    response = arbiter_client.post(f"{page}colours/", {"board": other.id}, follow=True)
    assert (
        _messages(response)[-1] == "round 1 has a result already (board 1): its pairings are fixed"
    )
    assert _seats(t) == before
    html = arbiter_client.get(page).content.decode()
    assert "Swap colours" not in html and "Pair round 1 again" not in html


def test_a_round_robin_page_offers_colours_only(club: Club, arbiter_client: Client) -> None:
    t = _started(club, arbiter_client, "round-robin")
    arbiter_client.post(f"/c/riverside/arbiter/evening/{t.id}/pair/")
    html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert "Swap colours on board 1" in html and 'name="one"' not in html and "again" not in html
