"""Which time-management factor T means something?

Each candidate (the spec's 1 − stddev/mean, "no time trouble", "never flagged", time on
critical moves, and T as defined today: the Gini of the seconds per move) is computed per
player-side of real clocked games and compared with the player's rating (Pearson r, Spearman
rho, how many sides get a non-degenerate value). Pools are reported apart, never mixed: the
Lezcano memorial 2025 (FIDE OTB 90'+30") and chess.com 10' and 3+2 / 5+5. The candidates in
full and the results: ``docs/cpi.md``.

    .venv/bin/python benchmarks/measure_time_factor.py --games 120 --nodes 5000 \
        --cache /tmp/clubrating-time.sqlite
"""

from __future__ import annotations

import argparse
import bisect
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from clubrating.analysis.engine import EngineSettings
from clubrating.analysis.runner import AnalysisConfig, analyse_games, read_pgn_file
import chess.pgn

from clubrating.cpi.calibrate import spearman
from clubrating.cpi.facts import Color, EngineInfo, GameFacts, PlyFacts, Score
from clubrating.cpi.factors import own_plies, seconds_spent, timed_moves, win_percent
from clubrating.cpi.registry import player_factors

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
POOLS = {
    "FIDE OTB 90+30 (Lezcano)": ["otb_broadcast_clk/lezcano_memorial_2025_broadcast.pgn"],
    "chess.com 10' (girisha012)": ["chesscom_clk/girisha012_games.pgn"],
    "chess.com 3+2/5+5 (puzanovee)": ["chesscom_clk/puzanovee_chesscom_games.pgn"],
}
TROUBLE_SHARE = 0.10
MIN_PLIES = 20

Candidate = Callable[[GameFacts, Color], float | None]


def base_seconds(plies: Sequence[PlyFacts], color: Color) -> float | None:
    """The player's starting time, read from the clocks (the most they show after their first
    two moves): PGN ``TimeControl`` tags disagree on units ("90+30" in minutes on lichess
    broadcasts, "600" in seconds on chess.com)."""
    first = [ply.clock_after for ply in own_plies(plies, color)[:2] if ply.clock_after is not None]
    return max(first) if first else None


def is_critical(ply: PlyFacts, gap: float) -> bool:
    """One move stood out: the engine's first and second lines differ by ``gap`` win % or more."""
    if len(ply.best) < 2:
        return False
    return (
        win_percent(ply.best[0].score.clipped()) - win_percent(ply.best[1].score.clipped()) >= gap
    )


def critical_time(moves: Sequence[tuple[bool, float]]) -> float | None:
    """P(a critical move took longer than a quiet one), ties half (Mann–Whitney AUC);
    None without at least one critical and one quiet move."""
    critical = [seconds for is_crit, seconds in moves if is_crit]
    quiet = sorted(seconds for is_crit, seconds in moves if not is_crit)
    if not critical or not quiet:
        return None
    wins = 0.0
    for seconds in critical:
        below = bisect.bisect_left(quiet, seconds)
        wins += below + (bisect.bisect_right(quiet, seconds) - below) / 2
    return wins / (len(critical) * len(quiet))


def old_t(game: GameFacts, color: Color) -> float | None:
    spent = seconds_spent(game.plies, color, game.time_control)
    if len(spent) < 2 or statistics.fmean(spent) <= 0:
        return None
    return min(1.0, max(0.0, 1 - statistics.pstdev(spent) / statistics.fmean(spent)))


def no_trouble(game: GameFacts, color: Color) -> float | None:
    base = base_seconds(game.plies, color)
    lefts = [
        ply.clock_before for ply in own_plies(game.plies, color) if ply.clock_before is not None
    ]
    if base is None or not lefts:
        return None
    return 1 - sum(left < TROUBLE_SHARE * base for left in lefts) / len(lefts)


def never_flagged(game: GameFacts, color: Color) -> float | None:
    lost = game.result == ("0-1" if color is Color.WHITE else "1-0")
    own = [p for p in own_plies(game.plies, color) if p.clock_after is not None]
    if not own:
        return None
    on_time = "on time" in game.headers.get("Termination", "")
    return 0.0 if lost and (on_time or (own[-1].clock_after or 0) <= 0) else 1.0


def critical_auc(gap: float, quiet_captures: bool = False) -> Candidate:
    """``quiet_captures``: a position whose best move is a capture is never critical
    (a recapture is the only move and an obvious one)."""

    def value(game: GameFacts, color: Color) -> float | None:
        moves = timed_moves(game.plies, color, game.time_control)
        return critical_time(
            [
                (is_critical(ply, gap) and not (quiet_captures and "x" in ply.best[0].san), seconds)
                for ply, seconds in moves
                if len(ply.best) >= 2
            ]
        )

    return value


