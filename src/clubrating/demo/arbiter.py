"""The demo club stored by a simulated arbiter, through the services as a real one would
(:mod:`clubrating.demo.build` stages the club and says why): every evening imported, its names
confirmed and published; then the correction, the merge and the arbiter's login; and each
game's analysis as the engines hand it in.

This module imports the club app at its top: it is imported once Django is set up on the demo's
database (``clubrating demo`` sets Django up itself, on a new SQLite file built under a name of
its own: :func:`clubrating.demo.build.build_atomically`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from clubrating import djangoenv
from clubrating.analysis.runner import stderr_progress
from clubrating.club.jobs.analysis import (
    DatabaseCache,
    analysable_games,
    analyse_games,
    analysis_config,
    default_jobs,
    pgn_text,
    rebuild_ledger,
    store_analysis,
)
from clubrating.club.services.accounts import add_arbiter
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import merge
from clubrating.club.services.names import link_all, new_member
from clubrating.club.services.tournaments import correct_result, import_tournament, publish
from clubrating.club.store.models import Club, Entry, Game, Member, Tournament, Visibility
from clubrating.demo.build import (
    DEMO_ARBITER,
    DEMO_SLUG,
    WHO,
    Clock,
    DemoSettings,
    engine_player,
    say,
    stage,
    timed,
    with_headers,
)
from clubrating.demo.selfplay import Referee
from clubrating.demo.simulate import StagedClub
from clubrating.errors import InputError, Refused, Text
from clubrating.formats.records import TournamentRecord
from clubrating.formats.results import GameResult
from clubrating.words import N_, Nn_


def build_demo(settings: DemoSettings) -> dict[str, Any]:
    """The demo club in this database (call inside one transaction: see
    :func:`clubrating.demo.build.build_atomically`)."""
    if Club.objects.filter(slug=DEMO_SLUG).exists():
        raise Refused(N_("this database holds a demo club already"))
    clock = Clock()
    staged = stage(settings)
    with clock.store():
        arbiter = Arbiter()
    if settings.with_moves == 0:
        with clock.store():
            arbiter.evenings(staged.early, staged.early_names, staged.juniors)
            summary = arbiter.finish(staged.finish(None))
        summary["analysis"] = {
            "games": 0,
            "searched": 0,
            "cached": 0,
            "unreadable": [],
            "nodes": settings.nodes,
        }
        return {**summary, "seconds": clock.seconds(playing=0.0)}
    summary, playing = _play_store_and_analyse(settings, staged, arbiter, clock)
    return {**summary, "seconds": clock.seconds(playing=playing)}


def _play_store_and_analyse(
    settings: DemoSettings, staged: StagedClub, arbiter: Arbiter, clock: Clock
) -> tuple[dict[str, Any], float]:
    """Three things at once, so that both cores work (a minute's build): this
    thread stores the evenings with results only; a second thread has the last evenings
    played (``StagedClub.finish``) by the engine processes; and those processes analyse
    each game as soon as it is played, between the games still going. Then the last
    evenings are stored, and each game's analysis as it comes in."""

    jobs = settings.jobs or default_jobs()
    config = analysis_config(
        settings.engine, settings.book, settings.nodes
    )  # a bad book: one line, now
    engine = settings.engine or os.environ.get("CLUBRATING_ENGINE") or None
    say(
        Text(
            N_(
                "playing the last %(evenings)s evenings over the board "
                "(Stockfish, %(play_nodes)s nodes a move, %(jobs)s "
                "engines), analysing each game at %(nodes)s nodes a position"
            ),
            evenings=settings.with_moves,
            play_nodes=f"{settings.play_nodes:,}",
            jobs=jobs,
            nodes=f"{settings.nodes:,}",
        )
    )
    # Left in this order: the pool is stopped (on an error: killed) before the thread is waited for.
    with (
        ThreadPoolExecutor(1, thread_name_prefix="demo-play") as thread,
        Referee(
            **({"engine": engine} if engine else {}), jobs=jobs, book=config.book, analysis=config
        ) as referee,
    ):
        playing = thread.submit(timed, staged.finish, engine_player(settings, referee))
        with clock.store():
            arbiter.evenings(staged.early, staged.early_names, staged.juniors)
        simulated, played_in = playing.result()
        with clock.store():
            arbiter.evenings(
                simulated.tournaments[len(staged.early) :], simulated.true_name, simulated.juniors
            )
            summary = arbiter.finish(simulated)
        summary["analysis"] = _store_analyses(arbiter.club, referee, settings)
    return summary, played_in


def _link_evening(
    tournament: Tournament,
    true_name: dict[str, str],
    juniors: frozenset[str],
    duplicate: dict[str, Any],
    members: dict[str, Any],
) -> None:
    """Confirm every name of the evening, as the arbiter would after reading the proposals.

    ``members`` (name -> member) is kept across the evenings: one query less per name.
    """

    entries = Entry.objects.filter(tournament=tournament, member=None).select_related(
        "tournament__club"
    )
    known: list[tuple[Entry, Member]] = []  # confirmed together, as the arbiter's one click
    for entry in entries.order_by("number"):
        real = true_name.get(entry.name, entry.name)
        if entry.name != real and not duplicate:
            # The careless Tuesday: a misspelling made into a new member (merged later).
            new_member(entry, who=WHO, junior=real in juniors)
            duplicate["member"] = entry.member
            duplicate["real"] = real
            continue
        member = members.get(real)
        if member is None:
            new_member(entry, who=WHO, name=real, junior=real in juniors)
            members[real] = entry.member
        else:
            known.append((entry, member))
    if known:
        link_all(tournament, known, who=WHO)


class Arbiter:
    """The simulated arbiter at work: every evening imported, linked and published; then
    the correction, the merge and the arbiter's login."""

    def __init__(self) -> None:

        self.club = create_club("Demo Chess Club", who=WHO, slug=DEMO_SLUG)
        set_privacy(self.club, who=WHO, visibility=Visibility.PUBLIC)
        self.published: list[Tournament] = []
        self.duplicate: dict[str, Any] = {}
        self.members: dict[str, Any] = {}

    def evenings(
        self,
        records: Sequence[TournamentRecord],
        true_name: dict[str, str],
        juniors: frozenset[str],
    ) -> None:

        say(
            Text(
                Nn_("publishing %(count)s evening", "publishing %(count)s evenings"),
                count=len(records),
            )
        )
        for record in records:
            has_juniors = any(true_name.get(p.name) in juniors for p in record.players)
            tournament = import_tournament(self.club, record, who=WHO, has_juniors=has_juniors)
            _link_evening(tournament, true_name, juniors, self.duplicate, self.members)
            publish(tournament, who=WHO)
            self.published.append(tournament)

    def finish(self, simulated: Any) -> dict[str, Any]:

        club = self.club
        for fix in simulated.corrections:
            tournament = self.published[fix.tournament]
            game = Game.objects.get(
                tournament=tournament, round=fix.round, white__name=fix.white, black__name=fix.black
            )
            result = GameResult.of(fix.white_points, fix.black_points)
            if result is None:
                raise ValueError(f"a correction to half-points no result gives: {fix}")
            correct_result(game, result.value, who=WHO)
        if self.duplicate:
            real = Member.objects.get(club=club, name=self.duplicate["real"], merged_into=None)
            merge(self.duplicate["member"], real, who=WHO)
        add_arbiter(club, DEMO_ARBITER[0], DEMO_ARBITER[1], who=WHO)
        games = Game.objects.filter(tournament__club=club)
        return {
            "club": club.slug,
            "tournaments": len(self.published),
            "members": Member.objects.filter(club=club, merged_into=None).count(),
            "games": games.count(),
            "games_with_moves": games.exclude(moves="").count(),
            "first_date": simulated.tournaments[0].date.isoformat(),
            "last_date": simulated.tournaments[-1].date.isoformat(),
            "corrections": len(simulated.corrections),
            "merges": 1 if self.duplicate else 0,
            "arbiter": {"username": DEMO_ARBITER[0], "password": DEMO_ARBITER[1]},
        }


def _store_analyses(club: Club, referee: Referee, settings: DemoSettings) -> dict[str, Any]:
    """Each game's analysis, made by the engine process as soon as the game was played, stored
    as it comes in under the game's own headers (as ``analyse-club`` would store it); the
    CPI ledger rebuilt once at the end."""

    games = analysable_games(club)
    by_moves: dict[str, list[Game]] = {}
    for game in games:
        by_moves.setdefault(game.moves.strip(), []).append(game)
    say(
        Text(
            Nn_(
                "storing the analysis of %(count)s game with moves (%(nodes)s nodes a position)",
                "storing the analyses of %(count)s games with moves (%(nodes)s nodes a position)",
            ),
            count=len(games),
            nodes=f"{settings.nodes:,}",
        )
    )

    cache, progress = DatabaseCache(), stderr_progress(catalogue=djangoenv)
    stored = searched = cached = 0
    for analysed in referee.analyses():
        for game in by_moves.pop(analysed.moves.strip(), []):
            facts = with_headers(analysed.facts, pgn_text(game))
            store_analysis(game, facts, analysed.searches, cache)
            stored, searched, cached = (
                stored + 1,
                searched + facts.searches,
                cached + facts.cache_hits,
            )
            if progress is not None:
                progress(stored, len(games), facts)
    if any(
        by_moves.values()
    ):  # not played by this referee (none expected): analysed here, as analyse-club does
        report = analyse_games(
            club,
            engine=settings.engine,
            book=settings.book,
            nodes=settings.nodes,
            jobs=settings.jobs,
            rebuild=False,
        )
        if report.unreadable:
            raise InputError(
                N_("the demo played a game that cannot be analysed: %(game)s"),
                game=report.unreadable[0],
            )
        stored, searched, cached = (
            stored + report.games,
            searched + report.searched,
            cached + report.cached,
        )
    rebuild_ledger(club, stored, searched, cached)
    return {
        "games": stored,
        "searched": searched,
        "cached": cached,
        "unreadable": [],
        "nodes": settings.nodes,
    }
