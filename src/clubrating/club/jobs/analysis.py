"""Engine analysis of the club's published games, kept in the database.

- :class:`DatabaseCache` is the search cache over :class:`PositionSearch`: the
  same position under the same engine settings is searched once for every
  game of the database, and across interrupted runs.
- :func:`analyse_games` analyses every published game with moves that has no
  stored analysis yet (or, with ``reanalyse``, one made with other engine
  settings) over ``jobs`` engine processes, storing one :class:`GameAnalysis`
  a game, then rebuilds the CPI ledger (:func:`clubrating.club.derived.ledger.rebuild_cpi`).

The engine processes never touch the database: the parent reads the cached
searches of a game's positions (one query) before handing the game out and
writes the game's facts and new searches when it comes back.
"""

from __future__ import annotations

import io
import multiprocessing.util
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import chess.pgn

from clubrating.analysis.analyzer import game_boards, shallow_settings_key
from clubrating.analysis.cache import SearchLine, decode_lines, encode_lines, position_key
from clubrating.analysis.engine import DEFAULT_ENGINE, DEFAULT_NODES, EngineSettings, UciSearcher
from clubrating.analysis.runner import (
    DEFAULT_BOOK,
    AnalysisConfig,
    Analyzer,
    check_config,
    start_pool_worker,
    stop_pool,
)
from clubrating.club.store import audit
from clubrating.club.derived.ledger import (
    INSERT_BATCH,
    PREFETCH_CHUNK,
    RESULTS,
    club_weights,
    forget_entries,
    game_order,
    rebuild_cpi,
)
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import (
    Club,
    Game,
    GameAnalysis,
    PositionSearch,
    TournamentStatus,
)
from clubrating.cpi.facts import EngineInfo, GameFacts
from clubrating.errors import InputError, Text
from clubrating.formats.bounds import whole_number
from clubrating.words import N_, Nn_

Progress = Callable[[int, int, GameFacts], None]
CacheKey = tuple[str, str]  # (position, settings)
# How long new searches may wait in memory before they are written (DatabaseCache).
FLUSH_SECONDS = 10.0
ENV_HIGH = 2**63 - 1  # $CLUBRATING_NODES / _JOBS beyond a 64-bit number are no number


# --- the search cache over PositionSearch --------------------------------------------------


