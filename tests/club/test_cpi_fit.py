"""A club under fitted CPI settings: the CPI steps toward what each game shows from the pool's
mean (comparable between members, CPI after = CPI before + ΔCPI), short games are not scored, "plays
like ± " appears once enough
moves exist, presets and calibrated files are chosen by the arbiter, and the fair-play signal."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.derived.ledger import club_preset, club_weights, member_ledger
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.derived.fairplay import fair_play
from clubrating.club.store.models import AuditEntry, Club, CpiEntry, Member
from clubrating.cpi.calibrate import estimate
from clubrating.cpi.facts import GameFacts
from clubrating.cpi.index import Weights, gain
from clubrating.errors import Refused
from tests.cpi.coach_games import OPEN_GAME, build, publish_analysed

from .conftest import ARBITER

RUY = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Nb8",
    "d4",
    "Nbd7",
    "c4",
    "c6",
    "Nc3",
    "Bb7",
]  # 24 plies
WINDOW = 3
# A small fitted-style setting: ΔCPI is 100·E (E = 1 − CPL/200) and the Elo map says ΔCPI =
# -100 + 0.1·Elo with σ 10 per game (1 game ≈ 100 Elo of noise), pool 1500 ± 400.
FITTED = {
    "E": 100,
    "T": 0,
    "O": 0,
    "B1": 0,
    "B2": 0,
    "B3": 0,
    "M1": 0,
    "M2": 0,
    "M3": 0,
    "H": 0,
    "Br": 0,
    "win": 0,
    "draw": 0,
    "loss": 0,
    "renormalise": 1,
    "min_plies": 20,
    "window": WINDOW,
    "elo_alpha": -100,
    "elo_beta": 0.1,
    "elo_sigma": 10,
    "elo_mean": 1500,
    "elo_sd": 400,
    "k": 0.1,
}


def uneven_game(index: int) -> GameFacts:
    """White loses 40·(index % 4) cp once; Black plays the engine's move throughout."""
    loss = 40 * (index % 4)
    return build(RUY, {7: {"best": [("Ba4", 0)], "after": -loss}} if loss else {})


def short_game(index: int) -> GameFacts:
    return build(OPEN_GAME)


@pytest.fixture
def fitted_club(club: Club) -> Club:
    set_cpi_weights(club, {k: float(v) for k, v in FITTED.items()}, who=ARBITER, preset="spec")
    return club


def test_the_cpi_steps_from_the_pools_mean_toward_what_each_game_shows(fitted_club: Club) -> None:
    publish_analysed(fitted_club, 8, facts=uneven_game)
    weights = club_weights(fitted_club)
    for member in Member.objects.all():
        entries = list(CpiEntry.objects.filter(member=member).order_by("ordinal"))
        assert len(entries) == 8
        assert entries[0].cpi_before == 1500  # the pool's mean before any game
        for played, entry in enumerate(entries):
            # what the game shows, by the Elo map of FITTED: (score + 100) / 0.1, its score 100·E
            shows = (entry.factors["score"] + 100) / 0.1
            assert entry.delta == pytest.approx(gain(weights, played) * (shows - entry.cpi_before))
            assert entry.cpi_after == entry.cpi_before + entry.delta
            assert played == 0 or entry.cpi_before == entries[played - 1].cpi_after
    anna, ben = (member_ledger(Member.objects.get(name=n)) for n in ("Anna Berg", "Ben Cole"))
    assert ben["cpi"] > anna["cpi"]  # Ben never lost a centipawn


def test_games_too_short_are_not_scored_under_fitted_settings_and_are_under_the_spec(
    club: Club,
) -> None:
    publish_analysed(club, 3, facts=short_game)
    set_cpi_weights(club, {}, who=ARBITER, preset="spec")
    assert CpiEntry.objects.count() == 6
    set_cpi_weights(club, {k: float(v) for k, v in FITTED.items()}, who=ARBITER, preset="spec")
    assert CpiEntry.objects.count() == 0


