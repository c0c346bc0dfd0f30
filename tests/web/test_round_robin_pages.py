"""A round-robin evening on the arbiter's pages, in-process (SQLite and PostgreSQL): started from
the form, its schedule shown once round 1 is paired, its standings by the round-robin tie-breaks."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client

from clubrating.club import evening, services
from clubrating.club.models import Club, Evening, EveningBoard, Tournament

from .conftest import WHO

TODAY = dt.date.today()
NAMES = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]


def _started(club: Club, client: Client, system: str) -> Tournament:
    client.post("/c/riverside/arbiter/evening/", {"name": "Championship", "date": TODAY.isoformat(), "rounds": "",
                                                  "system": system, "time_control": "standard"})
    t = Tournament.objects.get(club=club, name="Championship")
    for name in NAMES:
        evening.register(t, name, who=WHO)
    services.all_new_members(t, who=WHO)
    return t


def test_the_start_form_offers_the_three_systems_swiss_first(club: Club, arbiter_client: Client) -> None:
    html = arbiter_client.get("/c/riverside/arbiter/evening/").content.decode()
    assert re.findall(r'<option value="([a-z-]+)">', html) == ["swiss", "round-robin", "double-round-robin"]


def test_a_round_robin_started_from_the_form_shows_its_rounds_to_come_and_its_tie_breaks(
        club: Club, arbiter_client: Client) -> None:
    t = _started(club, arbiter_client, "round-robin")
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    html = arbiter_client.get(page).content.decode()
    assert "round robin · one round for each opponent: the schedule is fixed when round 1 is paired" in html
    assert "½ bye" not in html and "Rounds to come" not in html
    arbiter_client.post(f"{page}pair/")
    assert Evening.objects.get(tournament=t).planned_rounds == 5
    html = arbiter_client.get(page).content.decode()
    schedule = html.split('id="schedule"')[1].split("</table>")[0]
    assert len(re.findall(r'<td class="num">\d+</td>', schedule)) == 4   # rounds 2 to 5
    assert schedule.count("no game:") == 4 and "Release round 2" in html
    assert "1 Anna Smith: no game this round<" in html and 'action="/c/riverside/arbiter/evening/%d/register/"' % t.id \
        not in html
    standings = html.split('id="standings"')[1].split("</thead>")[0]
    assert re.findall(r"<abbr[^>]*>([A-Z-]+\d?)</abbr>", standings) == ["DE", "WIN", "SB", "KS"]
    assert EveningBoard.objects.filter(tournament=t, round=1).count() == 2


def test_a_double_round_robin_plays_ten_rounds_of_five(club: Club, arbiter_client: Client) -> None:
    t = _started(club, arbiter_client, "double-round-robin")
    arbiter_client.post(f"/c/riverside/arbiter/evening/{t.id}/pair/")
    html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert "double round robin" in html and "round 1 of 10 paired" in html
