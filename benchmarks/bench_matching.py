"""Name matching on real spelling variants: quality and speed, beside the plain baseline.

Data: ../shared/data/names/ (the Scid spelling file, see its README): roster.txt (231,679
canonical names) and variants.tsv (variant<TAB>canonical). On a seeded sample: recall at 1 and
3, proposals shown and wrong-first rate for real variants (against the whole roster and against
500-member clubs) and for the four generated kinds of R11; the plain rapidfuzz baseline; the
misses at 3 sorted by kind (``--misses FILE`` lists each); and the speed of 100 names against a
club and against a 400,000-player roster. Each measure in full: ``docs/benchmarks.md``.

Run: .venv/bin/python benchmarks/bench_matching.py [--sample 2000] [--seed 3] [--misses FILE]
Timings move with the load: run it with nothing else running.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from anyascii import anyascii
from rapidfuzz import fuzz, process

from clubrating.identity.compare import compare
from clubrating.identity.match import (
    MAX_BEHIND_BEST,
    MIN_SCORE,
    Matcher,
    Proposal,
    RosterEntry,
    clear_caches,
)
from clubrating.identity.normalize import normalize_name

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "names"
BIG_ROSTER = 400_000  # target: "100 new names against a 400,000-player roster"
CLUB_SIZE = 500  # target: "against a 500-member club"
SPEED_NAMES = 100
DUPLICATE_CLUBS = (500, 2000)  # the arbiter's "possibly one person" list, computed on each view
CLUB_RUNS = 31  # a run takes ~20 ms: many, for a steady median on a shared machine


@dataclass
class Tally:
    """Quality counts over one set of (variant, canonical) pairs."""

    names: int = 0
    at_1: int = 0
    at_3: int = 0
    shown: int = 0
    wrong_first: int = 0
    seconds: float = 0.0

    def add(self, canonical: str, proposed: Sequence[str]) -> None:
        self.names += 1
        self.at_1 += bool(proposed) and proposed[0] == canonical
        self.at_3 += canonical in proposed[:3]
        self.shown += len(proposed)
        self.wrong_first += bool(proposed) and proposed[0] != canonical

    def row(self, label: str) -> str:
        n = max(self.names, 1)
        return (
            f"{label:<34} {self.names:>5} {100 * self.at_1 / n:>7.1f} "
            f"{100 * self.at_3 / n:>7.1f} {self.shown / n:>6.2f} "
            f"{100 * self.wrong_first / n:>7.1f} {1000 * self.seconds / n:>8.2f}"
        )


HEADER = (
    f"{'set':<34} {'names':>5} {'rec@1%':>7} {'rec@3%':>7} "
    f"{'shown':>6} {'wrong1%':>7} {'ms/name':>8}"
)


def load() -> tuple[list[str], list[tuple[str, str]]]:
    if not DATA.is_dir():
        sys.exit(f"bench_matching: no data at {DATA}")
    roster = (DATA / "roster.txt").read_text(encoding="utf-8").splitlines()
    pairs = []
    for line in (DATA / "variants.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) == 2:  # 3 lines of the file hold a tab inside the name
            pairs.append((fields[0], fields[1]))
    return roster, pairs


def split(name: str) -> tuple[str, list[str]]:
    surname, _, given = name.partition(",")
    return surname.strip(), given.split()


def initial(name: str, rng: random.Random) -> str | None:
    surname, given = split(name)
    if not given or len(given[0]) < 2:
        return None
    return f"{surname}, {given[0][0]}. {' '.join(given[1:])}".strip()


def middle(name: str, rng: random.Random, pool: Sequence[str] = ()) -> str | None:
    surname, given = split(name)
    if not given:
        return None
    if len(given) >= 2:
        return f"{surname}, {' '.join(given[:-1])}"
    return f"{surname}, {given[0]} {rng.choice(pool)}"


def typo(name: str, rng: random.Random) -> str | None:
    surname, given = split(name)
    if len(surname) < 4 or not given:
        return None
    i = rng.randrange(1, len(surname))
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
    kind = rng.choice(("replace", "insert", "delete", "swap"))
    if kind == "replace":
        wrong = surname[:i] + letter + surname[i + 1 :]
    elif kind == "insert":
        wrong = surname[:i] + letter + surname[i:]
    elif kind == "delete":
        wrong = surname[:i] + surname[i + 1 :]
    else:
        wrong = surname[: i - 1] + surname[i] + surname[i - 1] + surname[i + 1 :]
    return None if wrong == surname else f"{wrong}, {' '.join(given)}"


def swapped(name: str, rng: random.Random) -> str | None:
    surname, given = split(name)
    if not given:
        return None
    # Half "Given, Surname", half "Surname Given" without a comma: both read
    # the first name as the surname.
    return f"{' '.join(given)}, {surname}" if rng.random() < 0.5 else f"{surname} {' '.join(given)}"


def generated(roster: list[str], count: int, seed: int) -> dict[str, list[tuple[str, str]]]:
    """count (variant, canonical) pairs for each kind of R11, from real roster names."""
    rng = random.Random(seed)
    names = set(roster)
    given_pool = sorted({w for name in roster[::50] for w in split(name)[1] if len(w) > 2})
    kinds: dict[str, Callable[..., str | None]] = {
        "initial for first name": initial,
        "middle name dropped/added": middle,
        "one-letter surname typo": typo,
        "first/last swapped": swapped,
    }
    ambiguous_initial = Counter(initial(name, rng) for name in roster)
    out: dict[str, list[tuple[str, str]]] = {}
    for label, make in kinds.items():
        pairs: list[tuple[str, str]] = []
        while len(pairs) < count:
            canonical = rng.choice(roster)
            if "," not in canonical:
                continue
            variant = make(canonical, rng, given_pool) if make is middle else make(canonical, rng)
            if variant is None or variant in names:
                continue  # the variant is another real player's exact name: not a variation
            if make is initial and ambiguous_initial[variant] > 1:
                continue  # "Smith, J." for John and Jane: no matcher can choose (reported apart)
            pairs.append((variant, canonical))
        out[label] = pairs
    return out


def big_roster(roster: list[str], size: int, seed: int) -> list[str]:
    """The real roster plus distinct generated names: a real surname, another player's given
    names."""
    rng = random.Random(seed)
    names = list(roster)
    seen = set(roster)
    surnames = [split(name)[0] for name in roster if "," in name]
    givens = [" ".join(split(name)[1]) for name in roster if "," in name]
    while len(names) < size:
        name = f"{rng.choice(surnames)}, {rng.choice(givens)}".strip(", ")
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


_NON_WORD = re.compile(r"[^a-z0-9 ]+")


def baseline_norm(name: str) -> str:
    return " ".join(_NON_WORD.sub(" ", anyascii(name).lower()).split())


def run_matcher(
    matcher: Matcher,
    pairs: Sequence[tuple[str, str]],
    misses: list[tuple[str, str, tuple[Proposal, ...]]] | None = None,
    tally: Tally | None = None,
) -> Tally:
    """Quality counts (added to ``tally`` when given); the pairs whose canonical is not
    among the first 3 go to ``misses``."""
    tally = tally or Tally()
    for variant, canonical in pairs:
        start = time.perf_counter()
        proposals = matcher.propose(variant)
        tally.seconds += time.perf_counter() - start
        tally.add(canonical, [p.member for p in proposals])
        if misses is not None and canonical not in [p.member for p in proposals[:3]]:
            misses.append((variant, canonical, proposals))
    return tally


# Why a canonical name was not among the first three proposals. The first kind
# bounds what any rule on names can do: the two spellings share no reading
# (a married or maiden name, another name altogether).
NO_READING = "shares no reading with its canonical name (score < 60)"
OUTRANKED = "3 other proposals at least as alike (namesakes, ties)"
TOO_FAR = "scored, but 16+ points behind the best proposal"
NOT_FOUND = "scored, but the search did not reach it"


def why_missed(
    variant: str, canonical: str, proposals: Sequence[Proposal]
) -> tuple[str, float, tuple[str, ...]]:
    """The kind of miss, with the canonical name's own score and reasons against the variant."""
    likeness = compare(normalize_name(variant), normalize_name(canonical))
    if likeness.score < MIN_SCORE:
        kind = NO_READING
    elif sum(1 for p in proposals if p.member != canonical and p.score >= likeness.score) >= 3:
        kind = OUTRANKED
    elif proposals and likeness.score < proposals[0].score - MAX_BEHIND_BEST:
        kind = TOO_FAR
    else:
        kind = NOT_FOUND
    return kind, likeness.score, likeness.reasons


