"""Builders for hand-written per-ply facts (no engine, no board)."""

from __future__ import annotations

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


def score(value: int | str) -> Score:
    """``35`` -> 35 cp; ``"#2"`` -> mate in 2; ``"#-1"`` -> mated in 1; ``"#0"`` -> mate
    delivered."""
    if isinstance(value, str):
        return Score(mate=int(value.lstrip("#")))
    return Score(cp=value)


def ply(
    number: int,
    move: str,
    best: list[tuple[str, int | str]],
    after: int | str | None = None,
    *,
    legal: int = 20,
    clock: tuple[float | None, float | None] = (None, None),
    book: BookStatus | None = None,
    exchange: int = 0,
    shallow: str | None = None,
) -> PlyFacts:
    """Ply ``number`` (1 = White's first move); ``after`` defaults to the line's score."""
    lines = tuple(EngineMove(uci, uci, score(value)) for uci, value in best)
    if after is None:
        after_score = next(line.score for line in lines if line.uci == move)
    else:
        after_score = score(after)
    return PlyFacts(
        ply=number,
        color=Color.WHITE if number % 2 else Color.BLACK,
        uci=move,
        san=move,
        legal_moves=legal,
        best=lines,
        score_after=after_score,
        clock_before=clock[0],
        clock_after=clock[1],
        book=book,
        exchange=exchange,
        shallow_best=shallow,
    )


def game(plies: list[PlyFacts], result: str = "*", time_control: str | None = None) -> GameFacts:
    headers = {"White": "W", "Black": "B", "Result": result}
    if time_control:
        headers["TimeControl"] = time_control
    return GameFacts(headers=headers, result=result, engine=ENGINE, plies=tuple(plies))
