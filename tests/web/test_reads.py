"""The fast reads give exactly what the plain ORM readings (the oracle) give."""

from __future__ import annotations

import datetime as dt
import io

from clubrating.club.read import players
from clubrating.club.store.models import Club, Member, Tournament
from clubrating.club.services import initial_list
from clubrating.formats.ratinglist import read_rating_list
from clubrating.web.tables import game_rows, rating_rows

from . import reference_reads
from .conftest import WHO, member, publish_typed
from clubrating.club.services.members import merge


def test_the_fast_player_history_equals_the_shared_query_for_every_member(
    club: Club, evening: Tournament
) -> None:
    publish_typed(
        club,
        "1, A. Smith, Zed Zero, 1-0\n1, Carl Berg, bye 1/2\n2, Zed Zero, Carl Berg, -+\n",
        "Later",
        dt.date(2024, 5, 1),
    )
    listed = read_rating_list(
        io.StringIO("name,rating\nA. Smith,1500\nCarl Berg,1400\n"), "list.csv"
    )
    initial_list.seed_ratings(club, listed, who=WHO, source="list.csv")
    initial_list.link_initial(
        initial_list.get_initial_row(club, 1), member(club, "A. Smith"), who=WHO
    )
    initial_list.link_initial(
        initial_list.get_initial_row(club, 2), member(club, "Carl Berg"), who=WHO
    )
    merge(member(club, "A. Smith"), member(club, "Anna Smith"), who=WHO)
    members = list(Member.objects.filter(club=club, merged_into=None))
    assert len(members) == 5
    for m in members:
        assert players.player_history(m) == reference_reads.player_history(m), m.name


def test_the_fast_rating_list_equals_the_shared_query(club: Club, evening: Tournament) -> None:
    assert players.rating_list(club) == reference_reads.rating_list(club)
    assert len(players.rating_list(club)) == 4


def test_the_html_tables_escape_every_name() -> None:
    row = {
        "rank": 1,
        "member_id": 3,
        "name": "<script>x</script>",
        "rating_text": "1500",
        "games": 9,
        "last_played": None,
    }
    html = rating_rows([row], "/c/a/", provisional=False)
    assert "<script>" not in html and "&lt;script&gt;" in html
    game = {
        "opponent": "O'Brien & <b>",
        "opponent_member_id": None,
        "rated": True,
        "date": "2024-01-01",
        "tournament": "<i>Cup</i>",
        "round": 1,
        "colour": "white",
        "result": "1-0",
        "score_text": "1",
    }
    html = game_rows([game], "/c/a/")
    assert "<b>" not in html and "<i>" not in html and "&amp;" in html
