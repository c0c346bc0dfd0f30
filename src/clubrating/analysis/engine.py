"""The one adapter between the analysis and a UCI engine (STYLE.md, practice 8).

:class:`UciSearcher` drives any UCI engine by path through python-chess's
``SimpleEngine``: Threads 1, a small hash, a node budget, MultiPV 3. Positions
are sent with their whole move stack (``position startpos moves ...``), so the
engine sees repetitions, and ``game=`` changes per search (the analyzer gives
a new one each time), so python-chess sends ``ucinewgame`` (which clears
Stockfish's hash) and no result depends on the order of the searches or on
which of them came from the cache.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Protocol

import chess
import chess.engine

from clubrating.cpi.facts import EngineInfo, Score
from clubrating.errors import ClubratingError, InputError

DEFAULT_ENGINE = "/usr/games/stockfish"   # Debian package stockfish (DESIGN.md)
DEFAULT_NODES = 150_000                   # lichess's automatic analysis (issue 5)
MULTIPV = 3                               # spec C3: MultiPV 3
# Small: one search's tree. 150,000 nodes fit in 4 MB (about 390,000 entries, 3 per 32-byte
# cluster), and the hash is cleared before every search: on 6 games at 20,000 nodes a clean
# hash per search cost +5.5 % time at 4 MB against +12.7 % at 16 MB and +8.5 % at 1 MB, over
# one hash per game (the bare UCI loop of benchmarks/bench_analysis.py, both ways, 2026-11-29).
HASH_MB = 4
SHALLOW_DEPTH = 2                         # the tiny "was it obvious?" search of Br (cpi.factors)

# Parse only what is stored (score, first move of the PV): python-chess parses
# every info line, and the rest is pure overhead at small node budgets.
PARSED = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE | chess.engine.INFO_PV

SearchLine = tuple[str, Score]


class Searcher(Protocol):
    """What the analysis needs from an engine."""

    info: EngineInfo

    def search(self, board: chess.Board, game: object) -> tuple[SearchLine, ...]:
        """The MultiPV lines of ``board`` (with its move stack), best first."""
        ...

    def shallow_best(self, board: chess.Board, game: object) -> str | None:
        """The best move of a tiny search (depth ``SHALLOW_DEPTH``), in UCI."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class EngineSettings:
    path: str = DEFAULT_ENGINE
    nodes: int = DEFAULT_NODES
    multipv: int = MULTIPV
    hash_mb: int = HASH_MB
    protocol: str = "raw"  # "raw": rawuci.RawUciSearcher; "python-chess": UciSearcher


def _score(info: chess.engine.InfoDict, turn: chess.Color) -> Score:
    pov = info["score"].pov(turn)
    mate = pov.mate()
    return Score(mate=mate) if mate is not None else Score(cp=pov.score())


def check_engine(path: str) -> None:
    """Fail early, in one line, when ``path`` is no executable file."""
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise InputError("no executable UCI engine here (apt-get install stockfish, or --engine PATH)", file=path)


def _version(name: str) -> tuple[str, str]:
    """"Stockfish 15.1" -> ("Stockfish", "15.1"); a name without a version keeps it whole."""
    match = re.match(r"^(.*?)\s+(\d[\w.\-]*)$", name.strip())
    return (match.group(1), match.group(2)) if match else (name.strip(), "")


class UciSearcher:
    """A UCI engine process, owned by one analysis worker."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        check_engine(settings.path)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(settings.path)
        except (chess.engine.EngineError, OSError) as error:
            raise ClubratingError(f"{settings.path}: not a working UCI engine ({error})") from None
        options = {"Threads": 1, "Hash": settings.hash_mb}
        self.engine.configure({k: v for k, v in options.items() if k in self.engine.options})
        name, version = _version(self.engine.id.get("name", os.path.basename(settings.path)))
        known = {k: v for k, v in options.items() if k in self.engine.options}
        self.info = EngineInfo(name, version, settings.nodes, settings.multipv,
                               hash_mb=known.get("Hash"), threads=known.get("Threads"))
        self.last_depth: int | None = None  # depth of the last main search's first line

    def search(self, board: chess.Board, game: object) -> tuple[SearchLine, ...]:
        infos = self.engine.analyse(board, chess.engine.Limit(nodes=self.settings.nodes),
                                    multipv=self.settings.multipv, game=game, info=PARSED)
        self.last_depth = infos[0].get("depth") if infos else None
        return tuple((info["pv"][0].uci(), _score(info, board.turn)) for info in infos if info.get("pv"))

    def shallow_best(self, board: chess.Board, game: object) -> str | None:
        info = self.engine.analyse(board, chess.engine.Limit(depth=SHALLOW_DEPTH), game=game, info=PARSED)
        pv = info.get("pv")
        return pv[0].uci() if pv else None

    def close(self) -> None:
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError):
            pass  # the engine is already gone: nothing left to close
