"""Start Django from the command line: choose the database, then ``django.setup()``."""

from __future__ import annotations

import os
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
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
