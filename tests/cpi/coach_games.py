"""Hand-written analysed games for the coach's tests: real, legal moves with made-up engine
lines, so that positions can be replayed (no engine)."""

from __future__ import annotations

from typing import Any

import chess

from clubrating.cpi.facts import (
    BookStatus,
    Color,
    EngineInfo,
    EngineMove,
    GameFacts,
    PlyFacts,
    Score,
)

ENGINE = EngineInfo("Fake", "1", 1000, 3)
OPEN_GAME = ["e4", "e5", "Nf3", "d6", "d4", "exd4", "Nxd4", "Nf6", "Nc3", "Be7"]
AFTER_FOUR = "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"


def sc(value: int | str) -> Score:
    """``35`` -> 35 cp; ``"#2"`` -> mate in 2 for the mover."""
    return Score(mate=int(value.lstrip("#"))) if isinstance(value, str) else Score(cp=value)


def build(
    sans: list[str],
    notes: dict[int, dict[str, Any]] | None = None,
    result: str = "*",
    headers: dict[str, str] | None = None,
) -> GameFacts:
    """Real, legal moves; per ply (1 = White's first) optional ``best`` [(san, score)], ``after``,
    ``clock`` (before, after) and ``book``. Without notes the move played is the engine's only
    line at 0 cp."""
    notes = notes or {}
    board = chess.Board((headers or {}).get("FEN", chess.STARTING_FEN))
    plies = []
    for number, san in enumerate(sans, start=board.ply() + 1):
        note = notes.get(number, {})
        move = board.parse_san(san)
        best = tuple(
            EngineMove(board.parse_san(s).uci(), s, sc(v)) for s, v in note.get("best", [(san, 0)])
        )
        after = note.get("after")
        if after is None:
            after_score = next((line.score for line in best if line.uci == move.uci()), Score(cp=0))
        else:
            after_score = sc(after)
        clock = note.get("clock", (None, None))
        plies.append(
            PlyFacts(
                ply=number,
                color=Color.WHITE if board.turn else Color.BLACK,
                uci=move.uci(),
                san=san,
                legal_moves=board.legal_moves.count(),
                best=best,
                score_after=after_score,
                clock_before=clock[0],
                clock_after=clock[1],
                book=note.get("book"),
            )
        )
        board.push(move)
    return GameFacts(
        headers={"White": "W", "Black": "B", "Result": result, **(headers or {})},
        result=result,
        engine=ENGINE,
        plies=tuple(plies),
    )


BLUNDER = {5: {"best": [("Bc4", 30), ("Nc3", 20), ("d3", 10)], "after": -310}}  # d4 loses 340 cp
CLOCKS = {
    1: {"clock": (None, 600)},
    3: {"clock": (600, 590)},
    5: {"clock": (590, 500)},
    7: {"clock": (500, 490)},
    9: {"clock": (490, 480)},
}  # 10, 90, 10, 10 s
HASTY = {
    1: {"clock": (None, 600)},
    3: {"clock": (600, 540)},  # 60, 5, 60, 60 s
    5: {"clock": (540, 535), "best": [("Bc4", 30), ("Nc3", 20)], "after": -310},  # d4 loses 340 cp
    7: {"clock": (535, 475)},
    9: {"clock": (475, 415)},
}
BOOK = {
    1: {"book": BookStatus.TOP10},
    3: {"book": BookStatus.TOP10},
    5: {"book": BookStatus.OUT},
    7: {"book": BookStatus.OUT},
}
SACRIFICE = {5: {"best": [("Nxe5", 60), ("Bc4", 40)], "after": -20}}  # Nxe5 gives N for P


def mate_missed(distance: int) -> dict[int, dict[str, Any]]:
    return {5: {"best": [("Bc4", f"#{distance}"), ("Nc3", 400)], "after": 50}}


# --- a club whose games are analysed (Django; imported lazily so the pure tests need no database)
# ---

VARIED = [(1, "d4"), (3, "Nc3"), (5, "Bc4"), (7, "Qxd4"), (9, "Bd3")]  # White's ply, a better move


def hanging_game(index: int) -> GameFacts:
    """White hangs 300 + 10·index cp once, each game at another of five plies; Black is perfect."""
    ply, better = VARIED[index % len(VARIED)]
    return build(OPEN_GAME, {ply: {"best": [(better, 0)], "after": -(300 + 10 * index)}})


def publish_analysed(
    club: Any,
    count: int,
    *,
    white: str = "Anna Berg",
    black: str = "Ben Cole",
    per_evening: int = 5,
    who: str = "test:arbiter",
    facts: Any = hanging_game,
) -> list[Any]:
    """``count`` games of ``white`` against ``black`` (evenings of ``per_evening`` rounds a week
    apart, results win/draw/loss in turn) published without moves, each given the stored
    analysis ``facts(index)``, and the CPI ledger rebuilt. Returns the games in order."""
    import datetime as dt

    from clubrating.club.services.names import accept_exact, all_new_members
    from clubrating.club.services.tournaments import import_tournament, publish
    from clubrating.club.derived.ledger import rebuild_cpi
    from clubrating.club.store.models import Game, GameAnalysis
    from clubrating.formats.records import Pairing, PlayerEntry, TournamentRecord

    points = [(2, 0), (1, 1), (0, 2)]
    games: list[Any] = []
    for evening, first in enumerate(range(0, count, per_evening)):
        rounds = range(1, min(per_evening, count - first) + 1)
        record = TournamentRecord(
            name=f"Evening {evening + 1}",
            date=dt.date(2026, 1, 6) + dt.timedelta(weeks=evening),
            players=(PlayerEntry(1, white), PlayerEntry(2, black)),
            pairings=tuple(Pairing(r, 1, 2, *points[(first + r - 1) % 3]) for r in rounds),
            rounds=len(rounds),
            source="coach.csv",
            format="csv",
        )
        # force: a second call repeats the same evenings (same date, players and results) on purpose
        tournament = import_tournament(club, record, who=who, today=dt.date(2030, 1, 1), force=True)
        accept_exact(tournament, who=who)
        all_new_members(tournament, who=who)
        publish(tournament, who=who)
        games.extend(Game.objects.filter(tournament=tournament).order_by("round"))
    GameAnalysis.objects.bulk_create(
        [
            GameAnalysis(
                game=game,
                engine="Fake",
                engine_version="1",
                nodes=1000,
                multipv=3,
                facts=facts(index).to_dict(),
            )
            for index, game in enumerate(games)
        ]
    )
    rebuild_cpi(club)
    return games
