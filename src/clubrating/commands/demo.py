"""``clubrating demo``: a realistic demo club built with the seeded simulator.

The simulated arbiter does what a real one does: imports each evening,
confirms which typed name is which member (it knows the truth behind every
misspelling), publishes, corrects one result weeks later, and once links a
misspelled name to a new member by mistake and merges it afterwards (R12).

The last evenings are played over the board by Stockfish, each member at a
strength of their own (:mod:`clubrating.analysis.selfplay`), with clocks; the
rest have results only. The games with moves are then analysed, so the CPI
dashboard and the coach have something to show when the server starts.

All or nothing: a new SQLite file is built under a temporary name and moved
into place only when the club is complete; any other database gets the whole
club in one transaction. A failure leaves no club behind.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clubrating.cli import option, print_json, wants_json, whole
from clubrating.commands.club import open_database
from clubrating.errors import InputError, Refused

DEMO_SLUG = "demo"
DEMO_ARBITER = ("arbiter", "demo-arbiter-password")
WHO = "demo:arbiter"
WITH_MOVES = 2          # ours: evenings played over the board (about 100 games of the default club: a minute)
PLAY_NODES = 2_000      # ours: engine nodes per move of the players (selfplay.DEFAULT_NODES)
ANALYSIS_NODES = 2_000  # ours: engine nodes per position of the demo's analysis (a minute's build)
CLUB_NIGHT = 1          # Tuesday (date.weekday()): the club's night, as in simulate.SEASON_START


@dataclass(frozen=True)
class DemoSettings:
    seed: int = 2026
    seasons: int = 3
    members: int = 40
    with_moves: int = WITH_MOVES
    play_nodes: int = PLAY_NODES
    nodes: int = ANALYSIS_NODES
    jobs: int | None = None             # engine processes (default: $CLUBRATING_JOBS or the cores)
    engine: str | None = None           # default: $CLUBRATING_ENGINE or Debian's Stockfish
    book: str | None = None             # default: $CLUBRATING_BOOK or Debian's gnuchess-book
    today: dt.date | None = None        # default: today (the club's time zone)


def say(text: str) -> None:
    """A line of progress on stderr."""
    print(f"demo: {text}", file=sys.stderr, flush=True)


def last_club_night(today: dt.date) -> dt.date:
    """The latest club night on or before ``today``: the demo's last evening is never in the future."""
    return today - dt.timedelta(days=(today.weekday() - CLUB_NIGHT) % 7)


def _link_evening(tournament: Any, true_name: dict[str, str], juniors: frozenset[str],
                  duplicate: dict[str, Any], members: dict[str, Any]) -> None:
    """Confirm every name of the evening, as the arbiter would after reading the proposals.

    ``members`` (name -> member) is kept across the evenings: one query less per name.
    """
    from clubrating.club import services
    from clubrating.club.models import Entry

    entries = Entry.objects.filter(tournament=tournament, member=None).select_related("tournament__club")
    for entry in entries.order_by("number"):
        real = true_name.get(entry.name, entry.name)
        if entry.name != real and not duplicate:
            # The careless Tuesday: a misspelling made into a new member (merged later).
            services.new_member(entry, who=WHO, junior=real in juniors)
            duplicate["member"] = entry.member
            duplicate["real"] = real
            continue
        member = members.get(real)
        if member is None:
            services.new_member(entry, who=WHO, name=real, junior=real in juniors)
            members[real] = entry.member
        else:
            services.link(entry, member, who=WHO)


def _player(settings: DemoSettings, referee: Any, seconds: list[float]) -> Callable[..., Any]:
    """The simulator's PlayRound: the engine plays each encounter at the members' strengths."""
    from clubrating.analysis.selfplay import TIME_CONTROL, GameOrder, side_for
    from clubrating.simulate import BoardResult, Encounter

    time_control = (("TimeControl", f"{TIME_CONTROL[0]}+{TIME_CONTROL[1]}"),)   # PGN standard 9.6.1

    def play(encounters: Sequence[Encounter]) -> list[BoardResult]:
        started = time.perf_counter()
        orders = [GameOrder(side_for(e.white_strength, settings.play_nodes),
                            side_for(e.black_strength, settings.play_nodes), e.seed) for e in encounters]
        played = referee.play(orders)
        seconds.append(time.perf_counter() - started)
        say(f"played {referee.games} games ({referee.plies:,} moves) so far")
        return [BoardResult(game.white_points, game.moves, time_control) for game in played]
    return play


