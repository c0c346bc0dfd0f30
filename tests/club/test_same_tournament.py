"""The same tournament twice is refused, whatever its format or spelling; --force imports it
anyway."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Entry, Member, Tournament
from clubrating.files import read_tournament_file
from clubrating.formats.pgn import write_pgn

from .conftest import ARBITER, make_record
from clubrating.club.services.names import link
from clubrating.club.services.tournaments import SameTournament, import_tournament

TRF = (
    Path(__file__).resolve().parents[1] / "formats" / "data" / "all_codes.trf"
)  # the project's own file
D1 = dt.date(2024, 5, 12)
LATER = dt.date(2030, 1, 1)
PLAYERS = ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"]
GAMES = [
    (1, "Anna Berg", "Ben Cole", "1-0"),
    (1, "Cara Dunn", "Dan Eng", "="),
    (2, "Dan Eng", "Anna Berg", "0-1"),
    (2, "Ben Cole", "Cara Dunn", "0-1"),
]


def _spelled(
    names: dict[str, str],
    date: dt.date = D1,
    games: list[tuple[int, str, str, str]] = GAMES,
    order: list[str] = PLAYERS,
) -> object:
    """The same games written by another program: other names, another order of players."""
    return make_record(
        "Tuesday Blitz (export)",
        date,
        [names.get(p, p) for p in reversed(order)],
        [(r, names.get(w, w), names.get(b, b), res) for r, w, b, res in games],
    )


def test_the_same_games_spelled_otherwise_a_day_later_are_refused_and_nothing_is_stored(club):
    first = import_tournament(
        club, make_record("Tuesday Blitz", D1, PLAYERS, GAMES), who=ARBITER, today=LATER
    )
    stored, audits = Tournament.objects.count(), AuditEntry.objects.count()
    again = _spelled(
        {"Anna Berg": "BERG, Anna", "Cara Dunn": "Dunn, Cara"}, D1 + dt.timedelta(days=1)
    )
    with pytest.raises(SameTournament) as refused:
        import_tournament(club, again, who=ARBITER, today=LATER)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"this looks like tournament {first.id} 'Tuesday Blitz' of 2024-05-12, "
        "already stored: same players and results"
    )
    assert (Tournament.objects.count(), AuditEntry.objects.count()) == (stored, audits)


@pytest.mark.parametrize(
    "other",
    [
        _spelled({}, D1 + dt.timedelta(days=2)),  # another week
        _spelled({}, games=[*GAMES[:3], (2, "Ben Cole", "Cara Dunn", "1-0")]),  # another result
        _spelled({"Dan Eng": "Dan Engel"}),  # another player
        _spelled({}, games=GAMES[:3]),  # a game fewer
    ],
    ids=["two-days-later", "other-result", "other-player", "game-fewer"],
)
def test_another_date_result_or_player_is_another_tournament(club, other):
    import_tournament(
        club, make_record("Tuesday Blitz", D1, PLAYERS, GAMES), who=ARBITER, today=LATER
    )
    imported = import_tournament(
        club,
        other,  # type: ignore[arg-type]
        who=ARBITER,
        today=LATER,
    )
    assert imported.id


def test_a_linked_member_is_recognised_under_an_alias_and_force_imports_it_audited(club, publish):
    first = publish("Tuesday Blitz", D1, PLAYERS, GAMES)
    other = import_tournament(
        club,
        make_record(
            "Later", dt.date(2024, 6, 1), ["A. Berg", "Zoe New"], [(1, "A. Berg", "Zoe New", "1-0")]
        ),
        who=ARBITER,
        today=LATER,
    )
    link(
        Entry.objects.get(tournament=other, name="A. Berg"),
        Member.objects.get(name="Anna Berg"),
        who=ARBITER,
    )
    again = _spelled({"Anna Berg": "A. Berg"})
    with pytest.raises(SameTournament, match=f"tournament {first.id} 'Tuesday Blitz'"):
        import_tournament(club, again, who=ARBITER, today=LATER)  # type: ignore[arg-type]
    forced = import_tournament(
        club,
        again,  # type: ignore[arg-type]
        who=ARBITER,
        today=LATER,
        force=True,
    )
    entry = AuditEntry.objects.filter(action="import").order_by("-id").first()
    assert entry is not None and entry.target == f"tournament {forced.id}"
    assert entry.new["forced"] == f"looks like tournament {first.id}"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_trf_exported_twice_and_the_pgn_of_its_games_are_refused_from_the_terminal(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    data = TRF.read_bytes()
    (tmp_path / "night.trf").write_bytes(data)
    (tmp_path / "night-again.trf").write_bytes(
        data.replace(b"\n", b"   \n")
    )  # trailing spaces: another hash
    pgn = io.StringIO()
    write_pgn(read_tournament_file(str(TRF)), pgn, results_only=True)
    (tmp_path / "night.pgn").write_text(pgn.getvalue(), encoding="utf-8")
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    assert run(capsys, "import", "night.trf")[0] == 0
    for name in ("night-again.trf", "night.pgn"):
        code, out, err = run(capsys, "import", name)
        assert (code, out) == (2, ""), err
        assert err == (
            "clubrating import: error: this looks like tournament 1 'Club Championship, Spring' of "
            "2024-03-05, already stored: same players and results; --force imports it anyway\n"
        )
    code, out, err = run(capsys, "import", "night.pgn", "--force")
    assert code == 0 and "imported tournament 2" in out, err
    assert Tournament.objects.count() == 2