def no_trouble_seconds(seconds: float) -> Candidate:
    def value(game: GameFacts, color: Color) -> float | None:
        lefts = [p.clock_before for p in own_plies(game.plies, color) if p.clock_before is not None]
        return 1 - sum(left < seconds for left in lefts) / len(lefts) if lefts else None

    return value


def new_t(game: GameFacts, color: Color) -> float | None:
    return player_factors(game, color).T.value


def clock_facts(game: chess.pgn.Game) -> GameFacts:
    """The facts of a game without the engine: clocks only (for the clock-only candidates)."""
    plies, clocks, board = [], [], game.board()
    for index, node in enumerate(game.mainline()):
        clocks.append(node.clock())
        plies.append(
            PlyFacts(
                ply=index + 1,
                color=Color.WHITE if board.turn else Color.BLACK,
                uci=node.move.uci(),
                san=board.san(node.move),
                legal_moves=0,
                best=(),
                score_after=Score(cp=0),
                clock_before=clocks[index - 2] if index >= 2 else None,
                clock_after=clocks[index],
            )
        )
        board.push(node.move)
    return GameFacts(
        dict(game.headers),
        game.headers.get("Result", "*"),
        EngineInfo("none", "", 0, 0),
        tuple(plies),
    )


def elo(game: GameFacts, color: Color) -> int | None:
    try:
        return int(game.headers.get("WhiteElo" if color is Color.WHITE else "BlackElo", ""))
    except ValueError:
        return None


def measure(name: str, candidate: Candidate, games: list[GameFacts]) -> str:
    pairs = [
        (rating, value)
        for g in games
        for c in Color
        if (rating := elo(g, c)) is not None and (value := candidate(g, c)) is not None
    ]
    sides = sum(1 for g in games for c in Color if elo(g, c) is not None)
    if len(pairs) < 3:
        return f"  {name:30} {len(pairs)} sides with a value"
    ratings, values = [float(r) for r, _ in pairs], [v for _, v in pairs]
    inner = sum(0 < v < 1 for v in values)
    try:
        r, rho = statistics.correlation(ratings, values), spearman(ratings, values)
    except statistics.StatisticsError:
        r = rho = float("nan")
    return (
        f"  {name:30} value for {len(pairs):4}/{sides} sides, non-degenerate {inner:4}, "
        f"mean {statistics.fmean(values):.3f}, r(Elo) {r:+.3f}, rho(Elo) {rho:+.3f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=120, help="games per pool")
    parser.add_argument("--nodes", type=int, default=5_000)
    parser.add_argument("--cache", default="/tmp/clubrating-time.sqlite")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    config = AnalysisConfig(EngineSettings(nodes=args.nodes), book=None, cache=args.cache)
    clock_only: list[tuple[str, Candidate]] = [
        ("old 1 - sd/mean", old_t),
        ("no-trouble (10 % of base)", no_trouble),
        ("never-flagged", never_flagged),
        ("new T (cpi.factors)", new_t),
    ]
    print(f"Clock-only candidates, every game of at least {MIN_PLIES} plies:")
    for pool, files in POOLS.items():
        every = [
            clock_facts(g)
            for f in files
            for g in read_pgn_file(DATA / f)
            if len(list(g.mainline_moves())) >= MIN_PLIES
        ]
        print(f"{pool}: {len(every)} games")
        for name, candidate in clock_only:
            print(measure(name, candidate, every))
    print(
        f"\nEvery candidate on the first {args.games} "
        f"games per pool, Stockfish {args.nodes:,} nodes:"
    )
    for pool, files in POOLS.items():
        games = [
            g
            for f in files
            for g in read_pgn_file(DATA / f)
            if len(list(g.mainline_moves())) >= MIN_PLIES
        ][: args.games]
        facts = analyse_games(games, config, jobs=args.jobs)
        ratings = [r for f in facts for c in Color if (r := elo(f, c)) is not None]
        print(
            f"{pool}: {len(facts)} games, Elo {min(ratings)}-{max(ratings)} "
            f"(median {statistics.median(ratings):.0f})"
        )
        candidates: list[tuple[str, Candidate]] = [
            ("old 1 - sd/mean", old_t),
            ("no-trouble (10 % of base)", no_trouble),
            ("never-flagged", never_flagged),
        ]
        candidates += [(f"no-trouble (< {s:g} s left)", no_trouble_seconds(s)) for s in (60, 120)]
        candidates += [(f"critical-time, gap {gap:g}", critical_auc(gap)) for gap in (5, 10, 20)]
        candidates += [
            (f"critical-time, gap {gap:g}, no capture", critical_auc(gap, True))
            for gap in (5, 10, 20)
        ]
        candidates.append(("new T (cpi.factors)", new_t))
        for name, candidate in candidates:
            print(measure(name, candidate, facts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
