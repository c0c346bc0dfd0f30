"""``mypy --strict`` over the whole package (docs/architecture.md: typed everywhere); the
Django apps are checked through django-stubs' plugin (pyproject.toml).

mypy's incremental cache makes a later run recheck only what changed (docs/testing.md): it
hashes every file it reads and keeps each module's errors, so a cached run reports what a cold
one does; what it cannot see (the versions below, the environment) is kept out of the cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the types depend on beyond the files mypy reads and hashes: the plugin asks Django's own
# classes about the models at run time, and mypy keys the plugin by its main module alone.
TYPING_PACKAGES = ("mypy", "django-stubs", "django-stubs-ext", "Django")


def cache_dir() -> Path:
    """The cache of these versions outside the clone, where the acceptance keeps its engine
    cache ($CLUBRATING_CACHE_DIR, default ~/.cache/clubrating): a new clone starts warm (mypy
    hashes the files whose times differ; each file is written atomically, so two runs may share
    it). Another version of any of them starts from an empty folder instead of trusting one
    written by the old."""
    versions = [
        f"py{sys.version_info.major}.{sys.version_info.minor}",
        *(f"{name.lower()}{version(name)}" for name in TYPING_PACKAGES),
    ]
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return (
        Path(os.environ.get("CLUBRATING_CACHE_DIR") or Path(home) / "clubrating")
        / "mypy"
        / "-".join(versions)
    )


def drop_other_caches(kept: Path) -> None:
    """The caches of other versions (75 MB each) go: an upgrade does not pile them up."""
    if kept.parent.is_dir():
        for other in kept.parent.iterdir():
            if other != kept:
                shutil.rmtree(other, ignore_errors=True)


def test_the_package_passes_mypy_strict() -> None:
    # The plugin imports clubrating.settings, which reads $CLUBRATING_* (CLUBRATING_REDIS_URL
    # adds an app): without them every run checks against the same settings as its cache did.
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLUBRATING_")}
    cache = cache_dir()
    drop_other_caches(cache)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "src/clubrating"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
