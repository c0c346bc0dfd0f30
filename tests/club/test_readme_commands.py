"""Every ``clubrating`` line of the ``sh`` blocks of the README and of the command reference
(docs/cli.md) works as written: run in order, each in its own process as a user types it, on a
fresh database in a directory holding the files they name (tests/club/readme/: tuesday.trf,
ratings.csv, members.txt, games.pgn, rated/).

The first line and ``serve`` start ``python -m clubrating`` itself; the others run in processes
forked from one that has imported the command line already (tests/club/readme/forks.py), which
makes the two tests three times faster (docs/testing.md) and runs the same ``main``."""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .forked import Forks

ROOT = Path(__file__).resolve().parents[2]
FILES = Path(__file__).resolve().parent / "readme"
PASSWORD = "long secret phrase for alice\n"
# Lines that cannot run as written, and what the test runs instead (none today; an entry
# whose line is no longer in the README is simply not used).
CORRECTIONS: dict[str, list[str]] = {}
# Lines this test does not run, and where they are tested instead
NOT_RUN = {
    "clubrating calibrate": "needs a corpus of rated games (at least 13) analysed by the engine: "
    "tests/cpi/test_calibrate.py",
}


def readme_commands(text: str) -> list[str]:
    """The ``clubrating ...`` commands of the README's ``sh`` blocks, in order, comments dropped;
    ``a ; b`` on one line is two commands."""
    commands, in_block = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh" and not in_block
            continue
        if not in_block or not line.startswith("clubrating "):
            continue
        words = shlex.split(line, comments=True)
        command = " ".join(words)
        for written, instead in CORRECTIONS.items():
            if command == " ".join(shlex.split(written)):
                commands.extend(instead)
                break
        else:
            commands.extend(part.strip() for part in shlex.join(words).split(" ';' "))
    return commands


def test_the_readme_lines_are_read_as_commands() -> None:
    text = (
        "```sh\nclubrating init 'A B'   # a club\nclubrating merge 31 7 ; clubrating "
        "unmerge 31\n```\nclubrating not in a block\n```\nclubrating not sh\n```\n"
    )
    assert readme_commands(text) == [
        "clubrating init 'A B'",
        "clubrating merge 31 7",
        "clubrating unmerge 31",
    ]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    env["PYTHONPATH"] = str(ROOT / "src")
    env["CLUBRATING_NODES"] = "2000"  # the worker's default; analyze is given --nodes on its line
    return env


def arguments(command: str, cwd: Path) -> list[str]:
    """The words the shell would pass to ``clubrating``: quotes removed, globs expanded in
    ``cwd``."""
    words = []
    for word in shlex.split(command)[1:]:
        found = sorted(glob.glob(word, root_dir=cwd)) if any(c in word for c in "*?[") else []
        words.extend(found or [word])
    return words


def argv(command: str, cwd: Path) -> list[str]:
    return [sys.executable, "-m", "clubrating", *arguments(command, cwd)]


def serve_once(command: str, cwd: Path) -> None:
    """``clubrating serve`` runs until stopped: it must answer a page, then it is stopped."""
    words = argv(command, cwd)
    port = 8000
    with socket.socket() as probe:
        # Another program already listens on 8000, or another test of a parallel run may.
        if probe.connect_ex(("127.0.0.1", port)) == 0 or os.environ.get("PYTEST_XDIST_WORKER"):
            with socket.socket() as free:
                free.bind(("127.0.0.1", 0))
                port = free.getsockname()[1]
            words += ["--port", str(port)]
    server = subprocess.Popen(
        words, cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200
                    return
            except OSError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline, "serve answered nothing in 60 s"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.communicate(timeout=30)


def run_in_order(commands: list[str], cwd: Path) -> list[str]:
    """Run ``commands`` in ``cwd`` as a user would, the club's earlier evenings stored right after
    ``clubrating init`` (tuesday.trf is then tournament 12, as the examples say); what failed."""
    for name in ("tuesday.trf", "ratings.csv", "members.txt", "games.pgn"):
        shutil.copy(FILES / name, cwd / name)
    failed = []
    with Forks(cwd=cwd, env=environment()) as forks:
        for number, command in enumerate(commands):
            if any(command.startswith(prefix + " ") for prefix in NOT_RUN):
                continue
            if re.match(r"clubrating serve\b", command):
                serve_once(command, cwd)
                continue
            stdin = PASSWORD if "--password-stdin" in command else ""
            if number == 0:  # the entry point itself, as the shell starts it
                done = subprocess.run(
                    argv(command, cwd),
                    cwd=cwd,
                    env=environment(),
                    capture_output=True,
                    text=True,
                    timeout=600,
                    input=stdin,
                )
                code, stderr = done.returncode, done.stderr
            else:
                forked = forks.run(arguments(command, cwd), stdin)
                code, stderr = forked.returncode, forked.stderr
            if code != 0:
                failed.append(f"{command}\n    -> exit {code}: {stderr.strip()[-300:]}")
            if command.startswith("clubrating init "):
                subprocess.run(
                    [sys.executable, str(FILES / "history.py"), "sqlite:///clubrating.sqlite3"],
                    cwd=cwd,
                    env=environment(),
                    check=True,
                    timeout=300,
                )
    return failed


def test_a_forked_command_fails_as_its_own_process_does(tmp_path: Path) -> None:
    """A usage error, a missing database (for a command that reads stdin too): the same status
    and the same lines on stderr from a fork as from ``python -m clubrating``, and no file made."""
    commands = [
        "clubrating no-such-command",
        "clubrating ratings",
        "clubrating arbiter add bob --password-stdin",
    ]
    with Forks(cwd=tmp_path, env=environment()) as forks:
        for command in commands:
            alone = subprocess.run(
                argv(command, tmp_path),
                cwd=tmp_path,
                env=environment(),
                capture_output=True,
                text=True,
                timeout=600,
                input="short\n",
            )
            forked = forks.run(arguments(command, tmp_path), "short\n")
            assert alone.returncode == 2 and alone.stderr.strip(), command
            assert (forked.returncode, forked.stderr) == (alone.returncode, alone.stderr), command
    assert list(tmp_path.iterdir()) == []


@pytest.mark.engine
def test_every_command_of_the_readme_works_as_written(tmp_path: Path) -> None:
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert commands[0].startswith("clubrating init ") and len(commands) > 25
    failed = run_in_order(commands, tmp_path)
    assert not failed, "README commands that fail:\n" + "\n".join(failed)


@pytest.mark.engine
def test_every_example_of_the_command_reference_works_as_written(tmp_path: Path) -> None:
    commands = readme_commands((ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    assert (
        any(command.startswith("clubrating init ") for command in commands) and len(commands) > 40
    )
    failed = run_in_order(commands, tmp_path)
    assert not failed, "docs/cli.md examples that fail:\n" + "\n".join(failed)