class DatabaseCache:
    """A :class:`clubrating.analysis.cache.SearchCache` kept in the club's database.

    ``prefetch`` reads every search of a game's positions in one query (per
    500 positions); ``get`` then answers from memory, and asks the database
    only for a position that was not prefetched. ``put`` keeps a search to
    write; what was put is written in one bulk INSERT (a concurrent twin
    ignored) by ``flush``, which :func:`store_analysis` calls with the game, and
    by ``put`` itself once ``flush_seconds`` passed since the last write: an
    interrupted run loses at most that much engine time, and a worker holds the
    database's write lock a few times a minute instead of once a search (one
    INSERT a search made two SQLite workers wait on each other's lock:
    docs/benchmarks.md, "Analysis on RQ workers").
    """

    def __init__(self, *, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.flush_seconds = flush_seconds
        self._known: dict[CacheKey, tuple[SearchLine, ...]] = {}
        self._asked: set[CacheKey] = set()
        self._pending: dict[CacheKey, str] = {}
        self._flushed = time.monotonic()

    def prefetch(
        self, positions: Iterable[str], settings: Sequence[str]
    ) -> dict[CacheKey, tuple[SearchLine, ...]]:
        """Load the stored searches of ``positions`` under each of ``settings``; returns them."""
        wanted = sorted(set(positions))
        found: dict[CacheKey, tuple[SearchLine, ...]] = {}
        for lo in range(0, len(wanted), PREFETCH_CHUNK):
            chunk = wanted[lo : lo + PREFETCH_CHUNK]
            rows = PositionSearch.objects.filter(position__in=chunk, settings__in=list(settings))
            for position, key, lines in rows.values_list("position", "settings", "lines"):
                found[position, key] = decode_lines(lines)
            self._asked.update((p, s) for p in chunk for s in settings)
        self._known.update(found)
        return found

    def forget(self) -> None:
        """Drop what was read (kept per game, so memory does not grow with the database)."""
        self._known.clear()
        self._asked.clear()

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        key = (position, settings)
        if key not in self._known and key not in self._asked:
            self._asked.add(key)
            row = (
                PositionSearch.objects.filter(position=position, settings=settings)
                .values_list("lines", flat=True)
                .first()
            )
            if row is not None:
                self._known[key] = decode_lines(row)
        return self._known.get(key)

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self.put_many({(position, settings): lines})

    def put_many(self, searches: dict[CacheKey, tuple[SearchLine, ...]]) -> None:
        self._known.update(searches)
        self._pending.update({key: encode_lines(lines) for key, lines in searches.items()})
        if time.monotonic() - self._flushed >= self.flush_seconds:
            self.flush()

    def flush(self) -> int:
        """Write the pending searches (a twin written meanwhile by another worker is kept)."""
        rows = [
            PositionSearch(position=p, settings=s, lines=text)
            for (p, s), text in self._pending.items()
        ]
        PositionSearch.objects.bulk_create(rows, batch_size=INSERT_BATCH, ignore_conflicts=True)
        self._pending.clear()
        self._flushed = time.monotonic()
        return len(rows)


class SeededCache:
    """An engine worker's cache for one game: what the parent prefetched, plus a
    record of the new searches to hand back (workers never touch the database)."""

    def __init__(self, known: dict[CacheKey, tuple[SearchLine, ...]]) -> None:
        self.known = dict(known)
        self.new: dict[CacheKey, tuple[SearchLine, ...]] = {}

    def get(self, position: str, settings: str) -> tuple[SearchLine, ...] | None:
        return self.known.get((position, settings))

    def put(self, position: str, settings: str, lines: tuple[SearchLine, ...]) -> None:
        self.known[position, settings] = self.new[position, settings] = lines


# --- analysis ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalysisReport:
    """What ``analyse_games`` did, in the words the arbiter sees."""

    games: int  # games analysed and stored
    searched: int  # positions searched by the engine
    cached: int  # positions answered by the cache
    unreadable: tuple[str, ...] = ()  # "game 12: why" for games whose moves could not be read

    @property
    def text(self) -> Text:
        """The report in words, translated where it is shown."""
        figures: dict[str, object] = {
            "games": Text(Nn_("%(count)s game", "%(count)s games"), count=self.games),
            "positions": Text(
                Nn_("%(count)s position", "%(count)s positions"), count=self.searched
            ),
            "cached": self.cached,
        }
        if not self.unreadable:
            return Text(
                N_("analysed %(games)s, %(positions)s searched, %(cached)s from the cache"),
                **figures,
            )
        return Text(
            N_(
                "analysed %(games)s, %(positions)s searched, "
                "%(cached)s from the cache; %(unreadable)s unreadable"
            ),
            unreadable=Text(Nn_("%(count)s game", "%(count)s games"), count=len(self.unreadable)),
            **figures,
        )

    def __str__(self) -> str:
        return str(self.text)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "searched": self.searched,
            "cached": self.cached,
            "unreadable": list(self.unreadable),
        }


def analysis_config(
    engine: str | None = None, book: str | None = None, nodes: int | None = None
) -> AnalysisConfig:
    """The engine, book and node budget: arguments, else $CLUBRATING_ENGINE / $CLUBRATING_BOOK /
    $CLUBRATING_NODES (how a background worker is configured), else the defaults."""
    nodes_text = os.environ.get("CLUBRATING_NODES") or ""
    if nodes is None and nodes_text:
        nodes = whole_number(nodes_text, ENV_HIGH)  # never int(): of "²" it raises
        if nodes is None:
            raise InputError(
                N_("CLUBRATING_NODES must be a whole number, not %(text)s"),
                text=repr(nodes_text[:20]),
            )
    nodes = DEFAULT_NODES if nodes is None else nodes
    if nodes < 1:
        raise InputError(N_("the node budget must be at least 1, not %(nodes)s"), nodes=nodes)
    return AnalysisConfig(
        EngineSettings(
            path=engine or os.environ.get("CLUBRATING_ENGINE") or DEFAULT_ENGINE, nodes=nodes
        ),
        book=book or os.environ.get("CLUBRATING_BOOK") or DEFAULT_BOOK,
    )


def engine_info(config: AnalysisConfig) -> EngineInfo:
    """The engine's name and version (as the cache keys need them), asked once."""
    check_config(config)
    searcher = UciSearcher(config.engine)
    try:
        return searcher.info
    finally:
        searcher.close()


def same_settings(analysis: GameAnalysis, info: EngineInfo) -> bool:
    return (analysis.engine, analysis.engine_version, analysis.nodes, analysis.multipv) == (
        info.name,
        info.version,
        info.nodes,
        info.multipv,
    )


def analysable_games(club: Club, tournament_id: int | None = None) -> list[Game]:
    """Published, played, non-bughouse games with moves, in ledger order, with their analysis."""
    games = (
        Game.objects.filter(
            tournament__club=club, tournament__status=TournamentStatus.PUBLISHED, played=True
        )
        .exclude(moves="")
        .exclude(tournament__kind="bughouse")
        .select_related("tournament", "white", "black", "analysis")
    )
    if tournament_id is not None:
        games = games.filter(tournament_id=tournament_id)
    return sorted(
        games,
        key=lambda g: game_order(
            g.tournament.date, g.tournament.sequence, g.tournament_id, g.round, g.board, g.id
        ),
    )


