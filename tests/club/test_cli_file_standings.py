"""``clubrating tournament N`` of an imported file: the file's points and ranks are the standings;
each player whose written points differ from the results is listed with the unplayed rounds that
can explain it, and a team event lists its teams (tests/formats/data/team_swiss.trf)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubrating.cli import main

TEAM_SWISS = Path(__file__).resolve().parents[1] / "formats" / "data" / "team_swiss.trf"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_standings_command_lists_the_differences_and_the_teams(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    assert run(capsys, "import", str(TEAM_SWISS))[0] == 0
    code, out = run(capsys, "tournament", "1")
    assert code == 0
    lines = out.splitlines()
    first = next(line for line in lines if "Sargsyan" in line)
    assert (
        first.split()[:2] == ["1", "2"] and "2.5" in first.split()
    )  # place 1, start number 2, 2.5 written
    assert "for 1 player they differ from the results (written, computed, unplayed rounds):" in out
    assert "    2  Sargsyan, Lilit  2.5  1.5  R2 0000 - -" in lines
    assert (
        "  1  Yerevan Lions  6: 1. Hakobyan, Aram 2.5; "
        "2. Sargsyan, Lilit 2.5; 3. Vardanyan, Armen 1" in lines
    )
    code, out = run(capsys, "tournament", "1", "--json")
    document = json.loads(out)
    assert document["differences"] == [
        {
            "number": 2,
            "name": "Sargsyan, Lilit",
            "written": 2.5,
            "computed": 1.5,
            "rounds": [{"round": 2, "code": "0000 - -", "points": 0.0}],
        }
    ]
    assert [p["team"] for p in document["players"][:2]] == ["Yerevan Lions", "Yerevan Lions"]
