"""The game viewer's page timed in-process: a game of 200 half-moves with a stored analysis
(one engine line a ply, every tenth move losing 250 cp, so 20 marked), the median and the
fastest of 30 cold renders (a new ``?ply=``, no page cache), and its SQL queries.

Usage: python benchmarks/measure_game_viewer.py
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time

import chess

PLIES = 200


def long_game(seed: int = 3) -> list[str]:
    """A legal game of PLIES half-moves (random moves, never one that ends the game)."""
    rng = random.Random(seed)
    board, sans = chess.Board(), []
    while len(sans) < PLIES:
        moves = [m for m in board.legal_moves if not ends(board, m)]
        move = rng.choice(moves) if moves else None
        if move is None:
            board, sans = chess.Board(), []
            continue
        sans.append(board.san(move))
        board.push(move)
    return sans


def ends(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    over = board.is_game_over(claim_draw=True)
    board.pop()
    return over


def facts_of(sans: list[str]) -> dict[str, object]:
    from clubrating.cpi.facts import Color, EngineInfo, EngineMove, GameFacts, PlyFacts, Score

    board, plies = chess.Board(), []
    for number, san in enumerate(sans, start=1):
        move = board.parse_san(san)
        loses = number % 10 == 0
        best = (
            (EngineMove(move.uci(), san, Score(cp=30)),)
            if not loses
            else (EngineMove("0000", "--", Score(cp=30)),)
        )
        plies.append(
            PlyFacts(
                ply=number,
                color=Color.WHITE if board.turn else Color.BLACK,
                uci=move.uci(),
                san=san,
                legal_moves=board.legal_moves.count(),
                best=best,
                score_after=Score(cp=-220 if loses else 30),
            )
        )
        board.push(move)
    return GameFacts(
        {"Result": "*"}, "*", EngineInfo("Bench", "1", 1000, 1), tuple(plies)
    ).to_dict()


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        from clubrating import djangoenv

        djangoenv.setup(f"sqlite:///{tmp}/bench.sqlite3", migrate=True)
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from clubrating.club.services.clubs import create_club, set_privacy
        from clubrating.club.services.names import all_new_members
        from clubrating.club.services.tournaments import import_tournament, publish
        from clubrating.club.store.models import Game, GameAnalysis
        from clubrating.club.services.moves import attach_typed_moves
        from clubrating.formats.typed import parse_typed

        club = create_club("Bench Club", who="bench", slug="bench")
        set_privacy(club, who="bench", visibility="public")
        record = parse_typed(
            "1, Anna Smith, Bob Jones, 1/2-1/2\n", name="Bench", date=dt.date(2024, 1, 9)
        )
        tournament = import_tournament(club, record, who="bench", today=dt.date(2030, 1, 1))
        all_new_members(tournament, who="bench")
        publish(tournament, who="bench")
        game = Game.objects.get(tournament=tournament)
        sans = long_game()
        attach_typed_moves(game, " ".join(sans), who="bench", confirm=True)
        GameAnalysis.objects.create(
            game=game, engine="Bench", nodes=1000, multipv=1, facts=facts_of(sans)
        )
        client, path, times = Client(), f"/c/bench/g/{game.id}/", []
        for ply in range(30):
            started = time.perf_counter()
            response = client.get(f"{path}?ply={ply * 6}")
            times.append((time.perf_counter() - started) * 1000)
            assert (
                response.status_code == 200
                and response.content.count(b'<abbr class="mark blunder"') == 20
            )
        with CaptureQueriesContext(connection) as queries:
            client.get(f"{path}?ply=7")
        print(
            f"game viewer ({PLIES} plies, 20 marked)  median {statistics.median(times):6.1f} ms  "
            f"fastest {min(times):6.1f} ms  {len(queries.captured_queries)} queries; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
