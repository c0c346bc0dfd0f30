"""How long the club's CPI ledger rebuild takes (it runs inside every rating rebuild), and what
a publish and a correction cost end to end in a club with years of analysed games.

    .venv/bin/python benchmarks/bench_cpi_ledger.py [--db URL] [--runs N] [ANALYSED ...]
    .venv/bin/python benchmarks/bench_cpi_ledger.py --club 50000 --every 5 [--db URL] [--profile]

Sizes (default 1000 4000 10000): a club of that many games, all analysed, in tournaments of
250 games (20 players, 25 rounds of 10 boards, two real openings: half the games are shorter
than the default preset's ``min_plies`` and have no ledger row). Times ``rebuild_cpi`` with
nothing changed (what every publish and correction adds) and after a weight change (every game
scored again, no engine), the median of ``--runs``.

``--club GAMES --every N``: a club of GAMES games, every Nth analysed, then times (median of
``--runs``) the publish of a new 10-game evening, and a correction of an analysed game in the
middle of the history (and the correction back), each end to end: the service in its
transaction, the rating replay and the ledger. ``--profile``: one publish and one correction
under cProfile (CPU seconds) instead, with the seconds of the rebuild's parts (the ratings,
the ledger and its reads), the number of queries and the slowest ones.

``--db URL`` of an earlier run (a copy of its SQLite file, or a PostgreSQL database made with
``createdb -T``) goes on with the club built there (named "Bench") instead of building it again:
the same club measured by two versions of the code.

The two openings are analysed once with Stockfish at 2,000 nodes; every other game with the
same moves gets a copy of those facts (what the search cache answers, without the minutes
the engine's process takes per game), written straight to the table: the benchmark measures
the ledger, not the engine. Times are wall seconds and CPU seconds (on a shared machine the CPU
seconds are the cost): this process's, and on PostgreSQL also those of the server's process
serving it, read from its /proc entry (a remote server's is not counted).
Run another checkout's code with ``PYTHONPATH=OTHER/src`` (the figures side by side).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

LEGAL = "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"
RUY = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 "
    "9. Rxd1 Bd6 10. Na3 Be6 1/2-1/2"
)
PLAYERS = 20
BOARDS = 10
ROUNDS = 25  # 250 games a tournament
SIZES = (1000, 4000, 10000)


def server_cpu() -> float:
    """CPU seconds of the PostgreSQL backend serving this process's connection, when the server
    is local (its /proc entry); 0 on SQLite, which runs in this process."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0  # a remote server: its CPU is not counted
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def timed(action: Callable[[], Any]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call; the CPU of this process and of the database server's
    backend (a local PostgreSQL)."""
    wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu()
    action()
    spent = time.process_time() - cpu + server_cpu() - server
    return time.perf_counter() - wall, spent


def medians(samples: list[tuple[float, float]]) -> str:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"{wall:8.3f} {cpu:8.3f}"


class Bench:
    def __init__(self, url: str) -> None:
        from clubrating import djangoenv

        djangoenv.setup(url, migrate=True)
        from clubrating.club.services import clubs, names, tournaments
        from clubrating.club.store.models import Club, Game, GameAnalysis, Tournament

        self.names, self.tournament_services = names, tournaments
        self.changes = 0
        self.facts: dict[str, Any] = {}
        club = Club.objects.filter(name="Bench").first()  # --db of an earlier run: go on with it
        if club is None:
            self.club = clubs.create_club("Bench", who="bench")
            self.games = self.tournaments = 0
            return
        self.club = club
        self.games = Game.objects.filter(tournament__club=club).count()
        self.tournaments = Tournament.objects.filter(club=club).count()
        analyses = GameAnalysis.objects.exclude(game__moves="")
        self.facts = dict(analyses.values_list("game__moves", "facts")[:1000])

    def record(self, rounds: int, boards: int = BOARDS) -> Any:
        from clubrating.formats.records import Pairing, PlayerEntry, TournamentRecord

        players = tuple(PlayerEntry(i, f"Player {i}") for i in range(1, PLAYERS + 1))
        pairings = tuple(
            Pairing(
                round=r,
                white=(2 * b + r) % PLAYERS + 1,
                black=(2 * b + 1 + r) % PLAYERS + 1,
                white_points=2 if b % 2 else 1,
                black_points=0 if b % 2 else 1,
                board=b + 1,
                moves=LEGAL if b % 2 else RUY,
            )
            for r in range(1, rounds + 1)
            for b in range(boards)
        )
        self.tournaments += 1
        return TournamentRecord(
            name=f"Tournament {self.tournaments}",
            date=dt.date(2000, 1, 1) + dt.timedelta(days=7 * self.tournaments),
            players=players,
            pairings=pairings,
            rounds=rounds,
            source="bench",
            format="csv",
        )

    def publish(self, rounds: int, boards: int = BOARDS) -> Any:
        """Import, link and publish one tournament (forced: each repeats the same pairings)."""
        t = self.tournament_services.import_tournament(
            self.club,
            self.record(rounds, boards),
            who="bench",
            today=dt.date(2100, 1, 1),
            force=True,
        )
        if self.games == 0:
            self.names.all_new_members(t, who="bench")
        else:
            self.names.accept_exact(t, who="bench")
        self.games += rounds * boards
        return t

    def grow(self, games: int) -> None:
        """Published tournaments up to ``games`` games; the two openings' facts from the engine."""
        from clubrating.club.jobs.analysis import analyse_games
        from clubrating.club.store.models import Game, GameAnalysis

        if not self.facts:
            self.tournament_services.publish(self.publish(1, 2), who="bench")
            analyse_games(self.club, nodes=2000, jobs=1, rebuild=False)
            for moves, facts in GameAnalysis.objects.values_list("game__moves", "facts"):
                self.facts[moves] = facts
            GameAnalysis.objects.all().delete()
            Game.objects.filter(tournament__club=self.club).update(moves="")
        while self.games < games:
            rounds = max(1, min(ROUNDS, (games - self.games) // BOARDS))
            self.tournament_services.publish(self.publish(rounds), who="bench")

    def analyse(self, every: int, limit: int) -> None:
        """Copy the openings' facts to every ``every``-th game with moves, in the ledger's order,
        up to ``limit`` analysed games, then rebuild the ledger."""
        from clubrating.club.derived.ledger import rebuild_cpi
        from clubrating.club.store.models import Game, GameAnalysis

        analysed = set(GameAnalysis.objects.values_list("game_id", flat=True))
        games = list(
            Game.objects.filter(tournament__club=self.club)
            .exclude(moves="")
            .order_by("tournament__date", "round", "board")
            .values_list("id", "moves")
        )[::every]
        new = [(g, m) for g, m in games if g not in analysed][: max(0, limit - len(analysed))]
        GameAnalysis.objects.bulk_create(
            [
                GameAnalysis(game_id=g, engine="stockfish", nodes=2000, facts=self.facts[m])
                for g, m in new
            ],
            batch_size=1000,
        )
        rebuild_cpi(self.club)


def ledger_sizes(bench: Bench, sizes: tuple[int, ...], runs: int) -> None:
    from clubrating.club.derived.ledger import rebuild_cpi
    from clubrating.club.services.cpi_weights import set_cpi_weights

    print(f"{'analysed':>8} {'unchanged wall/CPU s':>20} {'new weights wall/CPU s':>23}")
    for size in sizes:
        bench.grow(size)
        bench.analyse(1, size)
        same = [timed(lambda: rebuild_cpi(bench.club)) for _ in range(runs)]
        weights = []
        for _ in range(runs):  # B1 21, 20, 21, ...: each run a change
            bench.changes += 1
            change = {"B1": 20.0 + bench.changes % 2}
            weights.append(timed(lambda: set_cpi_weights(bench.club, change, who="bench")))
        print(f"{size:>8} {medians(same):>20} {medians(weights):>23}", flush=True)


def end_to_end(bench: Bench, games: int, every: int, runs: int) -> None:
    from clubrating.club.store.models import Game, GameAnalysis

    started = time.perf_counter()
    bench.grow(games)
    bench.analyse(every, games)
    built = time.perf_counter() - started
    analysed = GameAnalysis.objects.count()
    middle = Game.objects.filter(analysis__isnull=False, tournament__club=bench.club).order_by(
        "tournament__date", "round", "board"
    )[analysed // 2]
    services = bench.tournament_services
    publishes, corrections = [], []
    for _ in range(runs):
        evening = bench.publish(1)
        publishes.append(timed(lambda: services.publish(evening, who="bench")))
        corrections.append(timed(lambda: services.correct_result(middle, "0-1", who="bench")))
        corrections.append(timed(lambda: services.correct_result(middle, "1-0", who="bench")))
    print(f"club of {bench.games} games, {analysed} analysed (built in {built:.0f} s)")
    print(f"{'publish wall/CPU s':>20} {'correction wall/CPU s':>22}")
    print(f"{medians(publishes):>20} {medians(corrections):>22}", flush=True)


PARTS = (  # what a profile splits a publish and a correction into
    "rebuild_ratings",
    "history_columns",
    "replay_columns",
    "snapshot_before",
    "_stored",
    "_insert",
    "_write_current",
    "rebuild_cpi",
    "rebuild_cpi_of_players",
    "ledger_rows",
    "resolve_members",
    "_stored_entries",
    "ledger_start",
    "_unscored",
    "_scores",
    "stored_facts",
    "_mark_unscored",
    "replay_ledger",
    "_store",
)


def profiled(label: str, action: Callable[[], Any]) -> None:
    """One call under cProfile, with its queries counted: the parts' cumulative seconds."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    profile = cProfile.Profile(time.process_time)  # CPU seconds: the machine is shared
    with CaptureQueriesContext(connection) as queries:
        profile.runcall(action)
    stats = pstats.Stats(profile)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]
    print(f"{label}: {total:.3f} CPU s under the profiler, {len(queries)} queries")
    for (path, _, name), (_, calls, _, cumulative, _) in sorted(
        stats.stats.items(),  # type: ignore[attr-defined]
        key=lambda item: -item[1][3],
    ):
        if name in PARTS and "clubrating" in path:
            print(f"  {name:<18} {calls:>4} calls {cumulative:8.3f} s {cumulative / total:6.1%}")
    stats.sort_stats("tottime").print_stats(8)
    for query in sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:6]:
        print(f"  {float(query['time']):.3f} s  {query['sql'][:150]}")


def profile_end_to_end(bench: Bench, games: int, every: int) -> None:
    from clubrating.club.store.models import Game, GameAnalysis

    bench.grow(games)
    bench.analyse(every, games)
    analysed = GameAnalysis.objects.count()
    middle = Game.objects.filter(analysis__isnull=False, tournament__club=bench.club).order_by(
        "tournament__date", "round", "board"
    )[analysed // 2]
    print(f"club of {bench.games} games, {analysed} analysed")
    evening = bench.publish(1)
    profiled("publish", lambda: bench.tournament_services.publish(evening, who="bench"))
    profiled(
        "correction", lambda: bench.tournament_services.correct_result(middle, "0-1", who="bench")
    )
    bench.tournament_services.correct_result(middle, "1-0", who="bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=list(SIZES))
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--club", type=int, help="games of the club for the end-to-end times")
    parser.add_argument("--every", type=int, default=5, help="with --club: every Nth analysed")
    parser.add_argument(
        "--profile", action="store_true", help="with --club: one publish and correction profiled"
    )
    args = parser.parse_args()
    url = args.db or f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'bench.sqlite3')}"
    load = os.getloadavg()[0]
    import clubrating

    print(f"code: {os.path.dirname(clubrating.__file__)}; load average {load:.1f}")
    bench = Bench(url)
    if args.club and args.profile:
        profile_end_to_end(bench, args.club, args.every)
    elif args.club:
        end_to_end(bench, args.club, args.every, args.runs)
    else:
        ledger_sizes(bench, tuple(sorted(args.sizes)), args.runs)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
