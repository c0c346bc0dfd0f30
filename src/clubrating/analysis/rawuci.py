"""A lean UCI client behind the same :class:`~clubrating.analysis.engine.Searcher`
adapter, for bulk analysis.

Why: python-chess parses every ``info`` line the engine prints, replaying each
PV move by move on a board copy; with MultiPV 3 Stockfish prints ~40 such
lines a search, which costs about a third of a 20,000-node search
(``benchmarks/bench_analysis.py``). This client keeps the info lines as text
and parses only the last one of each MultiPV line, after ``bestmove``.
Same commands as python-chess sends: ``ucinewgame`` + ``isready`` when the
game changes (the analyzer changes it for every search: a clean hash), ``position startpos moves ...`` with the whole move stack,
``go nodes N``.
"""

from __future__ import annotations

import os
import subprocess

import chess

from clubrating.analysis.engine import SHALLOW_DEPTH, EngineSettings, SearchLine, _version, check_engine
from clubrating.cpi.facts import EngineInfo, Score
from clubrating.errors import ClubratingError


def parse_info(line: str) -> tuple[int, str, Score] | None:
    """``info ... multipv 2 score cp 31 ... pv e2e4 ...`` -> (2, "e2e4", Score(cp=31))."""
    words = line.split()
    if "pv" not in words or "score" not in words:
        return None
    at = words.index("score")
    kind, value = words[at + 1], int(words[at + 2])  # a bound is kept, as python-chess does
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
        check_engine(settings.path)
        self.proc = subprocess.Popen([settings.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._game: object | None = None
        self._multipv = 0
        self.last_depth: int | None = None  # depth of the last main search's first line
        self._send("uci")
        name = os.path.basename(settings.path)
        options = set()
        for line in self._until("uciok"):
            if line.startswith("id name "):
                name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                options.add(line.split(" type ")[0][len("option name "):])
        for option, value in (("Threads", 1), ("Hash", settings.hash_mb)):
            if option in options:
                self._send(f"setoption name {option} value {value}")
        self._ready()
        self.info = EngineInfo(*_version(name), settings.nodes, settings.multipv,
                               hash_mb=settings.hash_mb if "Hash" in options else None,
                               threads=1 if "Threads" in options else None)

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
        except BrokenPipeError:
            raise ClubratingError(f"{self.settings.path}: the engine stopped") from None

    def _until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise ClubratingError(f"{self.settings.path}: the engine stopped")
            if line.startswith(prefix):
                lines.append(line)
                return lines
            lines.append(line)

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
        root = board.root()
        start = "startpos" if root.fen() == chess.STARTING_FEN else f"fen {root.fen()}"
        moves = " ".join(move.uci() for move in board.move_stack)
        self._send(f"position {start} moves {moves}" if moves else f"position {start}")

    def _go(self, command: str) -> tuple[SearchLine, ...]:
        self._send(command)
        latest: dict[int, tuple[str, Score]] = {}
        for line in self._until("bestmove"):
            if line.startswith("info") and " pv " in line:
                parsed = parse_info(line)
                if parsed is not None:
                    latest[parsed[0]] = (parsed[1], parsed[2])
                    if parsed[0] == 1:
                        self.last_depth = parse_depth(line)
        return tuple(latest[rank] for rank in sorted(latest))

    def search(self, board: chess.Board, game: object) -> tuple[SearchLine, ...]:
        self._prepare(board, game, self.settings.multipv)
        return self._go(f"go nodes {self.settings.nodes}")

    def shallow_best(self, board: chess.Board, game: object) -> str | None:
        self._prepare(board, game, 1)
        lines = self._go(f"go depth {SHALLOW_DEPTH}")
        return lines[0][0] if lines else None

    def close(self) -> None:
        try:
            self._send("quit")
            self.proc.wait(timeout=5)
        except (ClubratingError, subprocess.TimeoutExpired):
            self.proc.kill()
