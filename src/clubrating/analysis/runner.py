"""Many games, several engine processes: a process pool, each worker owning one
engine, one opening book reader and one handle on the search cache.

``analyse_games(games, config, jobs)`` returns the facts in the input order.
With ``jobs == 1`` everything runs in this process (no pool). The cache is a
SQLite file when ``config.cache`` is set (shared by the workers, committed per
search, so an interrupted run resumes), else an in-memory dict per worker.

Nothing outlives the command: each worker and each engine asks Linux
to kill it when its parent dies (``engine.die_with_parent``), so a SIGTERM or
SIGKILL of the command takes the pool and every Stockfish with it; an
exception or a Ctrl-C in the parent cancels the queued games and kills the
workers at once instead of waiting for them.
"""

from __future__ import annotations

import io
import multiprocessing
import multiprocessing.util
import os
import signal
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
from clubrating.analysis.defaults import DEFAULT_BOOK as DEFAULT_BOOK
from clubrating.analysis.engine import (
    EngineFailure,
    EngineSettings,
    Searcher,
    UciSearcher,
    check_engine,
    die_with_parent,
    game_budget,
)
from clubrating.analysis.rawuci import RawUciSearcher
from clubrating.analysis.store import StoreCache, store_settings
from clubrating.cpi.facts import GameFacts
from clubrating.errors import ENGLISH, Catalogue, InputError, Text
from clubrating.formats.common import check_text
from clubrating.words import N_, Nn_

Progress = Callable[[int, int, GameFacts], None]


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    engine: EngineSettings = EngineSettings()
    book: str | None = DEFAULT_BOOK
    cache: str | None = None  # a SQLite file, or None for memory
    memory_cache: bool = True  # without a file: share searches in memory (False: no cache at all)
    stores: tuple[str, ...] = ()  # committed stores of searches (analysis.store) beneath the cache


