"""The errors a person meets on the command line and the text of the CPI, coach, analyze, serve,
demo and import-club commands are told in the arbiter's language (LANG), and their JSON stays
English: real ``clubrating`` processes, as tests/test_language.py runs them, and the texts checked
directly where no process is needed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clubrating import djangoenv
from clubrating.errors import ClubratingError, InputError
from clubrating.tournament.pairing import History, PairingFailed, Seat, pair_round
from clubrating.tournament.roundrobin import PairingSystem

ROOT = Path(__file__).resolve().parents[1]
ANALYSIS_DATA = ROOT / "tests" / "analysis" / "data"
FAKE_UCI = ROOT / "tests" / "analysis" / "fake_uci.py"


def clubrating(language: str, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    env.update(LANG=language, PYTHONPATH=str(ROOT / "src"), **environ)
    return subprocess.run(
        [sys.executable, "-m", "clubrating", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


# The command line's main() for each command of argv[1] (JSON), in turn, in one process.
COMMANDS_IN_ONE_PROCESS = """import json, sys
from clubrating.cli import main
for argv in json.loads(sys.argv[1]):
    if main(argv) != 0:
        sys.exit(f"clubrating {' '.join(argv)} failed")
"""


def prepare(*commands: list[str]) -> None:
    """Commands that only prepare what a test reads, in English, one after another in one
    process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    env.update(LANG="C.UTF-8", PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS_IN_ONE_PROCESS, json.dumps(commands)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def one_error_line(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def fake_engine(directory: Path) -> Path:
    path = directory / "fakefish"
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {FAKE_UCI} "$@"\n')
    path.chmod(0o755)
    return path


def test_an_engine_missing_or_talking_nonsense_is_one_line_in_russian_and_armenian(
    tmp_path: Path,
) -> None:
    pgn = str(ANALYSIS_DATA / "hung_queen.pgn")
    missing = one_error_line(
        clubrating("ru_RU.UTF-8", "analyze", pgn, "--engine", str(tmp_path / "nofish"))
    )
    assert missing == (
        f"clubrating analyze: ошибка: {tmp_path / 'nofish'}: здесь нет исполняемого UCI-движка "
        "(apt-get install stockfish или --engine ПУТЬ)"
    )
    engine = fake_engine(tmp_path)
    garbage = one_error_line(
        clubrating(
            "hy_AM.UTF-8",
            "analyze",
            pgn,
            "--engine",
            str(engine),
            "--nodes",
            "500",
            FAKE_UCI_MODE="garbage",
            FAKE_UCI_LOG=str(tmp_path / "uci.log"),
        )
    )
    assert garbage.startswith(
        f"clubrating analyze: սխալ: {engine}՝ անընթեռնելի վերլուծություն՝ "
    ), garbage
    assert "(վերլուծվում էր " in garbage and " — խաղ 1 (" in garbage
    assert "searching" not in garbage and "game 1" not in garbage


def test_a_date_the_importer_cannot_read_is_told_in_russian(tmp_path: Path) -> None:
    csv = tmp_path / "night.csv"
    csv.write_text(
        "# date: 9 Foo 2024\nround,white,black,result\n1,Anna Smith,Bob Jones,1-0\n",
        encoding="utf-8",
    )
    line = one_error_line(clubrating("ru_RU.UTF-8", "rate", str(csv)))
    assert line == f"clubrating rate: ошибка: {csv}:1: # date: неизвестное название месяца 'Foo'", (
        line
    )


@pytest.fixture
def russian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        djangoenv, "_ready", False
    )  # the catalogue file, as a command before Django
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)


def test_the_pairing_errors_keep_their_values_and_are_translated(russian: None) -> None:
    with pytest.raises(InputError) as system:
        PairingSystem.parse("knockout")
    assert str(system.value) == (
        "'knockout' is not a pairing system: expected swiss, round-robin, double-round-robin "
        "or keizer"
    )
    assert system.value.translated(djangoenv) == (
        "'knockout' — не система жеребьёвки: ожидалось swiss, round-robin, double-round-robin "
        "или keizer"
    )
    with pytest.raises(PairingFailed) as alone:
        pair_round(History((Seat(1),)), 1, 5, [1])
    assert isinstance(alone.value, ClubratingError) and isinstance(alone.value, ValueError)
    assert str(alone.value) == "round 1 needs at least two players to pair, not 1"
    assert (
        alone.value.translated(djangoenv)
        == "для жеребьёвки тура 1 нужно не меньше двух игроков, а не 1"
    )


