"""The fair-play page of the arbiter: the z-score table of ``fair_play`` for the
club's arbiters only, with its caveats, a bounded window ``?games=N``, a clear line for a bad
window, the "not enough games" text, and never cached, indexed or listed anywhere."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.derived.fairplay import fair_play
from clubrating.club.store.models import Club, Member
from clubrating.cpi.facts import GameFacts
from tests.cpi.coach_games import build, publish_analysed

from .conftest import WHO

URL = "/c/riverside/arbiter/fair-play/"
RUY = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Nb8",
    "d4",
    "Nbd7",
    "c4",
    "c6",
    "Nc3",
    "Bb7",
]  # 24 plies, 12 a side
# A small fitted-style setting (as tests/club/test_cpi_fit.py): ΔCPI is 100·E (E = 1 − CPL/200)
# and the Elo map predicts ΔCPI = 78 + 0.01·Elo (90 at the club's starting 1200) with σ 10 a game,
# so over 10 games a perfect player stands at z ≈ 3.2, one losing 10 cp a move on average near
# 1.6, 20 cp near 0, 30 cp near −1.6.
FITTED = {
    "E": 100,
    "T": 0,
    "O": 0,
    "B1": 0,
    "B2": 0,
    "B3": 0,
    "M1": 0,
    "M2": 0,
    "M3": 0,
    "H": 0,
    "Br": 0,
    "win": 0,
    "draw": 0,
    "loss": 0,
    "renormalise": 1,
    "min_plies": 20,
    "window": 10,
    "elo_alpha": 78,
    "elo_beta": 0.01,
    "elo_sigma": 10,
    "elo_mean": 1500,
    "elo_sd": 400,
}


def losing(white_cp: int, black_cp: int) -> Any:
    """Games where White loses ``white_cp`` once with a move that is not the engine's (12 moves:
    white_cp/12 a move on average), Black ``black_cp`` once; a side that loses nothing plays the
    engine's move throughout."""

    def facts(index: int) -> GameFacts:
        notes: dict[int, dict[str, Any]] = {}
        if white_cp:
            notes[7] = {"best": [("Bxc6", 0)], "after": -white_cp}  # 4.Ba4 played
        if black_cp:
            notes[8] = {"best": [("d6", 0)], "after": -black_cp}  # 4...Nf6 played
        return build(RUY, notes)

    return facts


@pytest.fixture
def fitted(club: Club) -> Club:
    set_cpi_weights(club, {k: float(v) for k, v in FITTED.items()}, who=WHO, preset="spec")
    return club


@pytest.fixture
def analysed(fitted: Club) -> Club:
    """Ben plays the engine's moves, Anna loses 120 cp a game, Carl 240, Dora 360."""
    publish_analysed(fitted, 10, white="Anna Berg", black="Ben Cole", facts=losing(120, 0))
    publish_analysed(fitted, 10, white="Carl Dahl", black="Dora Eng", facts=losing(240, 360))
    return fitted


def table_rows(html: str) -> list[list[str]]:
    """The cells of the fair-play table's body, tags stripped."""
    body = html.split('id="fairplay-table"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_the_arbiter_sees_every_member_with_games_and_the_caveats(
    analysed: Club, arbiter_client: Client
) -> None:
    response = arbiter_client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    rows = table_rows(html)
    assert [row[0] for row in rows][0] == "Ben Cole" and len(rows) == 4
    doc = {row["name"]: row for row in fair_play(analysed)["members"]}
    ben = next(row for row in rows if row[0] == "Ben Cole")
    # name, rating, games, mean ΔCPI, predicted, z, B1, accuracy, centipawn loss, signal
    assert ben[1:6] == [
        f"{doc['Ben Cole']['rating']:.0f}",
        "10",
        f"{doc['Ben Cole']['mean_delta']:.1f}",
        f"{doc['Ben Cole']['expected_delta']:.1f}",
        f"{doc['Ben Cole']['z']:+.2f}",
    ]
    assert ben[6] == "100%" and ben[8] == "0" and ben[9] == "look closer"
    anna = next(row for row in rows if row[0] == "Anna Berg")
    assert anna[8] == "10" and anna[9] == "" and anna[6] != "100%"  # 120 cp once in 12 moves
    assert "A signal, never an automatic action." in html
    assert "A club's ratings far from the pool's shift every z." in html
    ben_id = Member.objects.get(club=analysed, name="Ben Cole").id
    assert f'<a href="/c/riverside/p/{ben_id}/cpi/">Ben Cole</a>' in html


