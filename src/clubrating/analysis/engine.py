"""The one adapter between the analysis and a UCI engine (docs/architecture.md, ``analysis``).

:class:`UciSearcher` drives any UCI engine by path through python-chess's
``SimpleEngine``: Threads 1, a small hash, a node budget, MultiPV 3. Positions
are sent with their whole move stack (``position startpos moves ...``), so the
engine sees repetitions, and ``game=`` changes per search (the analyzer gives
a new one each time), so python-chess sends ``ucinewgame`` (which clears
Stockfish's hash) and no result depends on the order of the searches or on
which of them came from the cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import re
import signal
import sys
from dataclasses import dataclass
from typing import Protocol

import chess
import chess.engine

from clubrating.analysis.defaults import (
    env_seconds,
    DEFAULT_ENGINE as DEFAULT_ENGINE,
    DEFAULT_NODES as DEFAULT_NODES,
)
from clubrating.cpi.facts import EngineInfo, Score
from clubrating.errors import ClubratingError, InputError, Text
from clubrating.formats.movetext import MAX_PLIES
from clubrating.words import N_

MULTIPV = 3  # spec C3: MultiPV 3
# Small: one search's tree. 150,000 nodes fit in 4 MB (about 390,000 entries, 3 per 32-byte
# cluster), and the hash is cleared before every search; 4 MB cost the least time of 1, 4 and
# 16 MB (benchmarks/bench_analysis.py; the figures in docs/benchmarks.md).
HASH_MB = 4
SHALLOW_DEPTH = 2  # the tiny "was it obvious?" search of Br (cpi.factors)

# How long one exchange with the engine (starting it, one search) may take before it counts as
# hung: 10,000 nodes/s is about 17 times slower than Stockfish 15.1 searches on one busy core
# with MultiPV 3 (docs/benchmarks.md), and 30 s covers a cold start and a swapping machine.
# CLUBRATING_ENGINE_TIMEOUT (seconds) overrides it.
MIN_TIMEOUT_S = 30.0
SLOWEST_NODES_PER_S = 10_000
TIMEOUT_ENV = "CLUBRATING_ENGINE_TIMEOUT"

# What the engine may spend on one game, all its searches together: a game of MAX_PLIES
# half-moves (formats.movetext, the longest any way in accepts) at 85,000 nodes/s, half the
# 170,000 Stockfish 15.1 searched on one busy core (docs/benchmarks.md): 2,118 s (35 min) at the
# default 150,000 nodes, where the longest real game (538 half-moves) needs about 8 minutes.
# The analysis of a game stops beyond it (analysis.analyzer); CLUBRATING_GAME_SECONDS overrides it.
BUDGET_NODES_PER_S = 85_000
GAME_SECONDS_ENV = "CLUBRATING_GAME_SECONDS"

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
    timeout: float | None = (
        None  # seconds per search; None: $CLUBRATING_ENGINE_TIMEOUT or the formula
    )
    game_seconds: float | None = (
        None  # engine seconds per game; None: $CLUBRATING_GAME_SECONDS or the formula
    )


class EngineFailure(ClubratingError):
    """The engine hung, died or printed what a UCI engine never prints: one line, naming it."""


def search_timeout(settings: EngineSettings) -> float:
    """Seconds one search may take: ``settings.timeout``, else $CLUBRATING_ENGINE_TIMEOUT, else
    max(MIN_TIMEOUT_S, nodes / SLOWEST_NODES_PER_S)."""
    if settings.timeout is not None:
        return settings.timeout
    seconds = env_seconds(TIMEOUT_ENV)
    return (
        seconds if seconds is not None else max(MIN_TIMEOUT_S, settings.nodes / SLOWEST_NODES_PER_S)
    )


def game_budget(settings: EngineSettings) -> float:
    """Seconds of engine searches one game may take: ``settings.game_seconds``, else
    $CLUBRATING_GAME_SECONDS, else MAX_PLIES * nodes / BUDGET_NODES_PER_S."""
    if settings.game_seconds is not None:
        return settings.game_seconds
    seconds = env_seconds(GAME_SECONDS_ENV)
    return seconds if seconds is not None else MAX_PLIES * settings.nodes / BUDGET_NODES_PER_S


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send ``sig`` to this process when its parent dies (prctl(2),
    PR_SET_PDEATHSIG): an engine or a pool worker must not outlive the command that started it
    (orphans once kept searching for minutes). Elsewhere: nothing."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)


def describe(board: chess.Board) -> Text:
    """Where a search was: "the position after 12. Nf3 (FEN)", "the position FEN"."""
    if not board.move_stack:
        return Text(N_("the position %(fen)s"), fen=board.fen())
    before = board.copy()
    move = before.pop()
    number = (
        f"{before.fullmove_number}."
        if before.turn == chess.WHITE
        else f"{before.fullmove_number}..."
    )
    return Text(
        N_("the position after %(move)s (%(fen)s)"),
        move=f"{number} {before.san(move)}",
        fen=board.fen(),
    )


class _UnreadableInfo(logging.Filter):
    """Keeps (and silences) python-chess's log of an info line it could not parse: the
    analysis then fails with one line naming it, not a log line and a traceback."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith("Exception parsing"):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        texts = [
            arg for arg in args if isinstance(arg, str) and " " in arg and "/" not in arg
        ]  # not the FEN
        self.lines.append(f"info {texts[0]}" if texts else record.getMessage())
        return False


