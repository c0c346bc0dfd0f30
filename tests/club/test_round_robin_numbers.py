"""A round robin's table numbers at round 1 (FIDE C.05 Annex 1: drawn by lot or set by the
arbiter), from the command line and the services, on the real database (SQLite and PostgreSQL):
the lot of a seed gives that seed's order and the printed pairings follow the Berger table for it,
a list of the arbiter's is followed, a bad list is one line that stores nothing, and once round 1
is paired the numbers are fixed."""

from __future__ import annotations

import re

import pytest

from clubrating.cli import main
from clubrating.club.store import audit_text
from clubrating.club.services import evening
from clubrating.club.store.models import AuditEntry, Entry, Evening, EveningBoard
from clubrating.tournament.roundrobin import berger_round, drawn_order

from .test_cli import run

NAMES = ["Ada Quinn", "Bea Roth", "Smith, Jane", "Di Tull", "Ed Umber"]  # one name holds a comma


@pytest.fixture
def registered(capsys: pytest.CaptureFixture[str]) -> None:
    """Tournament 1: a round robin with NAMES registered in that order (numbers 1 to 5), all
    members."""
    assert main(["init", "Riverside Chess Club"]) == 0
    assert (
        main(
            ["evening", "start", "Championship", "--date", "2026-11-26", "--system", "round-robin"]
        )
        == 0
    )
    assert main(["evening", "register", "1", *NAMES]) == 0
    assert main(["link", "1", "--all-new"]) == 0
    capsys.readouterr()


def _numbered() -> list[str]:
    """The players by table number."""
    return list(
        Entry.objects.filter(tournament_id=1).order_by("number").values_list("name", flat=True)
    )


