"""Fixtures for the club's storage tests (run on SQLite and on PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import Club, Tournament
from clubrating.formats.records import (
    Bye,
    ByeKind,
    Pairing,
    PlayerEntry,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.club.services.clubs import create_club
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament
from clubrating.club.services import tournaments as tournament_services

ARBITER = "test:arbiter"
RESULT = {
    "1-0": (2, 0, True),
    "0-1": (0, 2, True),
    "=": (1, 1, True),
    "+-": (2, 0, False),
    "-+": (0, 2, False),
}


def make_record(
    name: str,
    date: dt.date,
    players: Sequence[str],
    games: Sequence[tuple[int, str, str, str]],
    byes: Sequence[tuple[int, str, int]] = (),
    kind: TournamentKind = TournamentKind.CHESS,
) -> TournamentRecord:
    """A tournament written in code: games are (round, white, black, result) with names."""
    number = {p: i for i, p in enumerate(players, 1)}
    pairings = []
    for rnd, white, black, result in games:
        w, b, played = RESULT[result]
        pairings.append(
            Pairing(
                round=rnd,
                white=number[white],
                black=number[black],
                white_points=w,
                black_points=b,
                played=played,
                unplayed=None if played else Unplayed.FORFEIT,
            )
        )
    return TournamentRecord(
        name=name,
        date=date,
        players=tuple(PlayerEntry(number[p], p) for p in players),
        pairings=tuple(pairings),
        byes=tuple(
            Bye(rnd, number[p], pts, ByeKind.HALF_POINT if pts == 1 else ByeKind.PAIRING)
            for rnd, p, pts in byes
        ),
        rounds=max([g[0] for g in games] + [b[0] for b in byes] + [0]),
        kind=kind,
        source=f"{name}.csv",
        format="csv",
    )


@pytest.fixture(autouse=True)
def restore_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI records the chosen database in the environment: undo that after each test."""
    monkeypatch.setenv("CLUBRATING_DATABASE_URL", os.environ.get("CLUBRATING_DATABASE_URL", ""))


@pytest.fixture
def club(db: None) -> Club:
    return spec_cpi(create_club("Test Chess Club", who=ARBITER))


def spec_cpi(club: Club) -> Club:
    """The club's CPI under the specification's arithmetic (C1 weights, C2 running sum, every
    game scored): the tests of the ledger's mechanics were written against it. A new club's
    default, a fitted preset, has tests of its own (test_cpi_fit.py)."""
    Club.objects.filter(pk=club.pk).update(cpi_weights={"preset": "spec"})
    club.cpi_weights = {"preset": "spec"}
    return club


Publisher = Callable[..., Tournament]


@pytest.fixture
def publish(club: Club) -> Publisher:
    """Import a tournament, link every name (exact matches, else new members), publish it."""

    def run(
        name: str,
        date: dt.date,
        players: Sequence[str],
        games: Sequence[tuple[int, str, str, str]],
        byes: Sequence[tuple[int, str, int]] = (),
        kind: TournamentKind = TournamentKind.CHESS,
    ) -> Tournament:
        record = make_record(name, date, players, games, byes, kind)
        tournament = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
        accept_exact(tournament, who=ARBITER)
        all_new_members(tournament, who=ARBITER)
        tournament_services.publish(tournament, who=ARBITER)
        tournament.refresh_from_db()
        return tournament

    return run


# The four regulars of the evening tests, with club ratings from one published February tournament.
EVENING_DAY = dt.date(2024, 3, 5)
REGULARS = ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"]
REGULARS_BEFORE = [
    (1, "Anna Berg", "Ben Cole", "1-0"),
    (1, "Cara Dunn", "Dan Eng", "1-0"),
    (2, "Anna Berg", "Cara Dunn", "1-0"),
    (2, "Ben Cole", "Dan Eng", "1-0"),
    (3, "Dan Eng", "Anna Berg", "0-1"),
    (3, "Ben Cole", "Cara Dunn", "0-1"),
]


@pytest.fixture
def regulars(club: Club, publish: Publisher) -> Club:
    """Four members with club ratings: Anna 3/3, Cara 2, Ben 1, Dan 0."""
    publish("February", dt.date(2024, 2, 6), REGULARS, REGULARS_BEFORE)
    return club


def register_all(t: Tournament, names: Sequence[str]) -> Tournament:
    """Register ``names`` for the evening ``t`` and link each: an exact name to its member, any
    other to a new member."""
    for name in names:
        evening.register(t, name, who=ARBITER)
    accept_exact(t, who=ARBITER)
    all_new_members(t, who=ARBITER)
    return t
