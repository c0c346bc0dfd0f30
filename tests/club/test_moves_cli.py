"""``clubrating moves``: a first run lists and stores nothing, the flags store, typed moves for one
game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Game

from .test_cli import CSV_EVENING, run
from tests.formats.long_games import five_thousand

from .test_moves import FOOL, LEGAL, RUY, pgn_game


@pytest.fixture
def tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    csv = tmp_path / "evening.csv"
    csv.write_text(CSV_EVENING, encoding="utf-8")
    for args in (
        ["init", "Riverside Chess Club"],
        ["import", str(csv)],
        ["link", "1", "--all-new"],
        ["publish", "1"],
    ):
        assert main(args) == 0
    capsys.readouterr()
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        pgn_game("1.1", "Anna Berg", "Ben Cole", "1-0", LEGAL)
        + pgn_game("1.2", "Kara Dun", "Dan Eng", "0-1", FOOL)  # misspelled, result differs
        + pgn_game("2.2", "Dan Eng", "Anna Berg", "0-1", RUY.replace("1/2-1/2", "0-1")),
        encoding="utf-8",
    )
    return pgn


def moves_stored() -> int:
    return Game.objects.exclude(moves="").count()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_first_run_lists_the_proposals_and_differences_and_stores_nothing(
    capsys, tournament
) -> None:
    code, out, err = run(capsys, "moves", "1", str(tournament))
    assert code == 1 and moves_stored() == 0
    assert "? round 1: Kara Dun - Dan Eng 0-1" in out and "name: 'Kara Dun' is 'Cara Dunn'?" in out
    assert "result differs: the file 0-1, stored round 1: Cara Dunn - Dan Eng 1/2-1/2" in out
    assert "nothing stored: 1 name proposal to confirm" in err
    code, out, _ = run(capsys, "moves", "1", str(tournament), "--accept-proposals", "--json")
    document = json.loads(out)
    assert (
        code == 1
        and document["stored"] is False
        and [g["differs"] for g in document["games"]] == [False, True, False]
    )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_flags_store_and_every_decision_is_audited(capsys, tournament) -> None:
    code, out, _ = run(
        capsys, "moves", "1", str(tournament), "--accept-proposals", "--drop-differing"
    )
    assert code == 0 and "moves of 2 games stored; moves of 1 game dropped" in out
    assert moves_stored() == 2
    actions = sorted(
        AuditEntry.objects.filter(action__in=["attach-moves", "drop-moves"]).values_list(
            "action", flat=True
        )
    )
    assert actions == ["attach-moves", "attach-moves", "drop-moves"]
    code, out, _ = run(capsys, "audit")
    assert "dropped: the file says 0-1, the stored result ½-½ was kept" in out


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_typed_moves_for_one_game_and_an_illegal_move_in_one_line(capsys, tournament) -> None:
    code, out, err = run(
        capsys, "moves", "1", "--round", "2", "--player", "Ben Cole", "--typed", "1. e4 e5 2. Ke3"
    )
    assert (
        code == 2
        and err.count("\n") == 1
        and "move 2 (White) 'Ke3': illegal in this position" in err
    )
    code, out, _ = run(
        capsys, "moves", "1", "--round", "2", "--player", "Ben Cole", "--typed", "е4 е5 Кf3"
    )
    assert code == 0 and "3 half-moves stored" in out and moves_stored() == 1
    code, _, err = run(capsys, "moves", "1", str(tournament.parent / "missing.pgn"))
    assert code == 2 and "missing.pgn: no such file" in err


ARMENIAN_EVENING = """# event: Yerevan Tuesday
# date: 2026-03-03
round,white,black,result
1,Լիլիթ Մկրտչյան,Արամ Պետրոսյան,1-0
"""
LILIT = ("moves", "1", "--round", "1", "--player", "Լիլիթ Մկրտչյան")


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_wrong_mate_sign_is_refused_and_stored_moves_are_replaced_then_removed_audited(
    capsys, tmp_path
) -> None:
    csv = tmp_path / "yerevan.csv"
    csv.write_text(ARMENIAN_EVENING, encoding="utf-8")
    for args in (
        ["init", "Yerevan Chess Club"],
        ["import", str(csv)],
        ["link", "1", "--all-new"],
        ["publish", "1"],
    ):
        assert main(args) == 0
    capsys.readouterr()
    code, out, err = run(capsys, *LILIT, "--typed", "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#")
    assert code == 2 and err.count("\n") == 1 and moves_stored() == 0
    assert (
        "move 4 (White) 'Qxe5#': written as mate (#), but it only gives check; the position: "
        "rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"
    ) in err
    assert (
        run(capsys, *LILIT, "--typed", "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5+")[0] == 0
    )  # as the arbiter misread it
    code, _, err = run(capsys, *LILIT, "--typed", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")
    assert code == 2 and "has its moves already: correct them with --replace or --remove" in err

    code, out, _ = run(
        capsys, *LILIT, "--replace", "--typed", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
    )
    assert (
        code == 0
        and out == "round 1 Լիլիթ Մկրտչյան - Արամ Պետրոսյան: the moves replaced by 7 half-moves\n"
    )
    assert Game.objects.get().moves == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
    replaced = AuditEntry.objects.get(action="replace-moves")
    assert replaced.old == {"moves": "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5+ 1-0"}
    assert replaced.new == {
        "moves": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
    } and replaced.who.startswith("cli:")

    code, out, _ = run(capsys, *LILIT, "--remove")
    assert code == 0 and "the moves removed, the result stays" in out and moves_stored() == 0
    assert AuditEntry.objects.get(action="remove-moves").old == replaced.new
    code, _, err = run(capsys, *LILIT, "--remove")
    assert code != 0 and "has no moves to correct" in err and err.count("\n") == 1


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_five_thousand_half_moves_and_contradictory_flags_are_refused_in_one_line(
    capsys, tournament
) -> None:
    game = ("moves", "1", "--round", "2", "--player", "Ben Cole")
    code, _, err = run(capsys, *game, "--typed", five_thousand())
    assert (
        code == 2
        and err.count("\n") == 1
        and "longer than 1,200 half-moves" in err
        and moves_stored() == 0
    )
    code, _, err = run(capsys, *game, "--remove", "--typed", "e4")
    assert code == 2 and "--remove takes no moves" in err
    code, _, err = run(capsys, *game, "--replace")
    assert code == 2 and "--replace needs the new moves" in err