def simulate(settings: DemoSettings, jobs: int) -> tuple[Any, float]:
    """The simulated club, its last evenings played by the engine; and the seconds playing took."""
    from django.utils import timezone

    from clubrating.analysis.runner import DEFAULT_BOOK
    from clubrating.analysis.selfplay import Referee
    from clubrating.simulate import simulate_club

    last = last_club_night(settings.today or timezone.localdate())
    seconds: list[float] = []
    if settings.with_moves == 0:
        return simulate_club(settings.seed, seasons=settings.seasons, members=settings.members,
                             last_evening=last), 0.0
    engine = settings.engine or os.environ.get("CLUBRATING_ENGINE") or None
    book = settings.book or os.environ.get("CLUBRATING_BOOK") or DEFAULT_BOOK
    say(f"playing the last {settings.with_moves} evenings over the board "
        f"(Stockfish, {settings.play_nodes:,} nodes a move, {jobs} engines)")
    with Referee(**({"engine": engine} if engine else {}), jobs=jobs, book=book) as referee:
        club = simulate_club(settings.seed, seasons=settings.seasons, members=settings.members,
                             last_evening=last, play=_player(settings, referee, seconds),
                             with_moves=settings.with_moves)
    return club, sum(seconds)


def build_demo(settings: DemoSettings) -> dict[str, Any]:
    """The demo club in this database (call inside one transaction: see :func:`build_atomically`)."""
    from clubrating.club.analysis_jobs import default_jobs
    from clubrating.club.models import Club

    if Club.objects.filter(slug=DEMO_SLUG).exists():
        raise Refused("this database holds a demo club already")
    jobs = settings.jobs or default_jobs()
    started = time.perf_counter()
    simulated, playing = simulate(settings, jobs)
    club, summary = _store(simulated)
    analysing = time.perf_counter()
    summary["analysis"] = _analyse(club, settings, jobs)
    ended = time.perf_counter()
    summary["seconds"] = {"playing": round(playing, 2), "analysis": round(ended - analysing, 2),
                          "results": round(analysing - started - playing, 2), "total": round(ended - started, 2)}
    return summary


def _store(simulated: Any) -> tuple[Any, dict[str, Any]]:
    """Every evening imported, linked and published; the correction, the merge, the arbiter."""
    from clubrating.club import services
    from clubrating.club.models import Game, Member, Visibility
    from clubrating.web.accounts import add_arbiter

    club = services.create_club("Demo Chess Club", who=WHO, slug=DEMO_SLUG)
    services.set_privacy(club, who=WHO, visibility=Visibility.PUBLIC)
    published: list[Any] = []
    duplicate: dict[Any, Any] = {}
    members: dict[str, Any] = {}
    say(f"publishing {len(simulated.tournaments)} evenings")
    for record in simulated.tournaments:
        has_juniors = any(simulated.true_name.get(p.name) in simulated.juniors for p in record.players)
        tournament = services.import_tournament(club, record, who=WHO, has_juniors=has_juniors)
        _link_evening(tournament, simulated.true_name, simulated.juniors, duplicate, members)
        services.publish(tournament, who=WHO)
        published.append(tournament)
        if sys.stderr.isatty():
            print(f"\rdemo: published {len(published)}/{len(simulated.tournaments)} evenings", end="",
                  file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    for fix in simulated.corrections:
        tournament = published[fix.tournament]
        game = Game.objects.get(tournament=tournament, round=fix.round, white__name=fix.white, black__name=fix.black)
        result = {(2, 0): "1-0", (0, 2): "0-1", (1, 1): "1/2-1/2"}[(fix.white_points, fix.black_points)]
        services.correct_result(game, result, who=WHO)
    if duplicate:
        real = Member.objects.get(club=club, name=duplicate["real"], merged_into=None)
        services.merge(duplicate["member"], real, who=WHO)
    add_arbiter(club, DEMO_ARBITER[0], DEMO_ARBITER[1], who=WHO)
    games = Game.objects.filter(tournament__club=club)
    return club, {"club": club.slug, "tournaments": len(published),
                  "members": Member.objects.filter(club=club, merged_into=None).count(),
                  "games": games.count(), "games_with_moves": games.exclude(moves="").count(),
                  "first_date": simulated.tournaments[0].date.isoformat(),
                  "last_date": simulated.tournaments[-1].date.isoformat(),
                  "corrections": len(simulated.corrections), "merges": 1 if duplicate else 0,
                  "arbiter": {"username": DEMO_ARBITER[0], "password": DEMO_ARBITER[1]}}


def _analyse(club: Any, settings: DemoSettings, jobs: int) -> dict[str, Any]:
    """The games with moves analysed now, at the demo's small node budget: the CPI ledger filled."""
    from clubrating.analysis.runner import stderr_progress
    from clubrating.club.analysis_jobs import analysable_games, analyse_games

    if settings.with_moves == 0:
        return {"games": 0, "searched": 0, "cached": 0, "unreadable": [], "nodes": settings.nodes}
    say(f"analysing {len(analysable_games(club))} games with moves ({settings.nodes:,} nodes a position, "
        f"{jobs} engines)")
    report = analyse_games(club, engine=settings.engine, book=settings.book, nodes=settings.nodes, jobs=jobs,
                           progress=stderr_progress())
    if report.unreadable:
        raise InputError(f"the demo played a game that cannot be analysed: {report.unreadable[0]}")
    return {**report.as_dict(), "nodes": settings.nodes}


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


def build_atomically(settings: DemoSettings, url: str, open_db: Callable[[], None]) -> dict[str, Any]:
    """The demo club, whole or not at all (see the module's docstring)."""
    from django.db import transaction

    target = new_sqlite_file(url)
    if target is None:
        open_db()
        with transaction.atomic():
            return build_demo(settings)
    if not target.parent.is_dir():
        raise InputError("no such directory for the database", file=str(target.parent))
    from django.db import connections

    from clubrating import djangoenv

    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        djangoenv.setup(f"sqlite:///{partial}", migrate=True)
        with transaction.atomic():
            summary = build_demo(settings)
        connections.close_all()        # the last connection checkpoints the WAL into the file
        if Path(f"{partial}-wal").exists():
            raise InputError("the database's write-ahead log was not merged into it", file=str(partial))
        os.replace(partial, target)
        return summary
    finally:
        connections.close_all()
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)