def check_config(config: AnalysisConfig) -> None:
    """Fail early, in one line, on a missing engine or book."""
    check_engine(config.engine.path)
    if config.book is not None and not os.path.isfile(config.book):
        raise InputError(
            N_("no Polyglot opening book here (apt-get install gnuchess-book, or --book PATH)"),
            file=config.book,
        )
    store_settings(config.stores)


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
        self.budget = game_budget(
            config.engine
        )  # read first: a bad $CLUBRATING_GAME_SECONDS starts no engine
        self.searcher = open_searcher(config.engine)
        self.book: BookReader | None = (
            chess.polyglot.open_reader(config.book) if config.book else None
        )
        self.cache: SearchCache | None = cache
        if cache is None and config.cache:
            self.cache = SqliteCache(config.cache)
        elif cache is None and config.memory_cache:
            self.cache = MemoryCache()
        if cache is None and config.stores:
            self.cache = StoreCache(config.stores, above=self.cache)

    def analyse(self, game: chess.pgn.Game, number: int | None = None) -> GameFacts:
        """The facts of ``game`` (``number``: its place in the input, to name it in an error)."""
        try:
            return analyse_game(game, self.searcher, self.cache, self.book, self.budget)
        except EngineFailure as error:
            raise EngineFailure(
                N_("%(failure)s in %(game)s"), failure=error, game=game_label(game, number)
            ) from None

    def close(self) -> None:
        self.searcher.close()
        if self.book is not None:
            self.book.close()
        close = getattr(self.cache, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Analyzer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def game_label(game: chess.pgn.Game, number: int | None = None) -> Text:
    """ "game 3 (Anna Berg - Carl Dahl, round 2)": a game as a user finds it in the file."""
    headers = game.headers
    players = f"{headers.get('White', '?')} - {headers.get('Black', '?')}"
    round_ = headers.get("Round", "?")
    where = (
        Text(N_("%(players)s, round %(round)s"), players=players, round=round_)
        if round_ not in ("?", "-", "")
        else players
    )
    if number is None:
        return Text(N_("the game %(game)s"), game=where)
    return Text(N_("game %(number)s (%(game)s)"), number=number, game=where)


# The Seven Tag Roster as python-chess fills it when a game gives none of it.
_UNSET_TAGS = dict(chess.pgn.Game().headers)


def read_games(handle: TextIO, where: str = "") -> Iterator[chess.pgn.Game]:
    """Every game of a PGN stream; a game python-chess cannot read is an InputError."""
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        if game.errors:
            raise InputError(
                N_("game %(number)s: %(error)s"),
                file=where or None,
                number=number,
                error=str(game.errors[0]),
            )
        if (
            game.next() is None
            and not game.comment
            and all(value == _UNSET_TAGS.get(tag) for tag, value in game.headers.items())
        ):
            # python-chess skips what it cannot read: text that is not PGN reads as an empty game
            raise InputError(
                N_('game %(number)s: not PGN (no [Tag "value"] pairs and no moves)'),
                file=where or None,
                number=number,
            )
        yield game


def read_pgn_file(path: str | Path) -> list[chess.pgn.Game]:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            text = handle.read()
    except OSError as error:
        raise InputError(
            N_("cannot read (%(strerror)s)"), file=str(path), strerror=error.strerror
        ) from None
    check_text(
        text, str(path)
    )  # a stray ESC or NUL: a damaged or hostile file, refused with its line
    return list(read_games(io.StringIO(text), str(path)))


_WORKER: Analyzer | None = None


def start_pool_worker(parent: int) -> None:
    """In a pool worker, first thing: die with the parent (and end at once if it is already
    gone), and leave Ctrl-C to the parent, which then stops the pool (``stop_pool``)."""
    die_with_parent()
    if os.getppid() != parent:
        os._exit(1)  # the parent died before we asked: nobody wants our results
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop now: cancel the queued work and kill the workers (their engines die with them)
    rather than let them finish every game already handed out."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    for process in processes:
        process.join(timeout=5)


def _start_worker(config: AnalysisConfig, parent: int) -> None:
    global _WORKER
    start_pool_worker(parent)
    _WORKER = Analyzer(config)
    # Quit the engine when the pool stops this worker: python-chess's engine
    # thread would otherwise keep the worker (and the pool's shutdown) waiting.
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _analyse_text(job: tuple[int, str]) -> GameFacts:
    assert _WORKER is not None, "worker not started"
    number, pgn = job
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    return _WORKER.analyse(game, number)


def analyse_games(
    games: Sequence[chess.pgn.Game],
    config: AnalysisConfig,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[GameFacts]:
    """The facts of every game, in order, over ``jobs`` engine processes."""
    check_config(config)
    results: list[GameFacts] = []
    if jobs <= 1 or len(games) <= 1:
        with Analyzer(config) as analyzer:
            for number, game in enumerate(games, start=1):
                results.append(analyzer.analyse(game, number))
                if progress:
                    progress(len(results), len(games), results[-1])
        return results
    texts = [(number, str(game)) for number, game in enumerate(games, start=1)]
    # "spawn": a fresh interpreter per worker; python-chess's asyncio engine
    # thread and child watcher do not survive a fork of a threaded parent.
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(games)),
        initializer=_start_worker,
        initargs=(config, os.getpid()),
        mp_context=multiprocessing.get_context("spawn"),
    )
    try:
        for facts in pool.map(_analyse_text, texts):
            results.append(facts)
            if progress:
                progress(len(results), len(games), facts)
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
    return results


def stderr_progress(verbose: bool = False, catalogue: Catalogue = ENGLISH) -> Progress | None:
    """A progress bar on a terminal; a line per game with ``verbose``; else nothing; in the
    language of ``catalogue`` (the command's: ``clubrating.djangoenv``)."""
    if sys.stderr.isatty():

        def bar(done: int, total: int, facts: GameFacts) -> None:
            filled = 30 * done // total
            games = Text(
                Nn_("%(done)s/%(count)s game", "%(done)s/%(count)s games"), done=done, count=total
            )
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {games.translated(catalogue)}"
            )
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

        return bar
    if verbose:

        def line(done: int, total: int, facts: GameFacts) -> None:
            players = f"{facts.headers.get('White', '?')} - {facts.headers.get('Black', '?')}"
            said = Text(
                N_("%(done)s/%(total)s %(players)s: %(searches)s searches, %(cached)s cached"),
                done=done,
                total=total,
                players=players,
                searches=facts.searches,
                cached=facts.cache_hits,
            )
            print(said.translated(catalogue), file=sys.stderr)

        return line
    return None
