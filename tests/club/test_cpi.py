"""The club's CPI: published games with moves analysed by background jobs, the
ledger rebuilt like the rating, re-scored without the engine when weights change.

Tests marked ``engine`` run Debian's Stockfish at a tiny fixed node budget; they
FAIL (never skip) when it is missing: ``scripts/bootstrap --test`` installs it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Sequence

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from clubrating.analysis import engine as engine_module
from clubrating.cli import main
from clubrating.club.derived import ledger as cpi_module
from clubrating.club.jobs.analysis import analyse_games
from clubrating.club.derived.ledger import (
    CpiReport,
    club_weights,
    ledger_games,
    cpi_summary,
    member_ledger,
    parse_weight,
    rebuild_cpi,
)
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CpiEntry,
    Game,
    GameAnalysis,
    Member,
    PositionSearch,
    Tournament,
)
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import ledger, score_game
from clubrating.errors import InputError

from .conftest import ARBITER, make_record
from clubrating.club.services.members import merge, unmerge
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import (
    correct_result,
    import_tournament,
    publish,
    unpublish,
)

NODES = 2_000  # tiny and fixed: each short game costs a fraction of a second
LEGAL = "1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"
RUY = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1/2-1/2"
FOOL = "1. f3 e5 2. g4 d5 3. h3 Qh4# 0-1"
PLAYERS = ("Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng")
EVENING = [
    (1, "Anna Berg", "Ben Cole", "1-0", LEGAL),
    (1, "Cara Dunn", "Dan Eng", "0-1", FOOL),
    (2, "Dan Eng", "Anna Berg", "=", RUY),
]
Games = Sequence[tuple[int, str, str, str, str]]


def publish_games(
    club: Club, name: str, date: dt.date, players: Sequence[str], games: Games
) -> Tournament:
    """A tournament whose games have moves, imported, linked and published."""
    record = make_record(name, date, players, [g[:4] for g in games])
    pairings = tuple(
        dataclasses.replace(p, moves=g[4] or None) for p, g in zip(record.pairings, games)
    )
    record = dataclasses.replace(record, pairings=pairings)
    tournament = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    accept_exact(tournament, who=ARBITER)
    all_new_members(tournament, who=ARBITER)
    publish(tournament, who=ARBITER)
    return tournament


def analyse(club: Club, **options: object) -> object:
    return analyse_games(club, nodes=NODES, jobs=1, **options)  # type: ignore[arg-type]


def entries_of(name: str) -> list[CpiEntry]:
    return list(CpiEntry.objects.filter(member__name=name).order_by("ordinal"))


def forbid_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to start an engine fails the test."""

    def refuse(self: object, settings: object) -> None:
        raise AssertionError("the engine was started")

    monkeypatch.setattr(engine_module.UciSearcher, "__init__", refuse)
    monkeypatch.setenv("CLUBRATING_ENGINE", "/nonexistent/engine")


@pytest.fixture
def evening(club: Club) -> Tournament:
    return publish_games(club, "Tuesday evening", dt.date(2026, 3, 3), PLAYERS, EVENING)


# --- the background job ----------------------------------------------------------------------


