"""A round robin's table numbers on the arbiter's evening page, in-process (SQLite and PostgreSQL):
before round 1 a form without script (by rating, drawn by lot, or a number typed for each player),
a bad numbering one message that stores nothing, and no form once round 1 is paired."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client

from clubrating.club.services import evening
from clubrating.club.store.models import AuditEntry, Club, Entry, Evening, EveningBoard, Tournament
from clubrating.tournament.roundrobin import berger_round, drawn_order

from .conftest import WHO
from .rendered import flat
from clubrating.club.services.names import all_new_members

TODAY = dt.date.today()
NAMES = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]


def _registered(club: Club) -> Tournament:
    t = evening.start_evening(club, "Championship", TODAY, "", who=WHO, system="round-robin")
    for name in NAMES:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    return t


def _messages(html: str) -> list[str]:
    return re.findall(r'class="msg[^"]*">([^<]*)', html)


def _numbered(t: Tournament) -> list[str]:
    return list(
        Entry.objects.filter(tournament=t).order_by("number").values_list("name", flat=True)
    )


def _boards(t: Tournament) -> list[tuple[str, str]]:
    return [
        (b.white.name, b.black.name)
        for b in EveningBoard.objects.filter(tournament=t, round=1).select_related("white", "black")
    ]


def _berger(order: list[str]) -> list[tuple[str, str]]:
    return [(order[w - 1], order[b - 1]) for w, b in berger_round(len(order), 1).boards]


def test_the_arbiter_numbers_the_players_by_hand_before_round_one(
    club: Club, arbiter_client: Client
) -> None:
    t = _registered(club)
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    html = flat(arbiter_client.get(page).content.decode())
    form = html.split('id="numbering"', 1)[1].split("</form>", 1)[0]
    assert re.findall(r'name="order" value="([a-z]+)"', form) == ["rating", "lot", "hand"]
    fields = re.findall(
        r'<input id="table-(\d+)" name="table-\1" type="number" min="1" max="5" value="(\d)">', form
    )
    entries = list(Entry.objects.filter(tournament=t).order_by("number"))
    assert fields == [
        (str(e.id), str(n)) for n, e in enumerate(entries, 1)
    ]  # the order of entry to start from
    wanted = ["Eva Fox", "Carl Berg", "Anna Smith", "Dana White", "Bob Jones"]
    typed = {f"table-{e.id}": str(wanted.index(e.name) + 1) for e in entries}
    response = arbiter_client.post(f"{page}pair/", {"order": "hand", **typed}, follow=True)
    message = "; table numbers as the arbiter listed them: " + ", ".join(
        f"{n} {name}" for n, name in enumerate(wanted, 1)
    )
    assert _messages(response.content.decode())[0].endswith(message)
    assert _numbered(t) == wanted and _boards(t) == _berger(wanted)
    html = flat(arbiter_client.get(page).content.decode())
    assert 'id="numbering"' not in html and "Release round 2" in html  # fixed from now on


def test_the_form_draws_by_lot_with_the_seed_typed(club: Club, arbiter_client: Client) -> None:
    t = _registered(club)
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    response = arbiter_client.post(
        f"{page}pair/", {"order": "lot", "seed": "31337", "table-1": "9"}, follow=True
    )
    drawn = [NAMES[place - 1] for place in drawn_order(5, 31337)]
    assert "drawn by lot with seed 31337: 1 " + drawn[0] in _messages(response.content.decode())[0]
    assert _numbered(t) == drawn and _boards(t) == _berger(
        drawn
    )  # the number fields are read for "hand" only
    assert AuditEntry.objects.get(action="evening-pair").new["seed"] == 31337


def test_a_bad_numbering_is_one_message_and_stores_nothing(
    club: Club, arbiter_client: Client
) -> None:
    t = _registered(club)
    page = f"/c/riverside/arbiter/evening/{t.id}/"
    entries = list(Entry.objects.filter(tournament=t).order_by("number"))
    twice = {f"table-{e.id}": str(min(n, 4)) for n, e in enumerate(entries, 1)}
    high = {**twice, f"table-{entries[4].id}": "6"}
    blank = {**twice, f"table-{entries[4].id}": ""}
    for posted, line in [
        (twice, "table number 4 is given twice (Dana White, Eva Fox)"),
        (high, "'6' for Eva Fox: a table number is from 1 to 5"),
        (blank, "Eva Fox has no table number: give each player one from 1 to 5"),
    ]:
        response = arbiter_client.post(f"{page}pair/", {"order": "hand", **posted}, follow=True)
        assert _messages(response.content.decode()) == [line.replace("'", "&#x27;")]
    response = arbiter_client.post(f"{page}pair/", {"order": "lot", "seed": "-3"}, follow=True)
    assert _messages(response.content.decode()) == [
        "&#x27;-3&#x27; is not a seed: expected a whole number from 0 to 999999"
    ]
    assert Evening.objects.get(tournament=t).paired_rounds == 0 and not EveningBoard.objects.filter(
        tournament=t
    )
    assert _numbered(t) == NAMES and not AuditEntry.objects.filter(action="evening-pair").exists()
    assert 'id="numbering"' in arbiter_client.get(page).content.decode()


def test_a_swiss_evening_has_no_numbering_form(club: Club, arbiter_client: Client) -> None:
    t = evening.start_evening(club, "Swiss", TODAY, 3, who=WHO)
    for name in NAMES:
        evening.register(t, name, who=WHO)
    html = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert 'id="numbering"' not in html and "Pair round 1" in html
