"""Hypothesis in CI: the same examples on every run (``derandomize``), so that a landing
never depends on a draw; developers' runs keep exploring new examples, which is how a
crash in python-chess's PGN reader was found (tests/formats/test_files.py)."""

from __future__ import annotations

import os

import pytest

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# The files whose tests take minutes (pytest --durations): collected first, so that
# pytest-xdist, which hands tests out in collection order, starts them early on every worker
# instead of leaving one worker alone with a long test at the end. Each file keeps its own
# order; a name that matches nothing changes nothing. This runs before pytest-django's own
# sort (tests on the database, then transactional ones, then the rest), which keeps it.
SLOW_FIRST = ("test_demo.py", "test_readme_commands.py", "test_rq_workers.py", "test_types.py",
              "test_concurrency.py", "test_read_only.py", "test_duplicates.py", "test_serve.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)
    items.sort(key=rank)   # stable: the other files keep pytest's order
