"""A corrected result rebuilds what it changes, and the store ends as a fresh full rebuild's.

A correction replays the ratings from its tournament on and, when that is all it changes,
only its two players' CPI ledgers (club/derived/ledger_correction.py). Whatever path it takes,
the stored ratings, current ratings, ledger rows (ordinals and factors included) and "too
short" marks must equal those of a rebuild from nothing: every derived row deleted, the
ratings replayed from the first tournament and every game scored again, in a savepoint
rolled back. Random corrections (forfeits, merged members, games too short to score, games
without analysis) under the specification's weights and under the fitted default preset,
whose gain counts each member's games. ``CLUBRATING_CORRECTION_SEED`` repeats a run.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Q

from clubrating.club.derived import ledger as ledger_module
from clubrating.club.derived import ledger_correction as correction_module
from clubrating.club.derived import rebuild as rebuild_module
from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.derived.ratings import (
    CHANGE_COLUMNS,
    CURRENT_COLUMNS,
    rebuild_ratings,
)
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.services.members import merge
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import correct_result, import_tournament, publish
from clubrating.club.store.models import (
    Club,
    CpiEntry,
    CurrentRating,
    Game,
    GameAnalysis,
    Member,
    RatingChange,
)
from clubrating.cpi.index import DEFAULT_PRESET
from clubrating.errors import Refused

from ..cpi.coach_games import OPEN_GAME, build, hanging_game
from .conftest import ARBITER, RESULT, make_record

NAMES = ("Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng", "Eva Fox", "Finn Gray")
ALIAS = "A. Berg"  # plays the first evenings, then is merged into Anna Berg
CORRECTIONS = ("1-0", "0-1", "1/2-1/2", "+-", "-+")  # the arbiter's spellings
SHORT = build(OPEN_GAME[:6])  # 6 plies: below the club's min_plies, no ledger row


def seed() -> int:
    chosen = int(os.environ.get("CLUBRATING_CORRECTION_SEED") or random.randrange(10**6))
    print(f"CLUBRATING_CORRECTION_SEED={chosen}")
    return chosen


def evening(club: Club, week: int, players: list[str], rng: random.Random) -> None:
    """Three rounds of a random pairing, random results (a forfeit now and then)."""
    games = []
    for round_ in (1, 2, 3):
        order = rng.sample(players, len(players))
        for white, black in zip(order[0::2], order[1::2]):
            games.append((round_, white, black, rng.choice(list(RESULT))))
    record = make_record(
        f"Evening {week}", dt.date(2026, 1, 6) + dt.timedelta(weeks=week), players, games
    )
    tournament = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    accept_exact(tournament, who=ARBITER)
    all_new_members(tournament, who=ARBITER)
    publish(tournament, who=ARBITER)


def history(club: Club, rng: random.Random, preset: str) -> None:
    """Eight evenings, an alias merged into a member after the fourth; most played games
    analysed (long enough to score, or too short), the ledger rebuilt as the analysis job
    does."""
    set_cpi_weights(club, {}, who=ARBITER, preset=preset)
    set_cpi_weights(club, {"min_plies": 8}, who=ARBITER)
    for week in range(8):
        first = ALIAS if week < 3 else NAMES[0]
        evening(club, week, [first, *NAMES[1:]], rng)
        if week == 3:
            merge(Member.objects.get(name=ALIAS), Member.objects.get(name=NAMES[0]), who=ARBITER)
    games = Game.objects.filter(tournament__club=club).order_by("id")
    GameAnalysis.objects.bulk_create(
        GameAnalysis(
            game=game,
            engine="Fake",
            engine_version="1",
            nodes=1000,
            multipv=3,
            facts=(SHORT if rng.random() < 0.3 else hanging_game(game.id)).to_dict(),
        )
        for game in games
        if rng.random() < 0.8
    )
    rebuild_cpi(club)


def derived_tables(club: Club) -> tuple[list[Any], ...]:
    """Every derived row, as a rebuild writes it (no ids: a rewritten row gets a new one)."""
    return (
        sorted(RatingChange.objects.filter(tournament__club=club).values_list(*CHANGE_COLUMNS)),
        sorted(CurrentRating.objects.filter(member__club=club).values_list(*CURRENT_COLUMNS)),
        sorted(
            CpiEntry.objects.filter(member__club=club).values_list(
                "member_id",
                "game_id",
                "ordinal",
                "color",
                "cpi_before",
                "delta",
                "cpi_after",
                "factors",
            )
        ),
        sorted(  # a forfeit's mark stays (true under its key, and no rebuild reads it)
            GameAnalysis.objects.filter(game__tournament__club=club, game__played=True).values_list(
                "game_id", "unscored_with"
            )
        ),
    )


def rebuilt_from_nothing(club: Club) -> tuple[list[Any], ...]:
    """The derived tables as a rebuild with nothing stored writes them; nothing is kept."""
    with transaction.atomic():
        RatingChange.objects.filter(tournament__club=club).delete()
        CurrentRating.objects.filter(member__club=club).delete()
        CpiEntry.objects.filter(member__club=club).delete()
        GameAnalysis.objects.filter(game__tournament__club=club).update(unscored_with="")
        rebuild_ratings(club, reason="test: from nothing")
        rebuild_cpi(club, from_scratch=True)
        tables = derived_tables(club)
        transaction.set_rollback(True)
    return tables


def ledger_paths(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, for each correction's ledger, whether the two players' path was taken."""
    taken: list[bool] = []
    players = rebuild_module.rebuild_cpi_of_players

    def recorded(club: Club, game: Game) -> object:
        report = players(club, game)
        taken.append(report is not None)
        return report

    monkeypatch.setattr(rebuild_module, "rebuild_cpi_of_players", recorded)
    return taken