_UNREADABLE = _UnreadableInfo()
logging.getLogger("chess.engine").addFilter(_UNREADABLE)


def _score(info: chess.engine.InfoDict, turn: chess.Color) -> Score:
    pov = info["score"].pov(turn)
    mate = pov.mate()
    return Score(mate=mate) if mate is not None else Score(cp=pov.score())


def check_engine(path: str) -> None:
    """Fail early, in one line, when ``path`` is no executable file."""
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise InputError(
            N_("no executable UCI engine here (apt-get install stockfish, or --engine PATH)"),
            file=path,
        )


def _version(name: str) -> tuple[str, str]:
    """ "Stockfish 15.1" -> ("Stockfish", "15.1"); a name without a version keeps it whole."""
    match = re.match(r"^(.*?)\s+(\d[\w.\-]*)$", name.strip())
    return (match.group(1), match.group(2)) if match else (name.strip(), "")


class UciSearcher:
    """A UCI engine process, owned by one analysis worker."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        self.timeout = search_timeout(settings)
        check_engine(settings.path)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(
                settings.path, timeout=self.timeout, preexec_fn=die_with_parent
            )
        except (chess.engine.EngineError, OSError) as error:
            raise ClubratingError(
                N_("%(engine)s: not a working UCI engine (%(error)s)"),
                engine=settings.path,
                error=str(error),
            ) from None
        except TimeoutError:
            raise EngineFailure(
                N_("%(engine)s: the engine did not answer 'uci' within %(seconds)s s"),
                engine=settings.path,
                seconds=f"{self.timeout:g}",
            ) from None
        options = {"Threads": 1, "Hash": settings.hash_mb}
        self.engine.configure({k: v for k, v in options.items() if k in self.engine.options})
        name, version = _version(self.engine.id.get("name", os.path.basename(settings.path)))
        known = {k: v for k, v in options.items() if k in self.engine.options}
        self.info = EngineInfo(
            name,
            version,
            settings.nodes,
            settings.multipv,
            hash_mb=known.get("Hash"),
            threads=known.get("Threads"),
        )
        self.last_depth: int | None = None  # depth of the last main search's first line

    def _analyse(
        self, board: chess.Board, limit: chess.engine.Limit, multipv: int, game: object
    ) -> list[chess.engine.InfoDict]:
        """python-chess's ``SimpleEngine.analyse`` with our timeout (its own waits forever on a
        node limit); a hung engine is killed and named, with the position."""
        _UNREADABLE.lines.clear()
        coro = self.engine.protocol.analyse(board, limit, multipv=multipv, game=game, info=PARSED)
        running = asyncio.run_coroutine_threadsafe(coro, self.engine.protocol.loop)
        try:
            infos = running.result(timeout=self.timeout)
        except TimeoutError:
            # Kill the process, not the command: python-chess then ends the search with an error
            # and its thread; a cancelled command meeting a dead engine leaves its thread running.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.engine.transport.get_pid(), signal.SIGKILL)
            raise EngineFailure(
                N_("%(engine)s: no answer within %(seconds)s s (searching %(position)s)"),
                engine=self.settings.path,
                seconds=f"{self.timeout:g}",
                position=describe(board),
            ) from None
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise EngineFailure(
                N_("%(engine)s: the engine failed (%(error)s) (searching %(position)s)"),
                engine=self.settings.path,
                error=str(error),
                position=describe(board),
            ) from None
        if _UNREADABLE.lines:
            raise EngineFailure(
                N_("%(engine)s: unreadable analysis: %(line)s (searching %(position)s)"),
                engine=self.settings.path,
                line=repr(_UNREADABLE.lines[0]),
                position=describe(board),
            )
        if any("score" not in info for info in infos if info.get("pv")):
            raise EngineFailure(
                N_(
                    "%(engine)s: unreadable analysis (a line without a score) "
                    "(searching %(position)s)"
                ),
                engine=self.settings.path,
                position=describe(board),
            )

        return list(infos)

    def search(self, board: chess.Board, game: object) -> tuple[SearchLine, ...]:
        infos = self._analyse(
            board, chess.engine.Limit(nodes=self.settings.nodes), self.settings.multipv, game
        )
        self.last_depth = infos[0].get("depth") if infos else None
        return tuple(
            (info["pv"][0].uci(), _score(info, board.turn)) for info in infos if info.get("pv")
        )

    def shallow_best(self, board: chess.Board, game: object) -> str | None:
        infos = self._analyse(board, chess.engine.Limit(depth=SHALLOW_DEPTH), 1, game)
        pv = infos[0].get("pv") if infos else None
        return pv[0].uci() if pv else None

    def close(self) -> None:
        try:
            self.engine.quit()
        except (
            chess.engine.EngineError,
            chess.engine.EngineTerminatedError,
            OSError,
            TimeoutError,
        ):
            self.engine.close()  # gone or hung: nothing left to say to it
