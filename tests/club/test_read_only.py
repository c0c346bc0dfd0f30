"""A SQLite database this process may not write: every read command works, opened
read-only; a write, or a file that cannot be created, is one line naming the path and why.

Run as root, the commands run under ``setpriv`` without CAP_DAC_OVERRIDE, so that file modes
bind root as they bind everyone else. Besides ``ratings``, started as ``python -m clubrating.cli``,
the read commands run in processes forked from one that has imported the command line
(tests/club/readme/forks.py, started the same way): each opens the database as a new process does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .forked import Forks

EVENING = (
    "# event: Tuesday evening\n# date: 2026-03-03\nround,white,black,result\n"
    "1,Anna Berg,Ben Cole,1-0\n1,Cara Dunn,Dan Eng,1/2-1/2\n"
)
NO_OVERRIDE = [
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
]

pytestmark = pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None,
    reason="root needs setpriv to be bound by file modes",
)


def clubrating(database: Path, *args: str, bound: bool = True) -> subprocess.CompletedProcess[str]:
    prefix = NO_OVERRIDE if bound and os.geteuid() == 0 else []
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLUBRATING_", "DJANGO_"))}
    return subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "clubrating.cli",
            "--database",
            f"sqlite:///{database}",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture(scope="module")
def forks() -> Iterator[Forks]:
    """forks.py bound as the commands are."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLUBRATING_", "DJANGO_"))}
    with Forks(env=env, prefix=NO_OVERRIDE if os.geteuid() == 0 else []) as started:
        yield started


@pytest.fixture(scope="module")
def built_club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club with one published evening, written with full rights: built once for the module's
    tests (none of them is about these commands), each test reading a copy of its own."""
    folder = tmp_path_factory.mktemp("built")
    database = folder / "club.sqlite3"
    evening = folder / "evening.csv"
    evening.write_text(EVENING)
    for args in (
        ("init", "Riverside Chess Club"),
        ("import", str(evening)),
        ("link", "1", "--all-new"),
        ("publish", "1"),
    ):
        done = clubrating(database, *args, bound=False)
        assert done.returncode == 0, done.stderr
    assert not Path(f"{database}-shm").exists()  # closed cleanly: SQLite removed its WAL index
    assert not Path(f"{database}-wal").exists()  # so the file alone is the whole database
    return database


@pytest.fixture
def club_file(built_club: Path, tmp_path: Path) -> Iterator[Path]:
    """The built club, copied into a directory of the test's own."""
    folder = tmp_path / "club"
    folder.mkdir()
    database = folder / "club.sqlite3"
    shutil.copyfile(built_club, database)
    yield database
    folder.chmod(0o755)


@pytest.mark.parametrize(
    "file_mode, folder_mode",
    [(0o444, 0o555), (0o644, 0o555), (0o444, 0o755)],
    ids=["file and folder read-only", "folder read-only", "file read-only"],
)
def test_every_read_command_works_on_a_read_only_database(
    club_file, forks, file_mode, folder_mode
) -> None:
    club_file.chmod(file_mode)
    club_file.parent.chmod(folder_mode)
    ratings = clubrating(club_file, "ratings", "--json")
    assert ratings.returncode == 0, ratings.stderr
    assert [p["name"] for p in json.loads(ratings.stdout)["players"]][0] == "Anna Berg"
    for args in (
        ("player", "Anna Berg"),
        ("tournament", "1"),
        ("audit",),
        ("entries", "1"),
        ("duplicates",),
    ):
        done = forks.run(["--database", f"sqlite:///{club_file}", *args])
        assert done.returncode == 0, (args, done.stderr)
    assert club_file.stat().st_mode & 0o777 == file_mode


def test_a_write_on_a_read_only_database_is_one_line_naming_the_file_and_why(club_file) -> None:
    club_file.chmod(0o444)
    club_file.parent.chmod(0o555)
    done = clubrating(club_file, "correct", "1", "1", "Anna Berg", "0-1")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"clubrating correct: error: {club_file}: this command changes the "
        "database, which is read-only here: the file is not writable (mode 0444)"
    ]


def test_a_database_that_cannot_be_created_is_one_line_naming_the_file_and_why(tmp_path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    folder.chmod(0o555)
    try:
        done = clubrating(folder / "new.sqlite3", "ratings")
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"clubrating ratings: error: {folder / 'new.sqlite3'}: cannot create the "
        f"database: the directory {folder} is not writable"
    )
