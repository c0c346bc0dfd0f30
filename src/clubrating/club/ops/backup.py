"""A copy of the whole database, and its return into an empty one.

SQLite: the online backup API (``sqlite3.Connection.backup``, sqlite.org/backup.html), which
copies a consistent snapshot, the WAL's committed pages included, while the server goes on
writing. PostgreSQL: ``pg_dump`` in its custom format (one snapshot of a repeatable-read
transaction), by the client of the server's own major version (Debian installs each one under
``/usr/lib/postgresql/N/bin``, as scripts/postgres finds them). A restore checks the file first
(SQLite: ``PRAGMA integrity_check`` and the ``django_migrations`` table; a dump: ``pg_restore
--list`` and a full read) and its schema (only the objects the migrations make:
:mod:`.backup_schema`), refuses a database holding any row, then brings the schema up to date.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
import sqlite3
import subprocess
import tempfile
import urllib.parse
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connection
from django.utils.translation import gettext_noop

from clubrating.club.ops import backup_schema
from clubrating.errors import InputError, Refused, Text
from clubrating.formats.common import GZIP, refuse_kinds
from django.db.migrations.recorder import MigrationRecorder
from clubrating.djangoenv import migrate_once
from clubrating.club.store.models import AuditEntry, Club, Lineage

SQLITE_MAGIC = b"SQLite format 3\x00"  # sqlite.org/fileformat.html, 1.3 "The Database Header"
PGDUMP_MAGIC = b"PGDMP"  # pg_dump's custom format (src/bin/pg_dump/pg_backup_archiver.c)
PG_BIN = "/usr/lib/postgresql/{major}/bin/{program}"
# Rows that ``migrate`` itself writes into a new database (the lineage token's by migration 0032):
# a database holding only these is empty.
MIGRATE_TABLES = frozenset(
    {"django_migrations", "django_content_type", "auth_permission", Lineage._meta.db_table}
)


@dataclass(frozen=True)
class Restored:
    clubs: int
    audit_entries: int
    migrations_applied: tuple[str, ...]


def default_name(now: dt.datetime, vendor: str) -> str:
    """``clubrating-20261202-0310.sqlite3`` (or ``.pgdump``): the time of the backup, in UTC."""
    suffix = "sqlite3" if vendor == "sqlite" else "pgdump"
    return f"clubrating-{now.astimezone(dt.timezone.utc):%Y%m%d-%H%M%S}.{suffix}"


def backup(target: Path) -> Path:
    """Copy the database Django is set up on into ``target``, a new file (mode 0600: it holds
    the arbiters' password hashes). Written beside it under a temporary name and linked into
    place, so an interrupted backup leaves no half file, and an existing file is never replaced."""
    if target.exists():
        raise Refused(
            gettext_noop("%(target)s exists already: choose another file name"), target=str(target)
        )
    directory = target.resolve().parent
    if not directory.is_dir():
        raise InputError(
            gettext_noop("no directory %(directory)s"), file=str(target), directory=str(directory)
        )
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    os.close(handle)
    try:
        if connection.vendor == "sqlite":
            _sqlite_backup(Path(temporary))
        else:
            _run(_pg_program("pg_dump"), "--format=custom", "--no-password", f"--file={temporary}")
        os.chmod(temporary, 0o600)
        os.link(temporary, target)  # fails, rather than replaces, when someone made it meanwhile
    except FileExistsError:
        raise Refused(
            gettext_noop("%(target)s exists already: choose another file name"), target=str(target)
        ) from None
    finally:
        os.unlink(temporary)
    return target


def restore(source: Path) -> Restored:
    """Load the backup ``source`` into the empty database Django is set up on, then apply the
    migrations newer than the backup. Nothing is written when the file is not a sound backup
    of this kind of database, or when the database holds any row."""
    kind = backup_kind(source)
    if kind != connection.vendor:
        raise InputError(
            gettext_noop(
                "a backup of a %(kind)s database: it restores into %(kind)s only, and "
                "this database is %(vendor)s"
            ),
            file=str(source),
            kind=_NAMES[kind],
            vendor=_NAMES.get(connection.vendor, connection.vendor),
        )
    if kind == "sqlite":
        _check_sqlite_file(source)
        backup_schema.check_sqlite_schema(source)
    else:
        backup_schema.check_pg_listing(
            source,
            _check_pg_file(source),
            set(connection.introspection.django_table_names()) | MIGRATE_TABLES,
        )
        backup_schema.check_pg_schema(
            source, _run, _pg_program("pg_restore"), _pg_program("pg_dump")
        )
    tables = _refuse_unless_empty()

    if kind == "sqlite":
        _sqlite_restore(source)
    else:
        _pg_restore(source, tables)
    connection.close()
    before = set(MigrationRecorder(connection).applied_migrations())

    migrate_once()
    after = set(MigrationRecorder(connection).applied_migrations())
    new_lineage()

    return Restored(
        Club.objects.count(),
        AuditEntry.objects.count(),
        tuple(f"{app}.{name}" for app, name in sorted(after - before)),
    )


_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def new_lineage() -> None:
    """The restored database's own lineage token (:class:`Lineage`), and the shared page cache
    emptied when this process reaches it as a directory.

    The restore brings back the backup's ids and the sequences behind them (SQLite's
    ``sqlite_sequence`` is in the file, pg_restore sets each sequence from the dump), so the
    next writes take ids that the lineage lost by the restore had used already, and a cache
    key made of those ids alone (web/access.history_version) would come again and serve a page
    of that lost lineage. Keeping the sequences above their old high-water mark would not do:
    a restore on a new machine knows no old mark, while its shared cache directory or Redis may
    still hold the old pages. A new random token in every key does, wherever a cache lives and
    whichever process keeps it (each server process's own memory is out of this one's reach).
    Redis is not emptied: its database may hold the analysis queue beside the pages; the old
    pages there are never asked for again and expire (web/access.PAGE_CACHE_SECONDS)."""
    Lineage.objects.all().delete()
    Lineage.objects.create(token=secrets.token_hex(16))
    if isinstance(caches["default"], FileBasedCache):
        caches["default"].clear()  # only its own *.djcache files


def backup_kind(source: Path) -> str:
    """ "sqlite" or "postgresql": the kind of backup ``source`` is, by its first bytes; anything
    else is one line naming the file."""
    try:
        with source.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise InputError(
            gettext_noop("cannot read the backup: %(reason)s"),
            file=str(source),
            reason=error.strerror,
        ) from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgresql"
    refuse_kinds(head, (GZIP,), str(source))  # a club archive: a new user's likely mix-up
    raise InputError(
        gettext_noop(
            "not a backup: expected a SQLite database or a pg_dump custom-format file "
            "(as clubrating backup writes them)"
        ),
        file=str(source),
    )


def _check_sqlite_file(source: Path) -> None:
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as database:
            problems = [row[0] for row in database.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise InputError(
                    gettext_noop("a damaged SQLite backup: %(error)s"),
                    file=str(source),
                    error=str(problems[0]),
                )
            found = database.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name = 'django_migrations'"
            ).fetchone()[0]
            if (
                not found
                or not database.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
            ):
                raise InputError(
                    gettext_noop(
                        "not a clubrating backup: the SQLite file has no django_migrations table"
                    ),
                    file=str(source),
                )
    except sqlite3.DatabaseError as error:
        raise InputError(
            gettext_noop("a damaged SQLite backup: %(error)s"), file=str(source), error=str(error)
        ) from None


def _check_pg_file(source: Path) -> str:
    """The dump's table of contents (``pg_restore --list``), once the whole file was read."""
    listing = _run(
        _pg_program("pg_restore"),
        "--list",
        str(source),
        what=Text(gettext_noop("%(source)s: a damaged pg_dump backup"), source=str(source)),
    )
    if not any(
        "TABLE DATA" in line and " django_migrations " in line for line in listing.splitlines()
    ):
        raise InputError(
            gettext_noop("not a clubrating backup: the dump holds no django_migrations table"),
            file=str(source),
        )
    # the table of contents is at the start of the file: reading every row to nowhere finds a
    # file cut short after it
    _run(
        _pg_program("pg_restore"),
        "--file=/dev/null",
        str(source),
        what=Text(gettext_noop("%(source)s: a damaged pg_dump backup"), source=str(source)),
    )
    return listing


