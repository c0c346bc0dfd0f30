"""A lean UCI client behind the same :class:`~clubrating.analysis.engine.Searcher`
adapter, for bulk analysis.

Why: python-chess parses every ``info`` line the engine prints, replaying each
PV move by move on a board copy; with MultiPV 3 Stockfish prints ~40 such
lines a search, which costs about a third of a 20,000-node search
(``benchmarks/bench_analysis.py``). This client keeps the info lines as text
and parses only the last one of each MultiPV line, after ``bestmove``.
Same commands as python-chess sends: ``ucinewgame`` + ``isready`` when the
game changes (the analyzer changes it for every search: a clean hash), ``position startpos moves
...`` with the whole move stack,
``go nodes N``.

Every exchange has a deadline (``engine.search_timeout``): an engine that stops
answering is killed and named with the position it was searching, and a line it
prints that is no UCI (``score cp abc``) is named too.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections import deque

import chess

from clubrating.analysis.engine import (
    SHALLOW_DEPTH,
    EngineFailure,
    EngineSettings,
    SearchLine,
    _version,
    check_engine,
    describe,
    die_with_parent,
    search_timeout,
)
from clubrating.cpi.facts import EngineInfo, Score
from clubrating.errors import ClubratingError
from clubrating.words import N_


def parse_info(line: str) -> tuple[int, str, Score] | None:
    """``info ... multipv 2 score cp 31 ... pv e2e4 ...`` -> (2, "e2e4", Score(cp=31))."""
    words = line.split()
    if "pv" not in words or "score" not in words:
        return None
    at = words.index("score")
    kind, value = words[at + 1], int(words[at + 2])  # a bound is kept, as python-chess does
    if kind not in ("cp", "mate"):
        raise ValueError(f"score {kind}: expected cp or mate")
    rank = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
    move = words[words.index("pv") + 1]
    return rank, move, Score(mate=value) if kind == "mate" else Score(cp=value)


def parse_depth(line: str) -> int | None:
    """``info depth 14 seldepth 20 ...`` -> 14."""
    words = line.split()
    return int(words[words.index("depth") + 1]) if "depth" in words else None


class RawUciSearcher:
    """One engine process spoken to in plain UCI text."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        self.timeout = search_timeout(settings)
        check_engine(settings.path)
        self.proc = subprocess.Popen(
            [settings.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            preexec_fn=die_with_parent,
        )
        self._lines: deque[str] = deque()  # read from the engine, not yet handled
        self._partial = b""  # the start of a line still being printed
        self._game: object | None = None
        self._board: chess.Board | None = None  # the position being searched, to name it
        self._multipv = 0
        self.last_depth: int | None = None  # depth of the last main search's first line
        self._send("uci")
        name = os.path.basename(settings.path)
        options = set()
        for line in self._until("uciok"):
            if line.startswith("id name "):
                name = line[len("id name ") :].strip()
            elif line.startswith("option name "):
                options.add(line.split(" type ")[0][len("option name ") :])
        for option, value in (("Threads", 1), ("Hash", settings.hash_mb)):
            if option in options:
                self._send(f"setoption name {option} value {value}")
        self._ready()
        self.info = EngineInfo(
            *_version(name),
            settings.nodes,
            settings.multipv,
            hash_mb=settings.hash_mb if "Hash" in options else None,
            threads=1 if "Threads" in options else None,
        )

    def _failure(self, plain: str, searching: str, **params: object) -> EngineFailure:
        """The failure named by ``plain``, or by ``searching`` with the position when there is
        one."""
        if self._board is None:
            return EngineFailure(plain, engine=self.settings.path, **params)
        return EngineFailure(
            searching, engine=self.settings.path, position=describe(self._board), **params
        )

    def _stopped(self) -> EngineFailure:
        return self._failure(
            N_("%(engine)s: the engine stopped"),
            N_("%(engine)s: the engine stopped (searching %(position)s)"),
        )

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):  # ValueError: killed after a timeout, pipe closed
            raise self._stopped() from None

    def _readline(self, deadline: float) -> str:
        """The engine's next line; it must come before ``deadline`` (time.monotonic)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while not self._lines:
            # Past the deadline a line already waiting is still read: this process may have been
            # paused (SIGSTOP, a suspended machine) while the engine answered; only an engine
            # silent until the deadline is taken for a hung one.
            left = deadline - time.monotonic()
            if not select.select([fd], [], [], max(left, 0))[0]:
                self.proc.kill()
                self.proc.wait()
                raise self._failure(
                    N_("%(engine)s: no answer within %(seconds)s s"),
                    N_("%(engine)s: no answer within %(seconds)s s (searching %(position)s)"),
                    seconds=f"{self.timeout:g}",
                )
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._stopped()
            *complete, self._partial = (self._partial + chunk).split(b"\n")
            self._lines.extend(line.decode("utf-8", "replace").rstrip("\r") for line in complete)
        return self._lines.popleft()

    def _until(self, prefix: str) -> list[str]:
        """The engine's lines up to the first one starting with ``prefix``, within the timeout."""
        deadline = time.monotonic() + self.timeout
        lines = []
        while True:
            line = self._readline(deadline)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def _ready(self) -> None:
        self._send("isready")
        self._until("readyok")

    def _prepare(self, board: chess.Board, game: object, multipv: int) -> None:
        if game is not self._game:
            self._game = game
            self._send("ucinewgame")
            self._ready()
        if multipv != self._multipv:
            self._multipv = multipv
            self._send(f"setoption name MultiPV value {multipv}")
        self._board = board
        root = board.root()
        start = "startpos" if root.fen() == chess.STARTING_FEN else f"fen {root.fen()}"
        moves = " ".join(move.uci() for move in board.move_stack)
        self._send(f"position {start} moves {moves}" if moves else f"position {start}")

    def _go(self, command: str) -> tuple[SearchLine, ...]:
        self._send(command)
        latest: dict[int, tuple[str, Score]] = {}
        for line in self._until("bestmove"):
            if line.startswith("info") and " pv " in line:
                try:
                    parsed = parse_info(line)
                    if parsed is not None and parsed[0] == 1:
                        self.last_depth = parse_depth(line)
                except (ValueError, IndexError):
                    raise self._failure(
                        N_("%(engine)s: unreadable analysis: %(line)s"),
                        N_("%(engine)s: unreadable analysis: %(line)s (searching %(position)s)"),
                        line=repr(line.strip()),
                    ) from None

                if parsed is not None:
                    latest[parsed[0]] = (parsed[1], parsed[2])
        return tuple(latest[rank] for rank in sorted(latest))

    def search(self, board: chess.Board, game: object) -> tuple[SearchLine, ...]:
        self._prepare(board, game, self.settings.multipv)
        return self._go(f"go nodes {self.settings.nodes}")

    def shallow_best(self, board: chess.Board, game: object) -> str | None:
        self._prepare(board, game, 1)
        lines = self._go(f"go depth {SHALLOW_DEPTH}")
        return lines[0][0] if lines else None

    def close(self) -> None:
        if self.proc.poll() is not None:
            return
        try:
            self._send("quit")
            self.proc.wait(timeout=5)
        except (ClubratingError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