def test_the_text_of_analyze_is_russian_with_its_factor_table_aligned(tmp_path: Path) -> None:
    engine = fake_engine(tmp_path)
    run = clubrating(
        "ru_RU.UTF-8",
        "analyze",
        str(ANALYSIS_DATA / "hung_queen.pgn"),
        "--engine",
        str(engine),
        "--nodes",
        "500",
        FAKE_UCI_LOG=str(tmp_path / "uci.log"),
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(
        "набор настроек CPI fide-classical: набор настроек подобран при 150,000 узлах "
    ), lines[0]
    assert (
        lines[1].startswith("Партия 1: ") and " узлов, MultiPV 3; анализов движка: " in lines[1]
    ), lines[1]
    sides = [line for line in lines if line.startswith("  белые ") or line.startswith("  чёрные ")]
    assert len(sides) == 2 and all(": ΔCPI " in line for line in sides), sides
    table = [
        line
        for line in lines
        if line.startswith("    ") and line.split()[0] in ("E", "T", "O", "B1", "H")
    ]
    assert len(table) == 10 and all(
        line.endswith(
            ("чем больше, тем лучше", "чем меньше, тем лучше", "само по себе ни хорошо, ни плохо")
        )
        for line in table
    ), table
    matched = [re.match(r"    \S+ +.*?\S {2,}", line) for line in table]
    starts = {m.end() for m in matched}  # type: ignore[union-attr]
    assert len(starts) == 1, table  # the meanings start in one column
    assert "searches" not in run.stdout and "more is better" not in run.stdout


def test_import_club_reports_in_russian_and_its_json_stays_english(tmp_path: Path) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    archive = str(tmp_path / "riverside.jsonl.gz")
    prepare(
        ["init", "Riverside", "--database", source], ["export-club", archive, "--database", source]
    )
    run = clubrating("ru_RU.UTF-8", "import-club", archive, "--database", target)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("импортирован клуб «Riverside» (riverside): "), run.stdout
    assert run.stdout.rstrip().endswith(("строка", "строки", "строк"))
    assert run.stderr.startswith(
        "clubrating import-club: у ссылки для доступа по ссылке новый токен: /u/"
    )
    again = clubrating(
        "hy_AM.UTF-8",
        "import-club",
        archive,
        "--json",
        "--database",
        f"sqlite:///{tmp_path / 'c.sqlite3'}",
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == {
        "club": "riverside",
        "rows": 2,
        "new_logins": [],
        "existing_logins": [],
        "arbiters_not_made": [],
    }


def test_the_server_s_first_line_and_the_demo_s_summary_are_russian(russian: None) -> None:
    from clubrating.commands.demo import summary_line
    from clubrating.commands.serve import serving_line
    from clubrating.errors import Text
    from clubrating.words import Nn_

    waiting = Text(
        Nn_(
            "%(count)s analysis job is waiting and no worker has been seen: start one with "
            "'clubrating worker'",
            "%(count)s analysis jobs are waiting and no worker has been seen: start one with "
            "'clubrating worker'",
        ),
        count=3,
    )
    assert serving_line("http://127.0.0.1:8000/", None) == (
        "clubrating: сервер работает на http://127.0.0.1:8000/ (Ctrl-C — остановить)"
    )
    assert serving_line("http://127.0.0.1:8000/", waiting).endswith(
        "; 3 задания анализа ждут, а ни одного обработчика "
        "не видно: запустите его командой «clubrating worker»"
    )
    summary = {
        "club": "Demo",
        "members": 21,
        "tournaments": 2,
        "first_date": "2024-01-02",
        "last_date": "2024-06-25",
        "games": 5,
        "games_with_moves": 3,
        "analysis": {"games": 3},
        "corrections": 1,
        "merges": 0,
        "seconds": {"total": 12.4},
    }
    assert summary_line(summary) == (
        "демо-клуб «Demo»: 21 член клуба, 2 турнира (с 2024-01-02 по 2024-06-25), "
        "5 партий (с ходами: 3, проанализировано: 3), 1 исправленный результат, "
        "0 объединений; создан за 12 с"
    )
