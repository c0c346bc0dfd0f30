"""``mypy --strict`` over the whole package (docs/architecture.md: typed everywhere); the
Django apps are checked through django-stubs' plugin (pyproject.toml).

mypy's incremental cache makes a later run recheck only what changed (docs/testing.md): it
hashes every file it reads and keeps each module's errors, so a cached run reports what a cold
one does; what it cannot see (the versions below, the environment) is kept out of the cache."""

from __future__ import annotations

import hashlib
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
        / f"apps-{apps_layout()}"
    )


def apps_layout() -> str:
    """Where the models live and which apps are installed: the plugin reads them from Django at
    run time (a model's reverse relations on ``User``, say), which mypy's hashes do not see; a
    cache written for another layout (the models moved) would keep the old answers."""
    src = ROOT / "src"
    models = sorted(p.relative_to(src).as_posix() for p in src.rglob("models.py"))
    settings = (src / "clubrating" / "settings.py").read_bytes()
    return hashlib.sha256("\n".join(models).encode() + settings).hexdigest()[:12]


KEPT_LAYOUTS = 4  # clones of one machine on different commits share the folder of a version


def drop_other_caches(kept: Path) -> None:
    """The caches of other versions (75 MB each) go, and of this version's layouts all but the
    latest few: an upgrade does not pile them up."""
    versions = kept.parent
    if versions.parent.is_dir():
        for other in versions.parent.iterdir():
            if other != versions:
                shutil.rmtree(other, ignore_errors=True)
    if versions.is_dir():
        layouts = sorted(versions.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in [p for p in layouts if p != kept][KEPT_LAYOUTS - 1 :]:
            shutil.rmtree(old, ignore_errors=True)


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
