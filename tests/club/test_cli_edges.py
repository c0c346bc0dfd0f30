"""Edges of the command line a new user meets: aligned standings, no '|' in --help, a database
that is not there, a busy port, the password prompt, what init says, the club slugs."""

from __future__ import annotations

import json
import os
import pty
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clubrating.cli import build_parser, main
from clubrating.commands.tournaments import standings_lines
from clubrating.words import display_width, fit

SRC = str(Path(__file__).resolve().parents[2] / "src")
LONG = "Ёлкин Иван Дмитриевич-Сидоровский Младший"
EVENING = f"""# event: Tuesday evening
# date: 2026-03-03
round,white,black,result
1,Anna Berg,Ben Cole,1-0
1,Արամ Պետրոսյան,{LONG},1/2-1/2
2,Ben Cole,Արամ Պետրոսյան,0-1
2,{LONG},Anna Berg,0-1
"""


def clubrating(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: its own process, in ``cwd``, the default database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    env["PYTHONPATH"] = SRC
    return subprocess.run(
        [sys.executable, "-m", "clubrating", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_line(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture(scope="module")
def riverside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``clubrating init Riverside`` run once for the module's tests that start from that club
    (none of them is about init): its database, which each copies into a folder of its own."""
    folder = tmp_path_factory.mktemp("riverside")
    assert clubrating(folder, "init", "Riverside").returncode == 0
    return closed(folder / "clubrating.sqlite3")


@pytest.fixture(scope="module")
def first_init(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """``clubrating init 'Riverside Chess Club'`` in an empty folder, once: what it made and
    said."""
    folder = tmp_path_factory.mktemp("first-init")
    return folder, clubrating(folder, "init", "Riverside Chess Club")


def closed(database: Path) -> Path:
    """``database``, checked to be closed cleanly: the file alone is the whole database, to copy."""
    assert (
        database.exists()
        and not Path(f"{database}-wal").exists()
        and not Path(f"{database}-shm").exists()
    )
    return database


def copied(database: Path, folder: Path) -> Path:
    """``folder`` holding a copy of ``database`` as its default database (clubrating.sqlite3)."""
    shutil.copyfile(closed(database), folder / "clubrating.sqlite3")
    return folder


def prepared(cwd: Path, *commands: tuple[str, ...]) -> None:
    """Commands that only set up what a test then looks at, run in order in one process of
    their own (``cli.main`` each, as writer_loop.py does): each must succeed."""
    code = (
        "import json, sys\nfrom clubrating import cli\nfor argv in json.loads(sys.argv[1]):\n"
        "    if cli.main(argv):\n        sys.exit(f'{argv} failed')"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    env["PYTHONPATH"] = SRC
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(commands)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("text", "width"),
    [("Anna", 4), ("Արամ", 4), ("Ёлкин", 5), ("Е\u0308лкин", 5), ("王小明", 6), ("", 0)],
)
def test_widths_count_characters_as_a_terminal_shows_them(text: str, width: int) -> None:
    assert display_width(text) == width


def test_a_cell_is_cut_or_padded_to_its_width() -> None:
    assert fit("Արամ", 6) == "Արամ  " and fit("Anna", 6, ">") == "  Anna"
    assert fit(LONG, 12) == "Ёлкин Иван …" and display_width(fit("王小明王小明", 7)) == 7


def test_the_standings_have_headers_start_numbers_and_straight_columns(
    riverside: Path, tmp_path: Path
) -> None:
    (copied(riverside, tmp_path) / "evening.csv").write_text(EVENING, encoding="utf-8")
    prepared(tmp_path, ("import", "evening.csv"), ("link", "1", "--all-new"), ("publish", "1"))
    lines = clubrating(tmp_path, "tournament", "1").stdout.splitlines()
    assert lines[1].startswith("Ranked by points, then ")  # which rule ranked the table
    header, rows = lines[2], lines[3:7]
    assert header.split() == ["place", "no.", "name", "points", "1", "2", "before", "change"]
    assert [row.split()[:2] for row in rows] == [["1", "1"], ["2", "3"], ["3", "4"], ["4", "2"]]
    assert "Ёлкин Иван Дмитриевич-Сидоров…" in rows[2]
    for column in (
        "points",
        "before",
        "change",
    ):  # right-aligned columns end where their header ends
        end = header.index(column) + len(column)
        assert all(display_width(row[:end]) == end and row[end - 1] != " " for row in rows), (
            column,
            rows,
        )
    listing = clubrating(tmp_path, "tournament").stdout.splitlines()
    assert listing[0].split() == ["id", "date", "status", "kind", "name"]


def test_standings_lines_leave_a_column_for_a_round_nobody_played() -> None:
    table = {
        "rounds": 2,
        "players": [
            {
                "number": 1,
                "name": "王小明",
                "points": 1.0,
                "rating_before": 1200.0,
                "change": 10.0,
                "rounds": [{"round": 1, "opponent": 2, "colour": "w", "score": 1.0, "rated": True}],
            },
            {
                "number": 2,
                "name": "Bob",
                "points": 0.0,
                "rating_before": None,
                "change": None,
                "rounds": [{"round": 1, "opponent": 1, "colour": "b", "score": 0.0, "rated": True}],
            },
        ],
    }
    header, first, second = standings_lines(table)
    assert header.split()[4:6] == ["1", "2"]
    assert display_width(first.rstrip()) == len(header) and display_width(
        first[: first.index("2w1")]
    ) == second.index("1b0")


def test_help_writes_no_alternatives_with_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in ["", *commands]:
        with pytest.raises(SystemExit):
            main([name, "--help"] if name else ["--help"])
        text = capsys.readouterr().out
        for line in text.splitlines():  # a real pipe only: input fed into the command
            assert "|" not in line or "echo " in line.split("|")[0], (name, line)


@pytest.mark.parametrize(
    "args",
    [
        ("ratings",),
        ("player", "Anna"),
        ("tournament", "1"),
        ("audit",),
        ("entries", "1"),
        ("settings",),
        ("link", "1", "--exact"),
        ("import", "x.csv"),
    ],
)
def test_a_command_on_a_database_that_is_not_there_says_so_and_creates_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    err = one_line(clubrating(tmp_path, *args))
    assert (
        f"{tmp_path / 'clubrating.sqlite3'}: no database here: create one with clubrating init"
        in err
    )
    assert list(tmp_path.iterdir()) == []


def test_init_creates_the_database_and_says_who_can_see_the_club(
    first_init: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    folder, result = first_init
    assert result.returncode == 0 and (folder / "clubrating.sqlite3").exists()
    out = result.stdout
    assert "created club 'Riverside Chess Club' (riverside-chess-club), policy club" in out
    assert (
        "who can see it: only the arbiters" in out
        and "clubrating privacy --visibility unlisted" in out
    )
    assert "clubrating arbiter add LOGIN --club riverside-chess-club" in out


def test_an_unknown_club_slug_lists_the_club_slugs(
    first_init: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder, result = first_init  # the club 'Riverside Chess Club', as init made it
    assert result.returncode == 0
    copied(folder / "clubrating.sqlite3", tmp_path)
    err = one_line(clubrating(tmp_path, "ratings", "--club", "riverside"))
    assert "no club 'riverside' in this database: the clubs are riverside-chess-club" in err
    assert clubrating(tmp_path, "init", "Hilltop").returncode == 0
    err = one_line(clubrating(tmp_path, "ratings"))
    assert "say which with --club SLUG (the clubs are hilltop, riverside-chess-club)" in err


def test_serve_on_a_busy_port_is_one_line_and_exit_2(riverside: Path, tmp_path: Path) -> None:
    copied(riverside, tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for dev in ((), ("--dev",)):
            started = time.monotonic()
            err = one_line(clubrating(tmp_path, "serve", "--port", str(port), *dev))
            assert f"port {port} on 127.0.0.1 is in use by another program" in err
            assert time.monotonic() - started < 30


def _on_a_terminal(cwd: Path, args: list[str], answers: list[str]) -> tuple[int, str]:
    """Run the command with a terminal of its own (pty.fork: getpass reads /dev/tty), typing
    ``answers``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    env["PYTHONPATH"] = SRC
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.chdir(cwd)
        os.execve(sys.executable, [sys.executable, "-m", "clubrating", *args], env)
    said = b""
    for answer in answers:
        while b": " not in said.rsplit(b"\n", 1)[-1]:
            said += os.read(fd, 1024)
        said += b"\n"
        os.write(fd, answer.encode() + b"\n")
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        said += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), said.decode(errors="replace")


def test_arbiter_add_asks_for_the_password_on_a_terminal(riverside: Path, tmp_path: Path) -> None:
    copied(riverside, tmp_path)
    code, said = _on_a_terminal(tmp_path, ["arbiter", "add", "alice"], ["long secret phrase"] * 2)
    assert code == 0, said
    assert (
        "Password for the new login alice: " in said and "long secret phrase" not in said
    )  # not echoed
    assert "alice is an arbiter of Riverside (new login)" in said
    code, said = _on_a_terminal(
        tmp_path, ["arbiter", "add", "bob"], ["long secret phrase", "another phrase"]
    )
    assert code == 2 and "the two passwords differ: nothing changed" in said
    code, said = _on_a_terminal(tmp_path, ["arbiter", "add", "bob"], [""])
    assert code == 2 and "'bob' is a new login: it needs a password" in said
    assert clubrating(tmp_path, "arbiter", "list").stdout.split() == ["alice"]
    err = one_line(
        clubrating(tmp_path, "arbiter", "add", "carol")
    )  # no terminal, no --password-stdin
    assert "'carol' is a new login: give a password (--password-stdin)" in err
