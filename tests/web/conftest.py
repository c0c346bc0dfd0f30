"""Fixtures for the website's tests: a club with a few published tournaments, arbiters."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubrating.club.store.models import Club, Member, Tournament
from clubrating.formats.typed import parse_typed
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import set_member_flags
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament, publish

WHO = "test:arbiter"
PASSWORD = "correct horse battery staple"
TODAY = dt.date(2030, 1, 1)

EVENING = """
1, Anna Smith, Bob Jones, 1-0
1, Carl Berg, Dana White, 1/2-1/2
2, Anna Smith, Carl Berg, 1-0
2, Bob Jones, Dana White, +-
3, Dana White, Anna Smith, 0-1
3, Bob Jones, Carl Berg, 0-1
"""


def publish_typed(
    club: Club, text: str, name: str, date: dt.date, *, juniors: bool = False
) -> Tournament:
    record = parse_typed(text, name=name, date=date)
    tournament = import_tournament(club, record, who=WHO, today=TODAY, has_juniors=juniors)
    accept_exact(tournament, who=WHO)
    all_new_members(tournament, who=WHO)
    publish(tournament, who=WHO)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def club(db: None) -> Club:
    club = create_club("Riverside Chess Club", who=WHO, slug="riverside")
    set_privacy(club, who=WHO, visibility="public")
    Club.objects.filter(pk=club.pk).update(
        cpi_weights={"preset": "spec"}
    )  # as tests/club/conftest.spec_cpi
    club.cpi_weights = {"preset": "spec"}
    return club


@pytest.fixture
def evening(club: Club) -> Tournament:
    """One published evening: Anna 3/3, Carl 2.5, Bob 1 (a forfeit win), Dana ½ (a junior)."""
    t = publish_typed(club, EVENING, "Tuesday Rapid", dt.date(2024, 1, 9))
    dana = Member.objects.get(club=club, name="Dana White")
    set_member_flags(dana, who=WHO, junior=True)
    return t


def member(club: Club, name: str) -> Member:
    return Member.objects.get(club=club, name=name)


def make_arbiter(club: Club, username: str) -> User:
    user = User.objects.create_user(username=username, password=PASSWORD)
    club.arbiters.add(user)
    return user


@pytest.fixture
def arbiter_client(club: Club) -> Client:
    client = Client()
    client.force_login(make_arbiter(club, "anna-arbiter"))
    return client


@pytest.fixture
def other_arbiter_client(db: None) -> Client:
    other = create_club("Other Club", who=WHO, slug="other")
    client = Client()
    client.force_login(make_arbiter(other, "olga"))
    return client


Getter = Callable[..., Any]


@pytest.fixture(autouse=True)
def empty_page_cache() -> None:
    """The page cache lives in the process; ids repeat between tests rolled back."""
    from django.core.cache import cache

    cache.clear()
