"""The demo club's build: a realistic club made with the seeded simulator.

The simulated arbiter does what a real one does: imports each evening,
confirms which typed name is which member (it knows the truth behind every
misspelling), publishes, corrects one result weeks later, and once links a
misspelled name to a new member by mistake and merges it afterwards (R12).

The last evenings are played over the board by Stockfish, each member at a
strength of their own (:mod:`clubrating.demo.selfplay`), with clocks; the
rest have results only. Each game is analysed as soon as it is played, so the
CPI dashboard and the coach have something to show when the server starts.
The build keeps both cores busy (a newcomer sees the CPI within a
minute): the evenings with results only are stored while the engines play the
last ones, and the engines analyse between the games (:func:`_play_store_and_analyse`).

All or nothing: a new SQLite file is built under a temporary name and moved
into place only when the club is complete; any other database gets the whole
club in one transaction. A failure leaves no club behind.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clubrating.errors import InputError, Refused, Text
from clubrating.formats.results import GameResult
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
    from clubrating import djangoenv

    print(f"demo: {text.translated(djangoenv)}", file=sys.stderr, flush=True)


def last_club_night(today: dt.date) -> dt.date:
    """The latest club night on or before ``today``: the demo's last evening is never in the
    future."""
    return today - dt.timedelta(days=(today.weekday() - CLUB_NIGHT) % 7)


def _link_evening(
    tournament: Any,
    true_name: dict[str, str],
    juniors: frozenset[str],
    duplicate: dict[str, Any],
    members: dict[str, Any],
) -> None:
    """Confirm every name of the evening, as the arbiter would after reading the proposals.

    ``members`` (name -> member) is kept across the evenings: one query less per name.
    """
    from clubrating.club.services.names import link, new_member
    from clubrating.club.store.models import Entry

    entries = Entry.objects.filter(tournament=tournament, member=None).select_related(
        "tournament__club"
    )
    for entry in entries.order_by("number"):
        real = true_name.get(entry.name, entry.name)
        if entry.name != real and not duplicate:
            # The careless Tuesday: a misspelling made into a new member (merged later).
            new_member(entry, who=WHO, junior=real in juniors)
            duplicate["member"] = entry.member
            duplicate["real"] = real
            continue
        member = members.get(real)
        if member is None:
            new_member(entry, who=WHO, name=real, junior=real in juniors)
            members[real] = entry.member
        else:
            link(entry, member, who=WHO)


def _player(settings: DemoSettings, referee: Any) -> Callable[..., Any]:
    """The simulator's PlayRound: the engine plays each encounter at the members' strengths."""
    from clubrating.demo.selfplay import TIME_CONTROL, GameOrder, side_for
    from clubrating.demo.simulate import BoardResult, Encounter

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


def _stage(settings: DemoSettings) -> Any:
    """The simulated club up to its first evening played over the board (pure, at once)."""
    from django.utils import timezone

    from clubrating.demo.simulate import stage_club

    last = last_club_night(settings.today or timezone.localdate())
    return stage_club(
        settings.seed,
        seasons=settings.seasons,
        members=settings.members,
        last_evening=last,
        with_moves=settings.with_moves,
    )


def build_demo(settings: DemoSettings) -> dict[str, Any]:
    """The demo club in this database (call inside one transaction: see
    :func:`build_atomically`)."""
    from clubrating.club.store.models import Club

    if Club.objects.filter(slug=DEMO_SLUG).exists():
        raise Refused(N_("this database holds a demo club already"))
    clock = _Clock()
    staged = _stage(settings)
    with clock.store():
        arbiter = _Arbiter()
    if settings.with_moves == 0:
        with clock.store():
            arbiter.evenings(staged.early, staged.early_names, staged.juniors)
            summary = arbiter.finish(staged.finish(None))
        summary["analysis"] = {
            "games": 0,
            "searched": 0,
            "cached": 0,
            "unreadable": [],
            "nodes": settings.nodes,
        }
        return {**summary, "seconds": clock.seconds(playing=0.0)}
    summary, playing = _play_store_and_analyse(settings, staged, arbiter, clock)
    return {**summary, "seconds": clock.seconds(playing=playing)}


def _play_store_and_analyse(
    settings: DemoSettings, staged: Any, arbiter: _Arbiter, clock: _Clock
) -> tuple[dict[str, Any], float]:
    """Three things at once, so that both cores work (a minute's build): this
    thread stores the evenings with results only; a second thread has the last evenings
    played (``StagedClub.finish``) by the engine processes; and those processes analyse
    each game as soon as it is played, between the games still going. Then the last
    evenings are stored, and each game's analysis as it comes in."""
    from concurrent.futures import ThreadPoolExecutor

    from clubrating.demo.selfplay import Referee
    from clubrating.club.jobs.analysis import analysis_config, default_jobs

    jobs = settings.jobs or default_jobs()
    config = analysis_config(
        settings.engine, settings.book, settings.nodes
    )  # a bad book: one line, now
    engine = settings.engine or os.environ.get("CLUBRATING_ENGINE") or None
    say(
        Text(
            N_(
                "playing the last %(evenings)s evenings over the board "
                "(Stockfish, %(play_nodes)s nodes a move, %(jobs)s "
                "engines), analysing each game at %(nodes)s nodes a position"
            ),
            evenings=settings.with_moves,
            play_nodes=f"{settings.play_nodes:,}",
            jobs=jobs,
            nodes=f"{settings.nodes:,}",
        )
    )
    # Left in this order: the pool is stopped (on an error: killed) before the thread is waited for.
    with (
        ThreadPoolExecutor(1, thread_name_prefix="demo-play") as thread,
        Referee(
            **({"engine": engine} if engine else {}), jobs=jobs, book=config.book, analysis=config
        ) as referee,
    ):
        playing = thread.submit(_timed, staged.finish, _player(settings, referee))
        with clock.store():
            arbiter.evenings(staged.early, staged.early_names, staged.juniors)
        simulated, played_in = playing.result()
        with clock.store():
            arbiter.evenings(
                simulated.tournaments[len(staged.early) :], simulated.true_name, simulated.juniors
            )
            summary = arbiter.finish(simulated)
        summary["analysis"] = _store_analyses(arbiter.club, referee, settings)
    return summary, played_in


def _timed(run: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    return run(*args), time.perf_counter() - started


class _Clock:
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


class _Arbiter:
    """The simulated arbiter at work: every evening imported, linked and published; then
    the correction, the merge and the arbiter's login."""

    def __init__(self) -> None:
        from clubrating.club.services.clubs import create_club, set_privacy
        from clubrating.club.store.models import Visibility

        self.club = create_club("Demo Chess Club", who=WHO, slug=DEMO_SLUG)
        set_privacy(self.club, who=WHO, visibility=Visibility.PUBLIC)
        self.published: list[Any] = []
        self.duplicate: dict[str, Any] = {}
        self.members: dict[str, Any] = {}

    def evenings(
        self, records: Sequence[Any], true_name: dict[str, str], juniors: frozenset[str]
    ) -> None:
        from clubrating.club.services.tournaments import import_tournament, publish

        say(
            Text(
                Nn_("publishing %(count)s evening", "publishing %(count)s evenings"),
                count=len(records),
            )
        )
        for record in records:
            has_juniors = any(true_name.get(p.name) in juniors for p in record.players)
            tournament = import_tournament(self.club, record, who=WHO, has_juniors=has_juniors)
            _link_evening(tournament, true_name, juniors, self.duplicate, self.members)
            publish(tournament, who=WHO)
            self.published.append(tournament)

    def finish(self, simulated: Any) -> dict[str, Any]:
        from clubrating.club.services.members import merge
        from clubrating.club.services.tournaments import correct_result
        from clubrating.club.store.models import Game, Member
        from clubrating.club.services.accounts import add_arbiter

        club = self.club
        for fix in simulated.corrections:
            tournament = self.published[fix.tournament]
            game = Game.objects.get(
                tournament=tournament, round=fix.round, white__name=fix.white, black__name=fix.black
            )
            result = GameResult.of(fix.white_points, fix.black_points)
            if result is None:
                raise ValueError(f"a correction to half-points no result gives: {fix}")
            correct_result(game, result.value, who=WHO)
        if self.duplicate:
            real = Member.objects.get(club=club, name=self.duplicate["real"], merged_into=None)
            merge(self.duplicate["member"], real, who=WHO)
        add_arbiter(club, DEMO_ARBITER[0], DEMO_ARBITER[1], who=WHO)
        games = Game.objects.filter(tournament__club=club)
        return {
            "club": club.slug,
            "tournaments": len(self.published),
            "members": Member.objects.filter(club=club, merged_into=None).count(),
            "games": games.count(),
            "games_with_moves": games.exclude(moves="").count(),
            "first_date": simulated.tournaments[0].date.isoformat(),
            "last_date": simulated.tournaments[-1].date.isoformat(),
            "corrections": len(simulated.corrections),
            "merges": 1 if self.duplicate else 0,
            "arbiter": {"username": DEMO_ARBITER[0], "password": DEMO_ARBITER[1]},
        }


def _store_analyses(club: Any, referee: Any, settings: DemoSettings) -> dict[str, Any]:
    """Each game's analysis, made by the engine process as soon as the game was played, stored
    as it comes in under the game's own headers (as ``analyse-club`` would store it); the
    CPI ledger rebuilt once at the end."""
    from clubrating.analysis.runner import stderr_progress
    from clubrating.club.jobs.analysis import (
        DatabaseCache,
        analysable_games,
        analyse_games,
        pgn_text,
        rebuild_ledger,
        store_analysis,
    )

    games = analysable_games(club)
    by_moves: dict[str, list[Any]] = {}
    for game in games:
        by_moves.setdefault(game.moves.strip(), []).append(game)
    say(
        Text(
            Nn_(
                "storing the analysis of %(count)s game with moves (%(nodes)s nodes a position)",
                "storing the analyses of %(count)s games with moves (%(nodes)s nodes a position)",
            ),
            count=len(games),
            nodes=f"{settings.nodes:,}",
        )
    )
    from clubrating import djangoenv

    cache, progress = DatabaseCache(), stderr_progress(catalogue=djangoenv)
    stored = searched = cached = 0
    for analysed in referee.analyses():
        for game in by_moves.pop(analysed.moves.strip(), []):
            facts = with_headers(analysed.facts, pgn_text(game))
            store_analysis(game, facts, analysed.searches, cache)
            stored, searched, cached = (
                stored + 1,
                searched + facts.searches,
                cached + facts.cache_hits,
            )
            if progress is not None:
                progress(stored, len(games), facts)
    if any(
        by_moves.values()
    ):  # not played by this referee (none expected): analysed here, as analyse-club does
        report = analyse_games(
            club,
            engine=settings.engine,
            book=settings.book,
            nodes=settings.nodes,
            jobs=settings.jobs,
            rebuild=False,
        )
        if report.unreadable:
            raise InputError(
                N_("the demo played a game that cannot be analysed: %(game)s"),
                game=report.unreadable[0],
            )
        stored, searched, cached = (
            stored + report.games,
            searched + report.searched,
            cached + report.cached,
        )
    rebuild_ledger(club, stored, searched, cached)
    return {
        "games": stored,
        "searched": searched,
        "cached": cached,
        "unreadable": [],
        "nodes": settings.nodes,
    }


def with_headers(facts: Any, pgn: str) -> Any:
    """``facts`` of a movetext with the headers and result of the game's PGN (``pgn_text``):
    a game's plies depend on its moves and clocks alone (``analyzer.analyse_game``)."""
    import dataclasses
    import io

    import chess.pgn

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
    import dj_database_url
    from django.conf import settings

    config = dj_database_url.parse(url)
    name = str(config.get("NAME") or "")
    if settings.configured or "sqlite" not in str(config.get("ENGINE")) or name in ("", ":memory:"):
        return None
    path = Path(name)
    return None if path.exists() else path.resolve()


def build_atomically(
    settings: DemoSettings, url: str, open_db: Callable[[], None]
) -> dict[str, Any]:
    """The demo club, whole or not at all (see the module's docstring)."""
    from django.db import transaction

    target = new_sqlite_file(url)
    if target is None:
        open_db()
        with transaction.atomic():
            return build_demo(settings)
    if not target.parent.is_dir():
        raise InputError(N_("no such directory for the database"), file=str(target.parent))
    from django.db import connections

    from clubrating import djangoenv

    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        djangoenv.setup(f"sqlite:///{partial}", migrate=True)
        with transaction.atomic():
            summary = build_demo(settings)
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
