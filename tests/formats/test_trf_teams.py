"""TRF-16 team events: the 013 lines (a team's name in columns 5-36, its players' start numbers
from column 37, four columns each, one apart) read, refused with their line when wrong, and
written back. The fixture tests/formats/data/team_swiss.trf is written from the specification
(FIDE Handbook C.04 Annex 2, TRF16, "Team Section"): four teams of two boards and a reserve."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from clubrating.errors import InputError
from clubrating.files import read_tournament_file
from clubrating.formats.records import ByeKind
from clubrating.formats.trf import read_trf, write_trf

DATA = Path(__file__).parent / "data"
TEAMS = [
    ("Yerevan Lions", (1, 2, 9)),
    ("Gyumri Eagles", (3, 4)),
    ("Vanadzor Knights", (5, 6)),
    ("Dilijan Rooks", (7, 8)),
]


def team_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("013")]


def test_a_team_swiss_file_is_read_with_its_teams_in_board_order() -> None:
    record = read_tournament_file(str(DATA / "team_swiss.trf"))
    assert [(team.name, team.members) for team in record.teams] == TEAMS
    assert [team.line for team in record.teams] == [21, 22, 23, 24]
    # in a team event 0000 - - is a player not fielded: no points, never rated
    assert sorted((b.round, b.player) for b in record.byes if b.kind is ByeKind.UNFIELDED) == [
        (1, 9),
        (2, 2),
        (3, 9),
    ]
    assert record.warnings == (
        "%s:13: player 2 has 2.5 points written, 1.5 computed from the results"
        % (DATA / "team_swiss.trf"),
    )


def test_the_export_writes_the_013_lines_on_their_columns_and_reads_back_the_same_teams() -> None:
    record = read_tournament_file(str(DATA / "team_swiss.trf"))
    out = io.StringIO()
    write_trf(record, out)
    written = [line for line in out.getvalue().splitlines() if line.startswith("013")]
    assert written == team_lines(DATA / "team_swiss.trf")
    # columns by the specification: the name in 5-36, the first player in 37-40, the next in 42-45
    assert (
        written[0][4:36].rstrip() == "Yerevan Lions"
        and written[0][36:40] == "   1"
        and written[0][41:45] == "   2"
    )
    again = read_trf(io.StringIO(out.getvalue()), "again.trf")
    assert [(team.name, team.members) for team in again.teams] == TEAMS
    assert [p.points for p in again.players] == [
        p.points for p in record.players
    ]  # the file's own points
    assert [p.rank for p in again.players] == [p.rank for p in record.players]


def test_the_number_of_teams_announced_that_differs_is_a_warning() -> None:
    text = (DATA / "team_swiss.trf").read_text().replace("082 4", "082 5")
    record = read_trf(io.StringIO(text), "cup.trf")
    assert "cup.trf:8: 082 announces 5 teams, the file has 4 team lines (013)" in record.warnings


PLAYERS = "\n".join(f"001 {n:>4}      {name:<33}" for n, name in ((1, "A"), (2, "B"), (3, "C")))


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("013                                    1    2", ["team's name in columns 5-36"]),
        (
            "013 Knights                          1  x2",
            ["start numbers of the team's players from column 37", "'x2'"],
        ),
        (
            "013 Knights                          1    7",
            ["team 'Knights' lists player 7, who has no 001 line"],
        ),
        (
            "013 Knights                          1    "
            "2\n013 Rooks                            2    3",
            ["player 2 is in team 'Rooks' and in team 'Knights' (line 4)"],
        ),
    ],
)
def test_a_wrong_team_line_is_refused_with_its_line_and_what_was_expected(
    line: str, words: list[str]
) -> None:
    text = PLAYERS + "\n" + line + "\n"
    with pytest.raises(InputError) as caught:
        read_trf(io.StringIO(text), "cup.trf")
    assert str(caught.value).startswith(f"cup.trf:{text.count(chr(10))}: ")
    for word in words:
        assert word in str(caught.value)


def test_an_empty_board_0000_is_no_player() -> None:
    record = read_trf(
        io.StringIO(PLAYERS + "\n013 Knights                          1 0000    3\n"), "cup.trf"
    )
    assert [(team.name, team.members) for team in record.teams] == [("Knights", (1, 3))]


def test_more_teams_than_a_tournament_can_hold_are_refused_at_the_first_one_too_many() -> None:
    from clubrating.formats.records import MAX_PLAYERS

    text = PLAYERS + "\n" + "013 Empty\n" * (MAX_PLAYERS + 1)
    with pytest.raises(InputError) as caught:
        read_trf(io.StringIO(text), "cup.trf")
    assert (
        str(caught.value)
        == f"cup.trf:{MAX_PLAYERS + 4}: 10,000 teams: at most 9,999 in one tournament"
    )


def test_a_control_character_in_a_team_s_name_is_refused_with_its_line() -> None:
    from clubrating.formats.reading import read_tournament_text

    with pytest.raises(InputError) as caught:
        read_tournament_text(PLAYERS + "\n013 Kni\x1bghts                          1\n", "cup.trf")
    assert str(caught.value).startswith("cup.trf:4:")
