"""Rebuild from the database: a federation-sized history and a club's correction.

Measures, on SQLite files under a temporary folder:
1. the full rebuild of a 1,000,000-game history (50,000 players, 20,000
   tournaments), reading every game and writing every rating change
   (target: <= 20 s on one core);
2. a correction in the newest tournament of a 50,000-game club, replayed from
   the stored per-tournament snapshots (target: <= 0.5 s), checked equal to a
   full replay.

Usage: python benchmarks/bench_rebuild.py [--games 1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def load_history(club, history) -> None:  # type: ignore[no-untyped-def]
    """Store a synthetic history as published tournaments with explicit ids (fast bulk insert)."""
    from django.db import transaction

    from clubrating.club.store.models import Entry, Game, Member, Tournament

    players = sorted({p for t in history for g in t.games for p in (g.white, g.black)})
    with transaction.atomic():
        Member.objects.bulk_create(
            [Member(id=p + 1, club=club, name=f"Player {p}") for p in players], batch_size=5000
        )
        Tournament.objects.bulk_create(
            [
                Tournament(
                    id=t.id + 1,
                    club=club,
                    name=f"Event {t.id}",
                    date=t.date,
                    sequence=t.sequence,
                    status="published",
                    rounds=5,
                )
                for t in history
            ],
            batch_size=5000,
        )
        entries, games, entry_id = [], [], 0
        for t in history:
            number: dict[int, int] = {}
            for g in t.games:
                for p in (g.white, g.black):
                    if p not in number:
                        entry_id += 1
                        number[p] = entry_id
                        entries.append(
                            Entry(
                                id=entry_id,
                                tournament_id=t.id + 1,
                                number=len(number),
                                name=f"Player {p}",
                                member_id=p + 1,
                            )
                        )
            for i, g in enumerate(t.games):
                games.append(
                    Game(
                        tournament_id=t.id + 1,
                        round=i // max(1, len(number) // 2) + 1,
                        board=i + 1,
                        white_id=number[g.white],
                        black_id=number[g.black],
                        white_points=g.white_points,
                        black_points=2 - g.white_points if g.played else (2 - g.white_points),
                        played=g.played,
                    )
                )
            if len(games) > 200_000:
                Entry.objects.bulk_create(entries, batch_size=5000)
                Game.objects.bulk_create(games, batch_size=5000)
                entries, games = [], []
        Entry.objects.bulk_create(entries, batch_size=5000)
        Game.objects.bulk_create(games, batch_size=5000)


def fresh_database(folder: str, name: str):  # type: ignore[no-untyped-def]
    from django.core.management import call_command
    from django.db import connections

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = os.path.join(folder, name)
    call_command("migrate", verbosity=0)
    from clubrating.club.services.clubs import create_club

    return create_club(f"Bench {name}", who="bench", slug=name.replace(".", "-"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--tournaments", type=int, default=20_000)
    parser.add_argument("--club-games", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="clubrating-bench-")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from clubrating import djangoenv

    djangoenv.setup(f"sqlite:///{folder}/federation.sqlite3")
    from clubrating.club.services.tournaments import correct_result
    from clubrating.club.store.models import Game, Tournament
    from clubrating.club.derived.rebuild import rebuild_derived
    from clubrating.demo.simulate import simulate_history

    print(
        f"federation: {args.games:,} games, {args.players:,} "
        f"players, {args.tournaments:,} tournaments"
    )
    club = fresh_database(folder, "federation.sqlite3")
    started = time.perf_counter()
    load_history(club, simulate_history(1, args.games, args.players, args.tournaments))
    print(f"  loaded in {time.perf_counter() - started:.1f} s")
    full = []
    for run in range(args.runs):
        started = time.perf_counter()
        report = rebuild_derived(club, reason="benchmark")
        full.append(time.perf_counter() - started)
        print(
            f"  full rebuild {run + 1}: {full[-1]:.2f} s ({report.tournaments} tournaments, "
            f"{report.changes_differing} rows differing)"
        )

    club_games = args.club_games
    print(f"club: {club_games:,} games, 500 members, {club_games // 50:,} tournaments")
    club = fresh_database(folder, "club.sqlite3")
    load_history(club, simulate_history(2, club_games, 500, club_games // 50))
    rebuild_derived(club, reason="initial")
    newest = Tournament.objects.filter(club=club).order_by("-date", "-sequence", "-id").first()
    game = Game.objects.filter(tournament=newest, played=True).first()
    corrections = []
    for result in ["1/2-1/2", "1-0", "0-1", "1/2-1/2", "1-0"][: max(3, args.runs)]:
        started = time.perf_counter()
        outcome = correct_result(Game.objects.get(id=game.id), result, who="bench")
        corrections.append(time.perf_counter() - started)
    check = rebuild_derived(club, reason="check", expect_difference=False)
    full_club = []
    for _ in range(args.runs):
        started = time.perf_counter()
        rebuild_derived(club, reason="benchmark")
        full_club.append(time.perf_counter() - started)

    print()
    print("| measurement | median | target |")
    print("| --- | --- | --- |")
    med_full = statistics.median(full)
    print(
        f"| full rebuild, {args.games:,} games (SQLite) | {med_full:.2f} s "
        f"({args.games / med_full:,.0f} games/s) | <= 20 s |"
    )
    med_corr = statistics.median(corrections)
    print(
        f"| correction in the newest tournament, {club_games:,}-game "
        f"club | {med_corr * 1000:.0f} ms | <= 500 ms |"
    )
    print(
        "| full rebuild of that club, side by side | "
        f"{statistics.median(full_club) * 1000:.0f} ms | - |"
    )
    print(
        "| incremental equal to full replay | "
        f"{'yes' if check.changes_differing == 0 else 'NO'} | yes |"
    )
    print(f"last correction said: {outcome}")
    return 0 if check.changes_differing == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
