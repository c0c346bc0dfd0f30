"""The player card on a small constructed club, every figure against a hand computation
(club policy: everybody starts at 1200, K 40, provisional below 5 games)."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest

from clubrating.club.store.models import Club, Member, Tournament
from clubrating.club.read.players import player_history_and_opponents
from clubrating.web.access import ClubAccess
from clubrating.web.card import card_document

from .conftest import ARBITER, Publisher, make_record, spec_cpi
from clubrating.club.services.clubs import create_club
from clubrating.club.services.members import merge
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import correct_result, find_game, import_tournament
from clubrating.club.services import tournaments as tournament_services

E1, E2 = dt.date(2024, 1, 9), dt.date(2024, 2, 6)
PLAYERS_1 = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White"]
GAMES_1 = [
    (1, "Anna Smith", "Bob Jones", "1-0"),
    (1, "Carl Berg", "Dana White", "="),
    (2, "Carl Berg", "Anna Smith", "="),
    (2, "Bob Jones", "Dana White", "+-"),
    (3, "Bob Jones", "Carl Berg", "0-1"),
]
PLAYERS_2 = ["Anna Smyth", "Bob Jones", "Carl Berg", "Dana White"]  # Anna written another way


def games_2(round_2: str) -> list[tuple[int, str, str, str]]:
    return [
        (1, "Anna Smyth", "Dana White", "1-0"),
        (1, "Bob Jones", "Carl Berg", "0-1"),
        (2, "Bob Jones", "Anna Smyth", round_2),
        (3, "Anna Smyth", "Carl Berg", "+-"),
    ]


def expected(own: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - own) / 400))


def build(publish: Publisher, club: Club, round_2: str) -> Member:
    publish("Winter 1", E1, PLAYERS_1, GAMES_1, byes=[(3, "Anna Smith", 2)])
    publish("Winter 2", E2, PLAYERS_2, games_2(round_2))
    anna = Member.objects.get(club=club, name="Anna Smith")
    merge(Member.objects.get(club=club, name="Anna Smyth"), anna, who=ARBITER)
    return anna


def card_of(member: Member) -> dict[str, Any]:
    member.refresh_from_db()
    hist, flags = player_history_and_opponents(member)
    return card_document(ClubAccess(member.club, True, "/", "/api/"), hist, flags)


def without_ids(doc: Any) -> Any:
    """The document with the database's ids left out (two clubs number their rows apart)."""
    if isinstance(doc, dict):
        return {k: without_ids(v) for k, v in doc.items() if not k.endswith("_id")}
    if isinstance(doc, list):
        return [without_ids(v) for v in doc]
    return doc


@pytest.fixture
def anna(publish: Publisher, club: Club) -> Member:
    return build(publish, club, "0-1")


def test_every_game_bye_and_forfeit_with_the_rating_it_was_played_against(anna: Member) -> None:
    rows = [
        (
            g["date"],
            g["round"],
            g["colour"],
            g["opponent"],
            g["opponent_rating"],
            g["result"],
            g["status"],
        )
        for g in card_of(anna)["games"]
    ]
    assert rows == [
        ("2024-01-09", 1, "white", "Bob Jones", 1200, "1", "rated"),
        ("2024-01-09", 2, "black", "Carl Berg", 1200, "½", "rated"),
        ("2024-01-09", 3, None, "", None, "1", "bye"),
        ("2024-02-06", 1, "white", "Dana White", 1200, "1", "rated"),  # Dana: one draw, 1200
        (
            "2024-02-06",
            2,
            "black",
            "Bob Jones",
            1160,
            "1",
            "rated",
        ),  # Bob lost twice: 1200 - 20 - 20
        ("2024-02-06", 3, "white", "Carl Berg", None, "+", "forfeit"),
    ]


def test_the_expected_scores_and_changes_add_up_to_the_stored_change(anna: Member) -> None:
    doc = card_of(anna)
    rated = [g for g in doc["games"] if g["rated"]]
    e_dana, e_bob = expected(1220, 1200), expected(1220, 1160)
    assert [g["expected"] for g in rated] == pytest.approx([0.5, 0.5, e_dana, e_bob])
    assert [g["change"] for g in rated] == pytest.approx(
        [20, 0, 40 * (1 - e_dana), 40 * (1 - e_bob)]
    )
    after = 1220 + 40 * (1 - e_dana) + 40 * (1 - e_bob)
    assert anna.current_ratings.get().rating == pytest.approx(after)
    assert all(
        g["expected"] is None and g["change"] is None for g in doc["games"] if not g["rated"]
    )


