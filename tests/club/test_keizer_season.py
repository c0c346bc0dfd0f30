"""A Keizer season run from the command line (on the test database, SQLite or PostgreSQL): the
arbiter marks who sent apologies and who stays away, the present players are paired from the
ranking of the rounds before, results come in, the ranking is the pure rules' over the stored
rounds; rated as one tournament, or evening by evening through a chain of evenings."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Bye, EveningBoard, RatingChange, Tournament
from clubrating.tournament.keizer import Game, Rules, Season, standings

from .test_cli import run

NAMES = ["Ada Quinn", "Bea Roth", "Cy Stone", "Di Tull", "Ed Umber"]


@pytest.fixture
def club(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "Riverside Chess Club"]) == 0
    capsys.readouterr()


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def boards(tournament: int, round_: int) -> list[tuple[str, str]]:
    return [
        (b.white.name, b.black.name)
        for b in EveningBoard.objects.filter(tournament_id=tournament, round=round_)
        .order_by("board")
        .select_related("white", "black")
    ]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_season_marks_pairs_the_present_and_ranks_by_the_keizer_rules(capsys, club) -> None:
    ok(capsys, "evening", "start", "Keizer", "--system", "keizer", "--date", "2026-09-01")
    ok(capsys, "evening", "register", "1", *NAMES)
    ok(capsys, "link", "1", "--all-new")
    assert "sent apologies for round 1" in ok(capsys, "evening", "mark", "1", "apologies", "5")
    assert "pairing bye" not in ok(capsys, "evening", "pair", "1")
    # by rating: everyone unrated, so the order of entry; top down, the lower-ranked white
    assert boards(1, 1) == [("Bea Roth", "Ada Quinn"), ("Di Tull", "Cy Stone")]
    ok(capsys, "evening", "result", "1", "1", "1-0")  # Bea beats Ada
    ok(capsys, "evening", "result", "1", "2", "1/2-1/2")
    ok(capsys, "evening", "mark", "1", "absent", "2")  # Bea stays away in round 2
    ok(capsys, "evening", "pair", "1")
    # ranking before round 2: Bea, Cy, Di, Ada, Ed; Cy and Di have just met (gap 3)
    assert boards(1, 2) == [("Ada Quinn", "Cy Stone"), ("Ed Umber", "Di Tull")]
    assert list(Bye.objects.filter(round=1).values_list("kind", "points")) == [("Z", 0)]
    assert list(Bye.objects.filter(round=2).values_list("kind", "points")) == [(" ", 0)]
    shown = json.loads(ok(capsys, "evening", "show", "1", "--json"))["messages"]
    # the oracle: the pure rules over the same results, written out here by hand
    season = Season(
        (1, 2, 3, 4, 5),
        (Game(1, 2, 1, 2, 0), Game(1, 4, 3, 1, 1)),
    )
    expected = standings(season, Rules())
    assert [r.player for r in expected] == [2, 3, 4, 1, 5]
    assert shown[-5].split()[:3] == ["1", "Bea", "Roth"]
    assert f"{float(expected[0].score):.2f}" in shown[-5]
    assert "Ed Umber  2.67" in shown[-1]  # own value 2 and a third of it for the apologies
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"keizer-mark", "evening-pair", "evening-start"} <= actions


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_season_rated_evening_by_evening_continues_the_ranking_over_the_chain(
    capsys, club
) -> None:
    ok(
        capsys,
        *("evening", "start", "Night 1", "--system", "keizer", "--date", "2026-09-01"),
        *("--keizer", "rated=evening", "--keizer", "rematch-gap=1", "--keizer", "bye=1/2"),
    )
    ok(capsys, "evening", "register", "1", *NAMES[:4])
    ok(capsys, "link", "1", "--all-new")
    assert "seed 7" in ok(capsys, "evening", "pair", "1", "--order", "lot", "--seed", "7")
    ok(capsys, "evening", "result", "1", "1", "0-1")
    ok(capsys, "evening", "result", "1", "2", "1-0")
    refused = run(capsys, "evening", "next", "1", "Night 2", "--date", "2026-09-08")
    assert refused[0] != 0 and "publish 'Night 1' first" in refused[2]
    ok(capsys, "evening", "publish", "1")
    assert RatingChange.objects.filter(tournament_id=1).count() == 4  # rated that evening
    ok(capsys, "evening", "next", "1", "Night 2", "--date", "2026-09-08")
    ok(capsys, "evening", "register", "2", "Fay Vale")
    ok(capsys, "link", "2", "--all-new")
    ok(capsys, "evening", "pair", "2")
    first = {frozenset(b) for b in boards(1, 1)}
    winners = {
        (g.white if g.white_points else g.black).name
        for g in Tournament.objects.get(pk=1).games.select_related("white", "black")
    }
    second = boards(2, 1)
    assert set(second[0]) == winners  # the two winners lead the ranking and meet
    assert not first & {frozenset(b) for b in second}
    assert Bye.objects.get(tournament_id=2).entry.name == "Fay Vale"
    numbers = dict(Tournament.objects.get(pk=2).entries.values_list("name", "number"))
    assert numbers == {
        **dict(Tournament.objects.get(pk=1).entries.values_list("name", "number")),
        "Fay Vale": 5,
    }
    shown = json.loads(ok(capsys, "evening", "show", "2", "--json"))["messages"]
    fay = next(line for line in shown if "Fay Vale" in line and "value" in line)
    # joined below everyone: value 2 of 6..2, and the bye half of it
    assert f"{float(2 + Fraction(2, 2)):.2f} (value 2;" in fay


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--keizer", "top=abc"], "top=abc: expected a whole number"),
        (["--keizer", "bye=2/0"], "bye=2/0: expected a fraction such as 1/3"),
        (["--keizer", "bye=3/2"], "3/2: a credit is a fraction of one's own value, from 0 to 1"),
        (
            ["--keizer", "colour=white"],
            "'colour' is not a Keizer setting: expected top, step, own-value, apology, "
            "apology-cap, bye, rematch-gap, rated",
        ),
        (["--keizer", "rated=weekly"], "rated=weekly: expected season or evening"),
        (["--keizer", "gap"], "--keizer 'gap': expected KEY=VALUE"),
        (["--keizer", "rematch-gap=500"], "rematch gap 500: expected a whole number from 0 to 99"),
    ],
)
def test_a_bad_setting_is_one_line_and_starts_nothing(
    capsys, club, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "evening", "start", "K", "--system", "keizer", *args)
    assert code != 0 and out == "" and err.strip().endswith(message)
    assert len(err.strip().splitlines()) == 1 and not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_marks_are_refused_outside_a_keizer_season(capsys, club) -> None:
    ok(capsys, "evening", "start", "Swiss", "--date", "2026-09-01")
    ok(capsys, "evening", "register", "1", "Ada Quinn")
    code, _, err = run(capsys, "evening", "mark", "1", "apologies", "1")
    assert code != 0 and "tournament 1 is not a Keizer evening" in err
    code, _, err = run(capsys, "evening", "mark", "1", "maybe", "1")
    assert code != 0 and "'maybe': expected present, apologies or absent" in err
    assert not Bye.objects.exists()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_season_whose_earlier_evening_was_deleted_reads_from_the_evenings_left(
    capsys, club
) -> None:
    ok(capsys, "evening", "start", "Night 1", "--system", "keizer", "--keizer", "rated=evening")
    ok(capsys, "evening", "register", "1", *NAMES[:2])
    ok(capsys, "link", "1", "--all-new")
    ok(capsys, "evening", "pair", "1")
    ok(capsys, "evening", "result", "1", "1", "1-0")
    ok(capsys, "evening", "publish", "1")
    ok(capsys, "evening", "next", "1", "Night 2")
    ok(capsys, "delete", "1")
    assert "round 1 paired: 1 board" in ok(capsys, "evening", "pair", "2")
    assert "Ada Quinn" in ok(capsys, "evening", "show", "2")


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_season_read_over_a_chain_of_evenings_ranks_as_one_tournament_of_those_rounds(
    capsys, club
) -> None:
    results = [["1-0", "1/2-1/2"], ["0-1", "1-0"], ["1/2-1/2"]]  # three present: one board
    away = [[], ["4"], ["1", "2"]]  # apologies each evening
    ok(capsys, "evening", "start", "Season", "--system", "keizer", "--rounds", "3")
    ok(capsys, "evening", "register", "1", *NAMES)
    ok(capsys, "link", "1", "--all-new")
    for evening in range(3):
        for number in away[evening]:
            ok(capsys, "evening", "mark", "1", "apologies", number)
        ok(capsys, "evening", "pair", "1")
        for board, result in enumerate(results[evening], 1):
            ok(capsys, "evening", "result", "1", str(board), result)
    whole = json.loads(ok(capsys, "evening", "show", "1", "--json"))["messages"]
    ok(capsys, "evening", "start", "Night", "--system", "keizer", "--keizer", "rated=evening")
    ok(capsys, "evening", "register", "2", *NAMES)
    for evening, tournament in enumerate((2, 3, 4)):
        if evening:
            ok(capsys, "evening", "publish", str(tournament - 1))
            ok(capsys, "evening", "next", str(tournament - 1), f"Night {evening + 1}")
        for number in away[evening]:
            ok(capsys, "evening", "mark", str(tournament), "apologies", number)
        ok(capsys, "evening", "pair", str(tournament))
        for board, result in enumerate(results[evening], 1):
            ok(capsys, "evening", "result", str(tournament), str(board), result)
    chained = json.loads(ok(capsys, "evening", "show", "4", "--json"))["messages"]
    ranking = whole[whole.index("standings:") + 1 :]
    assert len(ranking) == 5 and ranking == chained[chained.index("standings:") + 1 :]
