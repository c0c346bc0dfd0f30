"""``clubrating evening``: a round robin and a Swiss run from the command line, the arbiter's
changes to a round, and a user's mistake as one line (on the test database, SQLite or
PostgreSQL)."""

from __future__ import annotations

import json

import pytest

from clubrating.cli import main
from clubrating.formats import zones
from clubrating.club.store.models import AuditEntry, EveningBoard, Tournament, TournamentStatus

from .test_cli import run

NAMES = ["Ada Quinn", "Bea Roth", "Cy Stone", "Di Tull", "Ed Umber"]


def _boards(tournament: int) -> list[tuple[int, int]]:
    return [
        (b.white.number, b.black.number)
        for b in EveningBoard.objects.filter(tournament_id=tournament, round=1).select_related(
            "white", "black"
        )
    ]


@pytest.fixture
def started(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "Riverside Chess Club"]) == 0
    capsys.readouterr()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_round_robin_from_the_command_line(capsys, started) -> None:
    code, out, _ = run(
        capsys,
        "evening",
        "start",
        "Club",
        "championship",
        "--date",
        "2026-11-26",
        "--system",
        "round-robin",
    )
    assert code == 0 and out.startswith("started 'Club championship': tournament 1;")
    assert run(capsys, "evening", "register", "1", *NAMES)[0] == 0
    assert main(["link", "1", "--all-new"]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "evening", "pair", "1")
    assert (code, out) == (0, "round 1 paired: 2 boards, no game: Ada Quinn\n")
    assert _boards(1) == [(2, 5), (3, 4)]  # C.05 Annex 1, the table for 6 without its number 6
    code, out, _ = run(capsys, "evening", "colours", "1", "2")
    assert code == 0 and _boards(1) == [(2, 5), (4, 3)]
    assert AuditEntry.objects.filter(action="evening-colours").count() == 1
    assert run(capsys, "evening", "result", "1", "1", "1-0")[0] == 0
    code, out, err = run(capsys, "evening", "colours", "1", "2")
    assert (
        code != 0
        and out == ""
        and err.strip().endswith("round 1 has a result already (board 1): its pairings are fixed")
    )
    code, out, _ = run(capsys, "evening", "show", "1", "--json")
    lines = json.loads(out)["messages"]
    assert lines[0] == "Club championship: round robin, round 1 of 5 paired"
    assert "  no board: 1 Ada Quinn (no game)" in lines


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_swiss_exchange_and_a_new_pairing_from_the_command_line(capsys, started) -> None:
    run(capsys, "evening", "start", "Thursday", "--date", "2026-11-26", "--rounds", "3")
    run(capsys, "evening", "register", "1", *NAMES[:4])
    main(["link", "1", "--all-new"])
    run(capsys, "evening", "pair", "1")
    (w1, b1), (w2, b2) = _boards(1)
    code, out, _ = run(capsys, "evening", "exchange", "1", str(w1), str(w2))
    assert code == 0 and "changed places" in out and _boards(1) == [(w2, b1), (w1, b2)]
    code, out, _ = run(capsys, "evening", "repair", "1")
    assert code == 0 and out.startswith("round 1 paired again: 2 boards")
    for board, result in (("1", "1/2-1/2"), ("2", "0-1")):
        assert run(capsys, "evening", "result", "1", board, result)[0] == 0
    assert run(capsys, "evening", "publish", "1")[0] == 0
    assert Tournament.objects.get(pk=1).status == TournamentStatus.PUBLISHED


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_an_evening_started_without_a_date_is_today_in_the_clubs_time_zone(capsys, started) -> None:
    # Kiritimati is 14 hours ahead of UTC and Pago Pago 11 behind: whatever the hour the test
    # runs, at least one of the two is on another calendar day than UTC.
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):
        assert run(capsys, "settings", f"time-zone={zone}")[0] == 0
        before = zones.today(zone)
        assert run(capsys, "evening", "start", zone)[0] == 0
        started_on = Tournament.objects.get(name=zone).date
        assert started_on in (before, zones.today(zone))  # a midnight between the two reads
    dates = set(Tournament.objects.values_list("date", flat=True))
    assert len(dates) == 2


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["evening", "start", "Cup", "--date", "2026-11-26", "--system", "knockout"],
            "'knockout' is not a pairing system: expected "
            "swiss, round-robin, double-round-robin or keizer",
        ),
        (
            ["evening", "exchange", "1", "2"],
            "expected: clubrating evening exchange T NUMBER NUMBER [--confirm-rematch]",
        ),
        (["evening", "pair", "9"], "no tournament 9 in Riverside Chess Club"),
    ],
)
def test_a_mistake_is_one_line_and_changes_nothing(
    capsys, started, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code != 0 and out == "" and err.strip().splitlines()[-1].endswith(message)
    assert len(err.strip().splitlines()) == 1 and not Tournament.objects.exists()
