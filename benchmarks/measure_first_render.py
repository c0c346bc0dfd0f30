"""The read pages of a big club, made with every cache empty and again at a new address.

Builds (``bench_federation.load``) a database of its own on the PostgreSQL server of
``--database``: ``--clubs`` clubs of 300 members and 5,000 games on average, the second one
with ``--members`` members and ``--games`` games, and a ``--players``-player, 5-round
tournament in it; then asks each page (club page, player page, card, tournament page,
tournament list) ``--runs`` times through Django's test client: with every cache emptied
first (the first render after a change), and at a new address (what the parts kept per
history version save). Medians; the load average before and after.

Usage: python benchmarks/measure_first_render.py [--database postgres://...] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]

import bench_federation  # noqa: E402  (its loader and own database)


def build(clubs: int, members: int, games: int, players: int) -> dict[str, str]:
    """The federation, and the page addresses to measure."""
    from clubrating.demo.simulate import ROUNDS, EVENING_BOARDS, ClubShape, federation_shapes

    shapes = federation_shapes(clubs, 300 * clubs, 5_000 * clubs)  # then the second one's own
    shapes[1] = ClubShape(members, games, games // (ROUNDS * EVENING_BOARDS) + 1)
    bench_federation.load(shapes)
    paths = bench_federation.page_paths("club-0002", players)
    return {
        f"club page ({members:,} members)": paths["club page"],
        "player page": paths["player page"],
        "card (JSON)": paths["card"],
        **{label: path for label, path in paths.items() if label.startswith("tournament page")},
        "tournament list": "/c/club-0002/t/",
    }


def measure(pages: dict[str, str], runs: int) -> None:
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    print(f"load {os.getloadavg()[0]:.1f}")
    print("| page | first render | at a new address |\n| --- | ---: | ---: |")
    for name, url in pages.items():
        first, again = [], []
        for i in range(runs):
            cache.clear()
            started = time.perf_counter()
            assert client.get(f"{url}?first={i}").status_code == 200
            first.append(time.perf_counter() - started)
            started = time.perf_counter()
            client.get(f"{url}?again={i}")
            again.append(time.perf_counter() - started)
        print(
            f"| {name} | {statistics.median(first) * 1000:.0f} ms | "
            f"{statistics.median(again) * 1000:.0f} ms |",
            flush=True,
        )
    print(f"load {os.getloadavg()[0]:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:54329/postgres")
    parser.add_argument("--clubs", type=int, default=40)
    parser.add_argument("--members", type=int, default=1_500)
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from django.conf import settings

    from clubrating import djangoenv

    with bench_federation.own_database(args.database) as url:
        djangoenv.setup(url, migrate=True)
        settings.ALLOWED_HOSTS = ["testserver"]
        measure(build(args.clubs, args.members, args.games, args.players), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
