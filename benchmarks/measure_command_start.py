"""The CPU time (user + system) of a few short ``clubrating`` commands, for one or more
source trees side by side: each round runs every command once for every tree, alternately,
so that a change of the machine's load falls on all of them alike.

The commands: ``--help``; ``ratings`` on a club of nine members and one published
tournament; ``publish`` of a linked draft of that tournament (a fresh copy of the database
each run); ``rate FILE --json`` without a database. Each tree runs with its own ``src`` first
on ``PYTHONPATH`` and its ``__pycache__`` written by a warm-up run.

    .venv/bin/python benchmarks/measure_command_start.py --runs 7 OLD/src src
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRF = ROOT / "tests" / "club" / "readme" / "tuesday.trf"
COMMANDS = {
    "--help": ["--help"],
    "ratings": ["--database", "{club}", "ratings"],
    "publish": ["--database", "{draft}", "publish", "1"],
    "rate --json": ["rate", str(TRF), "--json"],
}


def run(src: Path, words: list[str], *, check: bool = True) -> float:
    """One ``python -m clubrating`` process: its CPU seconds, user + system."""
    environment = {**os.environ, "PYTHONPATH": str(src)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "clubrating", *words],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if check and process.returncode != 0:
        raise SystemExit(f"{src}: clubrating {' '.join(words)}: exit {process.returncode}: {error}")
    return usage.ru_utime + usage.ru_stime


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
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        prepared = {}
        for number, src in enumerate(options.trees):
            own = folder / str(number)
            own.mkdir()
            prepared[src] = (own, *clubs(src.resolve(), own))
        times: dict[tuple[Path, str], list[float]] = {}
        for _ in range(options.runs):
            for name, words in COMMANDS.items():
                for src, (own, draft, club) in prepared.items():
                    copy = own / "publish.sqlite3"
                    shutil.copy(draft, copy)
                    filled = [
                        word.format(club=f"sqlite:///{club}", draft=f"sqlite:///{copy}")
                        for word in words
                    ]
                    times.setdefault((src, name), []).append(run(src.resolve(), filled))
    print(f"median CPU seconds (user + system) of {options.runs} runs; min in brackets")
    print("command".ljust(14) + "".join(str(src).rjust(26) for src in options.trees))
    for name in COMMANDS:
        cells = [times[(src, name)] for src in options.trees]
        print(
            name.ljust(14)
            + "".join(
                f"{statistics.median(cell):.3f} ({min(cell):.3f})".rjust(26) for cell in cells
            )
        )


if __name__ == "__main__":
    main()
