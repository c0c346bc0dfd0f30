"""Per-ply facts: what the engine shell observed, stored so the CPI can be
re-scored without the engine (docs/architecture.md: the engine's analysis is kept).

Every value here is plain data with ``to_dict()`` / ``from_dict()`` so a store
(JSON file, SQLite, a Django ``JSONField``) can keep it verbatim.

Scores are always from the point of view of the side to move in the position
the ply starts from (the *mover*), in the same convention as python-chess's
``PovScore.pov(turn)``:

- ``Score(cp=35)``: 35 centipawns better for the mover;
- ``Score(mate=2)``: the mover mates in 2 moves; ``Score(mate=-3)``: the mover
  is mated in 3;
- ``Score(mate=0)``: the mover *has delivered* mate (only ever the score after
  a mating move; a mated side to move never has a ply of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from clubrating.formats.results import GameResult

# lila modules/analyse AccuracyCP / scalachess chess.eval: Cp.CEILING = 1000.
CP_CEILING = 1000


class Color(str, Enum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


# The PGN standard's finished results (8.2.6); any other Result tag ("*") is an unfinished game.
PGN_RESULTS: dict[str, GameResult] = {
    result.value: result for result in GameResult if result.played
}


def finished(result_tag: str) -> GameResult | None:
    """The result a game's Result tag records, or None for a game not finished ("*")."""
    return PGN_RESULTS.get(result_tag)


def won(result: GameResult | None, color: Color) -> bool:
    return result is (GameResult.WHITE_WINS if color is Color.WHITE else GameResult.BLACK_WINS)


def lost(result: GameResult | None, color: Color) -> bool:
    return result is (GameResult.BLACK_WINS if color is Color.WHITE else GameResult.WHITE_WINS)


class BookStatus(str, Enum):
    """Where the move played stands in the opening book (factor O)."""

    TOP10 = "top10"  # among the 10 heaviest book moves of the position
    BOOK = "book"  # in the book, but not among the 10 heaviest
    OUT = "out"  # the position is in the book, the move is not
    NO_POSITION = "no_position"  # the position is not in the book at all


@dataclass(frozen=True, slots=True)
class Score:
    """An engine score from one side's point of view: centipawns or mate."""

    cp: int | None = None
    mate: int | None = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.mate is None):
            raise ValueError("a Score is either cp or mate, exactly one of them")

    @property
    def is_mate(self) -> bool:
        return self.mate is not None

    def clipped(self) -> int:
        """Centipawns clipped to ±1000, mates mapped to the bounds.

        As lila: ``Eval.forceAsCp`` maps mate in N to ``Int.MaxValue − N``
        (winning) or ``Int.MinValue + N`` (losing) and ``Cp.ceiled`` clips to
        ±``CEILING`` = 1000, so any winning mate is +1000 and any losing mate
        −1000 (lila ``modules/analyse/src/main/AccuracyCP.scala``).
        """
        if self.mate is not None:
            return CP_CEILING if self.mate >= 0 else -CP_CEILING
        assert self.cp is not None
        return max(-CP_CEILING, min(CP_CEILING, self.cp))

    def negated(self) -> Score:
        """The same evaluation from the other side's point of view."""
        if self.mate is not None:
            if self.mate == 0:
                raise ValueError("a delivered mate has no view from the mated side's ply")
            return Score(mate=-self.mate)
        assert self.cp is not None
        return Score(cp=-self.cp)

    def to_dict(self) -> dict[str, int]:
        return {"mate": self.mate} if self.mate is not None else {"cp": self.cp or 0}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Score:
        if data.get("mate") is not None:
            return cls(mate=int(data["mate"]))
        return cls(cp=int(data["cp"]))


@dataclass(frozen=True, slots=True)
class EngineMove:
    """One MultiPV line: its first move and the score of the line (mover's view)."""

    uci: str
    san: str
    score: Score

    def to_dict(self) -> dict[str, Any]:
        return {"uci": self.uci, "san": self.san, "score": self.score.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EngineMove:
        return cls(uci=data["uci"], san=data["san"], score=Score.from_dict(data["score"]))


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """Which engine, at which limits, produced a set of facts."""

    name: str
    version: str
    nodes: int
    multipv: int
    hash_mb: int | None = (
        None  # the engine's Hash option, when it has one (provenance of the figures)
    )
    threads: int | None = None  # its Threads option; neither is part of the cache key below

    @property
    def key(self) -> str:
        """What a search cache must match: engine identity and limits, and a clean hash for
        each search (analysis.analyzer), unlike searches cached by earlier versions, which kept one
        hash through a game."""
        return f"{self.name} {self.version}|nodes={self.nodes}|multipv={self.multipv}|clean-hash"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "nodes": self.nodes,
            "multipv": self.multipv,
        }
        out.update(
            {
                key: value
                for key, value in (("hash_mb", self.hash_mb), ("threads", self.threads))
                if value is not None
            }
        )
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EngineInfo:
        def optional(key: str) -> int | None:
            return int(data[key]) if data.get(key) is not None else None

        return cls(
            name=data["name"],
            version=data.get("version", ""),
            nodes=int(data["nodes"]),
            multipv=int(data["multipv"]),
            hash_mb=optional("hash_mb"),
            threads=optional("threads"),
        )


