"""``clubrating match`` against a roster file: arguments, --names, stdin, JSON, errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from clubrating.cli import main

ROSTER = "# the club\nSmith, John\nSmith, Jane\nAronian, Levon\n\nKasparov, Garry\n"


@pytest.fixture()
def roster(tmp_path: Path) -> Path:
    path = tmp_path / "members.txt"
    path.write_text(ROSTER, encoding="utf-8")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_json_has_one_entry_per_name_in_input_order(
    roster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(
        ["match", "Gary Kasparov", "J. Smith", "--roster", str(roster), "--json"], capsys
    )
    assert status == 0 and err == ""
    document = json.loads(out)
    assert [entry["name"] for entry in document] == ["Gary Kasparov", "J. Smith"]
    assert document[0]["proposals"] == [
        {
            "member": "Kasparov, Garry",
            "score": document[0]["proposals"][0]["score"],
            "reasons": ["transliteration"],
        }
    ]
    smiths = document[1]["proposals"]
    assert {p["member"] for p in smiths} == {"Smith, John", "Smith, Jane"}
    assert smiths[0]["score"] == smiths[1]["score"]
    for entry in document:
        for proposal in entry["proposals"]:
            assert set(proposal) == {"member", "score", "reasons"}
            assert isinstance(proposal["score"], float) and proposal["reasons"]


def test_names_come_from_a_file(
    roster: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = tmp_path / "tonight.txt"
    names.write_text("Aronyan, Levon\n\nSmith, John\n", encoding="utf-8")
    status, out, _ = run(
        ["match", "--names", str(names), "--roster", str(roster), "--json"], capsys
    )
    assert status == 0
    assert [(e["name"], e["proposals"][0]["member"]) for e in json.loads(out)] == [
        ("Aronyan, Levon", "Aronian, Levon"),
        ("Smith, John", "Smith, John"),
    ]


def test_names_come_from_stdin_when_none_are_given(
    roster: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Левон Аронян\n"))
    status, out, _ = run(["match", "--roster", str(roster), "--json"], capsys)
    assert status == 0
    assert json.loads(out)[0]["proposals"][0]["member"] == "Aronian, Levon"


def test_the_readable_list_shows_scores_members_and_reasons(
    roster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["match", "J. Smith", "Nobody, Here", "--roster", str(roster)], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "J. Smith"
    assert (
        "Smith, Jane" in lines[1]
        and "initial for the first name" in lines[1]
        and "94.0" in lines[1]
    )
    assert "Smith, John" in lines[2]
    assert lines[3] == "Nobody, Here" and "no proposal" in lines[4]


def test_the_limit_caps_the_proposals(roster: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        ["match", "J. Smith", "--roster", str(roster), "--limit", "1", "--json"], capsys
    )
    assert status == 0 and len(json.loads(out)[0]["proposals"]) == 1


def test_a_limit_out_of_range_is_one_line_error(
    roster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["match", "J. Smith", "--roster", str(roster), "--limit", "9"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "--limit" in err


def test_a_bad_name_is_reported_and_the_others_are_still_answered(
    roster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(
        ["match", "?!", "Smith, John", "--roster", str(roster), "--json"], capsys
    )
    assert status == 2
    assert err.strip().splitlines() == ["clubrating match: error: '?!': no letters in name '?!'"]
    document = json.loads(out)
    assert document[0] == {"name": "?!", "proposals": [], "error": "no letters in name '?!'"}
    assert document[1]["proposals"][0]["member"] == "Smith, John"


def test_a_missing_roster_file_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(["match", "J. Smith", "--roster", str(tmp_path / "none.txt")], capsys)
    assert status == 2 and "none.txt: no such file" in err and err.count("\n") == 1


def test_a_bad_roster_line_is_reported_with_its_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "members.txt"
    path.write_text("Smith, John\n...\n", encoding="utf-8")
    status, _, err = run(["match", "J. Smith", "--roster", str(path)], capsys)
    assert status == 2 and f"{path}:2: no letters" in err


def test_a_roster_that_is_not_utf8_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "members.txt"
    path.write_bytes("Müller, Jürgen\n".encode("latin-1"))
    status, _, err = run(["match", "J. Smith", "--roster", str(path)], capsys)
    assert status == 2 and "not UTF-8" in err


def test_the_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "Example: clubrating match" in capsys.readouterr().out


def test_an_absurdly_long_name_is_refused_and_not_echoed_whole(
    roster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["match", "x" * 10_000, "Smith, John", "--roster", str(roster)], capsys)
    assert status == 2
    assert err.count("\n") == 1 and "longer than 200 characters" in err and len(err) < 300
    assert max(len(line) for line in out.splitlines()) < 300
    assert "Smith, John" in out  # the other names are still matched
