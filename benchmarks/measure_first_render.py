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
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]

import bench_federation  # noqa: E402  (its loader and own database)


def build(clubs: int, members: int, games: int, players: int) -> dict[str, str]:
    """The federation, and the page addresses to measure."""
    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament, publish
    from clubrating.club.store.models import Club, Member
    from clubrating.demo.simulate import EVENING_BOARDS, ROUNDS, ClubShape, federation_shapes
    from clubrating.formats.typed import parse_typed

    shapes = federation_shapes(clubs, 300 * clubs, 5_000 * clubs)  # then the second one's own
    shapes[1] = ClubShape(members, games, games // (ROUNDS * EVENING_BOARDS) + 1)
    bench_federation.load(shapes)
    club = Club.objects.get(slug="club-0002")
    names = list(
        Member.objects.filter(club=club).order_by("id").values_list("name", flat=True)[:players]
    )
    shuffle, lines = random.Random(1), []
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
    first = Member.objects.filter(club=club).order_by("id").values_list("id", flat=True)[0]
    c = "/c/club-0002/"
    return {
        f"club page ({members:,} members)": c,
        "player page": f"{c}p/{first}/",
        "card (JSON)": f"{c}p/{first}/card.json",
        f"tournament page ({len(names)} players)": f"{c}t/{t.id}/",
        "tournament list": f"{c}t/",
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