def test_performance_peak_colours_streaks_head_to_head_and_best_wins(anna: Member) -> None:
    doc = card_of(anna)
    perf = {
        p["tournament"]: (p["rating"], p["average_opponent"], p["games"], p["score"])
        for p in doc["performances"]
    }
    assert perf["Winter 1"] == pytest.approx((1200 + 400 * math.log10(3), 1200, 2, 1.5))
    assert perf["Winter 2"] == pytest.approx((1180 + 800, 1180, 2, 2.0))  # 100 %: the bound
    peak = doc["peaks"]["standard"]
    assert (peak["rating"], peak["date"]) == (
        pytest.approx(anna.current_ratings.get().rating),
        "2024-02-06",
    )
    assert {c: (t["wins"], t["draws"], t["losses"]) for c, t in doc["colours"].items()} == {
        "white": (2, 0, 0),
        "black": (1, 1, 0),
    }
    assert doc["streaks"] == {
        "winning": {"length": 2, "from": "2024-02-06", "to": "2024-02-06"},
        "unbeaten": {"length": 4, "from": "2024-01-09", "to": "2024-02-06"},
    }
    assert [
        (h["opponent"], h["games"], h["score"], h["last_date"]) for h in doc["head_to_head"]
    ] == [
        ("Bob Jones", 2, 2.0, "2024-02-06"),
        ("Dana White", 1, 1.0, "2024-02-06"),
        ("Carl Berg", 1, 0.5, "2024-01-09"),
    ]
    assert [(w["opponent"], w["opponent_rating"], w["date"]) for w in doc["best_wins"]] == [
        ("Bob Jones", 1200, "2024-01-09"),
        ("Dana White", 1200, "2024-02-06"),
        ("Bob Jones", 1160, "2024-02-06"),
    ]


def test_a_merged_identity_is_one_opponent_named_as_the_member_it_was_merged_into(
    anna: Member,
) -> None:
    bob = Member.objects.get(club=anna.club, name="Bob Jones")
    doc = card_of(bob)
    assert {h["opponent_id"] for h in doc["head_to_head"]} >= {anna.id}
    assert [
        (h["opponent"], h["games"], h["score"])
        for h in doc["head_to_head"]
        if h["opponent_id"] == anna.id
    ] == [("Anna Smith", 2, 0.0)]
    forfeit = [g for g in doc["games"] if g["status"] == "forfeit"]
    assert [(g["opponent"], g["result"]) for g in forfeit] == [("Dana White", "+")]


def test_the_card_after_a_correction_equals_the_card_of_the_right_result_from_the_start(
    publish: Publisher, club: Club
) -> None:
    wrong = build(publish, club, "1-0")
    winter_2 = Tournament.objects.get(club=club, name="Winter 2")
    correct_result(find_game(winter_2, 2, "Anna Smyth"), "0-1", who=ARBITER)
    right_club = spec_cpi(create_club("Right Club", who=ARBITER))

    def publish_right(
        name: str, date: dt.date, players: list[str], games: Any, byes: Any = ()
    ) -> Any:
        t = import_tournament(
            right_club,
            make_record(name, date, players, games, byes),
            who=ARBITER,
            today=dt.date(2030, 1, 1),
        )
        accept_exact(t, who=ARBITER)
        all_new_members(t, who=ARBITER)
        tournament_services.publish(t, who=ARBITER)
        return t

    right = build(publish_right, right_club, "0-1")
    for name in PLAYERS_1:
        assert without_ids(card_of(Member.objects.get(club=club, name=name))) == without_ids(
            card_of(Member.objects.get(club=right_club, name=name))
        ), name
    assert without_ids(card_of(wrong)) == without_ids(card_of(right))


def test_an_established_player_without_a_change_in_the_tournament_stands_as_before_it(
    club: Club,
) -> None:
    """R7: an established player's games against provisional ones do not move them, so that
    tournament stores no change of theirs; their opponents' cards read the rating they had
    then: the initial list's, or the latest earlier change's."""
    from io import StringIO

    from clubrating.club.services import initial_list as il
    from clubrating.formats.ratinglist import read_rating_list

    il.seed_ratings(
        club,
        read_rating_list(
            StringIO("Name;Rating;Games\nAnna Berg;1600;40\nCara Dunn;1500;\n"), "list.csv"
        ),
        who=ARBITER,
        source="list.csv",
    )
    for row in (1, 2):
        il.new_member_initial(il.get_initial_row(club, row), who=ARBITER)

    def publish_games(name: str, date: dt.date, games: list[tuple[int, str, str, str]]) -> None:
        players = sorted({p for g in games for p in g[1:3]})
        t = import_tournament(
            club, make_record(name, date, players, games), who=ARBITER, today=dt.date(2030, 1, 1)
        )
        accept_exact(t, who=ARBITER)
        all_new_members(t, who=ARBITER)
        tournament_services.publish(t, who=ARBITER)

    publish_games("First", E1, [(1, "Zed New", "Anna Berg", "0-1")])  # Anna stores no change here
    publish_games(
        "Second", E2, [(1, "Anna Berg", "Cara Dunn", "1-0"), (2, "Yan New", "Anna Berg", "0-1")]
    )
    publish_games("Third", dt.date(2024, 3, 5), [(1, "Yan New", "Anna Berg", "0-1")])  # nor here
    zed = card_of(Member.objects.get(club=club, name="Zed New"))["games"][0]
    assert (zed["opponent_rating"], zed["status"]) == (1600, "rated")  # the initial list
    assert zed["expected"] == pytest.approx(1 / 11)
    after_second = 1600 + 20 * (1 - expected(1600, 1500))
    yan = card_of(Member.objects.get(club=club, name="Yan New"))["games"]
    assert [g["opponent_rating"] for g in yan] == pytest.approx(
        [1600, after_second]
    )  # then her latest change
    anna = card_of(Member.objects.get(club=club, name="Anna Berg"))["games"]
    assert [(g["opponent"], g["status"], g["opponent_rating"]) for g in anna] == [
        ("Zed New", "provisional opponent", 1200),
        ("Cara Dunn", "rated", 1500),
        ("Yan New", "provisional opponent", 1200),
        ("Yan New", "provisional opponent", pytest.approx(1200 - 40 / 11)),
    ]
