"""The guide's first steps, as each language's guide prints them, typed into a new club: the
club's existing list ends up as its members' ratings."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from clubrating.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"
LIST = "name,rating,games\nAnna Berg,1600,40\nBen Cole,1450,3\nCara Dunn,1500,12\n"
SKIPPED = {"arbiter", "serve"}  # a password on stdin, a server that runs until stopped


def setup_commands(language: str) -> list[list[str]]:
    """The ``clubrating`` lines of the first shell block of the guide's section 1."""
    text = (DOCS / f"guide.{language}.md").read_text(encoding="utf-8")
    section = text[text.index("## 1.") : text.index("## 2.")]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    lines = [line.split("#", 1)[0].strip() for line in block.group(1).splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("clubrating ")]
    return [c for c in commands if c[0] not in SKIPPED]


@pytest.mark.parametrize("language", ["en", "hy", "ru"])
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_guides_setup_steps_make_a_new_clubs_list_its_members_ratings(
    language: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.csv").write_text(LIST, encoding="utf-8")
    commands = setup_commands(language)
    assert commands[0][0] == "init"
    for command in commands:
        assert main(command) == 0, command
    capsys.readouterr()
    assert main(["ratings", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert sorted((r["name"], r["rating"]) for r in rows["players"]) == [
        ("Anna Berg", 1600),
        ("Ben Cole", 1450),
        ("Cara Dunn", 1500),
    ]
