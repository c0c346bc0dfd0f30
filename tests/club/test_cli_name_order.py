"""``clubrating ratings`` lists equal ratings in the alphabet of the club's language: Cyrillic
first and ё with е for a Russian club, Armenian first for an Armenian one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubrating.cli import main

# Every game drawn: the four keep one rating, so that only their names order them.
DRAWN = """# event: Вторник
# date: 2026-03-03
round,white,black,result
1,Семенов Пётр,Zhukov Ivan,1/2-1/2
1,Семёнов Иван,Գևորգյան Արամ,1/2-1/2
2,Zhukov Ivan,Семёнов Иван,1/2-1/2
2,Գևորգյան Արամ,Семенов Пётр,1/2-1/2
"""


@pytest.mark.parametrize(
    ("language", "in_order"),
    [
        ("ru", ["Семёнов Иван", "Семенов Пётр", "Zhukov Ivan", "Գևորգյան Արամ"]),
        ("hy", ["Գևորգյան Արամ", "Zhukov Ivan", "Семёнов Иван", "Семенов Пётр"]),
        ("en", ["Zhukov Ivan", "Семёнов Иван", "Семенов Пётр", "Գևորգյան Արամ"]),
    ],
)
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_ratings_of_equal_players_follow_the_clubs_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, language: str, in_order: list[str]
) -> None:
    evening = tmp_path / "evening.csv"
    evening.write_text(DRAWN, encoding="utf-8")
    steps = [
        ["init", "Riverside Chess Club"],
        ["import", str(evening)],
        ["link", "1", "--all-new"],
        ["publish", "1"],
    ]
    if language != "en":  # the default
        steps.append(["settings", f"language={language}"])
    for args in steps:
        assert main(args) == 0, args
    capsys.readouterr()
    assert main(["ratings", "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert len({p["rating"] for p in players}) == 1
    assert [p["name"] for p in players] == in_order
