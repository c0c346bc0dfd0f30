"""``clubrating privacy``: the link it prints is the one the website answers."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from clubrating.cli import main
from clubrating.club.store.models import Club, Tournament


def test_the_unlisted_link_printed_by_privacy_opens_the_club_page(
    club: Club, evening: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["privacy", "--club", "riverside", "--visibility", "unlisted"]) == 0
    out = capsys.readouterr().out
    (link,) = [
        line.removeprefix("link: ") for line in out.splitlines() if line.startswith("link: ")
    ]
    club.refresh_from_db()
    assert link == f"/u/{club.token}/"
    assert Client().get(link).status_code == 200


def test_privacy_json_gives_the_unlisted_link_and_none_for_an_arbiter_only_club(
    club: Club, evening: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "privacy",
                "--club",
                "riverside",
                "--visibility",
                "unlisted",
                "--rotate-token",
                "--json",
            ]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    club.refresh_from_db()
    assert document["link"] == f"/u/{club.token}/"
    assert Client().get(document["link"]).status_code == 200
    assert main(["privacy", "--club", "riverside", "--visibility", "public", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["link"] == "/c/riverside/"
    assert main(["privacy", "--club", "riverside", "--visibility", "arbiter", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["link"] is None
