"""How long the player's CPI dashboard and the coach take as a player's analysed games grow.

    .venv/bin/python benchmarks/bench_cpi_dashboard.py [GAMES ...]

Builds a club in a temporary SQLite file: one player against another in evenings of
10 games, each game 80 plies of random legal moves (seeded) with made-up MultiPV-3
engine lines and a blunder now and then, stored as analyses (no engine), the ledger
rebuilt. Then, per size, the median of 5 of: ``exercises_for`` (coach: facts of the
latest 40 games), ``cpi_brief`` (the player page's block), and the whole dashboard
page rendered cold (a logged-in arbiter: never from the page cache) with its queries.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time

GAMES = (40, 200, 500)
PLIES = 80


def fake_facts(rng: random.Random) -> dict:
    import chess

    from clubrating.cpi.facts import Color, EngineInfo, EngineMove, GameFacts, PlyFacts, Score

    board, plies = chess.Board(), []
    while len(plies) < PLIES and not board.is_game_over():
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        lines = tuple(
            EngineMove(m.uci(), board.san(m), Score(cp=40 - 15 * i))
            for i, m in enumerate(moves[:3])
        )
        played = moves[0] if rng.random() < 0.5 else rng.choice(moves)
        after = next(
            (line.score for line in lines if line.uci == played.uci()),
            Score(cp=-rng.choice((20, 60, 150, 400))),
        )
        plies.append(
            PlyFacts(
                ply=board.ply() + 1,
                color=Color.WHITE if board.turn else Color.BLACK,
                uci=played.uci(),
                san=board.san(played),
                legal_moves=len(moves),
                best=lines,
                score_after=after,
            )
        )
        board.push(played)
    return GameFacts(
        {"White": "A", "Black": "B"}, "1/2-1/2", EngineInfo("Fake", "1", 1000, 3), tuple(plies)
    ).to_dict()


def grow(club, size: int, made: int, rng: random.Random) -> int:
    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament, publish
    from clubrating.club.store.models import Game, GameAnalysis
    from clubrating.formats.records import Pairing, PlayerEntry, TournamentRecord

    while made < size:
        record = TournamentRecord(
            name=f"Evening {made // 10}",
            date=dt.date(2020, 1, 7) + dt.timedelta(weeks=made // 10),
            players=(PlayerEntry(1, "Anna Berg"), PlayerEntry(2, "Ben Cole")),
            pairings=tuple(Pairing(r, 1, 2, 1, 1) for r in range(1, 11)),
            rounds=10,
            source="b",
            format="csv",
        )
        t = import_tournament(club, record, who="bench", today=dt.date(2030, 1, 1))
        accept_exact(t, who="bench")
        all_new_members(t, who="bench")
        publish(t, who="bench")
        GameAnalysis.objects.bulk_create(
            [
                GameAnalysis(game=g, engine="Fake", nodes=1000, facts=fake_facts(rng))
                for g in Game.objects.filter(tournament=t)
            ]
        )
        made += 10
    return made


def median_ms(run, times: int = 5) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append((time.perf_counter() - start) * 1000)
    return statistics.median(spent)


def main(sizes: tuple[int, ...]) -> None:
    from clubrating import djangoenv

    djangoenv.setup(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'bench.sqlite3')}", migrate=True)
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from clubrating.club.services.clubs import create_club
    from clubrating.club.derived.coach import cpi_brief, exercises_for
    from clubrating.club.derived.ledger import rebuild_cpi
    from clubrating.club.store.models import Member

    settings.ALLOWED_HOSTS = ["testserver"]
    club = create_club("Bench", who="bench", slug="bench")
    user = User.objects.create_user("bench-arbiter", password="x")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    rng, made = random.Random(7), 0
    print(
        f"{'games':>6} {'coach ms':>9} {'brief ms':>9} "
        f"{'page ms':>8} {'queries':>8} {'page KiB':>9}"
    )
    for size in sizes:
        made = grow(club, size, made, rng)
        rebuild_cpi(club)
        anna = Member.objects.get(club=club, name="Anna Berg")
        url = f"/c/bench/p/{anna.id}/cpi/"
        coach = median_ms(lambda: exercises_for(anna))
        brief = median_ms(lambda: cpi_brief(anna, club))
        page = median_ms(lambda: client.get(url))
        with CaptureQueriesContext(connection) as context:
            response = client.get(url)
        assert response.status_code == 200
        print(
            f"{size:>6} {coach:>9.1f} {brief:>9.1f} {page:>8.1f} "
            f"{len(context.captured_queries):>8} {len(response.content) / 1024:>9.0f}"
        )


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or GAMES)
