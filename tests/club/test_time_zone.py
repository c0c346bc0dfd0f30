"""A club's time zone: today's date, the audit log and the pages read in it; stored times stay
UTC."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubrating.cli import main
from clubrating.club.read import audit_log
from clubrating.formats import zones
from clubrating.club.store.models import AuditEntry, Club
from clubrating.club.services.outcome import Outcome
from clubrating.club.services import club_settings
from clubrating.errors import InputError
from clubrating.club.services.clubs import create_club

WHO = "test:arbiter"
UTC = dt.timezone.utc


@pytest.mark.parametrize(
    ("setting", "moment", "day"),
    [
        ("Asia/Yerevan", dt.datetime(2026, 12, 1, 20, 30, tzinfo=UTC), dt.date(2026, 12, 2)),  # +04
        (
            "America/New_York",
            dt.datetime(2026, 12, 2, 3, 0, tzinfo=UTC),
            dt.date(2026, 12, 1),
        ),  # -05
        ("UTC", dt.datetime(2026, 12, 1, 23, 59, tzinfo=UTC), dt.date(2026, 12, 1)),
    ],
)
def test_today_is_the_calendar_day_in_the_clubs_zone(
    setting: str, moment: dt.datetime, day: dt.date
) -> None:
    assert zones.today(setting, moment) == day


def test_a_stored_moment_is_shown_with_the_zones_offset() -> None:
    moment = dt.datetime(2026, 12, 1, 20, 30, 5, tzinfo=UTC)
    assert zones.local_text(moment, "Asia/Yerevan") == "2026-12-02 00:30:05 +04"
    assert zones.local_text(moment, "Asia/Kolkata") == "2026-12-02 02:00:05 +05:30"


@pytest.mark.parametrize(
    "name",
    ["Mars/Olympus", "Asia/Yerevan/", "../etc/passwd", "utc+4", "America", "Etc", "localtime"],
)  # directories of tzdata, and a link that moves
def test_an_unknown_zone_is_one_line(name: str) -> None:
    with pytest.raises(
        InputError, match=re.escape(f"unknown time zone '{name}': expected an IANA name")
    ):
        zones.parse_zone(name)


def test_a_name_of_300_characters_is_one_line_not_an_oserror() -> None:
    with pytest.raises(InputError, match="unknown time zone 'ZZZ"):
        zones.parse_zone("Z" * 300)


def test_a_stored_zone_the_database_does_not_have_is_read_as_the_servers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A club stored with "America" (an archive imported before the import checked it) shows
    its pages in the server's zone rather than failing on every one."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert zones.zone_name("America") == "Asia/Tokyo"
    assert zones.today("America", dt.datetime(2026, 12, 1, 20, 30, tzinfo=UTC)) == dt.date(
        2026, 12, 2
    )


def test_an_empty_setting_is_the_servers_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert zones.zone_name("") == "Asia/Tokyo" and zones.zone_name("Europe/Paris") == "Europe/Paris"
    monkeypatch.setenv("TZ", "no such zone")
    assert zones.zone_name("") == zones.server_zone_name() != "no such zone"


@pytest.mark.django_db
def test_setting_the_zone_is_audited_and_shows_the_audit_log_in_it() -> None:
    club = create_club("Riverside", who=WHO, slug="riverside")
    assert club.time_zone == ""
    outcome = set_zone(club, "Asia/Yerevan")
    assert str(outcome) == "Riverside: time-zone  -> Asia/Yerevan" and outcome.rebuild is None
    club.refresh_from_db()
    assert club.time_zone == "Asia/Yerevan"
    entry = AuditEntry.objects.filter(club=club, action="settings").get()
    assert entry.old == {"time-zone": ""} and entry.new == {"time-zone": "Asia/Yerevan"}
    AuditEntry.objects.filter(pk=entry.pk).update(
        when=dt.datetime(2026, 12, 1, 20, 30, 5, tzinfo=UTC)
    )
    row = next(r for r in audit_log.audit_log(club) if r["action"] == "settings")
    assert row["when"] == "2026-12-02T00:30:05+04:00" and row["local"] == "2026-12-02 00:30:05 +04"


@pytest.mark.django_db
def test_an_unknown_zone_stores_nothing() -> None:
    club = create_club("Riverside", who=WHO, slug="riverside")
    with pytest.raises(InputError, match="time-zone 'Mars/Olympus': expected an IANA time zone"):
        set_zone(club, "Mars/Olympus")
    with pytest.raises(InputError):
        create_club("Other", who=WHO, time_zone="Mars/Olympus")
    assert Club.objects.count() == 1 and not AuditEntry.objects.filter(action="settings").exists()


def set_zone(club: Club, name: str) -> Outcome:
    return club_settings.change_settings(
        club, club_settings.parse_settings({"time-zone": name}), who=WHO
    )


@pytest.mark.django_db(transaction=True)
def test_settings_sets_the_zone_and_refuses_an_unknown_one_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["init", "Riverside"]) == 0
    assert main(["settings", "time-zone=Mars/Olympus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "time-zone 'Mars/Olympus': expected an IANA time zone" in err
    assert main(["settings", "time-zone=Asia/Yerevan"]) == 0
    assert Club.objects.get().time_zone == "Asia/Yerevan"
    assert main(["settings"]) == 0 and "time-zone=Asia/Yerevan" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_init_takes_a_zone_and_refuses_an_unknown_one_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["init", "Riverside", "--time-zone", "Mars/Olympus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown time zone 'Mars/Olympus'" in err
    assert main(["init", "Riverside", "--time-zone", "Asia/Yerevan"]) == 0
    assert Club.objects.get().time_zone == "Asia/Yerevan"


def _arbiter(club: Club) -> Client:
    user = User.objects.create_user(username="anna", password="long enough secret")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    return client


# +14 and -12: at any moment one of the two is on another calendar day than UTC
@pytest.mark.parametrize("setting", ["Pacific/Kiritimati", "Etc/GMT+12"])
@pytest.mark.django_db
def test_the_evening_and_import_pages_default_to_today_in_the_clubs_zone(setting: str) -> None:
    club = create_club("Riverside", who=WHO, slug="riverside", time_zone=setting)
    client = _arbiter(club)
    today = zones.today(setting).isoformat()
    assert f'value="{today}"' in client.get("/c/riverside/arbiter/evening/").content.decode()
    assert today in client.get("/c/riverside/arbiter/upload/").content.decode()


@pytest.mark.parametrize("setting", ["Pacific/Kiritimati", "Etc/GMT+12"])
@pytest.mark.django_db
def test_an_evening_dated_today_in_the_clubs_zone_is_not_in_the_future(setting: str) -> None:
    club = create_club("Riverside", who=WHO, slug="riverside", time_zone=setting)
    from clubrating.club.services import evening

    tournament = evening.start_evening(club, "Tonight", zones.today(setting), 5, who=WHO)
    assert tournament.date == zones.today(setting)
    tomorrow = zones.today(setting) + dt.timedelta(days=1)
    with pytest.raises(InputError, match="in the future"):
        evening.start_evening(club, "Tomorrow", tomorrow, 5, who=WHO)


@pytest.mark.django_db
def test_the_audit_page_shows_times_in_the_clubs_zone() -> None:
    club = create_club("Riverside", who=WHO, slug="riverside", time_zone="Asia/Yerevan")
    AuditEntry.objects.filter(club=club).update(
        when=dt.datetime(2026, 12, 1, 20, 30, 5, tzinfo=UTC)
    )
    html = _arbiter(club).get("/c/riverside/arbiter/audit/").content.decode()
    assert (
        "When (Asia/Yerevan)" in html and "2026-12-02 00:30:05 +04" in html and "(UTC)" not in html
    )
