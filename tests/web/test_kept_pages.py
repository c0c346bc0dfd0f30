"""A read page at a new address (a query string the page cache has not seen) is made from the
parts kept for the club's history version (web/views.kept): byte for byte the page made anew,
with none of the work of its rows done again (docs/benchmarks.md, "Rendered pages at 20
clients")."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.store.models import Club, Member, Tournament
from clubrating.web import card, tables, views
from clubrating.web.access import history_version

from .conftest import publish_typed


@pytest.fixture
def club(db: None) -> Club:
    """Ten players over three evenings, one of them with juniors; two time controls."""
    club = create_club("Riverside", who="t", slug="riverside")
    set_privacy(club, who="t", visibility="public")
    for evening in range(3):
        lines = [
            f"{r}, Player {(evening + 2 * b) % 10}, Player {(evening + 2 * b + 1) % 10}, "
            f"{['1-0', '0-1', '1/2-1/2'][(r + b) % 3]}"
            for r in (1, 2)
            for b in range(5)
        ]
        publish_typed(
            club,
            "\n".join(lines),
            f"Evening {evening}",
            dt.date(2024, 1, 2) + dt.timedelta(days=7 * evening),
            juniors=evening == 1,
        )
    return club


def addresses(club: Club) -> list[str]:
    first = Member.objects.filter(club=club).order_by("id").first()
    newest = Tournament.objects.filter(club=club).order_by("-id").first()
    assert first is not None and newest is not None
    opponent = (
        Member.objects.filter(club=club).exclude(id=first.id).order_by("id").values("id")[0]["id"]
    )
    c = f"/c/{club.slug}/"
    return [
        c,
        f"{c}?list=standard",
        f"{c}?q=player+1",
        f"{c}?q=nobody",
        f"{c}p/{first.id}/",
        f"{c}p/{first.id}/?vs={opponent}",
        f"{c}p/{first.id}/?vs=99999",
        f"{c}p/{first.id}/card.json",
        f"{c}t/{newest.id}/",
        f"{c}t/",
    ]


@pytest.mark.parametrize("language", ["en", "hy", "ru"])
def test_a_page_at_a_new_address_is_the_page_made_anew_byte_for_byte(
    club: Club, language: str
) -> None:
    client = Client(headers={"accept-language": language})
    for address in addresses(club):
        join = "&" if "?" in address else "?"
        cache.clear()
        made = client.get(f"{address}{join}at=1")
        kept = client.get(f"{address}{join}at=2")
        assert made.status_code == kept.status_code == 200, address
        assert kept.content.replace(b"at=2", b"at=1") == made.content, address


def test_a_club_page_at_a_new_address_reads_only_the_club_with_its_history_version(
    club: Club,
) -> None:
    client = Client()
    assert client.get(f"/c/{club.slug}/?at=1").status_code == 200
    with CaptureQueriesContext(connection) as read:
        assert client.get(f"/c/{club.slug}/?at=2").status_code == 200
    (query,) = [q["sql"] for q in read.captured_queries]
    assert "club_auditentry" in query and "club_rebuildlog" in query


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, calls: Counter[str]) -> None:
    made: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return made(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_a_player_page_at_a_new_address_writes_none_of_its_tables_again(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: Counter[str] = Counter()
    for module, name in (
        (tables, "history_rows"),
        (card, "game_rows"),
        (card, "head_to_head_rows"),
    ):
        counting(monkeypatch, module, name, calls)
    player = Member.objects.filter(club=club).order_by("id")[0]
    page = f"/c/{club.slug}/p/{player.id}/"
    client = Client()
    opponent = client.get(f"{page}card.json").json()["card"]["head_to_head"][0]["opponent_id"]
    for query, written in (
        ("at=1", 1),
        ("at=2", 0),
        (f"vs={opponent}", 1),
        (f"vs={opponent}&at=2", 0),
    ):
        calls.clear()
        assert client.get(f"{page}?{query}").status_code == 200
        expected = Counter(
            dict.fromkeys(("history_rows", "game_rows", "head_to_head_rows"), written)
        )
        assert calls == expected, query


def test_the_kept_standings_hold_the_crosstables_html_and_not_its_rows(club: Club) -> None:
    """Unpickling 300 players' rows and cells for each request took 25 ms: the tournament page
    keeps what its template reads."""
    newest = Tournament.objects.filter(club=club).order_by("-id")[0]
    assert Client().get(f"/c/{club.slug}/t/{newest.id}/").status_code == 200
    with translation.override("en"):
        key = (
            f"clubrating.part:{history_version(club)}:{translation.get_language()}:"
            f"/c/{club.slug}/:tournament:{newest.id}"
        )
    part = cache.get(key)
    assert part is not None and part["players_html"].count("<tr>") == 10
    assert set(part) == {*views.TOURNAMENT_PAGE_KEYS, "players_html"}
    assert "players" not in part


def test_a_card_at_a_new_address_is_not_written_as_json_again(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = Member.objects.filter(club=club).order_by("id")[0]
    client = Client()
    assert client.get(f"/c/{club.slug}/p/{player.id}/card.json?at=1").status_code == 200
    calls: Counter[str] = Counter()
    counting(monkeypatch, json, "dumps", calls)
    again = client.get(f"/c/{club.slug}/p/{player.id}/card.json?at=2")
    assert again.status_code == 200 and again["Content-Type"] == "application/json"
    assert again.json()["member_id"] == player.id and calls["dumps"] == 0


def test_a_tournament_page_at_a_new_address_renders_only_its_header(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    newest = Tournament.objects.filter(club=club).order_by("-id")[0]
    client = Client()
    calls: Counter[str] = Counter()
    counting(monkeypatch, views, "render_to_string", calls)
    assert client.get(f"/c/{club.slug}/t/{newest.id}/?at=1").status_code == 200
    assert calls["render_to_string"] == 1  # the page below its header, once
    assert client.get(f"/c/{club.slug}/t/{newest.id}/?at=2").status_code == 200
    assert calls["render_to_string"] == 1
