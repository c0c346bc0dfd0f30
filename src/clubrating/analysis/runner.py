"""Many games, several engine processes: a process pool, each worker owning one
engine, one opening book reader and one handle on the search cache.

``analyse_games(games, config, jobs)`` returns the facts in the input order.
With ``jobs == 1`` everything runs in this process (no pool). The cache is a
SQLite file when ``config.cache`` is set (shared by the workers, committed per
search, so an interrupted run resumes), else an in-memory dict per worker.
"""

from __future__ import annotations

import io
import multiprocessing
import multiprocessing.util
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TextIO

import chess.pgn
import chess.polyglot

from clubrating.analysis.analyzer import BookReader, analyse_game
from clubrating.analysis.cache import MemoryCache, SearchCache, SqliteCache
from clubrating.analysis.engine import EngineSettings, Searcher, UciSearcher, check_engine
from clubrating.analysis.rawuci import RawUciSearcher
from clubrating.cpi.facts import GameFacts
from clubrating.errors import InputError

DEFAULT_BOOK = "/usr/share/games/gnuchess/book.bin"  # Debian package gnuchess-book (DESIGN.md)

Progress = Callable[[int, int, GameFacts], None]


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    engine: EngineSettings = EngineSettings()
    book: str | None = DEFAULT_BOOK
    cache: str | None = None  # a SQLite file, or None for memory
    memory_cache: bool = True  # without a file: share searches in memory (False: no cache at all)


def check_config(config: AnalysisConfig) -> None:
    """Fail early, in one line, on a missing engine or book."""
    check_engine(config.engine.path)
    if config.book is not None and not os.path.isfile(config.book):
        raise InputError("no Polyglot opening book here (apt-get install gnuchess-book, or --book PATH)",
                         file=config.book)


def open_searcher(settings: EngineSettings) -> Searcher:
    """The engine adapter ``settings.protocol`` names (both speak the same UCI)."""
    if settings.protocol == "python-chess":
        return UciSearcher(settings)
    return RawUciSearcher(settings)


class Analyzer:
    """One engine, one book, one cache: analyse games one after another.

    The club's background worker uses this directly: ``with Analyzer(config)
    as analyzer: facts = analyzer.analyse(game)``; ``cache`` may be any
    :class:`SearchCache` (e.g. one backed by the club's database).
    """

    def __init__(self, config: AnalysisConfig, cache: SearchCache | None = None) -> None:
        check_config(config)
        self.searcher = open_searcher(config.engine)
        self.book: BookReader | None = chess.polyglot.open_reader(config.book) if config.book else None
        self.cache: SearchCache | None = cache
        if cache is None and config.cache:
            self.cache = SqliteCache(config.cache)
        elif cache is None and config.memory_cache:
            self.cache = MemoryCache()

    def analyse(self, game: chess.pgn.Game) -> GameFacts:
        return analyse_game(game, self.searcher, self.cache, self.book)

    def close(self) -> None:
        self.searcher.close()
        if self.book is not None:
            self.book.close()
        close = getattr(self.cache, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Analyzer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


# The Seven Tag Roster as python-chess fills it when a game gives none of it.
_UNSET_TAGS = dict(chess.pgn.Game().headers)


def read_games(handle: TextIO, where: str = "") -> Iterator[chess.pgn.Game]:
    """Every game of a PGN stream; a game python-chess cannot read is an InputError."""
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        if game.errors:
            raise InputError(f"game {number}: {game.errors[0]}", file=where or None)
        if game.next() is None and not game.comment and all(
                value == _UNSET_TAGS.get(tag) for tag, value in game.headers.items()):
            # python-chess skips what it cannot read: text that is not PGN reads as an empty game
            raise InputError(f"game {number}: not PGN (no [Tag \"value\"] pairs and no moves)", file=where or None)
        yield game


def read_pgn_file(path: str | Path) -> list[chess.pgn.Game]:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            return list(read_games(handle, str(path)))
    except OSError as error:
        raise InputError(f"cannot read ({error.strerror})", file=str(path)) from None


_WORKER: Analyzer | None = None


def _start_worker(config: AnalysisConfig) -> None:
    global _WORKER
    _WORKER = Analyzer(config)
    # Quit the engine when the pool stops this worker: python-chess's engine
    # thread would otherwise keep the worker (and the pool's shutdown) waiting.
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _analyse_text(pgn: str) -> GameFacts:
    assert _WORKER is not None, "worker not started"
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    return _WORKER.analyse(game)


def analyse_games(games: Sequence[chess.pgn.Game], config: AnalysisConfig, jobs: int = 1,
                  progress: Progress | None = None) -> list[GameFacts]:
    """The facts of every game, in order, over ``jobs`` engine processes."""
    check_config(config)
    results: list[GameFacts] = []
    if jobs <= 1 or len(games) <= 1:
        with Analyzer(config) as analyzer:
            for game in games:
                results.append(analyzer.analyse(game))
                if progress:
                    progress(len(results), len(games), results[-1])
        return results
    texts = [str(game) for game in games]
    # "spawn": a fresh interpreter per worker; python-chess's asyncio engine
    # thread and child watcher do not survive a fork of a threaded parent.
    with ProcessPoolExecutor(max_workers=min(jobs, len(games)), initializer=_start_worker,
                             initargs=(config,), mp_context=multiprocessing.get_context("spawn")) as pool:
        for facts in pool.map(_analyse_text, texts):
            results.append(facts)
            if progress:
                progress(len(results), len(games), facts)
    return results


def stderr_progress(verbose: bool = False) -> Progress | None:
    """A progress bar on a terminal; a line per game with ``verbose``; else nothing."""
    if sys.stderr.isatty():
        def bar(done: int, total: int, facts: GameFacts) -> None:
            filled = 30 * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        return bar
    if verbose:
        def line(done: int, total: int, facts: GameFacts) -> None:
            players = f"{facts.headers.get('White', '?')} - {facts.headers.get('Black', '?')}"
            print(f"{done}/{total} {players}: {facts.searches} searches, {facts.cache_hits} cached",
                  file=sys.stderr)
        return line
    return None
