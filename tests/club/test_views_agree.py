"""Every view agrees with the store: the crawl (crawl.py) on the cases it found wrong, and the
rule that a route or a command added later is crawled or said to show no figure.

The crawl also runs at the end of every example of the state machine (test_state_machine.py)
and on the small demo club (tests/test_demo.py)."""

from __future__ import annotations

import argparse
import datetime as dt

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubrating.cli import build_parser
from clubrating.club.read import members, tournaments
from clubrating.club.store.models import Club, Member, RatingChange

from .conftest import ARBITER, Publisher
from .crawl_read import trf_players
from .crawl import (
    ARBITER_FORMS,
    COMMANDS,
    NO_FIGURE_COMMANDS,
    NO_FIGURES,
    ROUTES,
    arbiter_client,
    crawl,
)
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.members import merge


def two_spellings_merged(club: Club, publish: Publisher) -> tuple[int, Member, Member]:
    """The user's case: two tournaments, names linked to members, then the two spellings of one
    person merged. Returns the second tournament's id, the member merged away, the one it became."""
    publish(
        "One", dt.date(2026, 3, 2), ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")]
    )
    two = publish(
        "Two",
        dt.date(2026, 3, 9),
        ["Berg, Anna X", "Ben Cole", "Cara Dunn"],
        [(1, "Berg, Anna X", "Ben Cole", "0-1"), (2, "Cara Dunn", "Berg, Anna X", "=")],
    )
    absorbed, into = Member.objects.get(name="Berg, Anna X"), Member.objects.get(name="Anna Berg")
    merge(absorbed, into, who=ARBITER)
    return two.id, absorbed, into


def test_a_merged_members_rated_tournament_reads_rated_on_every_view(
    club: Club, publish: Publisher
) -> None:
    """A merge made the absorbed member's row "not rated" on the tournament's page, API, CSV and
    command, and the TRF's club ratings gave him his current rating instead of the one before."""
    tid, absorbed, into = two_spellings_merged(club, publish)
    stored = RatingChange.objects.get(tournament_id=tid, member=into)
    web = arbiter_client(club)
    players = web.get(f"/api/c/{club.slug}/tournaments/{tid}").json()["players"]
    row = next(p for p in players if p["number"] == 1)
    assert (row["member_id"], row["rating_before"], row["rating_after"]) == (
        into.id,
        stored.rating_before,
        stored.rating_after,
    )
    players = trf_players(web.get(f"/c/{club.slug}/t/{tid}/tournament.trf?ratings=club").content)
    assert next(p.rating for p in players if p.startrank == 1) == round(stored.rating_before)
    assert crawl(club) == []


def test_the_crawl_sees_a_view_that_does_not_follow_a_merge(
    club: Club, publish: Publisher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crawl can fail: with the tournament's reads blind to merges again (as before the fix),
    it reports the merged member's row on each view of the tournament, and nothing else."""
    tid, _, _ = two_spellings_merged(club, publish)
    for reads in (tournaments, members):  # the tournament's reads, and persons_now they share
        monkeypatch.setattr(reads, "merged_persons", lambda club: {})
    found = crawl(club)
    for view in (
        "tournament page",
        "standings.csv",
        "TRF",
        "API tournament",
        "clubrating tournament",
    ):
        assert any(line.startswith(f"{view} {tid}") for line in found), (view, found)
    assert all(f" {tid}" in line.split(":")[0] for line in found), found


def routes(patterns: list[URLPattern | URLResolver], where: str = "site") -> list[tuple[str, str]]:
    """(where, pattern) of every route: "club", "api", "arbiter" by the prefix they sit under."""
    out = []
    for p in patterns:
        if isinstance(p, URLResolver):
            prefix = str(p.pattern)
            inner = (
                "arbiter"
                if prefix.endswith("arbiter/")
                else "api"
                if prefix.startswith("api/")
                else "club"
            )
            out += routes(p.url_patterns, inner)
        else:
            out.append((where, str(p.pattern)))
    return out


def test_every_route_is_crawled_or_said_to_show_no_figure() -> None:
    unknown = [
        r
        for r in routes(get_resolver().url_patterns)
        if r not in ROUTES and r not in NO_FIGURES and r[0] != "arbiter"
    ]
    assert unknown == [], (
        f"add these routes to the crawl (crawl.py ROUTES) or say why they show no figure: {unknown}"
    )
    assert ARBITER_FORMS and all(ROUTES.values()) and all(NO_FIGURES.values())


def test_every_command_is_crawled_or_said_to_show_no_figure() -> None:
    verbs = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    unknown = sorted(set(verbs) - set(COMMANDS) - set(NO_FIGURE_COMMANDS))
    assert unknown == [], (
        f"add these commands to the crawl (crawl.py COMMANDS) or say why they show none: {unknown}"
    )
    assert set(COMMANDS) <= set(verbs) and not set(COMMANDS) & set(NO_FIGURE_COMMANDS)


def test_a_public_visitor_reads_the_same_pages(club: Club, publish: Publisher) -> None:
    """The crawl reads as an arbiter (every club, any visibility); a public page is the same
    read."""
    tid, _, into = two_spellings_merged(club, publish)
    set_privacy(club, who=ARBITER, visibility="public")
    players = Client().get(f"/api/c/{club.slug}/tournaments/{tid}").json()["players"]
    assert next(p["member_id"] for p in players if p["number"] == 1) == into.id
