"""What was stored in English when an operation was done reads in the reader's language.

An audit entry's summary and a rebuild's reason are kept as their English line and as the
sentence to translate (its template and values); the audit log, the command and the arbiter's
pages translate the sentence, and fall back to the English line for a row written before, or
for a template the catalogue no longer has, or values that do not fit it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from clubrating.cli import main
from clubrating.club.store import audit
from clubrating.club.read import audit_log
from clubrating.club.store.audit_text import read_stored, stored
from clubrating.club.derived.ledger import CpiReport
from clubrating.club.store.models import AuditEntry, Club, RebuildLog, Tournament
from clubrating.club.derived.ratings import RebuildReport
from clubrating.errors import Text
from clubrating.formats.typed import parse_typed
from clubrating.words import Nn_
from clubrating.club.services.clubs import create_club
from clubrating.club.services.history import check_history
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import import_tournament, publish

WHO = "test:arbiter"
EVENING = """
1, Anna Smith, Bob Jones, 0-1
1, Carl Berg, Dana White, 1/2-1/2
"""


def _published() -> tuple[Club, Tournament]:
    club = create_club("Riverside", who=WHO, slug="riverside", time_zone="UTC")
    tournament = import_tournament(
        club,
        parse_typed(EVENING, name="Week 1", date=dt.date(2026, 3, 3)),
        who=WHO,
        today=dt.date(2030, 1, 1),
    )
    all_new_members(tournament, who=WHO)
    publish(tournament, who=WHO)
    return club, tournament


@pytest.mark.parametrize(
    ("report", "english"),
    [
        (RebuildReport(1, 0, 2, True), "rebuilt 1 tournament, 2 ratings changed"),
        (RebuildReport(0, 0, 0, True), "rebuilt 0 tournaments, 0 ratings changed"),
        (RebuildReport(3, 1, 1, False), "rebuilt 3 tournaments, 1 rating changed"),
        (CpiReport(1, 2, 0, 1), "CPI ledger: 1 analysed game, 1 CPI changed"),
        (CpiReport(12, 30, 4, 5), "CPI ledger: 12 analysed games, 5 CPIs changed"),
    ],
)
def test_a_reports_english_line_is_its_texts_and_reads_in_russian(
    report: RebuildReport | CpiReport, english: str
) -> None:
    assert str(report) == english == str(report.text)
    with translation.override("ru"):
        russian = read_stored(stored(report.text), english)
    assert russian != english and "rebuilt" not in russian and "analysed" not in russian, russian


def test_a_stored_text_keeps_nested_and_counted_texts() -> None:
    text = Text(
        "analysed %(games)s; %(ledger)s",
        games=Text(Nn_("%(count)s game", "%(count)s games"), count=2),
        ledger=CpiReport(2, 4, 0, 1).text,
    )
    data = stored(text)
    assert data is not None and data["params"]["games"] == {
        "template": ["%(count)s game", "%(count)s games"],
        "params": {"count": 2},
    }
    assert stored("a plain line") is None
    with translation.override("ru"):
        assert (
            read_stored(data, str(text))
            == "проанализировано: 2 партии; журнал CPI: 2 проанализированные партии, "
            "изменён 1 CPI"
        )


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (None, "an old row: only the English line"),
        (
            {"template": "a sentence the catalogue no longer has: %(n)s", "params": {"n": 1}},
            "an unknown template",
        ),
        ({"template": "manual rebuild by %(who)s", "params": {}}, "a missing value"),
        (
            {
                "template": "rebuilt %(tournaments)s, %(ratings)s changed",
                "params": {
                    "tournaments": {
                        "template": ["%(count)s tournament", "%(count)s tournaments"],
                        "params": {},
                    },
                    "ratings": 2,
                },
            },
            "a counted text without its count",
        ),
        ({"template": "correct game %(id)s", "params": []}, "values that are no mapping"),
        ({"template": 7, "params": {}}, "a template that is no text"),
        ("manual rebuild by %(who)s", "no stored Text at all"),
    ],
)
def test_what_cannot_be_read_again_shows_the_english_line_stored(data: object, why: str) -> None:
    with translation.override("ru"):
        assert read_stored(data, "the English line") == "the English line", why


@pytest.mark.django_db
def test_an_english_entry_reads_in_russian_on_the_audit_page_and_an_old_one_as_stored() -> None:
    club, _ = _published()
    check_history(club, who=WHO)
    entry = AuditEntry.objects.filter(club=club, action="rebuild").get()
    assert (
        entry.summary == "rebuilt 1 tournament, 0 ratings changed"
        and entry.summary_text is not None
    )
    old = audit.record(
        club, WHO, "rebuild", club.slug, new={"matched": True}, summary="rebuilt 1 tournament (old)"
    )
    assert old.summary_text is None
    user = User.objects.create_user(username="anna", password="long enough secret")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    html = client.get(
        "/c/riverside/arbiter/audit/", headers={"accept-language": "ru"}
    ).content.decode()
    assert "пересчитано: 1 турнир, изменено: 0 рейтингов" in html
    assert "rebuilt 1 tournament (old)" in html
    assert "rebuilt 1 tournament, 0 ratings changed" not in html
    with translation.override("ru"):
        rows = audit_log.audit_log(club)
    assert [r["summary"] for r in rows[:2]] == [
        "rebuilt 1 tournament (old)",
        "rebuilt 1 tournament, 0 ratings changed",
    ]
    assert [r["summary_translated"] for r in rows[:2]] == [
        "rebuilt 1 tournament (old)",
        "пересчитано: 1 турнир, изменено: 0 рейтингов",
    ]


@pytest.mark.django_db
def test_the_last_rebuilds_reason_reads_in_the_language_and_an_old_one_as_stored() -> None:
    club, tournament = _published()
    user = User.objects.create_user(username="anna", password="long enough secret")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    log = RebuildLog.objects.filter(club=club).latest("id")
    assert log.reason == f"publish tournament {tournament.id}"
    html = client.get("/c/riverside/arbiter/", headers={"accept-language": "ru"}).content.decode()
    assert f"(публикация турнира {tournament.id})" in html and "publish tournament" not in html
    RebuildLog.objects.filter(id=log.id).update(reason_text=None, reason="an old reason")
    html = client.get("/c/riverside/arbiter/", headers={"accept-language": "ru"}).content.decode()
    assert "(an old reason)" in html


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_audit_command_prints_the_summary_in_the_languages_of_lang(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    club, _ = _published()
    check_history(club, who=WHO)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    with translation.override(
        "ru"
    ):  # what djangoenv.setup activates from LANG in the command's own process
        assert main(["audit", "--limit", "1"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert (
        line.endswith("; пересчитано: 1 турнир, изменено: 0 рейтингов") and "rebuilt" not in line
    ), line
    assert main(["audit", "--limit", "1", "--json"]) == 0
    assert '"summary": "rebuilt 1 tournament, 0 ratings changed"' in capsys.readouterr().out