def cmd_demo(args: argparse.Namespace) -> int:
    from clubrating import djangoenv

    settings = DemoSettings(seed=args.seed, seasons=args.seasons, members=args.members,
                            with_moves=args.with_moves, play_nodes=args.play_nodes, nodes=args.nodes,
                            jobs=args.jobs, engine=option(args, "engine", "CLUBRATING_ENGINE"),
                            book=option(args, "book", "CLUBRATING_BOOK"))
    url = option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL)
    summary = build_atomically(settings, url, lambda: open_database(args))
    if wants_json(args):
        print_json(summary)
    else:
        print(f"demo club '{summary['club']}': {summary['members']} members, {summary['tournaments']} tournaments "
              f"({summary['first_date']} to {summary['last_date']}), {summary['games']} games "
              f"({summary['games_with_moves']} with moves, {summary['analysis']['games']} analysed), "
              f"{summary['corrections']} corrected result, {summary['merges']} merge; "
              f"built in {summary['seconds']['total']:.0f} s")
        print(f"arbiter login (demo only): {summary['arbiter']['username']} / {summary['arbiter']['password']}")
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "demo", parents=[common], help="build a demo club with the seeded simulator",
        description="Build a realistic demo club: several seasons of weekly Swiss evenings up to the latest "
                    "Tuesday, late joiners, byes, forfeits, a bughouse night, misspelled names, a corrected "
                    "result, a merge. The last evenings are played by Stockfish at each member's strength, with "
                    "clocks, and analysed, so the CPI pages have data. All or nothing: a failure leaves no club.",
        epilog="Example: clubrating --database sqlite:///demo.sqlite3 demo --seasons 3 --with-moves 4")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--seasons", type=whole(1, 50), default=3)
    p.add_argument("--members", type=whole(8, 5000), default=40, help="members at the start (8-5000, default 40)")
    p.add_argument("--with-moves", type=whole(0, 30), default=WITH_MOVES, metavar="EVENINGS",
                   help=f"the last EVENINGS chess evenings are played by the engine (0-30, default {WITH_MOVES})")
    p.add_argument("--play-nodes", type=whole(1, 1_000_000), default=PLAY_NODES, metavar="N",
                   help=f"engine nodes per move of the players (default {PLAY_NODES:,})")
    p.add_argument("--nodes", type=whole(1, 10_000_000), default=ANALYSIS_NODES,
                   help=f"engine nodes per position of the analysis (default {ANALYSIS_NODES:,})")
    p.add_argument("--jobs", type=whole(1, 64), default=None,
                   help="engine processes (default $CLUBRATING_JOBS or the number of cores)")
    p.set_defaults(handler=cmd_demo)
