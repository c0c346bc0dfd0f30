"""The index page (``/``) of a server with many public clubs, as a federation's would be.

    .venv/bin/python benchmarks/measure_club_index.py [--clubs 1000] [--requests 50] [--src PATH]

Creates ``--clubs`` public clubs in a new SQLite file (a temporary folder), then asks for
``/``, ``/?page=2`` and ``/?q=...`` with Django's test client, ``--requests`` times each, and
prints the median milliseconds and the bytes of each answer as JSON. ``--src`` imports the
package from another tree's ``src`` (an older commit's, checked out with ``git worktree``), so
two versions are measured side by side, one run after the other, on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
URLS = ("/", "/?page=2", "/?q=club 05")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--src", default=str(HERE.parent / "src"), help="the package's source tree")
    args = parser.parse_args()
    sys.path.insert(0, args.src)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CLUBRATING_DATABASE_URL"] = f"sqlite:///{folder}/index.sqlite3"
        from clubrating import djangoenv

        djangoenv.setup(migrate=True)
        from django.test import Client

        from clubrating.club.store.models import Club, Visibility

        Club.objects.bulk_create(
            [
                Club(name=f"Club {i:04d}", slug=f"club-{i}", visibility=Visibility.PUBLIC)
                for i in range(args.clubs)
            ]
        )
        client, out = Client(), {"clubs": args.clubs, "src": args.src}
        for url in URLS:
            times, size = [], 0
            for _ in range(args.requests):
                start = time.perf_counter()
                size = len(client.get(url).content)
                times.append(time.perf_counter() - start)
            out[url] = {"median_ms": round(1000 * statistics.median(times), 2), "bytes": size}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
