"""Count the rated sides of the candidate CPI pools not fitted yet: are they worth a fit?

    .venv/bin/python benchmarks/count_pools.py

chess.com (``../shared/data/games/chesscom_clk``, by the time control class ``clubrating
calibrate`` reads) and the lichess games of June 2018 (``lichess_2018-06_bands``, by the
``[Event]`` tag, a tournament's address left out). For each: games, rated sides, those in games
of 30 plies or more (what a fit keeps), named players and the ratings' spread. The figures and
what they say are in docs/cpi.md ("Other pools").
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess.pgn

from clubrating.cpi.calibrate import time_control_class

GAMES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "games"
MIN_PLIES = 30  # as benchmarks/fit_presets.py keeps games
Key = Callable[[chess.pgn.Game], str]


def chesscom_class(game: chess.pgn.Game) -> str:
    first = next(iter(game.mainline()), None)
    return "chess.com " + time_control_class(
        dict(game.headers), first.clock() if first is not None else None
    )


def lichess_event(game: chess.pgn.Game) -> str:
    return "lichess " + re.sub(r"\s+https?://\S+", "", game.headers.get("Event", "?"))


def count(paths: list[Path], key: Key) -> dict[str, dict[str, Any]]:
    pools: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"games": 0, "sides": 0, "long_sides": 0, "elos": [], "players": set()}
    )
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                pool = pools[key(game)]
                pool["games"] += 1
                white, black = game.headers.get("WhiteElo", ""), game.headers.get("BlackElo", "")
                if not (white.isdigit() and black.isdigit()):
                    continue
                pool["sides"] += 2
                pool["long_sides"] += 2 * (sum(1 for _ in game.mainline_moves()) >= MIN_PLIES)
                pool["elos"] += [int(white), int(black)]
                pool["players"] |= {
                    name
                    for tag in ("White", "Black")
                    if (name := game.headers.get(tag, "?")) not in ("", "?")
                }
    return pools


def line(name: str, pool: dict[str, Any]) -> str:
    elos = pool["elos"]
    spread = (
        f", Elo {min(elos)}-{max(elos)}, mean "
        f"{statistics.fmean(elos):.0f} ± {statistics.pstdev(elos):.0f}"
        if elos
        else ""
    )
    return (
        f"{name}: {pool['games']} games, {pool['sides']} rated sides, {pool['long_sides']} "
        f"in games of {MIN_PLIES}+ plies, {len(pool['players'])} named players{spread}"
    )


def main() -> int:
    found = {
        **count(sorted((GAMES / "chesscom_clk").glob("*.pgn")), chesscom_class),
        **count(sorted((GAMES / "lichess_2018-06_bands").glob("*.pgn")), lichess_event),
    }
    for name, pool in sorted(found.items(), key=lambda item: -item[1]["sides"]):
        print(line(name, pool))
    return 0


if __name__ == "__main__":
    sys.exit(main())
