"""An engine that hangs or talks nonsense, and a command killed mid-analysis.

The fake engine (``fake_uci.py``) hangs or prints ``score cp abc`` on demand; both adapters
must end with one line naming the engine, the position and the game. The kill test runs
``clubrating analyze --jobs 2`` with the real Stockfish and checks that no process it started
survives a SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from clubrating.analysis.engine import (
    DEFAULT_ENGINE,
    MIN_TIMEOUT_S,
    TIMEOUT_ENV,
    EngineFailure,
    EngineSettings,
    search_timeout,
)
from clubrating.analysis.runner import analyse_games, read_pgn_file
from clubrating.commands.output import (
    MAX_NODES,
)  # the most analyze takes: long searches, so that the pool is caught working
from clubrating.errors import InputError

DATA = Path(__file__).parent / "data"
PROTOCOLS = ("raw", "python-chess")
TIMEOUT_S = 3.0  # the fake engine starts in ~0.3 s; a hang is declared after this


def misbehaving(fake_engine, monkeypatch, mode: str, protocol: str, from_search: int = 3):
    monkeypatch.setenv("FAKE_UCI_MODE", mode)
    monkeypatch.setenv("FAKE_UCI_FROM", str(from_search))
    config = fake_engine.config()
    return replace(config, engine=replace(config.engine, protocol=protocol, timeout=TIMEOUT_S))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_hung_engine_ends_the_analysis_with_a_line_naming_engine_position_and_game(
    fake_engine, monkeypatch, protocol
) -> None:
    config = misbehaving(fake_engine, monkeypatch, "hang", protocol)
    games = read_pgn_file(DATA / "hung_queen.pgn")
    started = time.monotonic()
    with pytest.raises(EngineFailure) as failure:
        analyse_games(games, config)
    assert time.monotonic() - started < TIMEOUT_S + 10
    message = str(failure.value)
    assert "\n" not in message
    assert str(fake_engine.path) in message and f"no answer within {TIMEOUT_S:g} s" in message
    assert "the position after" in message and "game 1 (" in message
    deadline = (
        time.monotonic() + 5
    )  # and python-chess's engine thread ends (a cancelled search did not)
    while time.monotonic() < deadline and engine_threads():
        time.sleep(0.05)
    assert not engine_threads()


def test_an_answer_already_waiting_past_the_deadline_is_read_not_taken_for_a_hang(
    fake_engine,
) -> None:
    """This process paused (SIGSTOP, a suspended machine) while the engine answered: when it
    runs again its deadline has passed, but the answer is there and the engine is not hung."""
    from clubrating.analysis.rawuci import RawUciSearcher

    searcher = RawUciSearcher(fake_engine.config().engine)
    try:
        searcher._send("isready")
        time.sleep(0.5)  # the engine answers while this process does nothing
        assert searcher._readline(time.monotonic() - 1) == "readyok"
        assert searcher.proc.poll() is None  # (a silent engine is still a hang: the test above)
    finally:
        searcher.proc.kill()
        searcher.proc.wait()


def engine_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("SimpleEngine")]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_unreadable_score_is_one_error_naming_the_line(
    fake_engine, monkeypatch, protocol
) -> None:
    config = misbehaving(fake_engine, monkeypatch, "garbage", protocol, from_search=1)
    with pytest.raises(EngineFailure) as failure:
        analyse_games(read_pgn_file(DATA / "hung_queen.pgn"), config)
    message = str(failure.value)
    assert "unreadable analysis" in message and "score cp abc" in message and "game 1 (" in message


def run_cli(
    args: list[str], env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clubrating.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=timeout,
    )


@pytest.mark.parametrize("mode", ["hang", "garbage"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_analyze_with_a_broken_engine_prints_one_line_and_no_traceback(
    fake_engine, mode, jobs
) -> None:
    pgn = [str(DATA / "hung_queen.pgn"), str(DATA / "legal_mate.pgn")]
    games = "".join(Path(path).read_text() + "\n" for path in pgn)
    both = fake_engine.path.parent / "two.pgn"
    both.write_text(games)
    done = run_cli(
        ["analyze", str(both), "--engine", str(fake_engine.path), "--nodes", "500", "--jobs", jobs],
        {"FAKE_UCI_MODE": mode, "FAKE_UCI_FROM": "2", TIMEOUT_ENV: str(TIMEOUT_S)},
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clubrating analyze: error: ")
    assert str(fake_engine.path) in lines[0] and "game " in lines[0]


@pytest.mark.parametrize(
    "nodes, expected",
    [
        (1, MIN_TIMEOUT_S),
        (150_000, MIN_TIMEOUT_S),
        (300_000, MIN_TIMEOUT_S),
        (1_000_000, 100.0),
        (10_000_000, 1000.0),
    ],
)
def test_the_search_timeout_grows_with_the_node_budget(nodes, expected, monkeypatch) -> None:
    monkeypatch.delenv(TIMEOUT_ENV, raising=False)
    assert search_timeout(EngineSettings(nodes=nodes)) == expected


def test_the_timeout_can_be_set_and_a_bad_one_is_refused(monkeypatch) -> None:
    monkeypatch.setenv(TIMEOUT_ENV, "7.5")
    assert search_timeout(EngineSettings()) == 7.5
    assert search_timeout(EngineSettings(timeout=2)) == 2
    for bad in ("soon", "0", "-3", "nan"):
        monkeypatch.setenv(TIMEOUT_ENV, bad)
        with pytest.raises(InputError, match=TIMEOUT_ENV):
            search_timeout(EngineSettings())


# --- nothing outlives a killed command ---------------------------------------------------


def descendants(root: int) -> set[int]:
    """Every living process under ``root`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def ctrl_c_as_at_a_terminal() -> None:
    """SIGINT back to its default in the child: a suite started in the background by a shell
    without job control (``make test &`` in a script) ignores SIGINT, the child inherits that,
    and Python then keeps ignoring it, as a background job should, so analyze never heard it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not os.access(DEFAULT_ENGINE, os.X_OK), reason="needs Stockfish")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killing_analyze_kills_its_workers_and_engines(tmp_path, sig) -> None:
    games = read_pgn_file(DATA / "ruy_exchange.pgn") * 4
    pgn = tmp_path / "games.pgn"
    pgn.write_text("\n\n".join(str(game) for game in games))
    errors = (
        tmp_path / "stderr.txt"
    )  # a file, not a pipe nobody reads: a full pipe would block the exit
    with open(errors, "wb") as stderr:
        command = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clubrating.cli",
                "analyze",
                str(pgn),
                "--jobs",
                "2",
                "--nodes",
                str(MAX_NODES),
                "--engine",
                DEFAULT_ENGINE,
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            preexec_fn=ctrl_c_as_at_a_terminal,
        )
    started: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # two workers, each with its Stockfish, searching
            started = descendants(command.pid)
            engines = [pid for pid in started if "stockfish" in cmdline(pid)]
            if len(engines) >= 2:
                break
            time.sleep(0.2)
        assert len(started) >= 4, f"the pool never started: {started}"
        command.send_signal(sig)
        try:
            command.wait(
                timeout=60
            )  # a deadline, not a speed target: a loaded machine can take long to end it
        except subprocess.TimeoutExpired:
            pytest.fail(
                f"analyze did not end within 60 s of {sig.name}; its stderr ends: "
                f"{errors.read_text(errors='replace')[-2000:]!r}"
            )
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(pid) for pid in started):
            time.sleep(0.1)
        survivors = [pid for pid in started if alive(pid)]
        assert not survivors, f"still running after {sig.name}: {survivors}"
    finally:
        for pid in started | descendants(command.pid) | {command.pid}:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        command.wait()
