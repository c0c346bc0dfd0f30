"""Federation scale on PostgreSQL: 1,000 clubs, 200,000 members and 5,000,000 games in ONE
database, and what a federation's server does with them, measured side by side.

The clubs come from the simulator (``demo.simulate.federation_shapes``: club sizes spread
lognormally, the biggest about 50,000 games; each club's history from ``simulate_history``,
its players' hidden strengths and results), loaded with PostgreSQL's COPY (``executemany``
on SQLite), then rated by the product's own rebuild, club by club. Measured, ``--runs``
times each, medians:
1. the full rebuild of the largest club (``rebuild_derived``, as ``clubrating rebuild``);
2. a correction in that club (``correct_result``), in its newest tournament and in
   one three weeks older, each checked equal to a full replay (target <= 0.5 s);
3. the club page of the second-largest club at 20 concurrent clients against
   ``clubrating serve`` (gunicorn) on loopback, while nothing else runs and while another
   process rebuilds the largest club over and over (target: p95 <= 50 ms); the index of all
   clubs beside it;
4. the federation-wide rating list: its page (``/ratings/``, first and middle page, rendered
   by 20 clients, beside the club page), and its query: by OFFSET (count, first and middle
   page) and as the product reads it, by keyset from the index ``rating_order``;
5. analysis with 1 and 2 RQ workers (``measure_rq_workers.py``'s way: a new club's evening
   in this database, timed from the workers' start; target: 2 workers >= 1.8 x as fast).
Every figure is printed with the load average (``os.getloadavg``) when it was taken.

The database is one of its own on the server of ``--database`` (created, and dropped at the
end); ``--database sqlite`` uses a temporary SQLite file instead (the tests' SQLite run).

Usage: python benchmarks/bench_federation.py [--scale 1.0] [--runs 3] [--json FILE]
           [--database postgres://postgres@127.0.0.1:54329/postgres | sqlite]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]

import bench_web  # noqa: E402  (the load generator)
import measure_rq_workers  # noqa: E402  (the RQ workers' run)

FULL = {"clubs": 1_000, "members": 200_000, "games": 5_000_000}
CORRECTION_TARGET_S = 0.5
PAGE_TARGET_MS = 50.0
WORKERS_TARGET = 1.8
THREE_WEEKS = dt.timedelta(days=21)
LIST_PAGE = 100  # rows of a rating list page
SEED = 1


def shapes_for(scale: float) -> list[Any]:
    """The clubs at ``scale``: each total of the issue's federation times ``scale``, rounded
    (two clubs at least: one rebuilds while the other is served)."""
    from clubrating.demo.simulate import MIN_CLUB_MEMBERS, federation_shapes

    clubs = max(2, round(FULL["clubs"] * scale))
    members = max(MIN_CLUB_MEMBERS * clubs, round(FULL["members"] * scale))
    return federation_shapes(clubs, members, max(clubs, round(FULL["games"] * scale)))


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


# -- the database ------------------------------------------------------------------------------


@contextmanager
def own_database(server: str) -> Iterator[str]:
    """A new database on ``server`` (a PostgreSQL URL), dropped afterwards; or, for
    ``sqlite``, a file in a temporary folder."""
    if server == "sqlite":
        with tempfile.TemporaryDirectory(prefix="clubrating-federation-") as folder:
            yield f"sqlite:///{folder}/federation.sqlite3"
        return
    import psycopg

    parts = urlsplit(server)
    admin = urlunsplit(parts._replace(path="/postgres"))
    name = f"bench_federation_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class Table:
    """Rows of one model's table: the columns given, then every other column at its
    model default (``created``: now), written by COPY on PostgreSQL."""

    def __init__(self, model: Any, given: tuple[str, ...]) -> None:
        from django.utils import timezone

        self.name = model._meta.db_table
        rest = [f for f in model._meta.concrete_fields if f.column not in given]
        tail = []
        for f in rest:
            if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
                tail.append(timezone.now())
            elif f.has_default() or (
                f.empty_strings_allowed and not f.null
            ):  # "" for a text column
                value = f.get_default()
                tail.append(json.dumps(value) if f.get_internal_type() == "JSONField" else value)
            elif f.null:
                tail.append(None)
            else:
                raise ValueError(f"{self.name}.{f.column} has no default: give it")
        self.columns = given + tuple(f.column for f in rest)
        self.tail = tuple(tail)

    def write(self, rows: Iterable[tuple[Any, ...]]) -> int:
        from django.db import connection

        full = (row + self.tail for row in rows)
        names = ", ".join(map(connection.ops.quote_name, self.columns))  # "left" is a keyword
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                count = 0
                with cursor.cursor.copy(f"COPY {self.name} ({names}) FROM STDIN") as copy:
                    for row in full:
                        copy.write_row(row)
                        count += 1
                return count
            adapt = connection.ops.adapt_datetimefield_value
            batch = [
                tuple(adapt(v) if isinstance(v, dt.datetime) else v for v in row) for row in full
            ]
            marks = ", ".join(["%s"] * len(self.columns))
            cursor.executemany(f"INSERT INTO {self.name} ({names}) VALUES ({marks})", batch)
            return len(batch)


def member_name(i: int) -> str:
    from clubrating.demo.simulate import FIRST_NAMES, SURNAMES

    name = f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {SURNAMES[i // len(FIRST_NAMES) % len(SURNAMES)]}"
    lap = i // (len(FIRST_NAMES) * len(SURNAMES))
    return f"{name} {lap + 1}" if lap else name


@dataclass
class Ids:
    member: int = 0
    tournament: int = 0
    entry: int = 0
    game: int = 0


def load_club(club: Any, shape: Any, seed: int, ids: Ids, tables: dict[str, Table]) -> None:
    """One club's members and simulated history, as published tournaments."""
    from django.utils import timezone

    from clubrating.club.store.models import TournamentStatus
    from clubrating.demo.simulate import ROUNDS, simulate_history
    from clubrating.formats.records import Unplayed

    history = simulate_history(seed, shape.games, shape.members, shape.tournaments)
    first = ids.member + 1
    tables["member"].write(
        (first + p, club.id, member_name(p), p % 23 == 0) for p in range(shape.members)
    )
    ids.member += shape.members
    now = timezone.now()
    tournaments, entries, games = [], [], []
    for t in history:
        ids.tournament += 1
        number: dict[int, int] = {}
        for g in t.games:
            for p in (g.white, g.black):
                if p not in number:
                    number[p] = ids.entry + len(number) + 1
        entries += [
            (e, ids.tournament, e - ids.entry, member_name(p), first + p) for p, e in number.items()
        ]
        ids.entry += len(number)
        boards = max(1, len(number) // 2)
        tournaments.append(
            (
                ids.tournament,
                club.id,
                f"Evening {t.id + 1}",
                t.date,
                t.sequence,
                TournamentStatus.PUBLISHED.value,
                ROUNDS,
                "simulated",
                bool(t.juniors),
                now,
            )
        )
        for i, g in enumerate(t.games):
            ids.game += 1
            games.append(
                (
                    ids.game,
                    ids.tournament,
                    i // boards + 1,
                    i % boards + 1,
                    number[g.white],
                    number[g.black],
                    g.white_points,
                    2 - g.white_points,
                    g.played,
                    "" if g.played else Unplayed.FORFEIT.value,
                )
            )
    tables["tournament"].write(tournaments)
    tables["entry"].write(entries)
    tables["game"].write(games)


def load(shapes: list[Any]) -> dict[str, Any]:
    """The federation in the database: clubs (public, through the service), then each club's
    rows in bulk, then every club rated by the product's rebuild. Returns the counts and times."""
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from clubrating.club.derived.rebuild import rebuild_derived
    from clubrating.club.store.models import Entry, Game, Member, Tournament
    from clubrating.club.services.clubs import create_club, set_privacy

    tables = {
        "member": Table(Member, ("id", "club_id", "name", "junior")),
        "tournament": Table(
            Tournament,
            (
                "id",
                "club_id",
                "name",
                "date",
                "sequence",
                "status",
                "rounds",
                "source_format",
                "has_juniors",
                "published_at",
            ),
        ),
        "entry": Table(Entry, ("id", "tournament_id", "number", "name", "member_id")),
        "game": Table(
            Game,
            (
                "id",
                "tournament_id",
                "round",
                "board",
                "white_id",
                "black_id",
                "white_points",
                "black_points",
                "played",
                "unplayed",
            ),
        ),
    }
    started = time.perf_counter()
    clubs = []
    for rank, _ in enumerate(shapes):
        club = create_club(f"Club {rank + 1:04d}", who="bench", slug=f"club-{rank + 1:04d}")
        set_privacy(club, who="bench", visibility="public")
        clubs.append(club)
    ids = Ids()
    with transaction.atomic():
        for rank, (club, shape) in enumerate(zip(clubs, shapes)):
            load_club(club, shape, SEED + rank, ids, tables)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(), [Member, Tournament, Entry, Game]
            ):
                cursor.execute(sql)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    loaded = time.perf_counter() - started
    for club in clubs:
        rebuild_derived(club, reason="loaded")
    rated = time.perf_counter() - started - loaded
    return {
        "clubs": len(clubs),
        "members": ids.member,
        "tournaments": ids.tournament,
        "entries": ids.entry,
        "games": ids.game,
        "load_s": round(loaded, 2),
        "rate_all_s": round(rated, 2),
        "slugs": [c.slug for c in clubs],
        "club_0002_members": shapes[1].members if len(shapes) > 1 else 0,
    }


