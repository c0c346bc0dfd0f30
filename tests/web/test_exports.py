"""Exports (CSV, JSON, TRF, PGN) and the JSON API with its OpenAPI description."""

from __future__ import annotations

import csv
import io
import json

import chess.pgn
from django.test import Client
from django.urls import get_resolver

from clubrating.club.services.moves import attach_typed_moves
from clubrating.club.services.tournaments import correct_result
from clubrating.club.store.models import Club, Game, Tournament
from clubrating.formats.pgn import read_pgn
from clubrating.formats.trf import read_trf
from clubrating.web.api import OPENAPI

from .conftest import WHO, member


def test_the_rating_list_csv_has_fide_column_names_and_one_row_a_player(
    club: Club, evening: Tournament
) -> None:
    response = Client().get("/c/riverside/ratings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="riverside-standard.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == ["Rank", "ID", "Name", "Rtg", "Gms", "Flag", "Last played", "List"]
    by_name = {r["Name"]: r for r in rows}
    assert set(by_name) == {"Anna Smith", "Bob Jones", "Carl Berg", "D. W."}
    assert by_name["Anna Smith"]["Gms"] == "3" and by_name["Anna Smith"]["Flag"] == "p"
    assert float(by_name["Anna Smith"]["Rtg"]) > 1200 > float(by_name["D. W."]["Rtg"])


def test_the_rating_list_json_matches_the_page(club: Club, evening: Tournament) -> None:
    doc = Client().get("/c/riverside/ratings.json").json()
    assert (
        doc["club"] == {"slug": "riverside", "name": "Riverside Chess Club"}
        and doc["list"] == "standard"
    )
    assert [p["name"] for p in doc["players"]][0] == "Anna Smith"
    assert all(
        set(p)
        == {
            "rank",
            "member_id",
            "name",
            "rating",
            "games",
            "provisional",
            "inactive",
            "last_played",
        }
        for p in doc["players"]
    )


def test_the_player_history_json_has_lichess_shape_with_zero_based_months(
    club: Club, evening: Tournament
) -> None:
    anna = member(club, "Anna Smith")
    doc = json.loads(Client().get(f"/c/riverside/p/{anna.id}/history.json").content)
    assert len(doc) == 1 and doc[0]["name"] == "Standard"
    [[year, month, day, rating]] = doc[0]["points"]
    assert (year, month, day) == (2024, 0, 9)  # 9 January 2024: lichess counts months from 0
    assert rating > 1200


def test_the_player_history_csv_has_one_row_a_tournament(club: Club, evening: Tournament) -> None:
    anna = member(club, "Anna Smith")
    rows = list(
        csv.DictReader(
            io.StringIO(Client().get(f"/c/riverside/p/{anna.id}/history.csv").content.decode())
        )
    )
    assert len(rows) == 1
    assert rows[0]["Date"] == "2024-01-09" and rows[0]["Tournament"] == "Tuesday Rapid"
    assert (
        rows[0]["Score"] == "3.0"
        and rows[0]["Games rated"] == "3"
        and rows[0]["Rating before"] == "1200.0"
    )


def test_the_tournament_trf_export_reads_back_with_the_same_games(
    club: Club, evening: Tournament
) -> None:
    response = Client().get(f"/c/riverside/t/{evening.id}/tournament.trf")
    assert response["Content-Disposition"].endswith('.trf"')
    record = read_trf(io.StringIO(response.content.decode()), "export.trf")
    assert len(record.players) == 4 and len(record.pairings) == 6
    assert sum(1 for p in record.pairings if not p.played) == 1
    assert {p.name for p in record.players} == {"Anna Smith", "Bob Jones", "Carl Berg", "D. W."}


def test_the_pgn_export_without_moves_gives_every_played_game_with_its_result(
    club: Club, evening: Tournament
) -> None:
    text = Client().get(f"/c/riverside/t/{evening.id}/games.pgn").content.decode()
    assert text.count("[Event ") == 5  # the forfeit was not played
    record = read_pgn(io.StringIO(text), "export.pgn")
    assert len(record.pairings) == 5


def test_the_api_serves_ratings_players_and_tournaments(club: Club, evening: Tournament) -> None:
    client = Client()
    anna = member(club, "Anna Smith")
    ratings = client.get("/api/c/riverside/ratings").json()
    assert ratings["lists"] == ["standard"] and len(ratings["players"]) == 4
    player = client.get(f"/api/c/riverside/players/{anna.id}").json()
    assert (
        player["name"] == "Anna Smith"
        and len(player["games"]) == 3
        and player["history"][0]["rated"]
    )
    assert [t["name"] for t in client.get("/api/c/riverside/tournaments").json()] == [
        "Tuesday Rapid"
    ]
    standings = client.get(f"/api/c/riverside/tournaments/{evening.id}").json()
    assert (
        standings["players"][0]["name"] == "Anna Smith" and standings["players"][0]["points"] == 3.0
    )
    assert client.get("/api/c/riverside/players/999999").json() == {"error": "not found"}
    assert client.get("/api/clubs").json() == [
        {"slug": "riverside", "name": "Riverside Chess Club", "api": "/api/c/riverside/"}
    ]


def test_every_api_route_is_described_in_the_openapi_document(db: None) -> None:
    doc = Client().get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.") and doc == json.loads(json.dumps(OPENAPI))
    described = set(doc["paths"])
    routes = set()
    for pattern in get_resolver().url_patterns:
        prefix = str(pattern.pattern)
        if not prefix.startswith("api/") or prefix == "api/openapi.json":
            continue
        inner = getattr(pattern, "url_patterns", [None])
        for sub in inner:
            path = prefix + (str(sub.pattern) if sub is not None else "")
            path = path.replace("<slug:slug>", "{ref}").replace("<slug:token>", "{ref}")
            path = path.replace("<int:member_id>", "{member_id}").replace(
                "<int:tournament_id>", "{tournament_id}"
            )
            routes.add("/" + path)
    assert routes == described
    for path, item in doc["paths"].items():
        refs = [
            r["content"]["application/json"]["schema"] for r in item["get"]["responses"].values()
        ]
        for schema in refs:
            name = (
                schema.get("$ref", "").rsplit("/", 1)[-1]
                or schema.get("items", {}).get("$ref", "").rsplit("/", 1)[-1]
            )
            assert not name or name in doc["components"]["schemas"], (path, name)


def test_exports_of_an_unlisted_club_carry_noindex(club: Club, evening: Tournament) -> None:
    from clubrating.club.services.clubs import set_privacy

    set_privacy(club, who="t", visibility="unlisted")
    for suffix in ("ratings.csv", "ratings.json", f"t/{evening.id}/tournament.trf"):
        assert Client().get(f"/u/{club.token}/{suffix}")["X-Robots-Tag"] == "noindex, nofollow"


def test_the_pgn_export_of_moves_whose_game_both_players_lost_by_forfeit(
    club: Club, evening: Tournament
) -> None:
    """Moves typed for a board, then both players lost by forfeit: PGN has no result for it,
    and the download was a server error; it gives the moves with "*" and a forfeit."""
    game = Game.objects.filter(tournament=evening, white__name="Anna Smith").first()
    assert game is not None
    attach_typed_moves(game, "1. e4 e5 2. Nf3 Nc6", who=WHO, confirm=True)
    correct_result(game, "--", who=WHO)
    response = Client().get(f"/c/riverside/t/{evening.id}/games.pgn")
    assert response.status_code == 200
    written = chess.pgn.read_game(io.StringIO(response.content.decode()))
    assert written is not None and len(list(written.mainline_moves())) == 4
    assert written.headers["Result"] == "*" and written.headers["Termination"] == "forfeit"
