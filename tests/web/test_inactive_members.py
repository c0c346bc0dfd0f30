"""Inactive members: listed apart on the rating list, marked on their page, rating kept."""

from __future__ import annotations

import datetime as dt
import json

from django.test import Client

from clubrating.club.store.models import AuditEntry, Club, CurrentRating, RatingChange
from clubrating.club.services import club_settings
from tests.web.conftest import WHO, member, publish_typed
from clubrating.club.read.clubs import find_club

OLD = "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1/2-1/2"
NEW = "1, Anna Smith, Carl Berg, 1/2-1/2"  # Bob and Dana do not come back


def two_years(club: Club) -> None:
    publish_typed(club, OLD, "Autumn 2023", dt.date(2023, 11, 19))
    publish_typed(club, NEW, "Winter 2025", dt.date(2025, 1, 14))


def test_members_without_a_rated_game_in_12_months_are_listed_apart_and_keep_their_rating(
    club: Club,
) -> None:
    two_years(club)
    ratings = {
        m: CurrentRating.objects.get(member=member(club, m)).rating
        for m in ("Bob Jones", "Dana White")
    }
    html = Client().get("/c/riverside/").content.decode()
    active, _, inactive = html.partition('id="inactive"')
    assert "Anna Smith" in active and "Carl Berg" in active
    assert "Bob Jones" not in active and "Dana White" not in active
    assert "Bob Jones" in inactive and "Dana White" in inactive
    assert "no rated game in the 12 months before 2025-01-14" in html  # the rule, on the list
    for name, rating in ratings.items():
        assert CurrentRating.objects.get(member=member(club, name)).rating == rating
    assert RatingChange.objects.filter(member=member(club, "Bob Jones")).count() == 1


def test_the_exports_flag_inactive_members_and_rank_only_the_active(club: Club) -> None:
    two_years(club)
    players = json.loads(Client().get("/c/riverside/ratings.json").content)["players"]
    flags = {p["name"]: (p["inactive"], p["rank"]) for p in players}
    assert flags["Bob Jones"][0] and flags["Dana White"][0] and flags["Bob Jones"][1] is None
    assert not flags["Anna Smith"][0] and not flags["Carl Berg"][0]
    rows = Client().get("/c/riverside/ratings.csv").content.decode().splitlines()
    assert any(r.split(",")[2] == "Bob Jones" and "i" in r.split(",")[5] for r in rows[1:])


def test_the_player_page_says_the_member_is_inactive(club: Club) -> None:
    two_years(club)
    bob = Client().get(f"/c/riverside/p/{member(club, 'Bob Jones').id}/").content.decode()
    anna = Client().get(f"/c/riverside/p/{member(club, 'Anna Smith').id}/").content.decode()
    assert "inactive" in bob and "inactive" not in anna


def test_a_list_seen_long_after_its_last_event_keeps_everybody_active(club: Club) -> None:
    publish_typed(
        club, OLD, "Autumn 2023", dt.date(2023, 11, 19)
    )  # nothing since, whatever today is
    html = Client().get("/c/riverside/").content.decode()
    assert 'id="inactive"' not in html


def test_the_setting_changes_the_months_and_zero_turns_the_rule_off(club: Club) -> None:
    two_years(club)
    services_change = club_settings.change_settings
    services_change(club, club_settings.parse_settings({"inactive-months": "24"}), who=WHO)
    assert 'id="inactive"' not in Client().get("/c/riverside/").content.decode()
    services_change(club, club_settings.parse_settings({"inactive-months": "1"}), who=WHO)
    assert 'id="inactive"' in Client().get("/c/riverside/").content.decode()
    services_change(club, club_settings.parse_settings({"inactive-months": "0"}), who=WHO)
    assert 'id="inactive"' not in Client().get("/c/riverside/").content.decode()
    assert AuditEntry.objects.filter(club=club, action="settings").count() == 3
    assert find_club("riverside").inactive_months == 0
