"""The arbiter's settings page: the rating rules shown, changed, replayed and audited."""

from __future__ import annotations

import re

import pytest

from django.test import Client

from clubrating.club.store.models import AuditEntry, Club, CurrentRating, Tournament
from tests.web.conftest import WHO, member
from tests.web.rendered import flat


def test_the_settings_page_shows_and_changes_the_rating_rules(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    page = arbiter_client.get("/c/riverside/arbiter/settings/").content.decode()
    assert 'name="start-rating" value="1200"' in page and 'name="k-new" value="40"' in page
    before = CurrentRating.objects.get(member=member(club, "Anna Smith")).rating
    response = arbiter_client.post(
        "/c/riverside/arbiter/settings/", {"start-rating": "1500", "k-new": "40"}, follow=True
    )
    assert "start-rating 1200 -&gt; 1500" in response.content.decode()
    assert CurrentRating.objects.get(member=member(club, "Anna Smith")).rating == before + 300
    assert (
        AuditEntry.objects.filter(club=club, action="settings", who="web:anna-arbiter").count() == 1
    )


def test_a_bad_value_on_the_settings_page_is_a_message_and_changes_nothing(
    club: Club, arbiter_client: Client
) -> None:
    response = arbiter_client.post(
        "/c/riverside/arbiter/settings/", {"start-rating": "1500", "k-new": "many"}, follow=True
    )
    assert "k-new &#x27;many&#x27;: expected a number" in response.content.decode()
    club.refresh_from_db()
    assert club.start_rating == 1200 and not AuditEntry.objects.filter(action="settings").exists()


def test_another_clubs_arbiter_cannot_see_or_change_the_settings(
    club: Club, other_arbiter_client: Client
) -> None:
    assert other_arbiter_client.get("/c/riverside/arbiter/settings/").status_code == 404
    assert (
        other_arbiter_client.post("/c/riverside/arbiter/settings/", {"k-new": "30"}).status_code
        == 404
    )
    club.refresh_from_db()
    assert club.k_new == 40


URL = "/c/riverside/arbiter/settings/"


def test_the_settings_page_chooses_the_cpi_preset_and_the_ledger_is_scored_again(
    club: Club, arbiter_client: Client
) -> None:
    from clubrating.club.derived.ledger import club_preset
    from clubrating.club.store.models import CpiEntry
    from tests.cpi.coach_games import publish_analysed

    publish_analysed(club, 2, who=WHO)
    page = flat(arbiter_client.get(URL).content.decode())
    assert 'name="cpi-preset" id="cpi-preset-spec" value="spec" checked>' in page
    assert (
        "<code>fide-classical</code>: FIDE ratings, classical over the "
        "board (fitted on games analysed at 150,000 nodes a position)"
    ) in page
    assert (
        "<code>lichess-rapid</code>: lichess rapid ratings of 2018" in page
        and "of its own" not in page
    )
    before = sorted(CpiEntry.objects.values_list("delta", flat=True))
    response = arbiter_client.post(
        URL, {"cpi-preset": "lichess-rapid"}, follow=True
    ).content.decode()
    assert "CPI ledger: 2 analysed games" in response
    club.refresh_from_db()
    assert club_preset(club) == "lichess-rapid"
    assert sorted(CpiEntry.objects.values_list("delta", flat=True)) != before  # scored again
    entry = AuditEntry.objects.get(club=club, action="cpi-weights", who="web:anna-arbiter")
    assert entry.old["preset"] == "spec" and entry.new["preset"] == "lichess-rapid"
    assert 'value="lichess-rapid" checked>' in flat(arbiter_client.get(URL).content.decode())


def test_an_unknown_preset_is_a_message_and_changes_nothing(
    club: Club, arbiter_client: Client
) -> None:
    response = arbiter_client.post(URL, {"cpi-preset": "chesscom"}, follow=True).content.decode()
    assert "unknown CPI preset &#x27;chesscom&#x27;: expected one of spec, " in response
    club.refresh_from_db()
    assert (
        club.cpi_weights == {"preset": "spec"}
        and not AuditEntry.objects.filter(action="cpi-weights").exists()
    )


def test_the_page_says_a_preset_replaces_the_clubs_own_weights_in_the_readers_language(
    club: Club, arbiter_client: Client
) -> None:
    from clubrating.club.services.cpi_weights import set_cpi_weights

    set_cpi_weights(club, {"B1": 25.0, "E": 31.0}, who=WHO)
    assert (
        "and writes an audit entry. The club has 2 weights of its own (clubrating "
        "cpi-weights): choosing a preset replaces them.</p>"
        in flat(arbiter_client.get(URL).content.decode())
    )
    russian = re.sub(
        r"\s", " ", arbiter_client.get(URL, headers={"accept-language": "ru"}).content.decode()
    )
    assert "<legend>Пресет</legend>" in russian and "рейтинги ФИДЕ, классика за доской" in russian
    assert "при 150 000 узлах на позицию" in russian and "В клубе 2 собственных веса" in russian


def test_another_clubs_arbiter_cannot_choose_the_preset(
    club: Club, other_arbiter_client: Client
) -> None:
    assert other_arbiter_client.post(URL, {"cpi-preset": "lichess-blitz"}).status_code == 404
    club.refresh_from_db()
    assert club.cpi_weights == {"preset": "spec"}


@pytest.mark.parametrize(
    "key, value, said",
    [
        (
            "time-zone",
            "America",
            "time-zone &#x27;America&#x27;: expected an IANA time zone",
        ),  # a directory of tzdata
        ("time-zone", "Etc", "time-zone &#x27;Etc&#x27;: expected an IANA time zone"),
        ("time-zone", "Z" * 300, "expected an IANA time zone"),  # OSError: name too long
        (
            "start-rating",
            "1e-320",
            "start-rating &#x27;1e-320&#x27;: expected a number from 100 to 3000",
        ),
        ("moves-link-days", "1" * 5000, "expected a whole number from 1 to 366"),
        ("list-day", "29", "list-day &#x27;29&#x27;: expected a whole number from 1 to 28"),
    ],
)
def test_a_value_the_zone_database_or_the_bounds_refuse_is_a_message_never_a_500(
    club: Club, arbiter_client: Client, key: str, value: str, said: str
) -> None:
    response = arbiter_client.post("/c/riverside/arbiter/settings/", {key: value}, follow=True)
    assert response.status_code == 200 and said in response.content.decode()
    club.refresh_from_db()
    assert (club.time_zone, club.start_rating, club.moves_link_days) == ("", 1200, 14)
    assert not AuditEntry.objects.filter(action="settings").exists()
