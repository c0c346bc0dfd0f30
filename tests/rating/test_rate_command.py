"""``clubrating rate``: the record conversion, the prior CSV, the JSON contract, the CLI."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from clubrating import cli
from clubrating.commands.rate import parse_prior, rate_record
from clubrating.errors import InputError
from clubrating.formats.records import (
    Bye,
    ByeKind,
    Pairing,
    PlayerEntry,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.rating.policy import club_policy, fide_policy
from clubrating.rating.records import tournament_input
from clubrating.rating.types import Standing

PLAYER_FIELDS = [
    "name",
    "rating_before",
    "rating_after",
    "change",
    "k",
    "games_rated",
    "score_rated",
    "expected",
    "provisional_before",
]
R9_CSV = """# event: R9 Swiss
# date: 2024-03-05
round,board,white,black,result
1,1,Anna,Bob,1/2-1/2
2,1,Carl,Anna,1/2-1/2
3,1,Anna,Dora,1-0
4,1,Eve,Anna,1/2-1/2
4,2,Bob,Carl,+:-
1,,Eve,,bye 1/2
"""
R9_PRIOR = "name,rating,games\nAnna,1400,30\nBob,1500,30\nCarl,1300,30\nDora,1600,30\nEve,1350,30\n"


def r9_record(kind: TournamentKind = TournamentKind.CHESS) -> TournamentRecord:
    names = ["Anna", "Bob", "Carl", "Dora", "Eve"]
    return TournamentRecord(
        name="R9 Swiss",
        date=dt.date(2024, 3, 5),
        kind=kind,
        players=tuple(PlayerEntry(i + 1, n) for i, n in enumerate(names)),
        pairings=(
            Pairing(1, 1, 2, 1, 1),
            Pairing(2, 3, 1, 1, 1),
            Pairing(3, 1, 4, 2, 0),
            Pairing(4, 5, 1, 1, 1),
            Pairing(4, 2, 3, 2, 0, played=False, unplayed=Unplayed.FORFEIT),
        ),
        byes=(Bye(1, 5, 1, ByeKind.HALF_POINT),),
    )


def r9_prior() -> dict[str, Standing]:
    return parse_prior(R9_PRIOR, "prior.csv")


def test_the_r9_tournament_file_gives_anna_1413_77() -> None:
    document = rate_record(r9_record(), r9_prior(), club_policy())
    anna = document["players"][0]
    assert list(anna) == PLAYER_FIELDS
    assert (anna["name"], anna["games_rated"], anna["score_rated"]) == ("Anna", 4, 2.5)
    assert anna["rating_after"] == pytest.approx(1413.77, abs=0.005)
    assert document["tournament"] == {"name": "R9 Swiss", "date": "2024-03-05"}


def test_players_come_in_start_number_order_and_the_forfeit_is_not_rated() -> None:
    document = rate_record(r9_record(), r9_prior(), club_policy())
    assert [p["name"] for p in document["players"]] == ["Anna", "Bob", "Carl", "Dora", "Eve"]
    assert [p["games_rated"] for p in document["players"]] == [4, 1, 1, 1, 1]


def test_a_bughouse_file_changes_no_rating() -> None:
    document = rate_record(r9_record(TournamentKind.BUGHOUSE), r9_prior(), club_policy())
    assert {p["change"] for p in document["players"]} == {0.0}
    assert {p["games_rated"] for p in document["players"]} == {0}


def test_players_missing_from_the_prior_are_new_and_provisional() -> None:
    document = rate_record(r9_record(), {}, club_policy())
    assert {p["rating_before"] for p in document["players"]} == {1200.0}
    assert all(p["provisional_before"] and p["k"] == 40 for p in document["players"])


def test_prior_names_match_whatever_their_case_and_spacing() -> None:
    prior = parse_prior("name,rating,games\n  anna   ,1400,30\n", "prior.csv")
    assert rate_record(r9_record(), prior, club_policy())["players"][0]["rating_before"] == 1400.0


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("name,points,games\n", 1, "header"),
        ("name,rating,games\nAnna,abc,3\n", 2, "rating 'abc'"),
        ("name,rating,games\nAnna,1400,-1\n", 2, "games '-1'"),
        ("name,rating,games\nAnna,1400\n", 2, "3 fields"),
        ("name,rating,games\nAnna,1400,3\n\nanna,1500,3\n", 4, "listed twice"),
        ("name,rating,games\n,1400,3\n", 2, "empty name"),
    ],
)
def test_a_bad_prior_line_is_refused_with_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as raised:
        parse_prior(text, "prior.csv")
    assert (raised.value.file, raised.value.line) == ("prior.csv", line)


def test_the_record_conversion_takes_a_key_function_or_a_mapping() -> None:
    by_number = tournament_input(r9_record(), {1: 10, 2: 20, 3: 30, 4: 40, 5: 50}, id=7, sequence=2)
    assert (by_number.id, by_number.sequence, by_number.rated) == (7, 2, True)
    assert [(g.white, g.black, g.white_points, g.played) for g in by_number.games][-1] == (
        20,
        30,
        2,
        False,
    )
    by_name = tournament_input(r9_record(TournamentKind.BUGHOUSE))
    assert by_name.rated is False and by_name.games[0].white == "Anna"


@pytest.mark.parametrize(
    ("pairing", "message"),
    [
        (Pairing(1, 1, 9, 2, 0), "no player with start number 9"),
        (Pairing(1, 1, 2, 2, 2), "impossible result"),
        (Pairing(1, 1, 1, 1, 1), "themself"),
    ],
)
def test_a_bad_pairing_is_refused(pairing: Pairing, message: str) -> None:
    record = TournamentRecord(
        name="x",
        date=dt.date(2024, 1, 1),
        source="x.csv",
        players=(PlayerEntry(1, "A"), PlayerEntry(2, "B")),
        pairings=(pairing,),
    )
    with pytest.raises(InputError, match=message):
        tournament_input(record)


def test_two_players_with_one_name_are_refused() -> None:
    record = TournamentRecord(
        name="x",
        date=dt.date(2024, 1, 1),
        pairings=(),
        players=(PlayerEntry(1, "A"), PlayerEntry(2, "A")),
    )
    with pytest.raises(InputError, match="both"):
        tournament_input(record)


def test_fide_rules_round_the_change_to_whole_points() -> None:
    document = rate_record(r9_record(), r9_prior(), fide_policy())
    assert all(p["change"] == round(p["change"]) for p in document["players"])


def test_the_command_prints_the_json_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r9.csv").write_text(R9_CSV, encoding="utf-8")
    (tmp_path / "prior.csv").write_text(R9_PRIOR, encoding="utf-8")
    status = cli.main(
        ["rate", str(tmp_path / "r9.csv"), "--prior", str(tmp_path / "prior.csv"), "--json"]
    )
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert [p["name"] for p in document["players"]] == ["Anna", "Bob", "Carl", "Dora", "Eve"]
    assert document["players"][0]["rating_after"] == pytest.approx(1413.77, abs=0.005)


def test_the_command_shows_a_table_with_ratings_to_a_tenth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r9.csv").write_text(R9_CSV, encoding="utf-8")
    (tmp_path / "prior.csv").write_text(R9_PRIOR, encoding="utf-8")
    assert cli.main(["rate", str(tmp_path / "r9.csv"), "--prior", str(tmp_path / "prior.csv")]) == 0
    assert "1413.8" in capsys.readouterr().out


def test_a_bad_prior_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r9.csv").write_text(R9_CSV, encoding="utf-8")
    (tmp_path / "prior.csv").write_text("name,rating,games\nAnna,x,1\n", encoding="utf-8")
    assert cli.main(["rate", str(tmp_path / "r9.csv"), "--prior", str(tmp_path / "prior.csv")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "prior.csv:2: rating 'x'" in error
