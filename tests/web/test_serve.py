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


def test_clubrating_serve_answers_with_gunicorn_workers_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "CLUBRATING_DEBUG": "0"}
    command = [sys.executable, "-m", "clubrating.cli", "--database", f"sqlite:///{tmp_path}/site.sqlite3",
               "serve", "--port", str(port), "--workers", "2"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              start_new_session=True)
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