def pgn_text(game: Game) -> str:
    """The game as PGN: its stored tags, the names as written and the club's result."""
    tags = {str(k): str(v) for k, v in (game.headers or {}).items()}
    tags.setdefault("White", game.white.name)
    tags.setdefault("Black", game.black.name)
    tags["Result"] = RESULTS.get((game.white_points, game.black_points), "*")
    head = "".join(
        f'[{k} "{v.replace(chr(92), "").replace(chr(34), chr(39))}"]\n' for k, v in tags.items()
    )
    return f"{head}\n{game.moves.strip()}\n"


def game_positions(pgn: str) -> list[str]:
    """The cache keys of every position of the game, the final one included."""
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None:
        raise InputError(N_("no moves"))
    boards = game_boards(game)
    keys = [position_key(board) for board, _ in boards]
    if boards:
        last, node = boards[-1]
        last = last.copy()
        last.push(node.move)
        keys.append(position_key(last))
    return keys


def _analyse_with(analyzer: Analyzer, pgn: str) -> GameFacts:
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None:
        raise InputError(N_("no moves"))
    return analyzer.analyse(game)


_WORKER: Analyzer | None = None


def _start_worker(config: AnalysisConfig, parent: int) -> None:
    global _WORKER
    start_pool_worker(parent)  # dies with the worker that started it, engine and all
    _WORKER = Analyzer(config, cache=SeededCache({}))
    # Close the engine when the pool stops this process: the engine's thread is not a
    # daemon, and multiprocessing joins such threads only after its finalizers ran, so
    # without this the pool's shutdown waits forever.
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _worker_analyse(
    job: tuple[int, str, dict[CacheKey, tuple[SearchLine, ...]]],
) -> tuple[int, GameFacts | str, dict[CacheKey, tuple[SearchLine, ...]]]:
    """In an engine process: one game with the searches the parent found for it."""
    game_id, pgn, known = job
    assert _WORKER is not None, "worker not started"
    cache = SeededCache(known)
    _WORKER.cache = cache
    try:
        return game_id, _analyse_with(_WORKER, pgn), cache.new
    except InputError as error:
        return game_id, str(error), cache.new


Outcome = tuple[int, GameFacts | str, dict[CacheKey, tuple[SearchLine, ...]]]


def _in_process(
    config: AnalysisConfig, jobs_in: Iterator[tuple[int, str, Any]], cache: DatabaseCache
) -> Iterator[Outcome]:
    """One engine in this process, its searches written with each game (and every
    ``FLUSH_SECONDS`` of a long one)."""
    with Analyzer(config, cache=cache) as analyzer:
        for game_id, pgn, _ in jobs_in:
            try:
                yield game_id, _analyse_with(analyzer, pgn), {}
            except InputError as error:
                yield game_id, str(error), {}


def _in_pool(
    config: AnalysisConfig, jobs: int, jobs_in: Iterator[tuple[int, str, Any]]
) -> Iterator[Outcome]:
    """``jobs`` engine processes; a game is handed out only when a process is free, so
    its prefetched searches include those of every game finished before it."""
    pool = ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(config, os.getpid())
    )
    try:
        running: set[Future[Outcome]] = set()
        for job in jobs_in:
            running.add(pool.submit(_worker_analyse, job))
            while len(running) >= jobs:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                yield from (future.result() for future in done)
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            yield from (future.result() for future in done)
    except BaseException:  # an engine failed, Ctrl-C, or the caller stopped reading: stop at once
        stop_pool(pool)
        raise
    pool.shutdown()


def default_jobs() -> int:
    """Engine processes: $CLUBRATING_JOBS, else the number of cores."""
    text = os.environ.get("CLUBRATING_JOBS") or ""
    jobs = whole_number(text, ENV_HIGH)  # never int(): of "²" it raises
    if text and jobs is None:
        raise InputError(
            N_("CLUBRATING_JOBS must be a whole number, not %(text)s"), text=repr(text[:20])
        )
    return jobs if jobs is not None else os.cpu_count() or 1


def needs_analysis(game: Game, info: EngineInfo, reanalyse: bool) -> bool:
    analysis = getattr(game, "analysis", None)
    return analysis is None or (reanalyse and not same_settings(analysis, info))


