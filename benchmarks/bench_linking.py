"""What linking a list of names costs: a 500-member initial list and a 500-player tournament.

    .venv/bin/python benchmarks/bench_linking.py [--names 500] [--db URL]

In a new club (a new SQLite file unless ``--db``): a tournament of NAMES players, all new
members (``link --all-new``); a second tournament of the same names linked exactly
(``link --exact``); an initial list of the same names linked exactly (``seed-ratings
--accept-exact``); and in a second club the list made all new members. Each: wall and CPU
seconds and the number of SQL queries, the service end to end (its transaction, the audit
entries and the replay it causes). Run another checkout's code with ``PYTHONPATH=OTHER/src``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", type=int, default=500)
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'bench.sqlite3')}"
    from clubrating import djangoenv

    djangoenv.setup(url, migrate=True)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubrating.club.services.clubs import create_club
    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament
    from clubrating.club.services import initial_list as il
    from clubrating.formats.ratinglist import read_rating_list
    from clubrating.formats.records import Pairing, PlayerEntry, TournamentRecord

    import clubrating

    print(f"code: {os.path.dirname(clubrating.__file__)}; load average {os.getloadavg()[0]:.1f}")
    names = [f"Player {chr(65 + i % 26)}{i:04d}" for i in range(args.names)]

    def tournament(club: Any, day: int) -> Any:
        record = TournamentRecord(
            name=f"Evening {day}",
            date=dt.date(2026, 3, day),
            players=tuple(PlayerEntry(i + 1, n) for i, n in enumerate(names)),
            pairings=tuple(
                Pairing(round=1, white=i + 1, black=i + 2, white_points=1, black_points=1)
                for i in range(0, len(names) - 1, 2)
            ),
            rounds=1,
            source="bench",
            format="csv",
        )
        return import_tournament(club, record, who="bench", today=dt.date(2030, 1, 1), force=True)

    def seed(club: Any) -> None:
        text = "Name;Rating;Games\n" + "".join(
            f"{n};{1500 + i % 300};10\n" for i, n in enumerate(names)
        )
        listed = read_rating_list(io.StringIO(text), "list.csv")
        il.seed_ratings(club, listed, who="bench", source="list.csv")

    def measure(label: str, action: Callable[[], Any]) -> None:
        with CaptureQueriesContext(connection) as captured:
            wall, cpu = time.perf_counter(), time.process_time()
            action()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{label:<28} {wall:8.3f} {cpu:8.3f} {len(captured):8d}", flush=True)

    print(f"{'':<28} {'wall s':>8} {'CPU s':>8} {'queries':>8}")
    club = create_club("Bench", who="bench")
    first = tournament(club, 1)
    measure(f"link --all-new ({len(names)})", lambda: all_new_members(first, who="bench"))
    second = tournament(club, 2)
    measure(f"link --exact ({len(names)})", lambda: accept_exact(second, who="bench"))
    seed(club)
    measure(
        f"initial list exact ({len(names)})", lambda: il.accept_exact_initial(club, who="bench")
    )
    other = create_club("Other", who="bench")
    seed(other)
    measure(f"initial list new ({len(names)})", lambda: il.all_new_initial(other, who="bench"))


if __name__ == "__main__":
    main()
