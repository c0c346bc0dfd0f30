"""Start Django from the command line: choose the database, then ``django.setup()``; and the
language the command speaks, the arbiter's system's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as
gettext reads them), from the same catalogues as the website's."""

from __future__ import annotations

import fcntl
import functools
import gettext as stdlib_gettext
import os
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from clubrating.errors import InputError
from clubrating.words import N_

DEFAULT_DATABASE_URL = "sqlite:///clubrating.sqlite3"
_ready = False
_read_only: tuple[str, str] | None = None  # (SQLite file, why this process may not write it)


LANGUAGES = ("en", "hy", "ru")  # the catalogues of locale/ (settings.LANGUAGES)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language of the command from the environment, as GNU gettext chooses it (its manual,
    "The LANGUAGE variable"): the locale is the first set of LC_ALL, LC_MESSAGES and LANG; when it
    is not C or POSIX, LANGUAGE's colon-separated list comes first; the first language we have a
    catalogue of wins ("ru_RU.UTF-8" -> "ru", "hy_AM" -> "hy"); none of them, or C: English."""
    locale = next(
        (environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), ""
    )
    candidates = [locale]
    if _language_code(locale) not in ("", "c", "posix"):
        listed = [item for item in environ.get("LANGUAGE", "").split(":") if item]
        candidates = listed or candidates
    for candidate in candidates:
        if (code := _language_code(candidate)) in LANGUAGES:
            return code
    return "en"


def _language_code(locale: str) -> str:
    """ "ru_RU.UTF-8@euro" -> "ru"; "C.UTF-8" -> "c"."""
    return locale.split("@")[0].split(".")[0].split("_")[0].split("-")[0].strip().lower()


def language() -> str:
    """The language of this process's messages: the environment's."""
    return language_from_environment(os.environ)


@functools.cache
def _catalogue(code: str) -> stdlib_gettext.NullTranslations:
    return stdlib_gettext.translation("django", LOCALE_DIR, languages=[code], fallback=True)


def gettext(text: str) -> str:
    """``text`` in the command's language: Django's catalogue once Django is set up (the language
    activated by :func:`setup`), else the same compiled catalogue read by Python's gettext, so the
    commands that need no database load no Django."""
    if _ready:
        from django.utils import translation

        with translation.override(
            language()
        ):  # the environment's, also in a process that serves pages
            return translation.gettext(text)
    return _catalogue(language()).gettext(text)


def pgettext(context: str, text: str) -> str:
    """``text`` in the command's language, in ``context`` (a table's heading, say, that the same
    English word elsewhere would translate otherwise)."""
    if _ready:
        from django.utils import translation

        with translation.override(
            language()
        ):  # the environment's, also in a process that serves pages
            return translation.pgettext(context, text)
    return _catalogue(language()).pgettext(context, text)


def ngettext(singular: str, many: str, count: int) -> str:
    """The form of a counted text for ``count`` in the command's language (Russian one/few/many)."""
    if _ready:
        from django.utils import translation

        with translation.override(
            language()
        ):  # the environment's, also in a process that serves pages
            return translation.ngettext(singular, many, count)
    return _catalogue(language()).ngettext(singular, many, count)


def page_cache(value: str) -> dict[str, Any]:
    """Django's CACHES["default"] for ``CLUBRATING_PAGE_CACHE``: where the anonymous pages are kept.

    "" or "memory": each process its own (tests, ``serve --dev``); an absolute
    directory, or ``file://`` and one: shared by every process of the
    host (Django's FileBasedCache, directory mode 0700, files 0600, compressed at zlib's fastest
    level: web/page_cache.py);
    ``redis://host:port/db``: shared by every machine (Django's RedisCache,
    which needs the ``redis`` package).
    """
    if value in ("", "memory"):
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if value.startswith(("redis://", "rediss://", "unix://")):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": value}
    path = value.removeprefix("file://")
    if not os.path.isabs(path):
        raise InputError(
            N_(
                "CLUBRATING_PAGE_CACHE: expected memory, an absolute directory, file:///dir "
                "or redis://host:port/db, got %(value)s"
            ),
            value=repr(value),
        )
    return {"BACKEND": "clubrating.web.page_cache.PageFileCache", "LOCATION": path}


