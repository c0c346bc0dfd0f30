"""Every public page of a club, for the archive's tests: run as
``python archive_pages.py DATABASE_URL SLUG...`` it prints one JSON document, for each club
its pages by address (status and body, read by an anonymous visitor through Django's test
client) and its ids of each kind in the order they were stored (``viewer``: the games with
moves, whose viewer pages are read). The clubs of one database in one process: Django starts
once."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

PAGES_OF_A_TOURNAMENT = (
    "",
    "tournament.trf",
    "games.pgn",
    "standings.csv",
    "print/pairings/",
    "print/names/",
    "print/wallchart/",
)
PAGES_OF_A_PLAYER = ("", "history.csv", "history.json", "card.csv", "card.json", "cpi/")
PAGES_OF_A_GAME = ("", "game.pgn")


def club_ids(slug: str) -> dict[str, list[int]]:
    from clubrating.club.store.models import Game, Member, Tournament

    return {
        "t": list(
            Tournament.objects.filter(club__slug=slug).order_by("pk").values_list("pk", flat=True)
        ),
        "p": list(
            Member.objects.filter(club__slug=slug).order_by("pk").values_list("pk", flat=True)
        ),
        "g": list(
            Game.objects.filter(tournament__club__slug=slug)
            .order_by("pk")
            .values_list("pk", flat=True)
        ),
        "viewer": list(
            Game.objects.filter(tournament__club__slug=slug)
            .exclude(moves="")
            .order_by("pk")
            .values_list("pk", flat=True)
        ),
    }


def addresses(slug: str, ids: dict[str, list[int]]) -> list[str]:
    club, api = f"/c/{slug}/", f"/api/c/{slug}/"
    found = [
        club,
        f"{club}ratings.csv",
        f"{club}ratings.json",
        f"{club}t/",
        f"{api}ratings",
        f"{api}tournaments",
    ]
    for kind, pages, key in (
        ("t", PAGES_OF_A_TOURNAMENT, "t"),
        ("p", PAGES_OF_A_PLAYER, "p"),
        ("g", PAGES_OF_A_GAME, "viewer"),
    ):
        found += [f"{club}{kind}/{pk}/{page}" for pk in ids[key] for page in pages]
    found += [f"{api}players/{pk}" for pk in ids["p"]] + [
        f"{api}tournaments/{pk}" for pk in ids["t"]
    ]
    return found


def public_pages(slug: str) -> dict[str, Any]:
    from django.test import Client

    client = Client()
    ids = club_ids(slug)
    pages = {}
    for address in addresses(slug, ids):
        response = client.get(address)
        if response.streaming:
            body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
        else:
            body = response.content
        pages[address] = [response.status_code, body.decode("utf-8", "replace")]
    return {"ids": ids, "pages": pages}


if __name__ == "__main__":
    from clubrating import djangoenv

    logging.disable(logging.WARNING)  # not a line per page a visitor may not see
    djangoenv.setup(sys.argv[1], migrate=False)
    json.dump({slug: public_pages(slug) for slug in sys.argv[2:]}, sys.stdout)
