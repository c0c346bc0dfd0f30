#!/usr/bin/env python3
"""Build a Keizer season of ten club evenings with varying attendance, through the command line,
and print its final Keizer ranking.

    .venv/bin/python scripts/keizer_season.py [DATABASE_FILE] [--seed N] [--rated season|evening]

Sixteen players, each with a strength of their own (hidden from the pairing: everyone starts
unrated, in the order of entry); each evening every player comes with a chance of their own
(from 55 % to 95 %), and a player who does not come sent apologies two times out of three;
results are drawn from the two strengths by the Elo expectation, a fifth of the games drawn.
Everything is drawn from ``--seed`` (default 2026), so the same command builds the same season.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import json
import random
import re
import sys
import tempfile
from pathlib import Path

from clubrating.cli import main

PLAYERS = [
    ("Anahit Petrosyan", 2150),
    ("Bram de Vries", 2080),
    ("Carla Graafland", 2010),
    ("Davit Sargsyan", 1960),
    ("Elena Orlova", 1900),
    ("Frans Hindriks", 1850),
    ("Gayane Hakobyan", 1800),
    ("Harm Bakker", 1760),
    ("Irina Volkova", 1720),
    ("Jaap Tuinman", 1680),
    ("Karen Mkrtchyan", 1640),
    ("Lotte Jansen", 1600),
    ("Mher Avetisyan", 1550),
    ("Nina Smirnova", 1500),
    ("Olaf Slager", 1450),
    ("Petra Raaijen", 1400),
]
EVENINGS = 10
BOARD = re.compile(r"\s*board (?P<board>\d+): \d+ (?P<white>.+) - \d+ (?P<black>.+?)  \.\.\.$")
FIRST = dt.date(2026, 9, 1)  # Tuesdays from here, a week apart


def cli(database: str, *args: str) -> None:
    code = main(["--database", f"sqlite:///{database}", *args])
    if code != 0:
        sys.exit(f"clubrating {' '.join(args)}: exit {code}")


def result(rng: random.Random, white: int, black: int) -> str:
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    if rng.random() < 0.2:
        return "1/2-1/2"
    return "1-0" if rng.random() < expected else "0-1"


def build(database: str, seed: int, rated: str) -> None:
    rng = random.Random(seed)
    strength = dict(PLAYERS)
    comes = {name: rng.uniform(0.55, 0.95) for name, _ in PLAYERS}
    cli(database, "init", "Keizer Club")
    rounds = "1" if rated == "evening" else str(EVENINGS)
    cli(
        database,
        *("evening", "start", "Keizer 2026/27", "--date", FIRST.isoformat()),
        *("--system", "keizer", "--rounds", rounds, "--keizer", f"rated={rated}"),
    )
    cli(database, "evening", "register", "1", *(name for name, _ in PLAYERS))
    cli(database, "link", "1", "--all-new")
    tournament, attendance = 1, []
    for evening in range(1, EVENINGS + 1):
        date = FIRST + dt.timedelta(weeks=evening - 1)
        if rated == "evening" and evening > 1:
            cli(database, "evening", "publish", str(tournament))
            cli(
                database,
                *("evening", "next", str(tournament), f"Keizer 2026/27 #{evening}"),
                *("--date", date.isoformat()),
            )
            tournament += 1
        away = [n for n, (name, _) in enumerate(PLAYERS, 1) if rng.random() > comes[name]]
        attendance.append(len(PLAYERS) - len(away))
        for number in away:
            mark = "apologies" if rng.random() < 2 / 3 else "absent"
            cli(database, "evening", "mark", str(tournament), mark, str(number))
        cli(database, "evening", "pair", str(tournament))
        _play(database, tournament, rng, strength)
    cli(database, "evening", "show", str(tournament))
    cli(database, "evening", "publish", str(tournament))
    print("attendance by evening:", ", ".join(map(str, attendance)), file=sys.stderr)


def _play(database: str, tournament: int, rng: random.Random, strength: dict[str, int]) -> None:
    """Every board of the round paired last gets a result drawn from the two strengths."""
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        cli(database, "evening", "show", str(tournament), "--json")
    for line in json.loads(shown.getvalue())["messages"]:
        board = BOARD.match(line)
        if board is not None:
            white, black = strength[board["white"]], strength[board["black"]]
            cli(
                database,
                "evening",
                "result",
                str(tournament),
                board["board"],
                result(rng, white, black),
            )


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", nargs="?", help="a new SQLite file (default: a temporary one)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rated", choices=("season", "evening"), default="season")
    args = parser.parse_args()
    if args.database:
        if Path(args.database).exists():
            sys.exit(f"{args.database} exists: give a new file")
        build(args.database, args.seed, args.rated)
        return
    with tempfile.TemporaryDirectory() as directory:
        build(str(Path(directory) / "keizer.sqlite3"), args.seed, args.rated)


if __name__ == "__main__":
    run()