def report_misses(
    misses: Sequence[tuple[str, str, tuple[Proposal, ...]]], names: int, path: Path | None
) -> None:
    """The misses at 3 by kind, as shares of all the names; each miss listed in ``path``."""
    kinds: Counter[str] = Counter()
    lines = []
    for variant, canonical, proposals in misses:
        kind, score, reasons = why_missed(variant, canonical, proposals)
        kinds[kind] += 1
        shown = "; ".join(f"{p.member} {p.score:.0f}" for p in proposals[:3])
        lines.append(f"{kind}\t{variant}\t{canonical}\t{score:.0f} {', '.join(reasons)}\t{shown}")
    print(f"\nreal variants not in the first 3: {100 * len(misses) / names:.2f} %")
    for kind in (NO_READING, OUTRANKED, TOO_FAR, NOT_FOUND):
        print(f"  {100 * kinds[kind] / names:5.2f} %  {kind}")
    print(
        "  ceiling at 3 for a matcher that needs a shared "
        f"reading: {100 - 100 * kinds[NO_READING] / names:.1f} %"
    )
    if path is not None:
        path.write_text(
            "kind\tvariant\tcanonical\tits score and reasons\tfirst 3 proposals\n"
            + "\n".join(sorted(lines))
            + "\n",
            encoding="utf-8",
        )


