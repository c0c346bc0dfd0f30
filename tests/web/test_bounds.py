"""The arbiter's forms against rounds, boards and names beyond any tournament:
a clear message, never a 500, nothing stored."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubrating.club.store.models import Club, Game, Tournament
from clubrating.formats.records import MAX_NAME_LENGTH, MAX_ROUNDS

HUGE = "99999999999999999999"
UPLOAD = "/c/riverside/arbiter/upload/"


@pytest.mark.parametrize(
    "rows, said",
    [
        (
            f"{HUGE}, Anna Smith, Bob Jones, 1-0",
            f"typed:1: round {HUGE}: expected a round number from 1 to {MAX_ROUNDS}",
        ),
        ("20000, Anna Smith, Bob Jones, 1-0", "typed:1: round 20000: expected"),
        (
            f"1, Anna Smith, Bob Jones, 1-0\n{MAX_ROUNDS + 1}, Anna Smith, bye",
            f"typed:2: round {MAX_ROUNDS + 1}: expected",
        ),
        (
            f"1, {'A' * (MAX_NAME_LENGTH + 1)}, Bob Jones, 1-0",
            f"typed:1: a name of {MAX_NAME_LENGTH + 1} characters",
        ),
        ("², Anna Smith, Bob Jones, 1-0", "typed:1: expected a round number first"),
    ],
)
def test_typed_results_beyond_the_bounds_are_a_message_and_nothing_is_stored(
    club: Club, arbiter_client: Client, rows, said
) -> None:
    response = arbiter_client.post(UPLOAD, {"rows": rows, "name": "Night", "date": "2024-03-05"})
    assert response.status_code == 200
    assert said in response.content.decode()
    assert not Tournament.objects.filter(club=club).exists()


@pytest.mark.parametrize(
    "body, said",
    [
        (f"{HUGE},Anna,Bob,1-0", f"night.csv:4: round {HUGE}: expected"),
        (f"1,{'A' * 131_073},Bob,1-0", "night.csv:4: unreadable fields"),
    ],
)
def test_an_uploaded_file_beyond_the_bounds_is_a_message_and_nothing_is_stored(
    club: Club, arbiter_client: Client, body, said
) -> None:
    data = f"# event: Night\n# date: 2024-03-05\nround,white,black,result\n{body}\n".encode()
    response = arbiter_client.post(UPLOAD, {"file": SimpleUploadedFile("night.csv", data)})
    assert response.status_code == 200
    assert said in response.content.decode()
    assert not Tournament.objects.filter(club=club).exists()


@pytest.mark.parametrize("game", [HUGE, "-1", "1e9", "²"])
def test_the_correction_form_with_no_such_game_is_a_message(
    club: Club, evening: Tournament, arbiter_client: Client, game
) -> None:
    before = list(
        Game.objects.filter(tournament=evening).values_list("white_points", "black_points")
    )
    response = arbiter_client.post(
        f"/c/riverside/arbiter/t/{evening.id}/result/", {"game": game, "result": "0-1"}, follow=True
    )
    assert response.status_code == 200
    assert "no such game in this tournament" in response.content.decode()
    assert (
        list(Game.objects.filter(tournament=evening).values_list("white_points", "black_points"))
        == before
    )