def test_members_are_ordered_by_z_highest_first(analysed: Club, arbiter_client: Client) -> None:
    rows = table_rows(arbiter_client.get(URL).content.decode())
    z = [float(row[5]) for row in rows]
    assert z == sorted(z, reverse=True) and len(set(z)) == 4
    assert [row[0] for row in rows] == ["Ben Cole", "Anna Berg", "Carl Dahl", "Dora Eng"]
    marked = [row[0] for row in rows if row[9] == "look closer"]
    assert marked == [row[0] for row in rows if float(row[5]) >= 2.5] == ["Ben Cole"]


def test_the_window_is_the_latest_n_games(analysed: Club, arbiter_client: Client) -> None:
    html = arbiter_client.get(URL, {"games": "6"}).content.decode()
    assert {row[2] for row in table_rows(html)} == {"6"}
    assert "Latest 6 analysed games" in html and 'name="games" value="6"' in html


@pytest.mark.parametrize(
    "games, expected",
    [
        ("abc", "games='abc' is not a whole number: expected 5 to 1000"),
        ("3", "games=3 is out of range: expected 5 to 1000"),
        ("1001", "games=1001 is out of range: expected 5 to 1000"),
        ("-10", "games=-10 is out of range"),
        ("1e3", "games='1e3' is not a whole number"),
        ("9" * 5000, "is not a whole number"),  # Python refuses int() of more than 4300 digits
    ],
)
def test_a_bad_window_is_one_clear_line_not_a_500(
    fitted: Club, arbiter_client: Client, games: str, expected: str
) -> None:
    response = arbiter_client.get(URL, {"games": games})
    assert response.status_code == 400
    html = response.content.decode()
    error = re.search(r'<p class="msg error" id="fairplay-error" role="alert">(.*?)</p>', html)
    assert error is not None and expected in error.group(1).replace("&#x27;", "'")
    assert 'id="fairplay-table"' not in html and "Traceback" not in html


def test_a_club_without_enough_analysed_games_says_so(fitted: Club, arbiter_client: Client) -> None:
    html = arbiter_client.get(URL).content.decode()
    assert (
        'id="fairplay-none"' in html
        and "Not enough games" in html
        and 'id="fairplay-table"' not in html
    )
    publish_analysed(fitted, 4, facts=losing(120, 0))  # 4 games each: one short of a z
    html = arbiter_client.get(URL).content.decode()
    assert (
        "Not enough games: no member has 5 analysed games yet" in html and "Anna Berg" not in html
    )


def test_settings_that_cannot_predict_a_quality_say_what_to_choose(
    club: Club, arbiter_client: Client
) -> None:
    """The test club's spec preset has no Elo map: the page says so instead of a table."""
    response = arbiter_client.get(URL)
    assert response.status_code == 200
    assert (
        "no Elo map" in response.content.decode()
        and "choose a fitted preset" in response.content.decode()
    )


def test_another_clubs_arbiter_and_a_member_get_404(
    analysed: Club, other_arbiter_client: Client
) -> None:
    assert other_arbiter_client.get(URL).status_code == 404
    member = Client()
    member.force_login(User.objects.create_user(username="ben", password="x" * 20))
    response = member.get(URL)
    assert response.status_code == 404 and b"Ben Cole" not in response.content


def test_anonymous_visitors_learn_nothing_not_even_that_the_club_exists(analysed: Club) -> None:
    """As on every arbiter page: the login page, the same answer as for a club that does not
    exist."""
    response = Client().get(URL)
    missing = Client().get("/c/no-such-club/arbiter/fair-play/")
    assert response.status_code == missing.status_code == 302
    assert response["Location"].replace("riverside", "no-such-club") == missing["Location"]
    assert b"Ben Cole" not in response.content and b"fair" not in response.content.lower()


def test_the_page_is_never_indexed_cached_or_listed(analysed: Club, arbiter_client: Client) -> None:
    response = arbiter_client.get(URL)
    assert response["X-Robots-Tag"].startswith("noindex")  # the club is public: still noindex
    assert response["Cache-Control"] == "private, no-store"
    assert arbiter_client.get(URL, {"games": "x"})["Cache-Control"] == "private, no-store"
    client = Client()
    assert b"fair" not in client.get("/sitemap.xml").content.lower()
    assert b"fair" not in client.get("/api/openapi.json").content.lower()
    assert "Disallow: /c/*/arbiter/" in client.get("/robots.txt").content.decode()
    assert b"fair-play" not in client.get("/c/riverside/").content


def test_the_arbiters_club_page_links_to_it(club: Club, arbiter_client: Client) -> None:
    assert f'href="{URL}"' in arbiter_client.get("/c/riverside/arbiter/").content.decode()
