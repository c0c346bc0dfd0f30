"""The club's settings: changed through one service, the whole history replayed, audited;
a bad value is one line and changes nothing."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Club, CurrentRating, Member, RatingChange
from clubrating.club.services import club_settings
from clubrating.errors import InputError, Refused
from tests.club.conftest import ARBITER, make_record
from clubrating.club.services.history import check_history
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import import_tournament, publish

GAMES = [(1, "Anna Berg", "Ben Cole", "1-0"), (2, "Ben Cole", "Anna Berg", "=")]


def _published(club: Club) -> None:
    record = make_record("Tuesday", dt.date(2024, 1, 9), ["Anna Berg", "Ben Cole"], GAMES)
    tournament = import_tournament(club, record, who=ARBITER)
    all_new_members(tournament, who=ARBITER)
    publish(tournament, who=ARBITER)


def _rating(club: Club, name: str) -> float:
    return CurrentRating.objects.get(member=Member.objects.get(club=club, name=name)).rating


def test_a_new_start_rating_and_k_replay_the_whole_history_and_are_audited(club: Club) -> None:
    _published(club)
    assert _rating(club, "Anna Berg") == pytest.approx(1200 + 40 * 0.5)
    changes = club_settings.parse_settings({"start-rating": "1500", "k-new": "30"})
    outcome = club_settings.change_settings(club, changes, who=ARBITER)
    assert "start-rating 1200 -> 1500" in str(outcome.message) and outcome.rebuild is not None
    assert _rating(club, "Anna Berg") == pytest.approx(1500 + 30 * 0.5)
    assert RatingChange.objects.filter(member__name="Ben Cole").get().rating_before == 1500
    entry = AuditEntry.objects.filter(club=club, action="settings").get()
    assert entry.old == {"start-rating": 1200.0, "k-new": 40.0} and entry.new == {
        "start-rating": 1500.0,
        "k-new": 30.0,
    }
    assert check_history(club, who=ARBITER).changes_differing == 0


def test_the_provisional_threshold_and_k_new_games_are_settings(club: Club) -> None:
    _published(club)
    changes = club_settings.parse_settings({"provisional-games": "2", "k-new-games": "1"})
    club_settings.change_settings(club, changes, who=ARBITER)
    rating = CurrentRating.objects.get(member__name="Anna Berg")
    assert not rating.provisional and rating.games == 2
    change = RatingChange.objects.get(member__name="Anna Berg")
    assert change.k == 40  # K is fixed before the tournament, with 0 games
    assert check_history(club, who=ARBITER).changes_differing == 0


@pytest.mark.parametrize(
    "key, text, expected",
    [
        ("k-new", "abc", "k-new 'abc': expected a number from 1 to 100"),
        ("k-new", "0", "k-new '0': expected a number from 1 to 100"),
        ("start-rating", "nan", "expected a number from 100 to 3000"),
        ("start-rating", "-5", "expected a number from 100 to 3000"),
        (
            "start-rating",
            "1e-320",
            "expected a number from 100 to 3000",
        ),  # ratings below 0 after one loss
        ("k-new-games", "2.5", "expected a whole number from 0 to 1000"),
        ("provisional-games", "-1", "expected a whole number from 0 to 1000"),
        ("policy", "elo", "expected 'club' or 'fide'"),
        ("k_factor", "20", "unknown setting 'k_factor'"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(
    club: Club, key: str, text: str, expected: str
) -> None:
    with pytest.raises(InputError, match=expected.replace("(", r"\(")):
        club_settings.parse_settings({key: text})


def test_a_change_that_changes_nothing_is_refused_and_not_audited(club: Club) -> None:
    with pytest.raises(Refused, match="nothing changed"):
        club_settings.change_settings(
            club, club_settings.parse_settings({"k-new": "40"}), who=ARBITER
        )
    assert not AuditEntry.objects.filter(action="settings").exists()


def test_the_numbers_of_a_fide_club_are_fixed_until_it_uses_the_club_rules(club: Club) -> None:
    club_settings.change_settings(
        club, club_settings.parse_settings({"policy": "fide"}), who=ARBITER
    )
    with pytest.raises(Refused, match="FIDE"):
        club_settings.change_settings(
            club, club_settings.parse_settings({"k-new": "30"}), who=ARBITER
        )
    club_settings.change_settings(
        club, club_settings.parse_settings({"policy": "club", "k-new": "30"}), who=ARBITER
    )
    club.refresh_from_db()
    assert (club.policy, club.k_new) == ("club", 30.0)


@pytest.mark.django_db(transaction=True)
def test_settings_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "Riverside"]) == 0
    capsys.readouterr()
    assert main(["settings", "start-rating=1500", "k-established=15"]) == 0
    assert "start-rating 1200 -> 1500, k-established 20 -> 15" in capsys.readouterr().out
    assert main(["settings", "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings == {
        "policy": "club",
        "start-rating": 1500.0,
        "k-new": 40.0,
        "k-new-games": 20,
        "k-established": 15.0,
        "provisional-games": 5,
        "time-zone": "",
        "inactive-months": 12,
        "moves-link-days": 14,
        "list-day": 1,
        "language": "en",
        "slug": "riverside",
    }
    assert main(["settings", "k-new=99999"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "k-new '99999': expected a number from 1 to 100" in err
    for bad in ("0", "29", "fifteen"):  # the list day: a day every month has, 1 to 28
        assert main(["settings", f"list-day={bad}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "expected a whole number from 1 to 28" in err
    assert main(["settings", "k-new"]) == 2
    assert "expected KEY=VALUE" in capsys.readouterr().err
    assert main(["settings"]) == 0
    assert "start-rating=1500" in capsys.readouterr().out
