"""``clubrating rate --prior`` reads the same rating lists as ``seed-ratings``: CSV with ','
or ';', any header case, games optional, or a TRF's rating column; the JSON contract holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubrating import cli
from tests.rating.test_rate_command import PLAYER_FIELDS, R9_CSV

ANNA_AFTER = (
    1413.77  # the R9 example: Anna 1400 after 30 games, K 20 (tests/rating/test_rate_command.py)
)
PRIORS = {
    "comma": (
        "name,rating,games\nAnna,1400,30\nBob,1500,30\nCarl,1300,30\nDora,1600,30\nEve,1350,30\n"
    ),
    "semicolon, any case": (
        "NAME;Rating;Games\nAnna;1400;30\nBob;1500;30\nCarl;1300;30\nDora;1600;30\nEve;1350;30\n"
    ),
    "no games: established": "Name,Rating\nAnna,1400\nBob,1500\nCarl,1300\nDora,1600\nEve,1350\n",
    "a TRF's rating column": "012 R9 Swiss\n"
    + "".join(
        f"001 {n:>4} m    {name:<33} {rating:>4}\n"
        for n, (name, rating) in enumerate(
            [("Anna", 1400), ("Bob", 1500), ("Carl", 1300), ("Dora", 1600), ("Eve", 1350)], 1
        )
    ),
}


@pytest.mark.parametrize("kind", list(PRIORS))
def test_rate_takes_every_shape_of_rating_list(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r9.csv").write_text(R9_CSV, encoding="utf-8")
    (tmp_path / "prior.txt").write_text(PRIORS[kind], encoding="utf-8")
    assert (
        cli.main(
            ["rate", str(tmp_path / "r9.csv"), "--prior", str(tmp_path / "prior.txt"), "--json"]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    assert list(document["players"][0]) == PLAYER_FIELDS
    anna = document["players"][0]
    assert (anna["name"], anna["rating_before"], anna["k"], anna["provisional_before"]) == (
        "Anna",
        1400,
        20,
        False,
    )
    assert anna["rating_after"] == pytest.approx(ANNA_AFTER, abs=0.005)


def test_a_list_with_games_below_the_threshold_keeps_them_provisional(
    tmp_path: Path, capsys
) -> None:
    (tmp_path / "r9.csv").write_text(R9_CSV, encoding="utf-8")
    (tmp_path / "prior.csv").write_text("name;rating;games\nAnna;1400;2\n", encoding="utf-8")
    assert (
        cli.main(
            ["rate", str(tmp_path / "r9.csv"), "--prior", str(tmp_path / "prior.csv"), "--json"]
        )
        == 0
    )
    anna = json.loads(capsys.readouterr().out)["players"][0]
    assert (anna["rating_before"], anna["k"], anna["provisional_before"]) == (1400, 40, True)
