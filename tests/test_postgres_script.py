"""``scripts/postgres`` from a checkout under a 0700 directory (root's home): run as
root, initdb runs as the postgres user, who could not enter the checkout's var/pg.

Real PostgreSQL binaries, its own port and data directory; skipped where they are missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HAS_POSTGRES = any(Path("/usr/lib/postgresql").glob("*/bin/initdb"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.skipif(not HAS_POSTGRES, reason="needs the postgresql package")
@pytest.mark.skipif(
    os.geteuid() != 0, reason="the postgres user matters only when root runs the script"
)
def test_the_test_server_starts_and_stops_from_a_checkout_under_a_private_home() -> None:
    home = Path(tempfile.mkdtemp(dir="/root" if os.access("/root", os.W_OK) else None))
    home.chmod(0o700)
    checkout = home / "clubrating"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "postgres", checkout / "scripts" / "postgres")
    script = str(checkout / "scripts" / "postgres")
    env = {**os.environ, "CLUBRATING_PG_PORT": str(free_port())}
    env.pop("CLUBRATING_PG_DATA", None)
    try:
        started = subprocess.run(
            [script, "start"], env=env, capture_output=True, text=True, timeout=120
        )
        assert started.returncode == 0, started.stderr
        data = Path(
            subprocess.run([script, "data"], env=env, capture_output=True, text=True).stdout.strip()
        )
        assert not data.is_relative_to(home) and data.owner() == "postgres"
        assert data.stat().st_mode & 0o777 == 0o700
        url = subprocess.run(
            [script, "url"], env=env, capture_output=True, text=True
        ).stdout.strip()
        with socket.create_connection(
            ("127.0.0.1", int(url.rsplit(":", 1)[1].split("/")[0])), timeout=5
        ):
            pass  # the server answers on its port
        assert subprocess.run([script, "stop"], env=env, timeout=60).returncode == 0
        assert not (data / "postmaster.pid").exists()
        assert (
            subprocess.run([script, "start"], env=env, timeout=120).returncode == 0
        )  # again, same data
        assert subprocess.run([script, "clean"], env=env, timeout=60).returncode == 0
        assert not data.exists()
    finally:
        subprocess.run([script, "clean"], env=env, timeout=60, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
