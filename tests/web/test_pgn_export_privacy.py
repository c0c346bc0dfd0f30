"""R18 on the website: an uploaded PGN keeps names, results, moves and clocks; the arbiter
is told what was dropped, and the public PGN export publishes no comment nor other tag."""

from __future__ import annotations

from django.core.cache import cache
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubrating.club.store.models import Club, Game, Tournament

from .conftest import WHO
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import publish

CHILD = """[Event "Junior Cup"]
[Site "Club room"]
[Date "2025.03.01"]
[Round "1"]
[White "Lena Novak"]
[Black "Tom Baker"]
[Result "1-0"]
[WhiteBirthDate "2014.05.17"]
[BlackEmail "tom.parent@example.org"]
[WhiteFideId "12345678"]

1. e4 { [%clk 0:10:00] Lena, born 2014, phone 0171 555 0199 } 1... e5 { [%clk 0:09:58] }
2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

"""
PRIVATE = (
    "2014",
    "0171",
    "555",
    "phone",
    "example.org",
    "12345678",
    "BirthDate",
    "Email",
    "FideId",
)


def _publish(club: Club, arbiter_client: Client) -> tuple[Tournament, list[str]]:
    response = arbiter_client.post(
        "/c/riverside/arbiter/upload/", {"file": SimpleUploadedFile("junior.pgn", CHILD.encode())}
    )
    assert response.status_code == 302
    said = [str(m) for m in get_messages(response.wsgi_request)]
    t = Tournament.objects.get(club=club, name="Junior Cup")
    all_new_members(t, who=WHO)
    publish(t, who=WHO)
    return t, said


def test_an_uploaded_pgn_is_stored_without_comments_or_other_tags_and_the_arbiter_is_told(
    club: Club, arbiter_client: Client
) -> None:
    t, said = _publish(club, arbiter_client)
    game = Game.objects.get(tournament=t)
    stored = f"{game.moves} {game.headers}"
    assert [p for p in PRIVATE if p in stored] == []
    assert "[%clk 0:09:58]" in game.moves
    (dropped,) = [m for m in said if "not stored" in m]
    assert "WhiteBirthDate" in dropped and "BlackEmail" in dropped and "comments" in dropped
    pgn = Client().get(f"/c/riverside/t/{t.id}/games.pgn").content.decode()
    assert "Qxf7#" in pgn and [p for p in PRIVATE if p in pgn] == []


def test_the_pgn_export_drops_the_comments_and_tags_of_a_game_stored_before(
    club: Club, arbiter_client: Client
) -> None:
    t, _ = _publish(club, arbiter_client)
    # A game imported before the reader dropped them (the stored history of an older version).
    Game.objects.filter(tournament=t).update(
        moves=CHILD.split("\n\n", 1)[1].strip(),
        headers={"WhiteBirthDate": "2014.05.17", "Event": "Junior Cup"},
    )
    cache.clear()  # written behind the services' back: no audit entry tells the page cache
    pgn = Client().get(f"/c/riverside/t/{t.id}/games.pgn").content.decode()
    assert "Qxf7#" in pgn and "[%clk 0:09:58]" in pgn
    assert [p for p in PRIVATE if p in pgn] == []