def test_plays_like_appears_once_enough_moves_exist(fitted_club: Club, monkeypatch) -> None:
    from clubrating.club.derived import ledger as cpi_module

    monkeypatch.setattr(cpi_module, "MIN_GAMES_FOR_STRENGTH", WINDOW)
    monkeypatch.setattr(cpi_module, "MIN_MOVES_FOR_STRENGTH", 12 * WINDOW)
    publish_analysed(fitted_club, 2, facts=uneven_game)
    anna = Member.objects.get(name="Anna Berg")
    assert member_ledger(anna)["strength"] is None  # 2 games of 12 moves: not enough
    publish_analysed(fitted_club, 10, facts=uneven_game)
    strength = member_ledger(anna)["strength"]
    assert strength is not None and strength["games"] == WINDOW and strength["moves"] == 12 * WINDOW
    mean, sd = estimate(
        [e.factors["score"] for e in CpiEntry.objects.filter(member=anna).order_by("ordinal")][
            -WINDOW:
        ],
        club_weights(fitted_club).model.elo_map,
    )  # type: ignore[arg-type]
    assert (strength["elo"], strength["sd"]) == (round(mean), round(sd))


def test_the_arbiter_switches_presets_and_loads_a_calibrated_file(
    club: Club, tmp_path: Path, capsys
) -> None:
    publish_analysed(club, 2, facts=uneven_game)
    assert main(["cpi-weights", "--preset", "spec", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["preset"] == "spec" and doc["weights"]["E"] == Weights().weight("E")
    settings = tmp_path / "fit.json"
    settings.write_text(json.dumps({"pool": "test", "settings": FITTED}), encoding="utf-8")
    assert main(["cpi-weights", "--load", str(settings), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["weights"]["E"] == 100 and doc["weights"]["window"] == WINDOW
    club.refresh_from_db()
    assert club_weights(club).model.elo_map is not None and club_preset(club) == "spec"
    audit = AuditEntry.objects.filter(action="cpi-weights").order_by("id").last()
    assert audit is not None and audit.new["E"] == 100 and audit.old["E"] == Weights().weight("E")


@pytest.mark.parametrize(
    "content, expected",
    [
        ("not json", "not JSON"),
        ('{"weights": {}}', 'a "settings" object'),
        ('{"settings": {"E": "high"}}', "settings.E"),
        ('{"settings": {"Q": 1}}', "settings.Q"),
    ],
)
def test_a_bad_settings_file_is_one_line_naming_the_file(
    club: Club, tmp_path: Path, capsys, content: str, expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["cpi-weights", "--load", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        len(err.splitlines()) == 1
        and str(path) in err
        and expected in err
        and "Traceback" not in err
    )


def test_fair_play_puts_the_member_playing_far_above_the_rating_first(
    fitted_club: Club, capsys
) -> None:
    publish_analysed(fitted_club, 10, facts=uneven_game)
    doc = fair_play(fitted_club)
    names = [row["name"] for row in doc["members"]]
    assert names == ["Ben Cole", "Anna Berg"]
    ben, anna = doc["members"]
    assert ben["z"] > anna["z"] and ben["engine_agreement"] == 1.0
    expected = FITTED["elo_alpha"] + FITTED["elo_beta"] * ben["rating"]
    assert ben["expected_delta"] == pytest.approx(expected, abs=0.01)
    assert main(["fairplay"]) == 0
    out = capsys.readouterr().out
    assert "look closer" in out and "Ben Cole" in out


def test_fair_play_needs_an_elo_map(club: Club) -> None:
    set_cpi_weights(club, {}, who=ARBITER, preset="spec")
    with pytest.raises(Refused, match="no Elo map"):
        fair_play(club)


def test_a_new_club_starts_from_the_fitted_fide_preset(db: None) -> None:
    from clubrating.club.services.clubs import create_club

    club = create_club("New Chess Club", who=ARBITER)
    assert club_preset(club) == "fide-classical"
    weights = club_weights(club)
    assert (
        weights.model.elo_map is not None
        and weights.model.window == 10
        and weights.model.min_plies == 20
    )


def test_the_dashboard_says_plays_like_with_the_interval(fitted_club: Club, monkeypatch) -> None:
    from django.test import Client

    from clubrating.club.derived import ledger as cpi_module
    from clubrating.club.services.clubs import set_privacy

    monkeypatch.setattr(cpi_module, "MIN_GAMES_FOR_STRENGTH", WINDOW)
    monkeypatch.setattr(cpi_module, "MIN_MOVES_FOR_STRENGTH", 12 * WINDOW)
    set_privacy(fitted_club, who=ARBITER, visibility="public")
    publish_analysed(fitted_club, 6, facts=uneven_game)
    ben = Member.objects.get(name="Ben Cole")
    strength = member_ledger(ben)["strength"]
    html = Client().get(f"/c/{fitted_club.slug}/p/{ben.id}/cpi/").content.decode()
    assert f"Plays like <strong>{strength['elo']} ± {strength['sd']}</strong>" in html
    assert f"over the last {WINDOW} analysed games" in html


@pytest.mark.django_db(transaction=True)
def test_migration_0007_keeps_a_customised_clubs_weights_on_the_spec_base() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("club", "0006_one_entry_per_member")])
    old = executor.loader.project_state([("club", "0006_one_entry_per_member")]).apps.get_model(
        "club", "Club"
    )
    old.objects.create(name="Customised", slug="customised", cpi_weights={"B1": 25.0})
    old.objects.create(name="Plain", slug="plain", cpi_weights={})
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    customised, plain = Club.objects.get(slug="customised"), Club.objects.get(slug="plain")
    assert (
        customised.cpi_weights == {"preset": "spec", "B1": 25.0}
        and club_preset(customised) == "spec"
    )
    assert club_weights(customised).weight("B1") == 25.0 and club_weights(customised).weight(
        "E"
    ) == Weights().weight("E")
    assert plain.cpi_weights == {} and club_preset(plain) == "fide-classical"


def test_a_preset_name_this_version_does_not_know_is_the_default_when_weights_change(
    club: Club,
) -> None:
    """An older or newer clubrating may have stored a preset this one lacks: the club's
    weights read it as the default preset, and changing a weight must do the same."""
    Club.objects.filter(pk=club.pk).update(cpi_weights={"preset": "gone-since", "B1": 25.0})
    club.refresh_from_db()
    assert club_preset(club) == "fide-classical"
    set_cpi_weights(club, {"B2": 7.0}, who=ARBITER)
    club.refresh_from_db()
    weights = club_weights(club)
    assert (weights.weight("B1"), weights.weight("B2"), club_preset(club)) == (
        25.0,
        7.0,
        "fide-classical",
    )


def test_fair_play_over_fewer_games_than_it_needs_is_refused_in_one_line(
    fitted_club: Club, capsys
) -> None:
    """--games 3 can never reach the 5 games a z needs: say so, rather than an empty table."""
    publish_analysed(fitted_club, 10, facts=uneven_game)
    assert main(["fairplay", "--games", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "at least 5" in err


def test_the_ledger_of_a_member_whose_games_are_too_short_says_so(club: Club, capsys) -> None:
    publish_analysed(club, 2, facts=short_game)
    set_cpi_weights(club, {k: float(v) for k, v in FITTED.items()}, who=ARBITER, preset="spec")
    assert main(["cpi", "Anna Berg"]) == 0
    out = capsys.readouterr().out
    assert "no CPI yet: no analysed game scored" in out and "after 0" not in out


def test_games_too_short_to_score_do_not_leave_the_ledger_behind(fitted_club: Club) -> None:
    """A stored analysis of a game shorter than ``min_plies`` has no ledger row by design: it
    must not count as a run stopped before its ledger, or every ``analyse`` replays the ledger."""
    from clubrating.club.jobs.analysis import ledger_behind

    publish_analysed(fitted_club, 2, facts=short_game)
    publish_analysed(fitted_club, 2, facts=uneven_game)
    assert CpiEntry.objects.count() == 4  # the two long games, both sides
    assert not ledger_behind(fitted_club)
    CpiEntry.objects.filter(game_id=CpiEntry.objects.values_list("game_id", flat=True)[0]).delete()
    assert ledger_behind(fitted_club)  # a scorable game without its rows still is


def test_with_decay_the_interval_widens_while_a_member_does_not_play(
    fitted_club: Club, monkeypatch, capsys
) -> None:
    import datetime as dt

    from django.test import Client

    from clubrating.club.derived import ledger as cpi_module
    from clubrating.club.services.clubs import set_privacy
    from clubrating.club.derived.ledger import playing_strength

    monkeypatch.setattr(cpi_module, "MIN_GAMES_FOR_STRENGTH", WINDOW)
    monkeypatch.setattr(cpi_module, "MIN_MOVES_FOR_STRENGTH", 12 * WINDOW)
    assert main(["cpi-weights", "--set", "decay=200"]) == 0, capsys.readouterr()
    set_privacy(fitted_club, who=ARBITER, visibility="public")
    publish_analysed(fitted_club, 6, facts=uneven_game)
    ben = Member.objects.get(name="Ben Cole")
    rows = member_ledger(ben)["ledger"]
    weights, last = club_weights(fitted_club), rows[-1]["date"]
    assert weights.model.decay == 200
    at_once, a_year, five_years = (
        playing_strength(rows, weights, "spec", last + dt.timedelta(days=d))
        for d in (0, 365, 5 * 365)
    )
    assert at_once and a_year and five_years
    assert at_once["elo"] == a_year["elo"] and at_once["sd"] < a_year["sd"] < five_years["sd"]
    assert not a_year["stale"] and five_years["stale"]  # wider than the pool's 400
    no_decay = dataclasses.replace(weights, model=dataclasses.replace(weights.model, decay=0))
    undecayed = playing_strength(rows, no_decay, "spec", last + dt.timedelta(days=5 * 365))
    assert (
        undecayed and undecayed["sd"] <= at_once["sd"] and not undecayed["stale"]
    )  # the spec: no decay
    monkeypatch.setattr(cpi_module.timezone, "localdate", lambda: last + dt.timedelta(days=5 * 365))
    html = Client().get(f"/c/{fitted_club.slug}/p/{ben.id}/cpi/").content.decode()
    assert (
        "No recent games: the last analysed game was on" in html
        and "Plays like <strong>" not in html
    )


@pytest.mark.parametrize("start", ["migrate", "up to date"])
def test_an_upgrade_rescores_a_ledger_scored_by_older_rules(fitted_club: Club, start: str) -> None:
    """After an upgrade whose presets or factor definitions changed (the club marked with the
    older rules: tests/club/test_cpi_upgrade.py), the stored ΔCPIs and CPIs
    are re-scored by the migrate every command starts with, not left as the old rules made them:
    when the upgrade brings migrations (Django's ``migrate``) and when it brings none (the start
    of a command finds the schema up to date and applies nothing)."""
    from django.core.management import call_command

    from clubrating.club.derived.ledger import ledger_is_current
    from clubrating.djangoenv import migrate_once

    publish_analysed(fitted_club, 4, facts=uneven_game)
    right = {e.id: (e.delta, e.cpi_after) for e in CpiEntry.objects.all()}
    assert right and ledger_is_current(fitted_club)
    for entry in CpiEntry.objects.all():  # as an older version would have left them
        entry.factors = {**entry.factors, "scored_with": "older-rules"}
        entry.delta, entry.cpi_after = entry.delta + 7, entry.cpi_after + 70
        entry.save()
    Club.objects.filter(pk=fitted_club.pk).update(cpi_scored_with="older-rules")
    assert not ledger_is_current(fitted_club)
    if start == "migrate":
        call_command("migrate", verbosity=0, interactive=False)
    else:
        migrate_once()
    assert ledger_is_current(fitted_club)
    rescored = sorted(x for e in CpiEntry.objects.all() for x in (e.delta, e.cpi_after))
    assert rescored == pytest.approx(sorted(x for pair in right.values() for x in pair))


def test_the_ledger_in_words_has_a_factor_table_and_no_raw_fractions(
    fitted_club: Club, capsys
) -> None:
    publish_analysed(fitted_club, 2, facts=uneven_game)
    assert main(["cpi", "Anna Berg"]) == 0
    out = capsys.readouterr().out
    assert "the factors over these" in out and "more is better" in out and "fewer is better" in out
    assert "E=" not in out and "(R " not in out


def test_the_ledger_in_words_names_the_nodes_the_preset_was_fitted_at_and_the_games_analysis(
    club: Club, capsys
) -> None:
    from tests.web.test_cpi_page_reads import long_game  # 20 moves a side: enough for a figure

    set_cpi_weights(club, {}, who=ARBITER, preset="fide-classical")
    publish_analysed(club, 8, facts=long_game)  # the fixture's engine ran 1,000 nodes
    assert main(["cpi", "Anna Berg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    like = next(i for i, line in enumerate(lines) if "plays like" in line)
    assert lines[like + 1] == (
        "  the preset was fitted at 150,000 nodes a position; these games were analysed at "
        "1,000 (a shallower analysis sees more mistakes: the figure may read lower)"
    )
    set_cpi_weights(club, {k: float(v) for k, v in FITTED.items()}, who=ARBITER, preset="spec")
    assert main(["cpi", "Anna Berg"]) == 0  # the spec's base: no engine fitted it
    assert "nodes a position" not in capsys.readouterr().out