@pytest.mark.engine
@pytest.mark.django_db(transaction=True)
def test_publishing_games_with_moves_queues_an_analysis_the_worker_stores(
    club, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("CLUBRATING_NODES", str(NODES))
    monkeypatch.setenv("CLUBRATING_JOBS", "2")  # the process pool path
    tournament = publish_games(club, "Tuesday evening", dt.date(2026, 3, 3), PLAYERS, EVENING)
    queued = DBTaskResult.objects.get()
    assert queued.status == "READY" and queued.args_kwargs["args"] == [tournament.id]
    assert not GameAnalysis.objects.exists()

    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)

    queued.refresh_from_db()
    assert queued.status == "SUCCESSFUL", queued.exception_class_path
    analyses = list(GameAnalysis.objects.all())
    assert len(analyses) == 3
    assert all(
        a.engine == "Stockfish" and a.engine_version and a.nodes == NODES and a.multipv == 3
        for a in analyses
    )
    assert CpiEntry.objects.count() == 6
    code = main(["cpi", "Anna Berg", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["games"] == 2
    first, second = document["ledger"]
    assert (first["date"], first["opponent"], first["colour"], first["result"]) == (
        "2026-03-03",
        "Ben Cole",
        "white",
        "1-0",
    )
    assert second["colour"] == "black" and second["result"] == "1/2-1/2"
    assert second["cpi_before"] == first["cpi_after"] == first["delta"]  # starts at 0
    assert document["cpi"] == second["cpi_after"]
    assert set(first["factors"]["E"]) >= {"value", "numerator", "denominator", "available"}
    assert first["factors"]["T"]["available"] is False  # no clocks in these games
    assert document["weakest"]["factor"] in ("E", "T", "O", "B1", "M1", "M2", "M3", "H")


def test_a_tournament_without_moves_queues_nothing(
    club, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        publish_games(
            club,
            "Results only",
            dt.date(2026, 3, 3),
            PLAYERS[:2],
            [(1, "Anna Berg", "Ben Cole", "1-0", "")],
        )
    assert callbacks == [] and not DBTaskResult.objects.exists()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        publish_games(
            club,
            "With moves",
            dt.date(2026, 3, 10),
            PLAYERS[:2],
            [(1, "Anna Berg", "Ben Cole", "1-0", LEGAL)],
        )
    assert len(callbacks) == 1 and DBTaskResult.objects.count() == 1


# --- the cache and resuming ------------------------------------------------------------------


@pytest.mark.engine
def test_analysing_twice_searches_nothing_the_second_time_and_an_interrupted_run_resumes(
    club,
) -> None:
    publish_games(
        club,
        "Openings",
        dt.date(2026, 3, 3),
        PLAYERS,
        [(1, "Anna Berg", "Ben Cole", "1-0", LEGAL), (1, "Cara Dunn", "Dan Eng", "=", RUY)],
    )
    first = analyse(club)
    # The Ruy Lopez shares the start, 1.e4 and 1.e4 e5 with Legal's game: three cache hits.
    assert first.games == 2 and first.cached == 3
    assert first.searched == sum(
        GameAnalysis.objects.get(game=g).facts["searches"] for g in Game.objects.all()
    )
    stored = PositionSearch.objects.count()
    assert stored >= first.searched  # each search kept (plus the tiny brilliancy searches)

    again = analyse(club)
    assert (again.games, again.searched, again.cached) == (0, 0, 0)

    GameAnalysis.objects.filter(game__moves=RUY).delete()  # as if stopped before storing it
    resumed = analyse(club)
    assert resumed.games == 1 and resumed.searched == 0 and resumed.cached > 0
    assert PositionSearch.objects.count() == stored


@pytest.mark.engine
def test_a_games_searches_are_written_in_one_insert_with_it_not_one_a_search(club) -> None:
    """Two analysis workers on one SQLite file waited on each other's write lock when each
    search was its own INSERT; a game's searches now go with its facts (and every
    FLUSH_SECONDS of a long game), so the INSERTs are counted in games, not searches."""
    publish_games(
        club,
        "Openings",
        dt.date(2026, 3, 3),
        PLAYERS,
        [(1, "Anna Berg", "Ben Cole", "1-0", LEGAL), (1, "Cara Dunn", "Dan Eng", "=", RUY)],
    )
    with CaptureQueriesContext(connection) as queries:
        report = analyse(club)
    inserts = [q for q in queries if q["sql"].startswith("INSERT") and "positionsearch" in q["sql"]]
    assert report.games == 2 and report.searched > 10
    assert 1 <= len(inserts) <= report.games
    assert PositionSearch.objects.count() >= report.searched


@pytest.mark.engine
def test_reanalyse_takes_only_games_analysed_with_other_settings(club, evening) -> None:
    analyse(club)
    assert analyse_games(club, nodes=NODES + 1, jobs=1).games == 0  # not asked: kept as they are
    report = analyse_games(club, nodes=NODES + 1, jobs=1, reanalyse=True)
    assert report.games == 3 and set(GameAnalysis.objects.values_list("nodes", flat=True)) == {
        NODES + 1
    }


@pytest.mark.engine
def test_a_game_whose_moves_cannot_be_read_is_reported_and_the_others_analysed(
    club, evening
) -> None:
    Game.objects.filter(moves=FOOL).update(moves="1. f3 e5 2. Ke3 d5 0-1")  # 2.Ke3 is illegal
    report = analyse(club)
    assert report.games == 2 and len(report.unreadable) == 1 and "Ke3" in report.unreadable[0]
    assert GameAnalysis.objects.count() == 2 and CpiEntry.objects.count() == 4


# --- the ledger follows the history; the weights re-score it ---------------------------------


@pytest.mark.engine
def test_new_weights_rescore_the_ledger_without_any_engine_search(
    club, evening, monkeypatch, capsys
) -> None:
    analyse(club)
    before = {(e.member_id, e.game_id): e for e in CpiEntry.objects.all()}
    searches = PositionSearch.objects.count()
    forbid_the_engine(monkeypatch)

    report = set_cpi_weights(club, {"B1": 40.0}, who=ARBITER)

    assert isinstance(report, CpiReport) and report.entries_differing > 0
    for entry in CpiEntry.objects.all():
        old = before[entry.member_id, entry.game_id]
        b1 = entry.factors["factors"]["B1"]["value"] or 0.0
        assert entry.delta == pytest.approx(old.delta + (40 - 20) * b1, abs=1e-9)  # C1: B1 20 -> 40
    assert PositionSearch.objects.count() == searches
    audit = AuditEntry.objects.filter(action="cpi-weights").get()
    assert audit.old == {"B1": 20.0} and audit.new == {"B1": 40.0}

    code = main(["cpi-weights", "--set", "B1=default", "--set", "start=100", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["weights"]["B1"] == 20 and document["weights"]["start"] == 100
    anna = entries_of("Anna Berg")
    assert anna[0].cpi_before == 100
    assert anna[0].delta == pytest.approx(
        before[anna[0].member_id, anna[0].game_id].delta, abs=1e-9
    )


@pytest.mark.engine
def test_the_ledger_follows_a_corrected_result(club, evening) -> None:
    analyse(club)
    game = Game.objects.get(tournament=evening, round=1, white__name="Anna Berg")
    anna, ben = entries_of("Anna Berg")[0], entries_of("Ben Cole")[0]
    correct_result(game, "0-1", who=ARBITER)
    anna_after, ben_after = entries_of("Anna Berg")[0], entries_of("Ben Cole")[0]
    facts = GameFacts.from_dict(GameAnalysis.objects.get(game=game).facts)
    assert (
        facts.result == "1-0"
    )  # the stored facts keep the PGN's result; the ledger takes the club's
    rescored = score_game(dataclasses.replace(facts, result="0-1"))
    assert anna_after.delta == pytest.approx(rescored[Color.WHITE].delta_cpi, abs=1e-9)
    assert ben_after.delta == pytest.approx(rescored[Color.BLACK].delta_cpi, abs=1e-9)
    assert (
        anna_after.delta <= anna.delta - 10 and ben_after.delta >= ben.delta + 10
    )  # C1: R 10 <-> 0
    assert entries_of("Anna Berg")[1].cpi_before == pytest.approx(anna_after.cpi_after)


@pytest.mark.engine
def test_the_ledger_follows_a_merge_and_an_unmerge(club, evening) -> None:
    publish_games(
        club,
        "Next evening",
        dt.date(2026, 3, 10),
        ("A. Berg", "Ben Cole"),
        [(1, "Ben Cole", "A. Berg", "=", RUY)],
    )
    analyse(club)
    anna, alias = Member.objects.get(name="Anna Berg"), Member.objects.get(name="A. Berg")
    alone = entries_of("A. Berg")[0]
    assert alone.cpi_before == 0
    merge(alias, anna, who=ARBITER)
    ledger = member_ledger(anna)["ledger"]
    assert len(ledger) == 3 and not CpiEntry.objects.filter(member=alias).exists()
    assert ledger[2]["cpi_before"] == ledger[1]["cpi_after"] and ledger[2][
        "delta"
    ] == pytest.approx(alone.delta)
    assert member_ledger(alias)["member_id"] == anna.id  # a merged name shows the member's ledger
    unmerge(alias, who=ARBITER)
    assert entries_of("A. Berg")[0].cpi_before == 0 and len(entries_of("Anna Berg")) == 2


@pytest.mark.engine
def test_a_rebuild_of_an_unchanged_history_finds_no_difference(club, evening, monkeypatch) -> None:
    analyse(club)
    with monkeypatch.context() as patch:  # nothing changed: no game is scored again
        patch.setattr(cpi_module, "score_game", lambda *a: pytest.fail("a game was scored again"))
        assert rebuild_cpi(club) == CpiReport(
            games=3, entries=6, entries_differing=0, cpis_changed=0
        )
    pure = ledger(
        ledger_games(club), club_weights(club)
    )  # the pure core's ledger, all games scored
    stored = list(
        CpiEntry.objects.order_by("ordinal").values_list(
            "game_id", "member_id", "color", "cpi_before", "delta", "cpi_after"
        )
    )
    assert stored == [
        (e.game_id, e.player, e.color.value, e.cpi_before, e.delta, e.cpi_after) for e in pure
    ]
    CpiEntry.objects.filter(member__name="Dan Eng").update(
        delta=0.0
    )  # a missed rebuild, made visible
    assert rebuild_cpi(club).entries_differing == 2


@pytest.mark.engine
def test_a_game_too_short_to_score_is_remembered_and_not_scored_again(
    club, evening, monkeypatch
) -> None:
    analyse(club)
    set_cpi_weights(club, {"min_plies": 10}, who=ARBITER)  # FOOL (6 plies), RUY (8): too short
    assert CpiEntry.objects.filter(member__club=club).count() == 2  # LEGAL's two players alone
    with monkeypatch.context() as patch:  # nothing changed: not even the short games are scored
        patch.setattr(cpi_module, "score_game", lambda *a: pytest.fail("a game was scored again"))
        assert rebuild_cpi(club) == CpiReport(
            games=3, entries=2, entries_differing=0, cpis_changed=0
        )
    assert rebuild_cpi(club, from_scratch=True).entries_differing == 0
    scored: list[object] = []
    with monkeypatch.context() as patch:  # a corrected result is scored again, short or not
        patch.setattr(cpi_module, "score_game", lambda *a: scored.append(a) or score_game(*a))
        game = Game.objects.get(tournament=evening, white__name="Cara Dunn")
        correct_result(game, "1/2-1/2", who=ARBITER)
        assert len(scored) == 1
    set_cpi_weights(club, {"min_plies": 0}, who=ARBITER)  # the spec's: every game counts again
    assert CpiEntry.objects.filter(member__club=club).count() == 6
    assert rebuild_cpi(club, from_scratch=True).entries_differing == 0


@pytest.mark.engine
def test_the_incremental_ledger_equals_one_rebuilt_from_scratch_after_each_change(
    club, evening, monkeypatch
) -> None:
    """Every change re-scores only what it touched; a rebuild that scores every game again,
    whatever is stored, must find nothing to change after each."""
    analyse(club)
    second = publish_games(club, "Next evening", dt.date(2026, 3, 10), PLAYERS, EVENING)
    analyse(club)

    def same_as_from_scratch() -> None:
        assert rebuild_cpi(club, from_scratch=True).entries_differing == 0

    same_as_from_scratch()
    game = Game.objects.get(tournament=evening, white__name="Anna Berg")
    correct_result(game, "0-1", who=ARBITER)  # an early result: later rows follow
    same_as_from_scratch()
    set_cpi_weights(club, {"B1": 30}, who=ARBITER)
    same_as_from_scratch()
    unpublish(second, who=ARBITER)
    same_as_from_scratch()
    assert CpiEntry.objects.filter(game__tournament=second).count() == 0


@pytest.mark.engine
def test_a_change_replays_the_ledger_from_its_tournament_on_and_scores_only_what_it_changed(
    club, evening, monkeypatch
) -> None:
    """A correction to a forfeit in the newer evening (its game leaves the ledger: every later
    row moves) neither scores nor replays the older evening's games: each member's ledger goes
    on from its stored row before it, as a full rebuild would."""
    second = publish_games(club, "Next evening", dt.date(2026, 3, 10), PLAYERS, EVENING)
    analyse(club)
    replayed: list[set[int]] = []
    scored: list[object] = []
    replay = cpi_module.replay_ledger
    monkeypatch.setattr(
        cpi_module,
        "replay_ledger",
        lambda rows, *a: replayed.append({r.game_id for r in rows}) or replay(rows, *a),
    )
    monkeypatch.setattr(cpi_module, "score_game", lambda *a: scored.append(a) or score_game(*a))
    newer = set(Game.objects.filter(tournament=second).values_list("id", flat=True))
    game = Game.objects.get(tournament=second, white__name="Anna Berg")
    correct_result(game, "+-", who=ARBITER)
    assert (replayed, len(scored)) == ([newer - {game.id}], 0)
    since = (second.date, second.sequence, second.id)
    assert rebuild_cpi(club, since=since) == CpiReport(  # nothing changed since: nothing scored
        games=2, entries=4, entries_differing=0, cpis_changed=0
    )
    assert len(scored) == 0
    assert rebuild_cpi(club, from_scratch=True).entries_differing == 0
    assert len(scored) == 5  # from scratch: every game of both evenings scored again


# --- queries ---------------------------------------------------------------------------------


@pytest.mark.engine
def test_the_summary_costs_the_same_queries_for_two_games_or_eight(club) -> None:
    def evenings(first: int, count: int) -> None:
        for day in range(first, first + count):
            publish_games(
                club,
                f"Evening {day}",
                dt.date(2026, 1, 1) + dt.timedelta(days=7 * day),
                ("Anna Berg", "Ben Cole"),
                [(1, "Anna Berg", "Ben Cole", "=", RUY)],
            )
        analyse(club)  # after the first evening every position comes from the cache

    def queries() -> int:
        member = Member.objects.get(name="Anna Berg")
        with CaptureQueriesContext(connection) as context:
            summary = cpi_summary(member, last=3)
        assert summary["cpi"] == summary["chart"][-1][1] and len(summary["last_games"]) <= 3
        return len(context.captured_queries)

    evenings(0, 2)
    few = queries()
    evenings(2, 6)
    assert queries() == few
    summary = cpi_summary(Member.objects.get(name="Anna Berg"))
    assert summary["games"] == 8 and summary["averages"]["E"]["available"] == 8
    assert summary["averages"]["T"] == {"average": None, "available": 0, "games": 8}


def test_a_member_without_analysed_games_has_no_cpi_yet(club, evening) -> None:
    summary = cpi_summary(Member.objects.get(name="Anna Berg"))
    assert (summary["cpi"], summary["games"], summary["weakest"], summary["chart"]) == (
        None,
        0,
        None,
        [],
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("B1=25", ("B1", 25.0)),
        ("h=-30", ("H", -30.0)),
        ("start=100", ("start", 100.0)),
        ("E=default", ("E", None)),
    ],
)
def test_a_weight_is_read_as_name_equals_value(text, expected) -> None:
    assert parse_weight(text) == expected


@pytest.mark.parametrize("text", ["B1", "Q=1", "B1=much", "B1=nan", "E=inf"])
def test_a_bad_weight_is_an_input_error(text) -> None:
    with pytest.raises(InputError):
        parse_weight(text)


@pytest.mark.django_db(transaction=True)
def test_the_weights_command_reports_a_bad_name_in_one_line(club, capsys) -> None:
    code = main(["cpi-weights", "--set", "Q=1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Q=1" in err


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("value", ["-0.1", "1.5", "40"])
def test_a_k_outside_0_to_1_is_refused_in_one_line_and_nothing_is_stored(
    club, capsys, value: str
) -> None:
    before = dict(Club.objects.get(pk=club.pk).cpi_weights or {})
    code = main(["cpi-weights", "--set", f"k={value}"])
    err = capsys.readouterr().err
    assert (
        code == 2
        and err.count("\n") == 1
        and "k must be between 0 and 1" in err
        and "Traceback" not in err
    )
    assert dict(Club.objects.get(pk=club.pk).cpi_weights or {}) == before
