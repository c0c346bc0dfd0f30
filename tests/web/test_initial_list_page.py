"""The arbiter's initial-list page: a list uploaded, its names confirmed as at an import,
the member's page showing the initial rating as its first line."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CurrentRating,
    InitialEntry,
    RatingChange,
    Tournament,
)
from tests.web.conftest import member

LIST = b"name;rating;games\nAnna Smith;1650;3\nBob Jones;1400;2\nNew Face;1300;\n"


def upload(client: Client, data: bytes, name: str = "list.csv") -> str:
    response = client.post(
        "/c/riverside/arbiter/initial-list/upload/",
        {"file": SimpleUploadedFile(name, data)},
        follow=True,
    )
    return response.content.decode()


def test_an_arbiter_uploads_a_list_and_confirms_its_names(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    page = upload(arbiter_client, LIST)
    assert "initial list of 3 players from list.csv (0 linked to members)" in page
    assert "Confirm: Anna Smith" in page and "3 of 3 names still to confirm" in page
    page = arbiter_client.post(
        "/c/riverside/arbiter/initial-list/accept-exact/", follow=True
    ).content.decode()
    assert "linked 2 names that matched one member exactly" in page
    anna = member(club, "Anna Smith")
    assert RatingChange.objects.get(member=anna, tournament=evening).rating_before == 1650
    row = InitialEntry.objects.get(club=club, name="New Face")
    arbiter_client.post("/c/riverside/arbiter/initial-list/new-member/", {"row": row.id})
    assert CurrentRating.objects.get(member__name="New Face").rating == 1300
    assert (
        AuditEntry.objects.filter(club=club, action="link-initial", who="web:anna-arbiter").count()
        == 3
    )
    player = Client().get(f"/c/riverside/p/{anna.id}/").content.decode()
    assert "Initial list (before the first tournament)" in player
    assert player.index("Initial list") < player.index("Tuesday Rapid")
    history = Client().get(f"/c/riverside/p/{anna.id}/history.csv").content.decode().splitlines()
    assert history[1] == ",Initial list,,3,,1650.0,," and "Tuesday Rapid" in history[2]


def test_a_bad_list_on_the_page_is_one_message_and_stores_nothing(
    club: Club, arbiter_client: Client
) -> None:
    page = upload(arbiter_client, b"name,rating\nAnna Smith,16OO\n", "bad.csv")
    assert "bad.csv:2: rating &#x27;16OO&#x27;: expected a number" in page
    assert (
        not InitialEntry.objects.exists()
        and not AuditEntry.objects.filter(action="seed-ratings").exists()
    )


def test_another_clubs_arbiter_gets_404_on_the_initial_list(
    club: Club, other_arbiter_client: Client
) -> None:
    assert other_arbiter_client.get("/c/riverside/arbiter/initial-list/").status_code == 404
    response = other_arbiter_client.post(
        "/c/riverside/arbiter/initial-list/upload/", {"file": SimpleUploadedFile("list.csv", LIST)}
    )
    assert response.status_code == 404 and not InitialEntry.objects.exists()


def test_a_games_count_beyond_the_maximum_is_a_message_never_a_500(
    club: Club, arbiter_client: Client
) -> None:
    response = arbiter_client.post(
        "/c/riverside/arbiter/initial-list/upload/",
        {
            "file": SimpleUploadedFile(
                "big.csv",
                b"name,rating,games\nAnna Smith,1650,3\nBob Jones,1400,99999999999999999999999\n",
            )
        },
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert (
        "big.csv:3: games &#x27;99999999999999999999999&#x27;: "
        "expected a whole number of rated games from 0 to 100000" in page
    )
    assert (
        not InitialEntry.objects.exists()
        and not AuditEntry.objects.filter(action="seed-ratings").exists()
    )
