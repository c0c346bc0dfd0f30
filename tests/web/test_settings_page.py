"""The arbiter's settings page: the rating rules shown, changed, replayed and audited."""

from __future__ import annotations

from django.test import Client

from clubrating.club.models import AuditEntry, Club, CurrentRating, Tournament
from tests.web.conftest import member


def test_the_settings_page_shows_and_changes_the_rating_rules(
        club: Club, evening: Tournament, arbiter_client: Client) -> None:
    page = arbiter_client.get("/c/riverside/arbiter/settings/").content.decode()
    assert 'name="start-rating" value="1200"' in page and 'name="k-new" value="40"' in page
    before = CurrentRating.objects.get(member=member(club, "Anna Smith")).rating
    response = arbiter_client.post("/c/riverside/arbiter/settings/", {"start-rating": "1500", "k-new": "40"},
                                   follow=True)
    assert "start-rating 1200 -&gt; 1500" in response.content.decode()
    assert CurrentRating.objects.get(member=member(club, "Anna Smith")).rating == before + 300
    assert AuditEntry.objects.filter(club=club, action="settings", who="web:anna-arbiter").count() == 1


def test_a_bad_value_on_the_settings_page_is_a_message_and_changes_nothing(
        club: Club, arbiter_client: Client) -> None:
    response = arbiter_client.post("/c/riverside/arbiter/settings/", {"start-rating": "1500", "k-new": "many"},
                                   follow=True)
    assert "k-new &#x27;many&#x27;: expected a number" in response.content.decode()
    club.refresh_from_db()
    assert club.start_rating == 1200 and not AuditEntry.objects.filter(action="settings").exists()


def test_another_clubs_arbiter_cannot_see_or_change_the_settings(club: Club, other_arbiter_client: Client) -> None:
    assert other_arbiter_client.get("/c/riverside/arbiter/settings/").status_code == 404
    assert other_arbiter_client.post("/c/riverside/arbiter/settings/", {"k-new": "30"}).status_code == 404
    club.refresh_from_db()
    assert club.k_new == 40
