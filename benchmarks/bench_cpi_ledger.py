"""How long the club's CPI ledger rebuild takes (it runs inside every rating rebuild),
and what an analysis costs when every position comes from the search cache.

    .venv/bin/python benchmarks/bench_cpi_ledger.py [GAMES ...]

Builds a club in a temporary SQLite file: evenings of 10 games with moves (two
real openings), analysed once with Stockfish at 2,000 nodes (the later games
are answered by the cache), then times ``rebuild_cpi`` for each size: with
nothing changed (median of 3: what every publish, correction or merge adds) and
after a weight change (median of 3: every game scored again, no engine).
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import tempfile
import time

GAMES = (200, 1000, 4000)
LEGAL = "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"
RUY = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 "
    "9. Rxd1 Bd6 10. Na3 Be6 1/2-1/2"
)


def main(sizes: tuple[int, ...]) -> None:
    path = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    from clubrating import djangoenv

    djangoenv.setup(f"sqlite:///{path}", migrate=True)

    from clubrating.club import services
    from clubrating.club.jobs.analysis import analyse_games
    from clubrating.club.cpi import rebuild_cpi
    from clubrating.club.services.cpi import set_cpi_weights
    from clubrating.formats.records import Pairing, PlayerEntry, TournamentRecord

    club = services.create_club("Bench", who="bench")
    players = tuple(PlayerEntry(i, f"Player {i}") for i in range(1, 21))
    made = 0
    print(
        f"{'games':>6} {'unchanged s':>12} {'new weights s':>14} "
        f"{'ms/game':>8} {'analyse (cache) s':>18}"
    )
    for size in sizes:
        while made < size:
            pairings = tuple(
                Pairing(
                    round=1,
                    white=2 * b + 1,
                    black=2 * b + 2,
                    white_points=2 if b % 2 else 1,
                    black_points=0 if b % 2 else 1,
                    board=b + 1,
                    moves=LEGAL if b % 2 else RUY,
                )
                for b in range(10)
            )
            record = TournamentRecord(
                name=f"Evening {made}",
                date=dt.date(2020, 1, 1) + dt.timedelta(days=made // 10),
                players=players,
                pairings=pairings,
                rounds=1,
                source="bench",
                format="csv",
            )
            # force: every evening repeats the same pairings and results a day apart, on purpose
            t = services.import_tournament(
                club, record, who="bench", today=dt.date(2030, 1, 1), force=True
            )
            services.all_new_members(t, who="bench") if made == 0 else services.accept_exact(
                t, who="bench"
            )
            services.publish(t, who="bench")
            made += 10
        start = time.perf_counter()
        analyse_games(club, nodes=2000, jobs=1, rebuild=False)
        analysed = time.perf_counter() - start
        times, rescored = [], []
        for attempt in range(3):
            start = time.perf_counter()
            rebuild_cpi(club)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            set_cpi_weights(club, {"B1": 20.0 + (attempt + 1) % 2}, who="bench")
            rescored.append(time.perf_counter() - start)
        full = statistics.median(rescored)
        print(
            f"{made:>6} {statistics.median(times):>12.3f} {full:>14.3f} {1000 * full / made:>8.2f} "
            f"{analysed:>18.2f}"
        )


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or GAMES)