def middle_game(club: Club, short: bool = False) -> Game:
    """The middle one of the played games analysed, long enough to score or too short."""
    games = list(
        Game.objects.filter(tournament__club=club, played=True)
        .exclude(analysis=None)
        .filter(~Q(analysis__unscored_with="") if short else Q(analysis__unscored_with=""))
        .order_by("tournament__date", "round", "board", "id")
    )
    return games[len(games) // 2]


def other_result(game: Game) -> str:
    return "0-1" if game.white_points else "1-0"


@pytest.mark.parametrize("preset", ["spec", DEFAULT_PRESET])
def test_random_corrections_leave_the_store_a_fresh_full_rebuild_would_write(
    club, monkeypatch, preset
) -> None:
    rng = random.Random(seed())
    history(club, rng, preset)
    assert derived_tables(club) == rebuilt_from_nothing(club)
    taken = ledger_paths(monkeypatch)
    correct_result(game := middle_game(club), other_result(game), who=ARBITER)
    correct_result(game := middle_game(club, short=True), other_result(game), who=ARBITER)
    correct_result(middle_game(club), "+-", who=ARBITER)  # leaves the ledger
    assert taken == [True, True, False]
    assert derived_tables(club) == rebuilt_from_nothing(club)
    games = list(Game.objects.filter(tournament__club=club).order_by("id"))
    for _ in range(12):
        try:
            correct_result(rng.choice(games), rng.choice(CORRECTIONS), who=ARBITER)
        except Refused:
            continue  # the result it has already
        assert derived_tables(club) == rebuilt_from_nothing(club)
    assert len(taken) > 3


def test_a_correction_replays_only_its_two_players_ledgers(club, monkeypatch) -> None:
    """The other members' games of the later evenings are neither scored nor replayed: one
    ledger step a row of the two players from the corrected evening on, the corrected game the
    only one scored."""
    history(club, random.Random(seed()), "spec")
    game = middle_game(club)
    players = {game.white.member.active().id, game.black.member.active().id}
    later = CpiEntry.objects.filter(game__tournament__date__gte=game.tournament.date)
    theirs = later.filter(member_id__in=players).count()
    assert later.count() > theirs  # others played later: there is more to skip
    steps: list[object] = []
    scored: list[object] = []
    step, score = ledger_module.ledger_step, ledger_module.score_game
    for module in (ledger_module, correction_module):  # each takes the step by its own name
        monkeypatch.setattr(module, "ledger_step", lambda *a: steps.append(a) or step(*a))
    monkeypatch.setattr(ledger_module, "score_game", lambda *a: scored.append(a) or score(*a))
    correct_result(game, other_result(game), who=ARBITER)
    assert (len(steps), len(scored)) == (theirs, 1)
    assert derived_tables(club) == rebuilt_from_nothing(club)


def test_a_correction_that_moves_no_score_rewrites_the_games_own_rows_alone(
    club, monkeypatch
) -> None:
    """Under a fitted preset a result has no weight: the corrected game's scores stay, no
    later row moves, and its two rows alone are replayed, written again under the new key."""
    history(club, random.Random(seed()), DEFAULT_PRESET)
    game = middle_game(club)
    rows = CpiEntry.objects.filter(game=game)
    old_keys = {row.factors["scored_with"] for row in rows}
    steps: list[object] = []
    step = correction_module.ledger_step
    monkeypatch.setattr(correction_module, "ledger_step", lambda *a: steps.append(a) or step(*a))
    correct_result(game, other_result(game), who=ARBITER)
    assert len(steps) == 2
    assert {row.factors["scored_with"] for row in rows.all()}.isdisjoint(old_keys)
    assert derived_tables(club) == rebuilt_from_nothing(club)
