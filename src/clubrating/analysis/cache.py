"""The search cache: the same position under the same engine settings is
searched once, across all games and across interrupted runs.

A cache is anything with ``get(position, settings)`` / ``put(position,
settings, lines)`` (:class:`SearchCache`): an in-memory dict for one run, a
SQLite file for the command line (``--cache FILE``), a Django model for the
club. ``position`` is :func:`position_key` (the position plus the history
that can still repeat, because the engine sees repetitions); ``settings``
is :attr:`EngineInfo.key` (engine name, version, nodes, MultiPV) or the key
of the tiny brilliancy search.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Protocol

import chess

from clubrating.cpi.facts import Score
from clubrating.errors import InputError
from clubrating.words import N_

SearchLine = tuple[str, Score]  # first move (UCI) and score from the side to move's view


class SearchCache(Protocol):
    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None: ...

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None: ...


def position_key(board: chess.Board) -> str:
    """The FEN plus a digest of the positions since the last capture or pawn move.

    Those earlier positions are exactly the ones that can still repeat, so two
    move orders reaching the same position with the same repeatable history
    share one search; a different history (a repetition pending) does not.
    """
    fen = board.fen(en_passant="legal").rsplit(" ", 1)[0]  # without the move number
    history = []
    scratch = board.copy()
    for _ in range(board.halfmove_clock):
        if not scratch.move_stack:
            break
        scratch.pop()
        history.append(scratch.epd(en_passant="legal"))
    if not history:
        return fen
    digest = hashlib.sha1("|".join(history).encode()).hexdigest()[:16]
    return f"{fen}#{digest}"


def encode_lines(lines: tuple[SearchLine, ...]) -> str:
    return json.dumps([[uci, score.to_dict()] for uci, score in lines])


def decode_lines(text: str) -> tuple[SearchLine, ...]:
    return tuple((uci, Score.from_dict(score)) for uci, score in json.loads(text))


class MemoryCache:
    """A dict: one process, one run. Counts its hits for reports."""

    def __init__(self) -> None:
        self._store: dict[tuple[str, str], tuple[SearchLine, ...]] = {}

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        return self._store.get((position, settings))

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self._store[position, settings] = lines

    def __len__(self) -> int:
        return len(self._store)


class SqliteCache:
    """A SQLite file shared by the engine processes; every search is committed at
    once, so an interrupted analysis resumes where it stopped."""

    SCHEMA = (
        "CREATE TABLE IF NOT EXISTS searches (position TEXT NOT NULL, settings TEXT NOT NULL,"
        " lines TEXT NOT NULL, PRIMARY KEY (position, settings))"
    )

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=60)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(self.SCHEMA)
            self._db.commit()
        except sqlite3.DatabaseError as error:
            raise InputError(
                N_("not a usable cache file (%(error)s)"), file=self.path, error=str(error)
            ) from None

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        row = self._db.execute(
            "SELECT lines FROM searches WHERE position = ? AND settings = ?", (position, settings)
        ).fetchone()
        return decode_lines(row[0]) if row else None

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO searches VALUES (?, ?, ?)",
            (position, settings, encode_lines(lines)),
        )
        self._db.commit()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM searches").fetchone()[0])

    def close(self) -> None:
        self._db.close()