def _shown_boards(capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    """Round 1's boards as `evening show` prints them: (white, black) by name."""
    code, out, _ = run(capsys, "evening", "show", "1")
    assert code == 0
    return re.findall(r"^  board \d+: \d+ (.+?) - \d+ (.+?)  \.\.\.$", out, re.M)


def _berger(order: list[str]) -> list[tuple[str, str]]:
    """Round 1 of the Berger table with the players of ``order`` as numbers 1 to n."""
    return [(order[w - 1], order[b - 1]) for w, b in berger_round(len(order), 1).boards]


def _nothing_paired() -> bool:
    return (
        Evening.objects.get(tournament_id=1).paired_rounds == 0
        and not EveningBoard.objects.exists()
        and _numbered() == NAMES
        and not AuditEntry.objects.filter(action="evening-pair").exists()
    )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("seed", [482913, 0, 7])
def test_the_lot_of_a_seed_numbers_the_players_as_that_seed_draws_and_the_pairings_follow_the_table(
    capsys: pytest.CaptureFixture[str], registered: None, seed: int
) -> None:
    drawn = [NAMES[place - 1] for place in drawn_order(len(NAMES), seed)]
    code, out, err = run(capsys, "evening", "pair", "1", "--order", "lot", "--seed", str(seed))
    assert (code, err) == (0, "")
    table = ", ".join(f"{n} {name}" for n, name in enumerate(drawn, 1))
    assert out.rstrip().endswith(f"; table numbers drawn by lot with seed {seed}: {table}")
    assert _numbered() == drawn
    assert _shown_boards(capsys) == _berger(drawn)
    entry = AuditEntry.objects.get(action="evening-pair")
    assert entry.new["order"] == "lot" and entry.new["seed"] == seed and entry.new["table"] == drawn
    logged = audit_text.sentence(entry.action, entry.target, entry.old, entry.new)
    assert f"table numbers drawn by lot (seed {seed}): {table}" in logged


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_lot_without_a_seed_prints_the_seed_it_drew_and_that_seed_gives_its_order(
    capsys: pytest.CaptureFixture[str], registered: None
) -> None:
    code, out, _ = run(capsys, "evening", "pair", "1", "--order", "lot")
    drawn = re.search(r"drawn by lot with seed (\d+):", out)
    seed = int(drawn.group(1))  # type: ignore[union-attr]
    assert code == 0 and AuditEntry.objects.get(action="evening-pair").new["seed"] == seed
    assert _numbered() == [NAMES[place - 1] for place in drawn_order(len(NAMES), seed)]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("order", "kind", "said", "numbered"),
    [
        (
            "Ed Umber, smith,  jane ,1,Bea Roth,4",
            "hand",
            "as the arbiter listed them",
            ["Ed Umber", "Smith, Jane", "Ada Quinn", "Bea Roth", "Di Tull"],
        ),
        ("numbers", "numbers", "in the order of entry", NAMES),
    ],
)
def test_the_arbiters_order_is_followed(
    capsys: pytest.CaptureFixture[str],
    registered: None,
    order: str,
    kind: str,
    said: str,
    numbered: list[str],
) -> None:
    code, out, _ = run(capsys, "evening", "pair", "1", "--order", order)
    table = ", ".join(f"{n} {name}" for n, name in enumerate(numbered, 1))
    assert code == 0 and out.rstrip().endswith(f"; table numbers {said}: {table}")
    assert _numbered() == numbered and _shown_boards(capsys) == _berger(numbered)
    assert AuditEntry.objects.get(action="evening-pair").new["order"] == kind


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_without_an_order_the_players_are_numbered_by_rating_as_before(
    capsys: pytest.CaptureFixture[str], registered: None
) -> None:
    code, out, _ = run(capsys, "evening", "pair", "1")
    assert (code, out) == (
        0,
        "round 1 paired: 2 boards, no game: Ada Quinn\n",
    )  # the message it always had
    assert _numbered() == sorted(NAMES, key=str.casefold)  # all unrated: by name
    assert "order" not in AuditEntry.objects.get(action="evening-pair").new


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--order", "Ada Quinn,Zed,2,3,4"],
            "'Zed' is not a player of this evening: list the players by start "
            "number or name, table number 1 first",
        ),
        (
            ["--order", "1,2,Smith, Jane,Di Tull"],
            "the order leaves out 'Ed Umber': list all 5 players, each once",
        ),
        (["--order", "1,2,3,4,5,bea roth"], "Bea Roth is listed twice: list each player once"),
        (
            ["--order", "numbers", "--seed", "12"],
            "a seed is for a drawing of lots: give it with the order lot",
        ),
        (
            ["--order", "lot", "--seed", "1000000"],
            "'1000000' is not a seed: expected a whole number from 0 to 999999",
        ),
        (
            ["--order", "lot", "--seed", "x"],
            "'x' is not a seed: expected a whole number from 0 to 999999",
        ),
    ],
)
def test_a_bad_order_is_one_line_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], registered: None, args: list[str], line: str
) -> None:
    code, out, err = run(capsys, "evening", "pair", "1", *args)
    assert (code, out, err) == (2, "", f"clubrating evening: error: {line}\n")
    assert _nothing_paired()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_player_who_withdrew_before_round_one_is_not_in_the_order(
    capsys: pytest.CaptureFixture[str], registered: None
) -> None:
    evening.withdraw(Entry.objects.get(tournament_id=1, number=5), who="test")
    code, _, err = run(capsys, "evening", "pair", "1", "--order", "5,4,3,2,1")
    assert (code, err) == (
        2,
        "clubrating evening: error: Ed Umber withdrew: list only the players of round 1\n",
    )
    assert Evening.objects.get(tournament_id=1).paired_rounds == 0 and Entry.objects.count() == 5
    assert run(capsys, "evening", "pair", "1", "--order", "4,3,2,1")[0] == 0
    assert _numbered() == ["Di Tull", "Smith, Jane", "Bea Roth", "Ada Quinn"]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_once_round_one_is_paired_the_numbers_are_fixed(
    capsys: pytest.CaptureFixture[str], registered: None
) -> None:
    assert run(capsys, "evening", "pair", "1", "--order", "lot", "--seed", "5")[0] == 0
    numbered = _numbered()
    for board in range(1, 3):
        assert run(capsys, "evening", "result", "1", str(board), "1-0")[0] == 0
    for args in (["--order", "lot"], ["--order", "numbers"], ["--order", "5,4,3,2,1"]):
        code, out, err = run(capsys, "evening", "pair", "1", *args)
        assert (code, out) == (2, "") and err == (
            "clubrating evening: error: the table numbers were set when "
            "round 1 was paired: another order now would change every pairing\n"
        )
    assert Evening.objects.get(tournament_id=1).paired_rounds == 1 and _numbered() == numbered
    assert run(capsys, "evening", "pair", "1")[0] == 0  # round 2, from the table as numbered
    assert _numbered() == numbered


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_swiss_takes_no_order(capsys: pytest.CaptureFixture[str], registered: None) -> None:
    assert main(["evening", "start", "Thursday", "--date", "2026-11-26", "--rounds", "3"]) == 0
    assert (
        main(["evening", "register", "2", *NAMES[:4]]) == 0
        and main(["link", "2", "--all-new"]) == 0
    )
    capsys.readouterr()
    code, _, err = run(capsys, "evening", "pair", "2", "--order", "lot")
    assert (code, err) == (
        2,
        "clubrating evening: error: a Swiss is seeded by club rating: an order of table "
        "numbers is for a round robin\n",
    )
    assert Evening.objects.get(tournament_id=2).paired_rounds == 0