# -- 1 and 2: the largest club's rebuild and corrections ----------------------------------------


def correction_games(club: Any) -> dict[str, int]:
    """A played game of the club's newest tournament, and of the newest one three weeks older."""
    from clubrating.club.store.models import Game, Tournament

    order = ("-date", "-sequence", "-id")
    newest = Tournament.objects.filter(club=club).order_by(*order).first()
    older = (
        Tournament.objects.filter(club=club, date__lte=newest.date - THREE_WEEKS)
        .order_by(*order)
        .first()
    )
    picked = {"newest tournament": newest, "three weeks back": older or newest}
    return {
        where: Game.objects.filter(tournament=t, played=True)
        .order_by("id")
        .values_list("id", flat=True)[0]
        for where, t in picked.items()
    }


def other_result(game: Any) -> str:
    """A result the game does not have, so that every correction changes the history."""
    results = {(2, 0): "1-0", (1, 1): "1/2-1/2", (0, 2): "0-1"}
    current = (game.white_points, game.black_points)
    return next(text for points, text in results.items() if points != current)


def measure_history(slug: str, runs: int) -> dict[str, Any]:
    """Per run: each correction, then a full rebuild checking that the stored rows after the
    correction are exactly what a full replay gives."""
    from clubrating.club.services.tournaments import correct_result
    from clubrating.club.derived.rebuild import rebuild_derived
    from clubrating.club.store.models import Club, Game

    club = Club.objects.get(slug=slug)
    games = correction_games(club)
    full: list[dict[str, Any]] = []
    corrections: dict[str, list[dict[str, Any]]] = {where: [] for where in games}
    for _ in range(runs):
        for where, game_id in games.items():
            game = Game.objects.get(id=game_id)
            load_before, started = load_average(), time.perf_counter()
            correct_result(game, other_result(game), who="bench")
            seconds = time.perf_counter() - started
            load_before_full, started = load_average(), time.perf_counter()
            check = rebuild_derived(club, reason="benchmark check", expect_difference=False)
            full.append(
                {
                    "s": time.perf_counter() - started,
                    "load": load_before_full,
                    "tournaments": check.tournaments,
                }
            )
            corrections[where].append(
                {
                    "s": seconds,
                    "load": load_before,
                    "equal_to_full_replay": check.changes_differing == 0,
                }
            )
            print(
                f"  correction ({where}) {seconds * 1000:.0f} ms, full "
                f"rebuild {full[-1]['s']:.2f} s, {check.changes_differing} "
                f"rows differing, load {load_before}",
                flush=True,
            )
    return {
        "club": slug,
        "games": Game.objects.filter(tournament__club=club).count(),
        "full_rebuild": summary(full),
        "corrections": {w: summary(r) for w, r in corrections.items()},
        "equal_to_full_replay": all(
            r["equal_to_full_replay"] for rs in corrections.values() for r in rs
        ),
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "median_s": round(statistics.median(r["s"] for r in rows), 4),
        "runs_s": [round(r["s"], 4) for r in rows],
        "load": [r["load"] for r in rows],
        **({"tournaments": rows[0]["tournaments"]} if "tournaments" in rows[0] else {}),
    }


