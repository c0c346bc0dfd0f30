"""``mypy --strict`` over the whole package (STYLE.md: typed everywhere, mypy --strict
in CI); the Django apps are checked through django-stubs' plugin (pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_passes_mypy_strict() -> None:
    # mypy's own cache in the clone (.mypy_cache, as a plain `mypy` run keeps it): a second
    # run rechecks only what changed (docs/testing.md); mypy writes its files atomically.
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache"), "src/clubrating"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
