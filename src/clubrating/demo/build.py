"""The demo club's build, the part that needs no club app: its settings, the simulated club
staged (:mod:`clubrating.demo.simulate`), the engine that plays its last evenings
(:mod:`clubrating.demo.selfplay`), and the build's all or nothing. The simulated arbiter who
stores the club through the services is :mod:`clubrating.demo.arbiter`, imported once Django is
set up on the demo's database (a new SQLite file is built under a name of its own).

The simulated arbiter does what a real one does: imports each evening,
confirms which typed name is which member (it knows the truth behind every
misspelling), publishes, corrects one result weeks later, and once links a
misspelled name to a new member by mistake and merges it afterwards (R12).

The last evenings are played over the board by Stockfish, each member at a
strength of their own (:mod:`clubrating.demo.selfplay`), with clocks; the
rest have results only. Each game is analysed as soon as it is played, so the
CPI dashboard and the coach have something to show when the server starts.

All or nothing: a new SQLite file is built under a temporary name and moved
into place only when the club is complete; any other database gets the whole
club in one transaction. A failure leaves no club behind.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess.pgn
import dj_database_url
from django.conf import settings as django_settings
from django.db import connections, transaction
from django.utils import timezone

from clubrating import djangoenv
from clubrating.demo.selfplay import TIME_CONTROL, GameOrder, Referee, side_for
from clubrating.demo.simulate import BoardResult, Encounter, StagedClub, stage_club
from clubrating.errors import InputError, Text
from clubrating.words import N_, Nn_

DEMO_SLUG = "demo"
DEMO_ARBITER = ("arbiter", "demo-arbiter-password")
WHO = "demo:arbiter"
WITH_MOVES = (
    2  # ours: evenings played over the board (about 100 games of the default club: a minute)
)
PLAY_NODES = 2_000  # ours: engine nodes per move of the players (selfplay.DEFAULT_NODES)
ANALYSIS_NODES = 2_000  # ours: engine nodes per position of the demo's analysis (a minute's build)
CLUB_NIGHT = 1  # Tuesday (date.weekday()): the club's night, as in simulate.SEASON_START


@dataclass(frozen=True)
class DemoSettings:
    seed: int = 2026
    seasons: int = 3
    members: int = 40
    with_moves: int = WITH_MOVES
    play_nodes: int = PLAY_NODES
    nodes: int = ANALYSIS_NODES
    jobs: int | None = None  # engine processes (default: $CLUBRATING_JOBS or the cores)
    engine: str | None = None  # default: $CLUBRATING_ENGINE or Debian's Stockfish
    book: str | None = None  # default: $CLUBRATING_BOOK or Debian's gnuchess-book
    today: dt.date | None = None  # default: today (the club's time zone)


def say(text: Text) -> None:
    """A line of progress on stderr, in the command's language."""
    print(f"demo: {text.translated(djangoenv)}", file=sys.stderr, flush=True)


def last_club_night(today: dt.date) -> dt.date:
    """The latest club night on or before ``today``: the demo's last evening is never in the
    future."""
    return today - dt.timedelta(days=(today.weekday() - CLUB_NIGHT) % 7)


def engine_player(settings: DemoSettings, referee: Referee) -> Callable[..., Any]:
    """The simulator's PlayRound: the engine plays each encounter at the members' strengths."""
    time_control = (("TimeControl", f"{TIME_CONTROL[0]}+{TIME_CONTROL[1]}"),)  # PGN standard 9.6.1

    def play(encounters: Sequence[Encounter]) -> list[BoardResult]:
        orders = [
            GameOrder(
                side_for(e.white_strength, settings.play_nodes),
                side_for(e.black_strength, settings.play_nodes),
                e.seed,
            )
            for e in encounters
        ]
        played = referee.play(orders)
        say(
            Text(
                N_("played %(games)s (%(moves)s moves) so far"),
                moves=f"{referee.plies:,}",
                games=Text(Nn_("%(count)s game", "%(count)s games"), count=referee.games),
            )
        )
        return [BoardResult(game.white_points, game.moves, time_control) for game in played]

    return play


def stage(settings: DemoSettings) -> StagedClub:
    """The simulated club up to its first evening played over the board (pure, at once)."""
    last = last_club_night(settings.today or timezone.localdate())
    return stage_club(
        settings.seed,
        seasons=settings.seasons,
        members=settings.members,
        last_evening=last,
        with_moves=settings.with_moves,
    )


def timed(run: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    return run(*args), time.perf_counter() - started


class Clock:
    """The build's parts in wall seconds. They overlap: "results" is the time this thread
    spent storing (every evening, the correction, the merge), "playing" the other thread's
    games, and "analysis" what is left once the evenings are stored (the last analyses,
    their storing, the ledger)."""

    def __init__(self) -> None:
        self.started = self.stored_at = time.perf_counter()
        self.storing = 0.0

    @contextmanager
    def store(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.storing += time.perf_counter() - started
            self.stored_at = time.perf_counter()

    def seconds(self, playing: float) -> dict[str, float]:
        ended = time.perf_counter()
        return {
            "playing": round(playing, 2),
            "analysis": round(ended - self.stored_at, 2),
            "results": round(self.storing, 2),
            "total": round(ended - self.started, 2),
        }


def with_headers(facts: Any, pgn: str) -> Any:
    """``facts`` of a movetext with the headers and result of the game's PGN (``pgn_text``):
    a game's plies depend on its moves and clocks alone (``analyzer.analyse_game``)."""
    tags = chess.pgn.read_headers(io.StringIO(pgn))
    if tags is None:
        raise ValueError("a game's PGN without headers")
    headers = chess.pgn.Headers()  # the Seven Tag Roster first, as chess.pgn.read_game gives them
    headers.update(tags)
    return dataclasses.replace(facts, headers=dict(headers), result=headers.get("Result", "*"))


# --- all or nothing --------------------------------------------------------------------------


def new_sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL when it does not exist yet (and Django has not started
    on another database in this process); else None."""
    config = dj_database_url.parse(url)
    name = str(config.get("NAME") or "")
    if (
        django_settings.configured
        or "sqlite" not in str(config.get("ENGINE"))
        or name in ("", ":memory:")
    ):
        return None
    path = Path(name)
    return None if path.exists() else path.resolve()


def build_atomically(
    settings: DemoSettings,
    url: str,
    open_db: Callable[[], None],
    build: Callable[[DemoSettings], dict[str, Any]],
) -> dict[str, Any]:
    """The demo club, whole or not at all (see the module's docstring): ``build`` (the
    arbiter's :func:`clubrating.demo.arbiter.build_demo`) run in one transaction once Django is
    set up, on ``url``'s database (``open_db``) or on a new SQLite file moved into place when
    the club is complete."""
    target = new_sqlite_file(url)
    if target is None:
        open_db()
        with transaction.atomic():
            return build(settings)
    if not target.parent.is_dir():
        raise InputError(N_("no such directory for the database"), file=str(target.parent))
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        djangoenv.setup(f"sqlite:///{partial}", migrate=True)
        with transaction.atomic():
            summary = build(settings)
        connections.close_all()  # the last connection checkpoints the WAL into the file
        if Path(f"{partial}-wal").exists():
            raise InputError(
                N_("the database's write-ahead log was not merged into it"), file=str(partial)
            )
        os.replace(partial, target)
        return summary
    finally:
        connections.close_all()
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