# -- 3: pages under load while another club rebuilds ---------------------------------------------


def rebuild_loop(slug: str, seconds: float) -> int:
    """Rebuild the club over and over for at most ``seconds`` (or until SIGTERM): the write
    load beside the pages. Prints how many rebuilds it finished."""
    from clubrating.club.derived.rebuild import rebuild_derived
    from clubrating.club.store.models import Club

    club = Club.objects.get(slug=slug)
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))
    print("rebuilding", flush=True)
    done, deadline = 0, time.monotonic() + seconds
    while not stop["now"] and time.monotonic() < deadline:
        rebuild_derived(club, reason="benchmark load")
        done += 1
    print(f"rebuilds {done}", flush=True)
    return 0


@contextmanager
def rebuilding(url: str, slug: str) -> Iterator[dict[str, int]]:
    """Another process rebuilding ``slug`` while the block runs; yields the count it finished."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--database", url, "--rebuild-loop", slug],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "rebuilding":
        raise RuntimeError("the rebuilding process did not start")
    seen: dict[str, int] = {}
    try:
        yield seen
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=600)
        seen["rebuilds"] = int(out.split()[-1])


def big_event(slug: str, players: int) -> int:
    """A ``players``-player, 5-round Swiss of random results among the club's first members (by
    id), imported and published through the services; its id."""
    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament, publish
    from clubrating.club.store.models import Club, Member
    from clubrating.demo.simulate import ROUNDS
    from clubrating.formats.typed import parse_typed

    club = Club.objects.get(slug=slug)
    names = list(
        Member.objects.filter(club=club).order_by("id").values_list("name", flat=True)[:players]
    )
    shuffle, lines = random.Random(SEED), []
    for rnd in range(1, ROUNDS + 1):
        order = shuffle.sample(names, len(names))
        for b in range(len(order) // 2):
            result = shuffle.choice(["1-0", "0-1", "1/2-1/2"])
            lines.append(f"{rnd}, {order[2 * b]}, {order[2 * b + 1]}, {result}")
    record = parse_typed("\n".join(lines), name="Open", date=dt.date(2030, 1, 5))
    t = import_tournament(club, record, who="bench", today=dt.date(2030, 1, 6))
    accept_exact(t, who="bench")
    all_new_members(t, who="bench")
    publish(t, who="bench")
    return int(t.id)


def page_paths(slug: str, players: int) -> dict[str, str]:
    """The pages measured: the club page, its first member's page and card, and the page of a
    ``players``-player event added to the club (:func:`big_event`)."""
    from clubrating.club.store.models import Member

    event = big_event(slug, players)
    first = Member.objects.filter(club__slug=slug).order_by("id").values_list("id", flat=True)[0]
    c = f"/c/{slug}/"
    shown = Member.objects.filter(club__slug=slug).count()
    return {
        "club page": c,
        "player page": f"{c}p/{first}/",
        "card": f"{c}p/{first}/card.json",
        f"tournament page ({min(players, shown)} players)": f"{c}t/{event}/",
    }


def page_rows(
    port: int, group: int, pages: dict[str, str], requests: int, clients: int, run: str
) -> list[dict[str, Any]]:
    """The club page warm (from the page cache) and cold (each request a new URL: rendered), by
    ``clients`` at once, and cold by one client at a time (the render alone, no queue); the other
    pages cold by ``clients`` at once."""
    rows = []
    for label, path in pages.items():
        bench_web.load(port, [path] * clients, clients)  # every worker's cache warm
        club = label == "club page"
        modes = [
            *([("warm", [path] * requests, clients)] if club else []),
            ("cold", [f"{path}?cold={run}-{i}" for i in range(requests)], clients),
            *(
                [
                    (
                        "cold, one client",
                        [f"{path}?one={run}-{i}" for i in range(max(2, requests // 10))],
                        1,
                    )
                ]
                if club
                else []
            ),
        ]
        for mode, paths, at_once in modes:
            load_before = load_average()
            cpu_before = bench_web.cpu_seconds(group)
            results = bench_web.load(port, paths, at_once)
            cpu = bench_web.cpu_seconds(group) - cpu_before
            server, client = [r[1] for r in results], [r[0] for r in results]
            rows.append(
                {
                    "mode": mode if club else f"{label}, {mode}",
                    "server_median_ms": statistics.median(server),
                    "server_p95_ms": bench_web.p95(server),
                    "client_p95_ms": bench_web.p95(client),
                    "load": load_before,
                    "requests": len(results),
                    # the server's CPU a request (its workers'), beside the stretched wall time
                    "cpu_ms": cpu * 1000 / len(results),
                }
            )
    return rows


def measure_pages(
    url: str,
    slugs: list[str],
    runs: int,
    requests: int,
    clients: int,
    codes: dict[str, Path | None],
    players: int,
) -> dict[str, Any]:
    """Each page by each code (``codes``: label -> another checkout's ``src``, or None for this
    one), one server each on the same database; the codes take turns within each run."""
    page, writer = slugs[1], slugs[0]
    paths = page_paths(page, players)
    servers = {code: (bench_web.free_port(), src) for code, src in codes.items()}
    started = {
        code: bench_web.start_server("gunicorn", url, port, None, src)
        for code, (port, src) in servers.items()
    }
    tables: dict[str, dict[str, list[dict[str, Any]]]] = {code: {} for code in codes}
    try:
        for port, _ in servers.values():
            bench_web.wait_until_up(port, f"/c/{page}/")
        for run in range(runs):
            order = list(codes) if run % 2 == 0 else list(reversed(codes))
            for code in order:
                measure_server(
                    servers[code][0],
                    started[code].pid,
                    paths,
                    tables[code],
                    url,
                    writer,
                    run,
                    requests,
                    clients,
                )
    finally:
        for server in started.values():
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    doc = {
        code: {
            k: {
                "server_p95_ms": round(statistics.median(r["server_p95_ms"] for r in rs), 2),
                "server_median_ms": round(statistics.median(r["server_median_ms"] for r in rs), 2),
                "client_p95_ms": round(statistics.median(r["client_p95_ms"] for r in rs), 2),
                "cpu_ms": round(statistics.median(r.get("cpu_ms", 0.0) for r in rs), 2),
                "runs_p95_ms": [round(r["server_p95_ms"], 2) for r in rs],
                "load": [r["load"] for r in rs],
                "rebuilds_meanwhile": [r["rebuilds_meanwhile"] for r in rs],
            }
            for k, rs in table.items()
        }
        for code, table in tables.items()
    }
    return {
        "club": page,
        "rebuilding": writer,
        "clients": clients,
        "pages": paths,
        "rows": doc.pop("this"),
        **({"codes": doc} if doc else {}),
    }


def measure_server(
    port: int,
    group: int,
    paths: dict[str, str],
    table: dict[str, list[dict[str, Any]]],
    url: str,
    writer: str,
    run: int,
    requests: int,
    clients: int,
) -> None:
    """One run of every page of one server, idle and while another process rebuilds ``writer``;
    the federation list and the index beside them."""
    for beside in ("nothing else", f"{writer} rebuilding"):
        tag = f"{run}-{port}-{'busy' if beside != 'nothing else' else 'idle'}"
        if beside == "nothing else":
            rows, rebuilds = page_rows(port, group, paths, requests, clients, tag), None
        else:
            with rebuilding(url, writer) as seen:
                rows = page_rows(port, group, paths, requests, clients, tag)
            rebuilds = seen["rebuilds"]
        for row in rows:
            row["rebuilds_meanwhile"] = rebuilds
            table.setdefault(f"{row['mode']}, {beside}", []).append(row)
            print(
                f"  port {port}, {row['mode']}, {beside}: server p95 "
                f"{row['server_p95_ms']:.1f} ms (median {row['server_median_ms']:.1f}), "
                f"client p95 {row['client_p95_ms']:.1f} ms, {row['cpu_ms']:.1f} ms CPU a request, "
                f"load {row['load']}" + (f", {rebuilds} rebuilds meanwhile" if rebuilds else ""),
                flush=True,
            )
    for label, path in federation_pages().items():
        load_before = load_average()
        got = bench_web.load(
            port,
            [f"{path}{'&' if '?' in path else '?'}r={run}-{port}-{i}" for i in range(requests)],
            clients,
        )
        timing = [r[1] for r in got]
        table.setdefault(f"federation list, {label}", []).append(
            {
                "mode": "rendered",
                "server_median_ms": statistics.median(timing),
                "server_p95_ms": bench_web.p95(timing),
                "client_p95_ms": bench_web.p95([r[0] for r in got]),
                "load": load_before,
                "requests": len(got),
                "rebuilds_meanwhile": None,
            }
        )
        print(
            f"  port {port}, federation list, {label}: server p95 {bench_web.p95(timing):.1f} ms "
            f"(median {statistics.median(timing):.1f}), load {load_before}",
            flush=True,
        )
    load_before = load_average()
    index = bench_web.load(port, ["/"] * requests, clients)
    client = [r[0] for r in index]  # the index has no Server-Timing: the client's round trip
    table.setdefault("index of all clubs", []).append(
        {
            "mode": "rendered",
            "server_median_ms": statistics.median(client),
            "server_p95_ms": bench_web.p95(client),
            "client_p95_ms": bench_web.p95(client),
            "load": load_before,
            "requests": len(index),
            "bytes": index[0][2],
            "rebuilds_meanwhile": None,
        }
    )


# -- 4: the federation-wide rating list ----------------------------------------------------------


def federation_pages() -> dict[str, str]:
    """The federation list page (web/federation.py): its first page, and the page after the
    middle row of the list (the keyset address its "next" links take)."""
    _, [(listed,)] = timed(FEDERATION_COUNT, [])
    _, middle = timed(FEDERATION_LIST, [1, listed // 2])
    after = f"{middle[0][3]!r},{middle[0][0]}" if middle else "0.0,0"
    return {"first page": "/ratings/", "middle page": f"/ratings/?after={after}"}


FEDERATION_LIST = """
SELECT m.id, m.name, c.name, r.rating, r.games
FROM club_currentrating r
JOIN club_member m ON m.id = r.member_id JOIN club_club c ON c.id = m.club_id
WHERE c.visibility = 'public' AND r.rating_list = 'standard' AND NOT r.provisional
AND m.merged_into_id IS NULL
ORDER BY r.rating DESC, m.id LIMIT %s OFFSET %s"""
FEDERATION_COUNT = """
SELECT count(*) FROM club_currentrating r
JOIN club_member m ON m.id = r.member_id JOIN club_club c ON c.id = m.club_id
WHERE c.visibility = 'public' AND r.rating_list = 'standard' AND NOT r.provisional
AND m.merged_into_id IS NULL"""


def timed(sql: str, params: list[Any]) -> tuple[float, list[tuple[Any, ...]]]:
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return time.perf_counter() - started, rows


def measure_federation_list(runs: int) -> dict[str, Any]:
    """The list's query paged by OFFSET (what a page with page numbers would run): its count
    for the pager, its first page and its middle page; then the product's keyset read; five
    times a run, the median."""
    _, [(listed,)] = timed(FEDERATION_COUNT, [])
    queries = {
        "count (the pager)": (FEDERATION_COUNT, []),
        "first page": (FEDERATION_LIST, [LIST_PAGE, 0]),
        "middle page": (FEDERATION_LIST, [LIST_PAGE, listed // 2]),
    }
    out: dict[str, Any] = {"players_listed": listed}
    for label, (sql, params) in queries.items():
        per_run = []
        for _ in range(runs):
            load_before = load_average()
            times = [timed(sql, params)[0] for _ in range(5)]
            per_run.append({"s": statistics.median(times), "load": load_before})
        out[label] = {
            "median_ms": round(statistics.median(r["s"] for r in per_run) * 1000, 2),
            "runs_ms": [round(r["s"] * 1000, 2) for r in per_run],
            "load": [r["load"] for r in per_run],
        }
        print(
            f"  federation list, {label}: {out[label]['median_ms']:.1f} "
            f"ms, load {per_run[-1]['load']}",
            flush=True,
        )
    _, first = timed(FEDERATION_LIST, [LIST_PAGE, 0])
    _, middle = timed(FEDERATION_LIST, [1, listed // 2])
    out["keyset"] = keyset_pages(runs, (middle[0][3], middle[0][0]) if middle else None)
    out["first_page_rows"] = len(first)
    out["first_page_sorted"] = all(a[3] >= b[3] for a, b in zip(first, first[1:]))
    return out


def keyset_pages(runs: int, middle: tuple[float, int] | None) -> dict[str, Any]:
    """The product's read of a page (club/read/federation.established_after: from a place in
    the index rating_order, no OFFSET), at the top and after the middle row."""
    from clubrating.club.read.federation import established_after

    out = {}
    for label, after in (("first page", None), ("middle page", middle)):
        per_run = []
        for _ in range(runs):
            load_before = load_average()
            times = []
            for _ in range(5):
                started = time.perf_counter()
                established_after("standard", after, LIST_PAGE)
                times.append(time.perf_counter() - started)
            per_run.append({"s": statistics.median(times), "load": load_before})
        out[label] = {
            "median_ms": round(statistics.median(r["s"] for r in per_run) * 1000, 2),
            "load": per_run[-1]["load"],
        }
        print(
            f"  federation list, {label}, by keyset: {out[label]['median_ms']:.1f} ms, "
            f"load {out[label]['load']}",
            flush=True,
        )
    return out


# -- 5: analysis on RQ workers --------------------------------------------------------------------


def measure_analysis(url: str, runs: int, games: int, plies: int, nodes: int) -> dict[str, Any]:
    """``measure_rq_workers``'s run in this database: each run a new club whose evening of
    ``games`` games waits for 1, then 2 workers; the search cache emptied before each."""
    from redis import Redis

    from clubrating.club.store.models import AuditEntry, GameAnalysis, PositionSearch

    env = {**measure_rq_workers.redis_env(nodes), "CLUBRATING_DATABASE_URL": url}
    times: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as folder:
        pgn = Path(folder) / "evening.pgn"
        pgn.write_text(measure_rq_workers.evening_pgn(games, plies))
        for run in range(runs):
            for workers in (1, 2):
                slug = f"analysis-{run + 1}-{workers}"
                PositionSearch.objects.all().delete()  # a cache: each run searches every position
                Redis.from_url(env["CLUBRATING_REDIS_URL"]).flushdb()
                measure_rq_workers.publish_evening(env, pgn, slug)

                def finished() -> bool:
                    done = GameAnalysis.objects.filter(game__tournament__club__slug=slug).count()
                    return (
                        done == games
                        and AuditEntry.objects.filter(club__slug=slug, action="analyse").exists()
                    )

                load_before = load_average()
                seconds = measure_rq_workers.time_workers(env, workers, finished)
                times[workers].append({"s": seconds, "load": load_before})
                print(
                    f"  analysis, {workers} worker{'s' if workers > 1 else ''}: "
                    f"{seconds:.1f} s, load {load_before}",
                    flush=True,
                )
    one, two = (statistics.median(r["s"] for r in times[w]) for w in (1, 2))
    return {
        "games": games,
        "plies": plies,
        "nodes": nodes,
        "cores": os.cpu_count(),
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "speedup": round(one / two, 2),
        "runs": {str(w): [round(r["s"], 2) for r in rs] for w, rs in times.items()},
        "load": {str(w): [r["load"] for r in rs] for w, rs in times.items()},
    }


# -- the report ------------------------------------------------------------------------------------


def page_row_name(p: dict[str, Any], label: str) -> str:
    """A row of the pages' table in words: which page, how it was asked, by how many clients."""
    clients = 1 if "one client" in label else p["clients"]
    by = f"{clients} client{'s' if clients > 1 else ''}"
    if label.startswith("index"):
        return f"{label}: client p95, {by}"
    if label.startswith(("federation", "player", "card", "tournament")):
        return f"{label}: server p95, {by}"
    return f"club page ({p['club']}), {label}: server p95, {by}"


