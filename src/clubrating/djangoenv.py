"""Start Django from the command line: choose the database, then ``django.setup()``."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from clubrating.errors import InputError

DEFAULT_DATABASE_URL = "sqlite:///clubrating.sqlite3"
_ready = False


def page_cache(value: str) -> dict[str, Any]:
    """Django's CACHES["default"] for ``CLUBRATING_PAGE_CACHE``: where the anonymous pages are kept.

    "" or "memory": each process its own (tests, ``serve --dev``); an absolute
    directory, or ``file://`` and one: shared by every process of this
    machine (Django's FileBasedCache, directory mode 0700, files 0600);
    ``redis://host:port/db``: shared by every machine (Django's RedisCache,
    which needs the ``redis`` package).
    """
    if value in ("", "memory"):
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if value.startswith(("redis://", "rediss://", "unix://")):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": value}
    path = value.removeprefix("file://")
    if not os.path.isabs(path):
        raise InputError("CLUBRATING_PAGE_CACHE: expected memory, an absolute directory, file:///dir "
                         f"or redis://host:port/db, got {value!r}")
    return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": path}


def setup(database_url: str | None = None, *, migrate: bool = False) -> None:
    """Configure Django once for this process; optionally bring the schema up to date."""
    global _ready
    if database_url:
        os.environ["CLUBRATING_DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    page_cache(os.environ.get("CLUBRATING_PAGE_CACHE", ""))  # a bad value: one clear line, before Django
    if not _ready:
        import django

        django.setup()
        _ready = True
    if migrate:
        migrate_once()


# Any fixed 64-bit key of our own: PostgreSQL's advisory locks are named by a number
# (manual, "Advisory Lock Functions"); this one is the crc32 of "clubrating".
MIGRATION_LOCK_KEY = 0xF2DF_E00C   # zlib.crc32(b"clubrating")


def migrate_once() -> None:
    """Bring the schema up to date, one process at a time: two first commands on a new
    database would both create its tables, and one would fail (issue 10).

    PostgreSQL: a session advisory lock. SQLite: an exclusive ``flock`` on the
    database file itself (SQLite locks byte ranges with ``fcntl``, which ``flock``
    does not touch), so that no lock file is left beside the database.
    """
    from django.core.management import call_command
    from django.db import connection

    with _migration_lock(connection):
        call_command("migrate", verbosity=0, interactive=False)


@contextmanager
def _migration_lock(connection: Any) -> Iterator[None]:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK_KEY])
        return
    handle = _database_file(connection)
    if handle is None:   # in memory, or a file we may not open: nothing another process shares
        yield
        return
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)


_opened: dict[str, int] = {}   # database file -> our descriptor, open until the process ends


def _database_file(connection: Any) -> int | None:
    """A descriptor of the SQLite database file, creating an empty one (a valid empty
    database) if there is none yet. Kept open: closing any descriptor of the file would
    drop SQLite's own fcntl locks held by this process (sqlite.org, "How To Corrupt", 2.2)."""
    name = str(connection.settings_dict.get("NAME") or "")
    if connection.vendor != "sqlite" or not name or name == ":memory:" or name.startswith("file:"):
        return None
    path = os.path.abspath(name)
    if path not in _opened:
        try:
            _opened[path] = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError:
            return None   # Django's own connection says what is wrong with the file
    return _opened[path]
