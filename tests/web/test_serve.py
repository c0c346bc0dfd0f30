"""``clubrating serve`` answers over HTTP with gunicorn and stops on SIGTERM."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from clubrating.web.access import CACHE_HEADER


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    server = response.getheader("Server") or ""
    response.read()
    conn.close()
    return response.status, server


def test_clubrating_serve_answers_with_gunicorn_workers_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    port = _free_port()
    env = {**os.environ, "CLUBRATING_DEBUG": "0"}
    command = [
        sys.executable,
        "-m",
        "clubrating.cli",
        "--database",
        f"sqlite:///{tmp_path}/site.sqlite3",
        "serve",
        "--port",
        str(port),
        "--workers",
        "2",
    ]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        answer = None
        for _ in range(150):
            try:
                answer = _get(port, "/robots.txt")
                break
            except OSError:
                time.sleep(0.1)
        assert answer == (200, "gunicorn"), answer
        assert _get(port, "/c/no-such-club/")[0] == 404
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err.decode()
    assert f"serving on http://127.0.0.1:{port}/" in out.decode()


def _header(port: int, path: str, name: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, response.getheader(name) or ""


def _start(database: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "clubrating.cli",
        "--database",
        database,
        "serve",
        "--port",
        str(port),
        "--workers",
        "2",
    ]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    for _ in range(150):
        try:
            _get(port, "/robots.txt")
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError(
        f"the server on port {port} did not answer: {server.communicate()[1].decode()}"
    )


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc: field 4 of stat is the parent)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    server.communicate(timeout=30)
    assert server.returncode == 0


def test_server_processes_share_one_page_cache(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    env = {**os.environ, "CLUBRATING_DEBUG": "0", "CLUBRATING_PAGE_CACHE": str(tmp_path / "pages")}
    for command in (["init", "Riverside"], ["privacy", "--visibility", "public"]):
        subprocess.run(
            [sys.executable, "-m", "clubrating.cli", "--database", database, *command],
            env=env,
            check=True,
            capture_output=True,
        )
    first, first_port = _start(database, env)
    second, second_port = _start(database, env)
    try:
        assert _header(first_port, "/c/riverside/", CACHE_HEADER) == (200, "miss")
        assert _header(second_port, "/c/riverside/", CACHE_HEADER) == (
            200,
            "hit",
        )  # another process
    finally:
        _stop(first)
        _stop(second)


def test_serve_keeps_its_page_cache_in_a_directory_of_its_own_and_removes_it(
    tmp_path: Path,
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CLUBRATING_PAGE_CACHE"}
    env.update({"CLUBRATING_DEBUG": "0", "TMPDIR": str(temp)})
    server, port = _start(f"sqlite:///{tmp_path}/site.sqlite3", env)
    try:
        (pages,) = temp.glob("clubrating-pages-*")
        assert (
            pages.stat().st_mode & 0o077 == 0
        )  # readable by this user only: unlisted clubs' pages
        workers = _children(server.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGTERM)  # a worker leaves (gunicorn starts another)
        time.sleep(1.0)
        assert pages.is_dir()  # only the server itself removes the cache
        assert _get(port, "/robots.txt")[0] == 200
    finally:
        _stop(server)
    assert not list(temp.glob("clubrating-pages-*"))