def _refuse_unless_empty() -> list[str]:
    """The database's tables, when none holds a row but those ``migrate`` writes; else refused."""
    tables = connection.introspection.table_names()
    with connection.cursor() as cursor:
        for table in tables:
            if table in MIGRATE_TABLES:
                continue
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
            if cursor.fetchone() is not None:
                raise Refused(
                    gettext_noop(
                        "the database is not empty (table %(table)s holds rows): a backup restores "
                        "into an empty database only; nothing was written"
                    ),
                    table=table,
                )

    return tables


def _sqlite_backup(temporary: Path) -> None:
    with closing(_sqlite_source()) as source, closing(sqlite3.connect(temporary)) as copy:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it


def _sqlite_source() -> sqlite3.Connection:
    """A connection of our own to the database file (Django's NAME: a path, or a read-only URI)."""
    name = str(connection.settings_dict["NAME"])
    if name.startswith("file:"):
        return sqlite3.connect(name, uri=True, timeout=20)
    return sqlite3.connect(name, timeout=20)


def _sqlite_restore(source: Path) -> None:
    connection.close()
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
    with (
        closing(sqlite3.connect(uri, uri=True)) as backup_file,
        closing(_sqlite_source()) as database,
    ):
        backup_file.backup(database)


def _pg_restore(source: Path, tables: list[str]) -> None:
    """Tables ``migrate`` made (all empty) are dropped first, in one transaction; the dump is
    then loaded in one transaction too, so a failure leaves the database as empty as it was."""
    if tables:
        with connection.cursor() as cursor:
            cursor.execute(
                "DROP TABLE " + ", ".join(connection.ops.quote_name(t) for t in tables) + " CASCADE"
            )
    connection.close()
    _run(
        _pg_program("pg_restore"),
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-privileges",
        "--no-password",
        f"--dbname={connection.settings_dict['NAME']}",
        str(source),
        what=Text(
            gettext_noop("%(source)s: the restore failed, nothing was written"), source=str(source)
        ),
    )


