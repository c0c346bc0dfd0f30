"""``mypy --strict`` over the typed core: the pure packages, the engine shell and the
file readers (STYLE.md: typed everywhere, mypy --strict in CI). The Django apps are
not in it yet: they would need django-stubs and a settings module for the checker."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TYPED = ("rating", "identity", "formats", "cpi", "analysis", "simulate.py", "files.py", "errors.py")


def test_the_typed_core_passes_mypy_strict(tmp_path: Path) -> None:
    paths = [str(ROOT / "src" / "clubrating" / name) for name in TYPED]
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path), *paths],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
