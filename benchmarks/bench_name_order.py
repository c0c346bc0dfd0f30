"""The cost of putting names in the page's alphabet (identity/collation): sorting and searching
a club's names with the collation key against Python's bare ``str.casefold``, in en, ru and hy.
The names mix Russian, Armenian and Latin (some with accents), 5 to 12 letters and a given name.

    .venv/bin/python benchmarks/bench_name_order.py --names 10000

The best of ``--repeat`` runs; the machine is shared, so the figures are noisy.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from clubrating.identity.collation import matches, sort_key

LETTERS = (
    "абвгдеёжзийклмнопрстуфхцчшщыэюя"
    "աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆ"
    "abcdefghijklmnopqrstuvwxyz"
    "éüłš"
)


def names(count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)

    def word(low: int, high: int) -> str:
        return "".join(rng.choice(LETTERS) for _ in range(rng.randint(low, high))).capitalize()

    return [f"{word(5, 12)} {word(4, 8)}" for _ in range(count)]


def best_ms(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--names", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    listed = names(args.names)
    print(f"{args.names:,} names, best of {args.repeat}")
    bare = best_ms(lambda: sorted(listed, key=str.casefold), args.repeat)
    print(f"  sorted by str.casefold: {bare:.1f} ms")
    for language in ("en", "ru", "hy"):
        took = best_ms(lambda: sorted(listed, key=lambda n: sort_key(n, language)), args.repeat)
        print(f"  sorted in {language}: {took:.1f} ms ({took * 1000 / args.names:.1f} µs a name)")
    search = best_ms(lambda: [n for n in listed if matches("семенов", n)], args.repeat)
    print(f"  searched for a name: {search:.1f} ms ({search * 1000 / args.names:.1f} µs a name)")


if __name__ == "__main__":
    main()
