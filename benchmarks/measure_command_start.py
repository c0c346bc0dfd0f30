"""The wall and CPU time (user + system) of a few short ``clubrating`` commands, for one or more
source trees side by side: each round runs every command once for every tree, alternately,
so that a change of the machine's load falls on all of them alike.

The commands: ``--help``; ``ratings`` on a club of ``--members`` members (500 by default) who
played one published tournament (a CSV of one round, every name made a new member); ``publish``
of a linked draft of a nine-player tournament (a fresh copy of the database each run);
``rate FILE --json`` without a database. Each tree runs with its own ``src`` first on
``PYTHONPATH`` and its ``__pycache__`` written by a warm-up run.

    git worktree add --detach /tmp/before OLD
    (cd /tmp/before && scripts/messages --compile)
    nice -n 10 .venv/bin/python benchmarks/measure_command_start.py --runs 10 /tmp/before/src src
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRF = ROOT / "tests" / "club" / "readme" / "tuesday.trf"
COMMANDS = {
    "--help": ["--help"],
    "ratings": ["--database", "{big}", "ratings"],
    "publish": ["--database", "{draft}", "publish", "1"],
    "rate --json": ["rate", str(TRF), "--json"],
}


def run(src: Path, words: list[str], *, check: bool = True) -> tuple[float, float]:
    """One ``python -m clubrating`` process: its wall and CPU seconds (user + system)."""
    environment = {**os.environ, "PYTHONPATH": str(src)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "clubrating", *words],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if check and process.returncode != 0:
        raise SystemExit(f"{src}: clubrating {' '.join(words)}: exit {process.returncode}: {error}")
    return wall, usage.ru_utime + usage.ru_stime


GIVEN = "Anna Boris Carla David Elena Farid Gohar Hayk Irina Jonas Karen Lilit Mher Nina Oleg"
SURNAMES = (
    "Abrahamyan Berg Chen Dallakyan Evans Fischer Grigoryan Hakobyan Ivanova Jensen Karapetyan "
    "Lindqvist Martirosyan Novak Orlova Petrosyan Quist Rossi Sargsyan Tamm Urban Vardanyan "
    "Weber Xu Yilmaz Zakaryan Aronian Bakker Costa Dubois Egorov Fontaine Galstyan Horvat"
)


def big_club(src: Path, folder: Path, members: int) -> Path:
    """A club of ``members`` members, each of whom played the one round of one published
    tournament (a CSV, every name made a new member)."""
    names = [f"{g} {s}" for s in SURNAMES.split() for g in GIVEN.split()][:members]
    assert len(names) == members, "not so many names"
    lines = ["# event: Start", "# date: 2024-03-05", "Round;Board;White;Black;Result"]
    for board in range(members // 2):
        lines.append(f"1;{board + 1};{names[2 * board]};{names[2 * board + 1]};1-0")
    csv = folder / "start.csv"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    club = folder / "big.sqlite3"
    url = f"sqlite:///{club}"
    run(src, ["--database", url, "init", "Riverside"])
    run(src, ["--database", url, "import", str(csv)])
    run(src, ["--database", url, "link", "1", "--all-new"])
    run(src, ["--database", url, "publish", "1"])
    return club


def clubs(src: Path, folder: Path) -> tuple[Path, Path]:
    """The draft (imported, every name a new member) and the club with it published."""
    draft, club = folder / "draft.sqlite3", folder / "club.sqlite3"
    url = f"sqlite:///{draft}"
    run(src, ["--database", url, "init", "Riverside"])
    run(src, ["--database", url, "import", str(TRF)])
    for player in range(1, 10):
        run(src, ["--database", url, "link", "1", "--new", str(player)])
    shutil.copy(draft, club)
    run(src, ["--database", f"sqlite:///{club}", "publish", "1"])
    return draft, club


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "trees", nargs="+", type=Path, help="a source tree (the folder holding clubrating/)"
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--members", type=int, default=500)
    options = parser.parse_args()
    before = f"{os.getloadavg()[0]:.1f}"
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        prepared = {}
        for number, src in enumerate(options.trees):
            own = folder / str(number)
            own.mkdir()
            prepared[src] = (
                own,
                *clubs(src.resolve(), own),
                big_club(src.resolve(), own, options.members),
            )
        times: dict[tuple[Path, str], list[tuple[float, float]]] = {}
        for _ in range(options.runs):
            for name, words in COMMANDS.items():
                for src, (own, draft, club, big) in prepared.items():
                    copy = own / "publish.sqlite3"
                    shutil.copy(draft, copy)
                    filled = [
                        word.format(
                            club=f"sqlite:///{club}",
                            draft=f"sqlite:///{copy}",
                            big=f"sqlite:///{big}",
                        )
                        for word in words
                    ]
                    times.setdefault((src, name), []).append(run(src.resolve(), filled))
    print(
        f"median of {options.runs} runs, wall / CPU seconds (user + system); "
        f"load average before {before} and after {os.getloadavg()[0]:.1f}"
    )
    print("command".ljust(14) + "".join(str(src).rjust(30) for src in options.trees))
    for name in COMMANDS:
        cells = [times[(src, name)] for src in options.trees]
        print(
            name.ljust(14)
            + "".join(
                f"{statistics.median(w for w, _ in cell):.3f} / "
                f"{statistics.median(c for _, c in cell):.3f}".rjust(30)
                for cell in cells
            )
        )


if __name__ == "__main__":
    main()
