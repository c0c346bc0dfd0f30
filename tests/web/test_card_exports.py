"""The card in the player's exports and the API, with the page's names (R16, R17)."""

from __future__ import annotations

import csv
import io
import json

from django.test import Client

from clubrating.club.store.models import Club, Tournament
from tests.web.conftest import member


def test_card_json_and_the_api_hold_the_card_with_a_juniors_initials(
    club: Club, evening: Tournament
) -> None:
    bob = member(club, "Bob Jones")
    doc = json.loads(Client().get(f"/c/riverside/p/{bob.id}/card.json").content)
    api = json.loads(Client().get(f"/api/c/riverside/players/{bob.id}").content)
    assert doc["card"] == api["card"]
    names = {g["opponent"] for g in doc["card"]["games"]}
    assert "D. W." in names and "Dana White" not in json.dumps(doc)
    assert {
        "games",
        "performances",
        "peaks",
        "colours",
        "head_to_head",
        "streaks",
        "best_wins",
    } <= set(doc["card"])


def test_card_csv_has_one_row_a_game_and_the_forfeit_marked(
    club: Club, evening: Tournament
) -> None:
    bob = member(club, "Bob Jones")
    rows = list(
        csv.DictReader(
            io.StringIO(Client().get(f"/c/riverside/p/{bob.id}/card.csv").content.decode())
        )
    )
    assert len(rows) == 3
    assert [(r["Result"], r["Status"]) for r in rows if r["Status"] == "forfeit"] == [
        ("1", "forfeit")
    ]
    assert all(r["Opponent"] != "Dana White" for r in rows)


def test_the_head_to_head_link_lists_only_the_games_against_that_opponent(
    club: Club, evening: Tournament
) -> None:
    anna, carl = member(club, "Anna Smith"), member(club, "Carl Berg")
    page = Client().get(f"/c/riverside/p/{anna.id}/?vs={carl.id}").content.decode()
    games = page.split('id="games"', 1)[1].split("</table>", 1)[0]
    assert "Games against" in page and "Carl Berg" in games and "Bob Jones" not in games
    assert (
        Client().get(f"/c/riverside/p/{anna.id}/?vs=abc").status_code == 200
    )  # ignored, all games
