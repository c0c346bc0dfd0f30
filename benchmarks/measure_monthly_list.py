"""How long a monthly list takes in the biggest club of a federation (docs/ratings.md, "Monthly
lists"): the list of a day from the stored rating changes (``lists_on``), its publication (one
transaction with its audit entry), and its page (which compares it with today's history).

The federation is bench_federation.py's, loaded and rated the same way, at ``--scale``::

    .venv/bin/python benchmarks/measure_monthly_list.py --scale 0.01 --database sqlite
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]

import bench_federation  # noqa: E402  (the federation and its loader)


def timed(action: Any, runs: int) -> float:
    """The median wall time of ``action`` in milliseconds."""
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        took.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(took), 1)


def measure(runs: int) -> dict[str, Any]:
    from django.core.cache import cache
    from django.db.models import Count
    from django.test import Client

    from clubrating.club.derived.frozen_lists import lists_on
    from clubrating.club.services.monthly_lists import publish_month
    from clubrating.club.store.models import Club, FrozenList, Game, Tournament

    club = Club.objects.annotate(games=Count("tournaments__games")).order_by("-games").first()
    assert club is not None
    last = Tournament.objects.filter(club=club).order_by("-date").values_list("date", flat=True)[0]
    month = (last.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    listed = lists_on(club, month)
    lists_ms = timed(lambda: lists_on(club, month), runs)

    def publish() -> None:
        FrozenList.objects.filter(club=club).delete()
        publish_month(club, month, who="benchmark")

    publish_ms = timed(publish, runs)
    web = Client()
    page = f"/c/{club.slug}/lists/{month:%Y-%m}/"
    assert web.get(page).status_code == 200
    page_cached_ms = timed(lambda: web.get(page), runs)

    def uncached() -> None:
        cache.clear()  # the page cache (docs/operations.md): a first visit after a change
        web.get(page)

    page_ms = timed(uncached, runs)
    return {
        "club_games": Game.objects.filter(tournament__club=club).count(),
        "listed": sum(len(rows) for rows in listed.values()),
        "lists_on_ms": lists_ms,
        "publish_ms": publish_ms,
        "page_ms": page_ms,
        "page_cached_ms": page_cached_ms,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", default="sqlite", help="a PostgreSQL URL, or 'sqlite'")
    args = parser.parse_args()
    from clubrating import djangoenv

    with bench_federation.own_database(args.database) as url:
        djangoenv.setup(url, migrate=True)
        counts = bench_federation.load(bench_federation.shapes_for(args.scale))
        figures = measure(args.runs)
        from django.db import connection

        print(
            f"{connection.vendor}, scale {args.scale} ({counts['games']:,} games), load "
            f"{bench_federation.load_average()}: the biggest club's {figures['club_games']:,} "
            f"games, {figures['listed']:,} listed; lists_on {figures['lists_on_ms']} ms, publish "
            f"{figures['publish_ms']} ms, page {figures['page_ms']} ms uncached, "
            f"{figures['page_cached_ms']} ms cached (medians of {args.runs})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