@dataclass(frozen=True, slots=True)
class Depths:
    """The depths the engine reached in the searches run for one game (not those answered
    by the cache): what a node budget meant on this engine and these positions."""

    min: int
    median: float
    max: int
    searches: int

    @classmethod
    def of(cls, depths: list[int]) -> Depths | None:
        if not depths:
            return None
        ordered = sorted(depths)
        middle = len(ordered) // 2
        median = (
            ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        )
        return cls(ordered[0], median, ordered[-1], len(ordered))

    def to_dict(self) -> dict[str, Any]:
        return {"min": self.min, "median": self.median, "max": self.max, "searches": self.searches}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Depths:
        return cls(int(data["min"]), float(data["median"]), int(data["max"]), int(data["searches"]))


@dataclass(frozen=True, slots=True)
class PlyFacts:
    """Everything observed about one half-move of a game.

    ``score_before`` is the engine's best line (``best[0].score``);
    ``score_after`` comes from the rules when the next position is terminal
    (mate or draw; ahead of the MultiPV line, whose ``mate 1``
    a mating move used to keep), else from the MultiPV line when the move played
    is one of the engine's choices, else from the search of the next position
    (negated).
    ``exchange`` is the static exchange balance of the move played in
    centipawns for the mover (negative: material given up).
    ``shallow_best`` is the best move of the tiny separate search done only
    for candidate sacrifices (None when no such search was needed).
    """

    ply: int
    color: Color
    uci: str
    san: str
    legal_moves: int
    best: tuple[EngineMove, ...]
    score_after: Score
    clock_before: float | None = None
    clock_after: float | None = None
    book: BookStatus | None = None
    exchange: int = 0
    shallow_best: str | None = None

    @property
    def move_number(self) -> int:
        """The player's own move number: plies 1 and 2 are both move 1."""
        return (self.ply + 1) // 2

    @property
    def score_before(self) -> Score | None:
        return self.best[0].score if self.best else None

    @property
    def delivers_mate(self) -> bool:
        """The move mated: the stored score says so, or its SAN ends with ``#`` (facts
        stored by earlier versions kept the MultiPV line's ``mate 1`` after a mating move)."""
        return self.score_after.mate == 0 or self.san.endswith("#")

    @property
    def choice(self) -> int | None:
        """1, 2 or 3 when the move played is the engine's first/second/third line."""
        for rank, line in enumerate(self.best, start=1):
            if line.uci == self.uci:
                return rank
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "color": self.color.value,
            "uci": self.uci,
            "san": self.san,
            "legal_moves": self.legal_moves,
            "best": [line.to_dict() for line in self.best],
            "score_before": self.score_before.to_dict() if self.score_before else None,
            "score_after": self.score_after.to_dict(),
            "choice": self.choice,
            "clock_before": self.clock_before,
            "clock_after": self.clock_after,
            "book": self.book.value if self.book else None,
            "exchange": self.exchange,
            "shallow_best": self.shallow_best,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlyFacts:
        return cls(
            ply=int(data["ply"]),
            color=Color(data["color"]),
            uci=data["uci"],
            san=data["san"],
            legal_moves=int(data["legal_moves"]),
            best=tuple(EngineMove.from_dict(line) for line in data["best"]),
            score_after=Score.from_dict(data["score_after"]),
            clock_before=data.get("clock_before"),
            clock_after=data.get("clock_after"),
            book=BookStatus(data["book"]) if data.get("book") else None,
            exchange=int(data.get("exchange", 0)),
            shallow_best=data.get("shallow_best"),
        )


@dataclass(frozen=True, slots=True)
class GameFacts:
    """One analysed game: its headers, result, engine and plies."""

    headers: dict[str, str]
    result: str  # the Result tag as recorded (the club's result where it has one)
    engine: EngineInfo
    plies: tuple[PlyFacts, ...]
    searches: int = 0  # engine searches this game cost (cache misses)
    cache_hits: int = 0  # positions answered by the search cache
    shallow_searches: int = 0  # tiny separate searches for candidate sacrifices
    depth: Depths | None = None  # depths reached by this game's searches (None: all cached)

    @property
    def outcome(self) -> GameResult | None:
        """The result, typed: None for a game not finished."""
        return finished(self.result)

    @property
    def time_control(self) -> str | None:
        return self.headers.get("TimeControl")

    def to_dict(self) -> dict[str, Any]:
        return {
            "headers": dict(self.headers),
            "result": self.result,
            "engine": self.engine.to_dict(),
            "plies": [ply.to_dict() for ply in self.plies],
            "searches": self.searches,
            "cache_hits": self.cache_hits,
            "shallow_searches": self.shallow_searches,
            **({"depth": self.depth.to_dict()} if self.depth is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameFacts:
        return cls(
            headers=dict(data["headers"]),
            result=data["result"],
            engine=EngineInfo.from_dict(data["engine"]),
            plies=tuple(PlyFacts.from_dict(ply) for ply in data["plies"]),
            searches=int(data.get("searches", 0)),
            cache_hits=int(data.get("cache_hits", 0)),
            shallow_searches=int(data.get("shallow_searches", 0)),
            depth=Depths.from_dict(data["depth"]) if data.get("depth") else None,
        )
