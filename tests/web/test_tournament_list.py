"""The tournament list: players, rounds, the winner by the event's own ranking, the time
control and whether games have moves."""

from __future__ import annotations

import datetime as dt
import json

from django.test import Client

from clubrating.club.store.models import Club, Game, Tournament
from tests.web.conftest import member, publish_typed
from clubrating.club.services.history import check_history

TIED = (
    "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1-0\n2, "
    "Carl Berg, Bob Jones, 1-0\n2, Dana White, Anna Smith, 1-0"
)
# Carl 2, Anna 1, Dana 1, Bob 0: Carl wins outright


def rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [r for r in body.split("<tr>") if r.strip()]


def test_the_list_shows_players_rounds_winner_time_control_and_moves(
    club: Club, evening: Tournament
) -> None:
    second = publish_typed(club, TIED, "Blitz Night", dt.date(2024, 2, 1))
    Tournament.objects.filter(pk=second.pk).update(time_control="blitz")
    html = Client().get("/c/riverside/t/").content.decode()
    blitz, rapid = rows(html)[:2]
    assert "Blitz Night" in blitz and "blitz" in blitz and ">4<" in blitz and ">2<" in blitz
    assert "Carl Berg" in blitz
    assert "Tuesday Rapid" in rapid and "Anna Smith" in rapid and ">3<" in rapid  # Anna 3/3
    assert "with moves" not in html
    Game.objects.filter(tournament=second).update(moves="1. e4 e5 2. Nf3 Nc6")
    check_history(club, who="test")  # a write the page cache sees
    assert "with moves" in rows(Client().get("/c/riverside/t/").content.decode())[0]


def test_the_winner_follows_the_page_ranking_and_the_clubs_privacy(club: Club) -> None:
    t = publish_typed(
        club, "1, Dana White, Anna Smith, 1-0", "Juniors", dt.date(2024, 3, 1), juniors=True
    )
    html = Client().get("/c/riverside/t/").content.decode()
    assert "D. W." in html and "Dana White" not in html
    top = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert top.index("D. W.") < top.index("A. S.")  # the tournament page ranks her first too
    api = json.loads(Client().get("/api/c/riverside/tournaments").content)
    assert api[0]["winners"] == [{"name": "D. W.", "member_id": member(club, "Dana White").id}]
    assert api[0]["players"] == 2 and api[0]["has_moves"] is False


def test_the_winners_are_the_first_places_of_each_tournaments_standings(
    club: Club, evening: Tournament
) -> None:
    from clubrating.club.read import tournaments

    publish_typed(club, TIED, "Blitz Night", dt.date(2024, 2, 1))
    publish_typed(
        club,
        "1, Anna Smith, Bob Jones, 1/2-1/2\n1, Carl Berg, Dana White, 1/2-1/2\n"
        "2, Anna Smith, Carl Berg, 1/2-1/2\n2, Bob Jones, Dana White, 1/2-1/2",
        "Ties",
        dt.date(2024, 3, 1),
    )
    listed = list(Tournament.objects.filter(club=club))
    summaries = tournaments.tournament_summaries(club, listed)
    for t in listed:
        first = [
            (p["name"], p["member_id"])
            for p in tournaments.standings(t)["players"]
            if p["place"] == 1
        ]
        assert summaries[t.id]["winners"] == first, t.name
