"""Hypothesis in CI: the same examples on every run (``derandomize``), so that a landing
never depends on a draw; developers' runs keep exploring new examples, which is how a
crash in python-chess's PGN reader was found (tests/formats/test_files.py). No run has a
per-example deadline: on a shared machine one slow example is load, not a defect, and speed
is measured in benchmarks/, not in tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from hypothesis import settings

# The suite speaks English whatever the developer's own locale: LANG=ru_RU.UTF-8 in a shell would
# turn the `clubrating` processes' messages Russian (djangoenv.language_from_environment). Set
# here, before any test starts a process, so every subprocess inherits it; the tests of the
# language set theirs explicitly.
os.environ["LANG"] = "C.UTF-8"
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# The files whose tests take minutes (pytest --durations): collected first, so that
# pytest-xdist, which hands tests out in collection order one at a time (pytest_configure),
# starts them early on every worker instead of leaving one worker alone with a long test at
# the end. Each file keeps its own order; a name that matches nothing changes nothing. pytest-django
# then sorts the tests on
# its database first, transactional ones next and the rest last, as Django does; the rest
# never open that database, so their slow ones are moved to the front after that sort
# (SlowFirst): most of the slow files start processes on databases of their own.
SLOW_FIRST = (
    "test_demo.py",
    "test_readme_commands.py",
    "test_rq_workers.py",
    "test_types.py",
    "test_concurrency.py",
    "test_read_only.py",
    "test_duplicates.py",
    "test_serve.py",
    "test_backup.py",
    "test_restore_caches.py",
    "test_archive.py",
    "test_deploy.py",
    "test_cli_edges.py",
    "test_browser_otb.py",
    "test_browser_print.py",
    "test_browser_phone.py",
    "test_bench_federation.py",
)


# The tests whose result can depend on the database, marked ``storage`` here so that the
# PostgreSQL run of scripts/test (``-m storage``) keeps them and drops the rest, which run on
# SQLite only: a test on pytest-django's database (every query, lock, transaction, migration
# and service goes through it; a test without it cannot open it, pytest-django blocks that),
# and a test marked ``storage`` by hand because the processes it starts open the database of
# $CLUBRATING_DATABASE_URL. A test whose processes are given a SQLite file runs the same on
# both passes and is not marked.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)


def on_the_django_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


def uses_storage(item: pytest.Item) -> bool:
    return on_the_django_database(item) or item.get_closest_marker("storage") is not None


def slow_rank(item: pytest.Item) -> int:
    name = item.path.name
    return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=slow_rank)  # stable: the other files keep pytest's order
    for item in items:  # before -m selects (tryfirst)
        if uses_storage(item):
            item.add_marker(pytest.mark.storage)


class SlowFirst:
    @pytest.hookimpl(trylast=True)  # after pytest-django's sort
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(
            key=lambda item: len(SLOW_FIRST) if on_the_django_database(item) else slow_rank(item)
        )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(SlowFirst(), "clubrating-slow-first")
    # pytest-xdist's load scheduling first sends each worker a quarter of its share of
    # consecutive tests: the whole slow-first block went to one worker, which ran it alone
    # while the other ran the rest. One test at a time (each worker keeps two waiting), every
    # worker takes the next slow test when it is free (docs/testing.md, "In parallel").
    if getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI (``CI`` set, as .ci/run does) a skipped test fails: every test must run there, and a
    missing engine, browser or database server is a failure of the set-up, not a reason to skip."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every test must run: {report.longrepr}"


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashes() -> Iterator[None]:
    """Passwords hashed in the tests' own process with one round of MD5, as Django's testing
    guide advises, instead of PBKDF2's million (half a CPU-second for each arbiter made or
    logged in). No test is about the hash's strength; the ``clubrating`` processes the
    tests start hash as shipped."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def no_language_left_behind() -> Iterator[None]:
    """The next test starts in the settings' language: the first ``clubrating`` command run in a
    process activates the environment's language for good (djangoenv.setup), so a test of the
    Russian CLI that came first left later tests of English texts reading Russian."""
    yield
    from django.apps import apps

    if apps.ready:  # not in a run without pytest-django (tests/test_no_skips_in_ci.py)
        from django.utils import translation

        translation.deactivate()