def page_target(label: str) -> str:
    """The target of a rendered page (docs/benchmarks.md): 50 ms, 100 ms while another club
    rebuilds; the page cache's answer 50 ms."""
    if label.startswith(("index", "federation")):
        return "-"
    return "<= 100 ms" if "rebuilding" in label and "warm" not in label else "<= 50 ms"


def print_table(doc: dict[str, Any]) -> None:
    c = doc["counts"]
    print(
        f"\n{c['clubs']:,} clubs, {c['members']:,} members, {c['games']:,} "
        f"games ({c['tournaments']:,} tournaments) on {doc['vendor']}; loaded "
        f"in {c['load_s']} s, every club rated in {c['rate_all_s']} s\n"
    )
    print("| measurement | median | target | load |")
    print("| --- | ---: | ---: | ---: |")
    h = doc.get("history")
    if h:
        print(
            f"| full rebuild of the largest club ({h['club']}, {h['games']:,} games) | "
            f"{h['full_rebuild']['median_s']:.2f} s | - | {h['full_rebuild']['load'][0]} |"
        )
        for where, r in h["corrections"].items():
            print(
                f"| correction in that club, {where} | "
                f"{r['median_s'] * 1000:.0f} ms | <= 500 ms | {r['load'][0]} |"
            )
        print(
            "| corrections equal to a full replay | "
            f"{'yes' if h['equal_to_full_replay'] else 'NO'} | yes | |"
        )
    p = doc.get("pages")
    if p:
        for label, r in p["rows"].items():
            print(
                f"| {page_row_name(p, label)} | {r['server_p95_ms']:.1f} ms | "
                f"{page_target(label)} | {r['load'][0]} |"
            )
        for code, rows in p.get("codes", {}).items():
            print(f"\n| server p95 | {code} | this code | target | load ({code} / this) |")
            print("| --- | ---: | ---: | ---: | ---: |")
            for label, r in p["rows"].items():
                old = rows.get(label)
                if old:
                    print(
                        f"| {page_row_name(p, label)} | {old['server_p95_ms']:.1f} ms | "
                        f"{r['server_p95_ms']:.1f} ms | {page_target(label)} | "
                        f"{old['load'][0]} / {r['load'][0]} |"
                    )
    f = doc.get("federation_list")
    if f:
        for label in ("count (the pager)", "first page", "middle page"):
            print(
                f"| federation-wide list query ({f['players_listed']:,} players), {label} | "
                f"{f[label]['median_ms']:.1f} ms | - | {f[label]['load'][0]} |"
            )
        for label, r in f["keyset"].items():
            print(
                f"| the product's read by keyset (index rating_order), {label} | "
                f"{r['median_ms']:.1f} ms | - | {r['load']} |"
            )
    a = doc.get("analysis")
    if a:
        print(
            f"| analysis, {a['games']} games: 1 worker / 2 workers | {a['one_worker_s']:.1f} s / "
            f"{a['two_workers_s']:.1f} s = {a['speedup']:.2f}x | >= 1.8x | {a['load']['1'][0]} |"
        )


