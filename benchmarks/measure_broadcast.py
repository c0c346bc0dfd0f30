"""The live broadcast feed of a 40-player evening with eight rounds played and the ninth paired
(180 boards), served in-process on SQLite as a poller reads it: the time of a full answer of
live.pgn and of round/9.pgn (median of 30), of a 304 to If-None-Match, and the feed's size.

Usage: python benchmarks/measure_broadcast.py
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

PLAYERS = 40
ROUNDS = 9
TIMES = 30
RESULTS = ("1-0", "1/2-1/2", "0-1")


def _median_ms(client: Any, path: str, **headers: str) -> tuple[float, Any]:
    took, response = [], None
    for _ in range(TIMES):
        start = time.perf_counter()
        response = client.get(path, headers=headers)
        took.append(1000 * (time.perf_counter() - start))
    return statistics.median(took), response


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="clubrating-broadcast-"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "clubrating.settings"
    os.environ["CLUBRATING_DATABASE_URL"] = f"sqlite:///{work / 'club.sqlite3'}"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from clubrating.club.services.clubs import create_club, set_privacy
    from clubrating.club.services.names import all_new_members
    from clubrating.club.services import evening
    from clubrating.club.store.models import EveningBoard

    call_command("migrate", verbosity=0)
    club = create_club("Measure Club", who="measure", slug="measure")
    set_privacy(club, who="measure", visibility="public")
    t = evening.start_evening(club, "Forty", dt.date(2024, 1, 9), ROUNDS, who="measure")
    for i in range(PLAYERS):
        evening.register(t, f"Player{i:02d} Surname", who="measure")
    all_new_members(t, who="measure")
    for rnd in range(1, ROUNDS + 1):
        evening.pair_next_round(t, who="measure")
        if rnd < ROUNDS:
            for n, board in enumerate(EveningBoard.objects.filter(tournament=t, round=rnd)):
                evening.enter_result(board, RESULTS[(n + rnd) % 3], who="measure")
    client = Client()
    live, response = _median_ms(client, f"/c/measure/t/{t.id}/live.pgn")
    print(
        f"live.pgn ({len(response.content):,} bytes, {ROUNDS * PLAYERS // 2} boards): {live:.1f} ms"
    )
    one, _ = _median_ms(client, f"/c/measure/t/{t.id}/round/{ROUNDS}.pgn")
    print(f"round/{ROUNDS}.pgn ({PLAYERS // 2} boards): {one:.1f} ms")
    etag = response["ETag"]
    same, unchanged = _median_ms(client, f"/c/measure/t/{t.id}/live.pgn", **{"If-None-Match": etag})
    assert unchanged.status_code == 304
    print(f"live.pgn answered 304 to If-None-Match: {same:.1f} ms")


if __name__ == "__main__":
    main()
