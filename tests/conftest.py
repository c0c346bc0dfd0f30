"""Hypothesis in CI: the same examples on every run (``derandomize``), so that a landing
never depends on a draw; developers' runs keep exploring new examples, which is how a
crash in python-chess's PGN reader was found (tests/formats/test_files.py)."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