def cors_origins(value: str) -> list[str]:
    """The origins (``https://club.example.org``) whose pages may read the API from a browser,
    from ``CLUBRATING_CORS_ORIGINS`` (comma-separated; empty: none, the default). An origin is a
    scheme, a host and maybe a port, nothing after them (RFC 6454, 7.1)."""
    origins = [origin.strip() for origin in value.split(",") if origin.strip()]
    for origin in origins:
        parts = urllib.parse.urlsplit(origin)
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.path
            or parts.query
            or parts.fragment
        ):
            raise InputError(
                N_(
                    "CLUBRATING_CORS_ORIGINS: %(origin)s is not an origin: expected "
                    "scheme://host[:port] such as https://club.example.org, comma-separated"
                ),
                origin=repr(origin),
            )
    return origins


KEPT_CONNECTION_SECONDS = 600  # then a new one: a bound, not a need (Django's CONN_MAX_AGE)


def server_database(config: dict[str, Any]) -> dict[str, Any]:
    """Django's database settings for a PostgreSQL server (settings.py): each process keeps its
    connection between requests, checked before each request that reuses it (Django's persistent
    connections, CONN_HEALTH_CHECKS). Opening one cost 7 ms at a load of 7, a server process
    forked for each, more than the club page's three queries (docs/benchmarks.md, "Rendered
    pages at 20 clients"). A SQLite file is opened anew for each request (a file restored in
    its place is read at once)."""
    return {**config, "CONN_MAX_AGE": KEPT_CONNECTION_SECONDS, "CONN_HEALTH_CHECKS": True}


def sqlite_database(config: dict[str, Any]) -> dict[str, Any]:
    """Django's database settings for a SQLite file (settings.py).

    Writable: WAL (readers go on while one writer writes), a writer waits 20 s for another,
    ``BEGIN IMMEDIATE``. Read-only for this process (the file or its directory not writable, a
    read-only file system): opened read-only (URI ``mode=ro``; ``immutable=1`` when SQLite could
    not even create the WAL index beside it, sqlite.org/wal.html "Read-Only Databases"), no
    journal mode set, no migration, so every read command still works. A file that cannot be
    created is one line naming the path and the reason.
    """
    global _read_only
    name = str(config.get("NAME") or "")
    options = config.setdefault("OPTIONS", {})
    in_memory = not name or name == ":memory:" or name.startswith("file:")
    reason = None if in_memory else _why_read_only(os.path.abspath(name))
    if reason is None:
        options.update(
            {
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
            }
        )
        return config
    path = os.path.abspath(name)
    _read_only = (path, reason)
    directory = os.path.dirname(path)
    can_index = os.access(directory, os.W_OK) or all(
        os.path.exists(path + end) for end in ("-wal", "-shm")
    )
    flags = "mode=ro" if can_index else "mode=ro&immutable=1"
    options.update({"timeout": 20})
    return {**config, "NAME": f"file:{urllib.parse.quote(path)}?{flags}"}


def _why_read_only(path: str) -> str | None:
    """Why this process may not write the SQLite file ``path`` (None: it may); an InputError
    when the file does not exist and cannot be created."""
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise InputError(
            N_("cannot open the database: no directory %(directory)s"),
            file=path,
            directory=directory,
        )
    if os.path.isdir(path):
        raise InputError(N_("cannot open the database: it is a directory"), file=path)
    read_only_fs = bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    if not os.path.exists(path):
        if read_only_fs or not os.access(directory, os.W_OK):
            why = (
                "a read-only file system"
                if read_only_fs
                else f"the directory {directory} is not writable"
            )
            raise InputError(N_("cannot create the database: %(why)s"), file=path, why=why)
        return None
    if not os.access(path, os.R_OK):
        raise InputError(N_("cannot open the database: the file is not readable"), file=path)
    if read_only_fs:
        return "a read-only file system"
    if not os.access(path, os.W_OK):
        return f"the file is not writable (mode {os.stat(path).st_mode & 0o777:04o})"
    if not os.access(directory, os.W_OK):
        return (
            f"the directory {directory} is not writable (SQLite writes its journal beside the file)"
        )
    return None


def read_only() -> tuple[str, str] | None:
    """(path, reason) when the database was opened read-only, else None."""
    return _read_only