def run_clubs(roster: list[str], pairs: Sequence[tuple[str, str]], seed: int) -> Tally:
    """The variants against club-sized rosters: each 500-member club holds the canonical
    names of 100 variants and 400 other real roster names (what a club's arbiter sees)."""
    rng = random.Random(seed)
    tally = Tally()
    per_club = SPEED_NAMES
    for start in range(0, len(pairs), per_club):
        chunk = pairs[start : start + per_club]
        members = {canonical for _, canonical in chunk}
        while len(members) < CLUB_SIZE:
            members.add(rng.choice(roster))
        club = Matcher([RosterEntry(i, name) for i, name in enumerate(sorted(members))])
        run_matcher(club, chunk, tally=tally)
    return tally


def run_baseline(
    roster: list[str], normalised: list[str], pairs: Sequence[tuple[str, str]]
) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    for variant, canonical in pairs:
        best = process.extract(
            baseline_norm(variant), normalised, scorer=fuzz.token_set_ratio, limit=3
        )
        tally.add(canonical, [roster[i] for _, _, i in best])
    tally.seconds = time.perf_counter() - start
    return tally


def timed_propose(matcher: Matcher, names: Sequence[str], times: int = 5) -> list[float]:
    """Seconds for the whole batch of names, cold runs (memoised spellings forgotten)."""
    runs = []
    for _ in range(times):
        clear_caches()
        start = time.perf_counter()
        for name in names:
            matcher.propose(name)
        runs.append(time.perf_counter() - start)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sample", type=int, default=2000, help="real variants sampled (default 2000)"
    )
    parser.add_argument(
        "--generated", type=int, default=500, help="generated variants per kind (default 500)"
    )
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=300,
        help="names the slow baseline sees (default 300)",
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--no-speed", action="store_true", help="skip the speed runs (club and 400,000 roster)"
    )
    parser.add_argument(
        "--misses",
        type=Path,
        metavar="FILE",
        help="list each real variant not in the first 3, with why, in FILE (TSV)",
    )
    options = parser.parse_args()

    roster, pairs = load()
    rng = random.Random(options.seed)
    sample = rng.sample(pairs, min(options.sample, len(pairs)))
    if not options.no_speed:
        club_speed(roster, sample, options.seed)  # first: a club's server holds no large index
    start = time.perf_counter()
    matcher = Matcher([RosterEntry(i, name) for i, name in enumerate(roster)])
    print(
        f"roster {len(roster):,} names, index built in {time.perf_counter() - start:.1f} s",
        file=sys.stderr,
    )
    normalised = [baseline_norm(name) for name in roster]
    kinds = generated(roster, options.generated, options.seed)
    cut = options.baseline_sample

    print(HEADER)
    misses: list[tuple[str, str, tuple[Proposal, ...]]] = []
    print(run_matcher(matcher, sample, misses).row("real variants: matcher"))
    print(run_clubs(roster, sample, options.seed).row(f"real variants vs {CLUB_SIZE}-member clubs"))
    print(run_matcher(matcher, sample[:cut]).row(f"real variants (first {cut}): matcher"))
    print(
        run_baseline(roster, normalised, sample[:cut]).row(f"real variants (first {cut}): baseline")
    )
    for label, kind_pairs in kinds.items():
        print(run_matcher(matcher, kind_pairs).row(f"{label}: matcher"))
        print(run_baseline(roster, normalised, kind_pairs[: cut // 3]).row(f"{label}: baseline"))
    report_misses(misses, len(sample), options.misses)
    if not options.no_speed:
        del matcher, normalised
        roster_speed(roster, sample, options.seed)


def club_speed(roster: list[str], sample: Sequence[tuple[str, str]], seed: int) -> None:
    """100 names against a 500-member club, timed in a process that holds no large index.

    Run by run beside the plain baseline over the same club (rapidfuzz
    token_set_ratio, best 3), so that the ratio holds when the shared
    machine slows down for a second.
    """
    names = [variant for variant, _ in sample[:SPEED_NAMES]]
    club_names = random.Random(seed).sample(roster, CLUB_SIZE)
    gc.collect()
    start = time.perf_counter()
    club = Matcher([RosterEntry(i, name) for i, name in enumerate(club_names)])
    built = time.perf_counter() - start
    normalised = [baseline_norm(name) for name in club_names]
    ours, plain = [], []
    for _ in range(CLUB_RUNS):
        ours += timed_propose(club, names, 1)
        start = time.perf_counter()
        for name in names:
            process.extract(baseline_norm(name), normalised, scorer=fuzz.token_set_ratio, limit=3)
        plain.append(time.perf_counter() - start)
    ratio = statistics.median(o / p for o, p in zip(ours, plain))
    print(
        f"{SPEED_NAMES} names vs {CLUB_SIZE}-member club: median "
        f"{statistics.median(ours) * 1000:.1f} ms (min {min(ours) * 1000:.1f}, "
        f"{CLUB_RUNS} runs); index built in {built * 1000:.0f} ms; plain baseline beside "
        f"it {statistics.median(plain) * 1000:.1f} ms, ours / baseline {ratio:.2f}"
    )
    for size in (
        DUPLICATE_CLUBS
    ):  # club.read.matching.possible_duplicates: the index, then every member against it
        members = random.Random(seed).sample(roster, size)
        runs = []
        for _ in range(5):
            clear_caches()
            start = time.perf_counter()
            everyone = Matcher([RosterEntry(i, name) for i, name in enumerate(members)])
            for name in members:
                everyone.propose(name)
            runs.append(time.perf_counter() - start)
        print(
            f"members that may be one person, {size:,}-member club: median "
            f"{statistics.median(runs) * 1000:.0f} ms of 5 (index and every member matched)"
        )
    print()


def roster_speed(roster: list[str], sample: Sequence[tuple[str, str]], seed: int) -> None:
    """100 names against a 400,000-player roster (the quality runs' index released first)."""
    names = [variant for variant, _ in sample[:SPEED_NAMES]]
    gc.collect()
    start = time.perf_counter()
    big = Matcher(
        [RosterEntry(i, name) for i, name in enumerate(big_roster(roster, BIG_ROSTER, seed))]
    )
    built = time.perf_counter() - start
    runs = timed_propose(big, names)
    print(
        f"\n{SPEED_NAMES} names vs {len(big):,} roster: median "
        f"{statistics.median(runs) * 1000:.0f} ms (min "
        f"{min(runs) * 1000:.0f}); index built in {built:.1f} s"
    )


if __name__ == "__main__":
    main()
