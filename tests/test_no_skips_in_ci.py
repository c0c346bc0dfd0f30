"""In CI every test runs: a test that skips there fails the run (tests/conftest.py), so that a
missing engine, browser or server cannot pass as a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    folder = tmp_path / "tests"
    folder.mkdir(exist_ok=True)
    shutil.copy(ROOT / "tests" / "conftest.py", folder / "conftest.py")
    (folder / "test_skipping.py").write_text(
        "import pytest\n\n\ndef test_needs_what_is_missing():\n "
        "   pytest.skip('no Stockfish here')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "1"} if ci else {})
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:django",
            "-p",
            "no:xdist",
            str(folder),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )


def test_a_skip_fails_in_ci_and_stays_a_skip_elsewhere(tmp_path: Path) -> None:
    in_ci = run(tmp_path, ci=True)
    assert in_ci.returncode == 1 and "1 failed" in in_ci.stdout, in_ci.stdout + in_ci.stderr
    assert "skipped in CI, where every test must run" in in_ci.stdout
    elsewhere = run(tmp_path, ci=False)
    assert elsewhere.returncode == 0 and "1 skipped" in elsewhere.stdout, (
        elsewhere.stdout + elsewhere.stderr
    )
