"""How pytest-xdist hands the tests out (tests/conftest.py): one at a time, so that the slow
files collected first are shared by the workers instead of all going to the first one."""

from __future__ import annotations

import pytest


def test_xdist_sends_the_tests_one_at_a_time_unless_told_otherwise(
    pytestconfig: pytest.Config,
) -> None:
    assert pytestconfig.getoption("maxschedchunk") == 1