def _pg_program(program: str) -> str:
    """``pg_dump`` or ``pg_restore`` of the server's major version."""
    connection.ensure_connection()
    major = int(getattr(connection, "pg_version", 0)) // 10000  # 170002 is 17.2
    path = PG_BIN.format(major=major, program=program)
    if not os.access(path, os.X_OK):
        raise InputError(
            gettext_noop(
                "%(program)s of PostgreSQL %(major)s is not installed (expected %(path)s): "
                "apt-get install postgresql-client-%(major)s"
            ),
            program=program,
            major=major,
            path=str(path),
        )
    return path


def _run(program: str, *arguments: str, what: str | Text = "") -> str:
    """Run a PostgreSQL client on the configured server (its address and password in the
    environment, never on the command line); its first line of error is the one line shown."""
    settings = connection.settings_dict
    environment = {
        **os.environ,
        "PGHOST": str(settings.get("HOST") or ""),
        "PGPORT": str(settings.get("PORT") or ""),
        "PGUSER": str(settings.get("USER") or ""),
        "PGDATABASE": str(settings.get("NAME") or ""),
    }
    if settings.get("PASSWORD"):
        environment["PGPASSWORD"] = str(settings["PASSWORD"])
    environment = {key: value for key, value in environment.items() if value}
    done = subprocess.run([program, *arguments], env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        detail = (
            lines[0].removeprefix(f"{os.path.basename(program)}: ")
            if lines
            else f"exit {done.returncode}"
        )
        raise InputError(
            gettext_noop("%(program)s: %(detail)s"),
            program=what or os.path.basename(program),
            detail=detail,
        )
    return done.stdout