def answers(server: str) -> bool:
    import psycopg

    try:
        psycopg.connect(server, connect_timeout=5).close()
        return True
    except psycopg.OperationalError:
        return False


PARTS = ("history", "pages", "federation_list", "analysis")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="share of the issue's federation (1.0: 5,000,000 games)",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--database",
        default=None,
        help="a PostgreSQL server's URL (default: $CLUBRATING_DATABASE_URL "
        "when it is one, else scripts/postgres's server, started), or 'sqlite'",
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--requests", type=int, default=400, help="requests a page and mode")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=8, help="games of the analysed evening")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument(
        "--before",
        metavar="SRC",
        help="also serve the pages with the code of this src folder (another checkout's, e.g. "
        "of git worktree add), on the same database, the two taking turns",
    )
    parser.add_argument("--players", type=int, default=300, help="players of the event measured")
    parser.add_argument("--rebuild-loop", metavar="SLUG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from clubrating import djangoenv

    if args.rebuild_loop:
        djangoenv.setup(args.database)
        return rebuild_loop(args.rebuild_loop, seconds=600)
    # the server, the workers and the rebuilding process run this checkout's code
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(HERE.parent / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    env_url = os.environ.get("CLUBRATING_DATABASE_URL", "")
    server = args.database or (env_url if env_url.startswith("postgres") else "")
    if not server:  # the private server of the tests, started unless it answers already
        server = subprocess.run(
            [HERE.parent / "scripts" / "postgres", "url"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        if not answers(server):
            subprocess.run([HERE.parent / "scripts" / "postgres", "start"], check=True)
    shapes = shapes_for(args.scale)
    with own_database(server) as url:
        djangoenv.setup(url, migrate=True)
        from django.db import connection

        print(
            f"scale {args.scale}: {len(shapes):,} clubs, "
            f"{sum(s.members for s in shapes):,} members, {sum(s.games for s in shapes):,} "
            f"games; {connection.vendor}, {os.cpu_count()} cores, load {load_average()}",
            flush=True,
        )
        counts = load(shapes)
        print(
            f"  loaded in {counts['load_s']} s, rated in "
            f"{counts['rate_all_s']} s, load {load_average()}",
            flush=True,
        )
        slugs = counts.pop("slugs")
        doc: dict[str, Any] = {
            "scale": args.scale,
            "runs": args.runs,
            "vendor": connection.vendor,
            "counts": counts,
            "expected": {
                "clubs": len(shapes),
                "members": sum(s.members for s in shapes),
                "games": sum(s.games for s in shapes),
                "largest_club_games": shapes[0].games,
            },
        }
        steps: dict[str, Callable[[], dict[str, Any]]] = {
            "history": lambda: measure_history(slugs[0], args.runs),
            "pages": lambda: measure_pages(
                url,
                slugs,
                args.runs,
                args.requests,
                args.clients,
                {"this": None, **({"before": Path(args.before)} if args.before else {})},
                args.players,
            ),
            "federation_list": lambda: measure_federation_list(args.runs),
            "analysis": lambda: measure_analysis(
                url, args.runs, args.games, args.plies, args.nodes
            ),
        }
        for part in args.parts:
            started = time.perf_counter()
            doc[part] = steps[part]()
            doc.setdefault("part_s", {})[part] = round(time.perf_counter() - started, 1)
            print(f"  {part}: {doc['part_s'][part]} s", flush=True)
            if args.json:  # after each part: a run stopped later keeps what it measured
                Path(args.json).write_text(json.dumps(doc, indent=2, default=str) + "\n")
    print_table(doc)
    return 0 if doc.get("history", {}).get("equal_to_full_replay", True) else 1


if __name__ == "__main__":
    sys.exit(main())
