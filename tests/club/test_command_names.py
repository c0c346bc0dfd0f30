"""The club's analysis is ``analyse-club``: one letter no longer tells it from ``analyze
GAMES.pgn``. The old ``analyse`` works for one release, with one line on stderr."""

from __future__ import annotations

import json

import pytest

from clubrating.cli import build_parser, main
from clubrating.club.store.models import Club


@pytest.mark.engine
def test_analyse_club_analyses_the_clubs_games_and_says_nothing_on_stderr(
    club: Club, capsys
) -> None:
    code = main(["analyse-club", "--nodes", "1000", "--jobs", "1", "--json"])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)["games"] == 0
    assert captured.err == ""


@pytest.mark.engine
def test_the_old_name_does_the_same_after_one_line_on_stderr(club: Club, capsys) -> None:
    main(["analyse-club", "--nodes", "1000", "--jobs", "1", "--json"])
    new = capsys.readouterr().out
    code = main(["analyse", "--nodes", "1000", "--jobs", "1", "--json"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out == new
    assert captured.err.count("\n") == 1 and "'analyse' is now 'analyse-club'" in captured.err


def test_help_lists_the_file_command_and_the_club_command_apart() -> None:
    text = build_parser().format_help()
    assert "analyze" in text and "analyse-club" in text
    assert "old name of analyse-club" in text
