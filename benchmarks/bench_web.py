"""The website under load: the club page of a 500-member club with ten seasons of
history, and the page of a player with 500 games (target: p95 <= 50 ms each).

Builds the club in a temporary SQLite file (bulk rows, then one full rebuild),
starts a server on loopback and drives it with a load generator written here: a
pool of 20 threads, each a client sending one request after another over
http.client (a new connection each). Servers, side by side in one run:
- ``gunicorn``: ``clubrating serve`` (gunicorn sync workers, one process per CPU core
  sharing one socket, one request at a time each);
- ``runserver``: ``clubrating serve --dev``, Django's threaded development server
  (20 threads share one interpreter lock, so the in-server time includes waiting);
- ``gunicorn-compiled``: ``clubrating serve`` with club.read.players' prepared-statement cache
  turned off (the ORM compiles every query of a page, as it would without it): run beside
  ``gunicorn`` it shows what the cache saves.
Reported per page:
- "server": the view's own time, from the ``Server-Timing`` header;
- "client": the round trip seen by the client (queueing in the server included);
for the page cache warm (anonymous visitors, the normal case) and cold (every
request a different URL, so each one is rendered from the database: there is no
other cache), and cold with one client at a time (the render alone).

Usage: python benchmarks/bench_web.py [--requests 400] [--clients 20] [--server gunicorn runserver
gunicorn-compiled]
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MEMBERS = 500
SEASONS = 10
EVENINGS = 40  # club evenings a season
BOARDS = 12  # 24 players an evening
ROUNDS = 5
REGULAR_EVERY = 4  # member 1 plays one evening in 4: 100 evenings x 5 rounds = 500 games
TARGET_MS = 50.0  # p95 target of each page


def build(url: str, seed: int = 7) -> tuple[str, int]:
    """The club in the database at ``url``: (slug, the regular player's member id)."""
    from clubrating import djangoenv

    djangoenv.setup(url, migrate=True)
    from django.db import transaction

    from clubrating.club.services.clubs import create_club, set_privacy
    from clubrating.club.store.models import Entry, Game, Member, Tournament
    from clubrating.club.derived.rebuild import rebuild_derived
    from clubrating.demo.simulate import game_points

    rng = random.Random(seed)
    club = create_club("Bench Chess Club", who="bench", slug="bench")
    set_privacy(club, who="bench", visibility="public")
    strength = [rng.gauss(1500, 300) for _ in range(MEMBERS)]
    with transaction.atomic():
        members = Member.objects.bulk_create(
            [Member(club=club, name=f"Player {i:03d} Surname{i}") for i in range(MEMBERS)]
        )
        for index in range(SEASONS * EVENINGS):
            day = dt.date(2015, 9, 1) + dt.timedelta(days=7 * index + index // EVENINGS * 84)
            field = rng.sample(range(1, MEMBERS), 2 * BOARDS)
            if index % REGULAR_EVERY == 0:
                field[0] = 0
            t = Tournament.objects.create(
                club=club,
                name=f"Evening {index + 1}",
                date=day,
                sequence=1,
                status="published",
                rounds=ROUNDS,
                source_format="bench",
            )
            entries = Entry.objects.bulk_create(
                [
                    Entry(tournament=t, number=n + 1, name=members[p].name, member=members[p])
                    for n, p in enumerate(field)
                ]
            )
            games = []
            for rnd in range(1, ROUNDS + 1):
                order = list(range(len(field)))
                rng.shuffle(order)
                for board in range(BOARDS):
                    w, b = order[2 * board], order[2 * board + 1]
                    points = game_points(rng, strength[field[w]], strength[field[b]])
                    games.append(
                        Game(
                            tournament=t,
                            round=rnd,
                            board=board + 1,
                            white=entries[w],
                            black=entries[b],
                            white_points=points,
                            black_points=2 - points,
                        )
                    )
            Game.objects.bulk_create(games)
        rebuild_derived(club, reason="bench")
    return club.slug, members[0].id


# ``clubrating`` with club.read.players.prepared compiling the query every time, set once Django has
# started (gunicorn's workers are forked after that, so they inherit it).
COMPILED = """
import sys
from clubrating import djangoenv
started = djangoenv.setup
def setup(*args, **kwargs):
    result = started(*args, **kwargs)
    from clubrating.club import reads
    reads.prepared = lambda name, build, *values: reads.fetch(build(*values))
    return result
djangoenv.setup = setup
from clubrating.cli import main
sys.exit(main(sys.argv[1:]))
"""


def start_server(
    kind: str, url: str, port: int, workers: int | None, src: Path | None = None
) -> subprocess.Popen[bytes]:
    """``clubrating serve`` (or ``runserver``) on ``url``; ``src``: the code of another checkout's
    ``src`` folder (an older version, measured beside this one)."""
    env = {**os.environ, "CLUBRATING_DEBUG": "0"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    clubrating = (
        [sys.executable, "-c", COMPILED]
        if kind == "gunicorn-compiled"
        else [sys.executable, "-m", "clubrating"]
    )
    command = [*clubrating, "--database", url, "serve", "--port", str(port)]
    if kind == "runserver":
        command.append("--dev")
    elif workers:
        command += ["--workers", str(workers)]
    return subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def cpu_seconds(group: int) -> float:
    """The CPU time (user and system) so far of the processes of one process group (a server
    started by :func:`start_server`, which makes it a session of its own: its workers), from
    /proc; 0 where there is no /proc."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == group:  # state, ppid, pgrp, ...; utime and stime 12th and 13th
            total += int(fields[11]) + int(fields[12])
    return total / tick


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(port: int, path: str) -> tuple[float, float, int]:
    """(client ms, server ms, bytes) of one GET."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    client_ms = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status}")
    server_ms = float((response.getheader("Server-Timing") or "app;dur=nan").split("=")[1])
    conn.close()
    return client_ms, server_ms, len(body)


def load(port: int, paths: list[str], clients: int) -> list[tuple[float, float, int]]:
    with ThreadPoolExecutor(max_workers=clients) as pool:
        return list(pool.map(lambda p: fetch(port, p), paths))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


Row = tuple[str, str, str, list[tuple[float, float, int]]]  # server, page, mode, results


def report(row: Row) -> None:
    kind, page, mode, results = row
    client = [r[0] for r in results]
    server = [r[1] for r in results]
    print(
        f"{kind:<9} {page:<24} {mode:<17} n={len(results):4}  server median "
        f"{statistics.median(server):6.1f} ms  p95 {p95(server):6.1f} ms | "
        f"client median {statistics.median(client):6.1f} ms  p95 "
        f"{p95(client):6.1f} ms | {results[0][2] // 1024} KiB",
        flush=True,
    )


def wait_until_up(port: int, path: str) -> None:
    for _ in range(150):
        try:
            fetch(port, path)
            return
        except (OSError, RuntimeError):
            time.sleep(0.2)
    raise RuntimeError("the server did not answer in 30 s")


def measure(kind: str, url: str, slug: str, regular: int, args: argparse.Namespace) -> list[Row]:
    """Every page and mode against one server."""
    port = free_port()
    server = start_server(kind, url, port, args.workers)
    rows: list[Row] = []
    try:
        wait_until_up(port, f"/c/{slug}/")
        pages = {
            "club (500 members)": f"/c/{slug}/",
            "player (500 games)": f"/c/{slug}/p/{regular}/",
        }
        for page, path in pages.items():
            load(
                port, [path] * args.clients, args.clients
            )  # warm up the page cache of every worker
            rows.append(
                (kind, page, "cache warm", load(port, [path] * args.requests, args.clients))
            )
            report(rows[-1])
            cold = [f"{path}?{kind}-cold={i}" for i in range(args.requests)]
            rows.append((kind, page, "cold (rendered)", load(port, cold, args.clients)))
            report(rows[-1])
            rows.append(
                (
                    kind,
                    page,
                    "cold, one client",
                    [fetch(port, f"{path}?{kind}-one={i}") for i in range(40)],
                )
            )
            report(rows[-1])
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its forked workers
        server.wait(timeout=30)
    return rows


def table(rows: list[Row]) -> None:
    print(
        "\n| server | page | mode | server median ms | "
        "server p95 ms | client median ms | client p95 ms |"
    )
    print("|---|---|---|---:|---:|---:|---:|")
    for kind, page, mode, results in rows:
        server, client = [r[1] for r in results], [r[0] for r in results]
        print(
            f"| {kind} | {page} | {mode} | {statistics.median(server):.1f} | {p95(server):.1f} | "
            f"{statistics.median(client):.1f} | {p95(client):.1f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=400, help="requests per page and mode")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients")
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: clubrating serve's)"
    )
    parser.add_argument(
        "--server",
        nargs="+",
        choices=("gunicorn", "runserver", "gunicorn-compiled"),
        default=["gunicorn", "runserver"],
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite3"
        started = time.perf_counter()
        slug, regular = build(url)
        print(
            f"built {MEMBERS} members, {SEASONS * EVENINGS} tournaments, "
            f"{SEASONS * EVENINGS * ROUNDS * BOARDS} games in "
            f"{time.perf_counter() - started:.1f} s; {os.cpu_count()} "
            f"CPUs, load average {os.getloadavg()[0]:.1f}; {args.clients} "
            f"concurrent clients, {args.requests} requests a row",
            flush=True,
        )
        rows = [row for kind in args.server for row in measure(kind, url, slug, regular, args)]
    table(rows)
    for kind in dict.fromkeys(args.server):  # a server named twice: both its runs
        worst = max(
            p95([r[1] for r in res])
            for k, _, mode, res in rows
            if k == kind and mode != "cold, one client"
        )
        verdict = "meets" if worst <= TARGET_MS else "misses"
        print(
            f"{kind}: worst p95 server time under load {worst:.1f} "
            f"ms: {verdict} the {TARGET_MS:.0f} ms target"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