def check_writable(what: str = "this command changes the database") -> None:
    """One line naming the file and the reason when a write would fail on a read-only database."""
    if _read_only is not None:
        path, reason = _read_only
        raise InputError(
            N_("%(what)s, which is read-only here: %(reason)s"), file=path, what=what, reason=reason
        )


def configure(database_url: str | None = None) -> None:
    """Set Django up once for this process, on ``database_url`` (else the environment's), in the
    command's language; no connection is opened. The command line calls it before it imports a
    verb's module that imports the club app (:mod:`clubrating.commands`)."""
    global _ready
    if database_url:
        os.environ["CLUBRATING_DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    page_cache(
        os.environ.get("CLUBRATING_PAGE_CACHE", "")
    )  # a bad value: one clear line, before Django
    if not _ready:
        import django

        django.setup()
        from django.utils import translation

        translation.activate(language())
        _ready = True


def setup(
    database_url: str | None = None, *, migrate: bool = False, must_exist: bool = False
) -> None:
    """Configure Django once for this process; optionally bring the schema up to date
    (a read-only database is only checked to be up to date). ``must_exist``: a SQLite file
    that is not there is one line, and nothing is created (only ``init`` creates one)."""
    configure(database_url)
    if must_exist:
        _check_exists()
    if migrate and _read_only is not None:
        _check_schema(*_read_only)
    elif migrate:
        migrate_once()


def _check_exists() -> None:
    from django.db import connection

    name = str(connection.settings_dict.get("NAME") or "")
    if connection.vendor != "sqlite" or not name or name == ":memory:" or name.startswith("file:"):
        return  # a server's database, in memory, or a file opened read-only (so it exists)
    path = os.path.abspath(name)
    if not os.path.exists(path):
        raise InputError(
            N_(
                "no database here: create one with clubrating init 'CLUB NAME', or choose one "
                "with --database URL or $CLUBRATING_DATABASE_URL"
            ),
            file=path,
        )


def _check_schema(path: str, reason: str) -> None:
    """A read-only database cannot be migrated: it must be up to date already."""
    from django.db import connection

    if not schema_is_newest(connection):
        raise InputError(
            N_(
                "the database needs a schema update and is read-only here (%(reason)s): "
                "run any clubrating command once with write access"
            ),
            file=path,
            reason=reason,
        )


def schema_is_newest(connection: Any) -> bool:
    """Whether every migration is applied to ``connection``'s database: its tables are what the
    models describe (not so after Django's ``migrate club NNNN`` to an older state)."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


# Any fixed 64-bit key of our own: PostgreSQL's advisory locks are named by a number
# (manual, "Advisory Lock Functions"); this one is the crc32 of "clubrating".
MIGRATION_LOCK_KEY = 0xF2DF_E00C  # zlib.crc32(b"clubrating")


def migrate_once() -> None:
    """Bring the schema up to date, one process at a time: two first commands on a new
    database would both create its tables, and one would fail.

    PostgreSQL: a session advisory lock. SQLite: an exclusive ``flock`` on the
    database file itself (SQLite locks byte ranges with ``fcntl``, which ``flock``
    does not touch), so that no lock file is left beside the database.
    """
    from django.apps import apps
    from django.core.management import call_command
    from django.db import connection
    from django.db.models.signals import post_migrate

    with _migration_lock(connection):
        if not schema_is_newest(connection):
            call_command("migrate", verbosity=0, interactive=False)
        else:
            # Up to date, as nearly every time: ``migrate`` would still render every model's
            # historical state and signal every app, most of a command's start (docs/testing.md).
            # Only the club's receivers must run then (a new version's CPI definitions re-score
            # the stored analyses); Django's own create what migrations add: nothing to do.
            # ``newest``: the receivers need not read the migrations again to know it.
            club = apps.get_app_config("club")
            post_migrate.send(
                sender=club,
                app_config=club,
                verbosity=0,
                interactive=False,
                using=connection.alias,
                plan=[],
                apps=apps,
                newest=True,
            )


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
    if handle is None:  # in memory, or a file we may not open: nothing another process shares
        yield
        return
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)


_opened: dict[str, int] = {}  # database file -> our descriptor, open until the process ends


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
            return None  # Django's own connection says what is wrong with the file
    return _opened[path]