def store_analysis(
    game: Game,
    facts: GameFacts,
    searches: dict[CacheKey, tuple[SearchLine, ...]],
    cache: DatabaseCache,
) -> bool:
    """One game's facts and the searches its engine process made, in one transaction,
    under the club's lock (a correction's rebuild of the ledger is not interleaved);
    a game deleted or unpublished meanwhile, or whose moves the arbiter corrected while
    the engine read the old ones, is left alone (the new moves have their own job)."""
    with history_write(game.tournament.club_id):
        cache.put_many(searches)
        cache.flush()  # the searches are the position's, kept whatever becomes of the game
        if not Game.objects.filter(
            pk=game.pk, tournament__status=TournamentStatus.PUBLISHED, moves=game.moves
        ).exists():
            return False
        forget_entries(game)  # new facts: the next rebuild writes them anew
        GameAnalysis.objects.update_or_create(
            game=game,
            defaults={
                "engine": facts.engine.name,
                "engine_version": facts.engine.version,
                "nodes": facts.engine.nodes,
                "multipv": facts.engine.multipv,
                "facts": facts.to_dict(),
                "unscored_with": "",  # new facts: scored anew, short or not
            },
        )
    return True


def analyse_games(
    club: Club,
    *,
    engine: str | None = None,
    book: str | None = None,
    nodes: int | None = None,
    jobs: int | None = None,
    reanalyse: bool = False,
    tournament_id: int | None = None,
    progress: Progress | None = None,
    rebuild: bool = True,
) -> AnalysisReport:
    """Analyse the club's published games with moves that have no stored analysis (or,
    with ``reanalyse``, one made with other engine settings), then rebuild the ledger.

    Each game is stored as soon as it is analysed: an interrupted run loses at
    most the games in progress, and their searches already made are cached.
    """
    config = analysis_config(engine, book, nodes)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise InputError(N_("--jobs must be at least 1, not %(jobs)s"), jobs=jobs)

    info = engine_info(config)
    todo = [g for g in analysable_games(club, tournament_id) if needs_analysis(g, info, reanalyse)]
    if not todo:
        if rebuild and ledger_behind(club):  # a run stopped after its last game, before the ledger
            rebuild_ledger(club, 0, 0, 0)
        return AnalysisReport(0, 0, 0)
    cache = DatabaseCache()
    keys = (info.key, shallow_settings_key(info))
    by_id = {g.id: g for g in todo}

    def handed_out() -> Iterator[tuple[int, str, dict[CacheKey, tuple[SearchLine, ...]]]]:
        for game in todo:
            pgn = pgn_text(game)
            cache.forget()
            try:
                known = cache.prefetch(game_positions(pgn), keys)
            except InputError:
                known = {}  # analysing it will say why it is unreadable
            yield game.id, pgn, known

    workers = min(jobs, len(todo))
    outcomes = (
        _in_process(config, handed_out(), cache)
        if workers == 1
        else _in_pool(config, workers, handed_out())
    )
    stored = searched = cached = 0
    unreadable: list[str] = []
    for game_id, facts, searches in outcomes:
        if isinstance(facts, str):
            unreadable.append(f"game {game_id}: {facts}")
            continue
        if not store_analysis(by_id[game_id], facts, searches, cache):
            continue
        stored, searched, cached = stored + 1, searched + facts.searches, cached + facts.cache_hits
        if progress is not None:
            progress(stored + len(unreadable), len(todo), facts)
    if rebuild and (stored or ledger_behind(club)):
        rebuild_ledger(club, stored, searched, cached)
    return AnalysisReport(stored, searched, cached, tuple(unreadable))


def ledger_behind(club: Club) -> bool:
    """A stored analysis of a published game has no ledger row: a run was stopped between
    storing its games and rebuilding the ledger, so this one finishes it. A game
    shorter than the settings' ``min_plies`` has no row by design and does not count."""
    unscored = GameAnalysis.objects.filter(
        game__tournament__club=club,
        game__played=True,
        game__tournament__status=TournamentStatus.PUBLISHED,
        game__cpi_entries__isnull=True,
    ).exclude(game__tournament__kind="bughouse")  # the games cpi.ledger_rows scores
    min_plies = club_weights(club).model.min_plies
    return any(
        len(facts.get("plies", ())) >= min_plies
        for facts in unscored.values_list("facts", flat=True).iterator()
    )


def rebuild_ledger(club: Club, stored: int, searched: int, cached: int) -> None:
    """Rebuild the club's CPI ledger after an analysis run (this module's, a worker's on RQ, the
    demo's) and leave the audit entry when something changed."""
    with history_write(club):
        ledger = rebuild_cpi(club)
        if not stored and not ledger.entries_differing:
            return  # nothing new to say
        # New CPI figures change what the pages show: leave the trace every change leaves.
        audit.record(
            club,
            "analysis",
            "analyse",
            club.slug,
            new={"games": stored, "searched": searched, "cached": cached},
            summary=Text(
                N_("analysed %(games)s; %(ledger)s"),
                ledger=ledger.text,
                games=Text(Nn_("%(count)s game", "%(count)s games"), count=stored),
            ),
        )
