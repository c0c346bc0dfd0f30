"""The pages the player card and the tournament list changed, timed in-process on the club of
``bench_web.py`` (500 members, 400 tournaments, 24,000 games; a player with 500 games): the
median and the fastest of 15 cold renders each (a new query string: no page cache), and
the number of SQL queries.

Usage: python benchmarks/measure_card_pages.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite3"
        os.environ["CLUBRATING_DATABASE_URL"] = url
        import bench_web  # noqa: E402  (sets Django up on the database above)

        slug, regular = bench_web.build(url)
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client()
        pages = {
            "player (500 games)": f"/c/{slug}/p/{regular}/",
            "tournament list (400)": f"/c/{slug}/t/",
            "club page": f"/c/{slug}/",
        }
        for name, path in pages.items():
            times = []
            for i in range(15):
                started = time.perf_counter()
                assert client.get(f"{path}?cold={i}").status_code == 200
                times.append((time.perf_counter() - started) * 1000)
            with CaptureQueriesContext(connection) as queries:
                client.get(f"{path}?count=1")
            print(
                f"{name:<22} median {statistics.median(times):7.1f} ms  fastest "
                f"{min(times):7.1f} ms  {len(queries.captured_queries)} "
                f"queries; load average {os.getloadavg()[0]:.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
