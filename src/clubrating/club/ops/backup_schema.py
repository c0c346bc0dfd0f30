"""A backup's schema checked against the one clubrating's migrations make, before a restore.

A backup is a file that can be edited: a trigger added to a SQLite copy (``AFTER INSERT ON
club_auditentry`` making every club public, one on ``auth_user`` copying password hashes into a
public name) would be restored with the rows and run on every later write. So a restore loads
only the schema objects the migrations create (docs/operations.md, "Backups"):

- SQLite: the backup's ``sqlite_master`` (tables, indexes, triggers, views, each with its SQL)
  must be a fresh database's, migrated in a process of its own to exactly the migrations the
  backup records; any other object, or one whose SQL differs, is refused in one line naming it.
- PostgreSQL: the dump's table of contents (``pg_restore --list``) may hold only the kinds of
  object migrations make (tables, their sequences, defaults, constraints and indexes, and
  their rows), each on a table of clubrating's models: a trigger, function, view, rule,
  policy or extension is refused in one line naming it. Then, as for SQLite, a probe
  database made on the same server is migrated to exactly the dump's migrations and its
  ``pg_dump --schema-only`` must hold the same objects with the same definitions as the
  dump's (an index of its own, a CHECK changed); a role that may not create a database
  keeps the first check only, and says so on stderr.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import urllib.parse
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_noop

from clubrating.errors import InputError, Text
from django.db.migrations.loader import MigrationLoader
from django.db import connection, DatabaseError
from django.utils.translation import gettext

# The migrations run in a process of its own, on a database of its own: a data migration
# (RunPython) writes through the default database, which must be the probe's.
PROBE = """
import os, sys
from clubrating import djangoenv
djangoenv.setup(os.environ["CLUBRATING_DATABASE_URL"])
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
executor = MigrationExecutor(connection)
executor.migrate([tuple(target.split(".", 1)) for target in sys.argv[1:]])
"""
PROBE_SECONDS = 600  # a migration of an empty database takes seconds; a busy machine, longer

SchemaObject = tuple[str, str, str, str]  # type, name, table, SQL (normalised)


def check_sqlite_schema(source: Path) -> None:
    """Refuse ``source`` unless its schema objects are those its migrations make."""
    backup = _sqlite_objects(source)
    applied = _applied(source)
    with tempfile.TemporaryDirectory(prefix="clubrating-probe-") as folder:
        probe = Path(folder) / "probe.sqlite3"
        _migrate_probe(f"sqlite:///{probe}", applied)
        made = _sqlite_objects(probe)
    by_name = {(kind, name): obj for obj in made for kind, name in [obj[:2]]}
    for kind, name, table, sql in sorted(backup - made):
        expected = by_name.get((kind, name))
        raise InputError(
            gettext_noop(
                "the backup holds %(kind)s %(name)s (on %(table)s), which %(why)s: a backup "
                "is restored only with the schema clubrating's migrations make; nothing was "
                "written"
            ),
            file=str(source),
            kind=kind,
            name=name[:80],
            table=table[:80],
            why=Text(gettext_noop("the migrations make otherwise"))
            if expected
            else Text(gettext_noop("no migration of clubrating makes")),
        )
    missing = sorted(made - backup)
    if missing:
        kind, name, table, _ = missing[0]
        raise InputError(
            gettext_noop(
                "the backup lacks %(kind)s %(name)s (on %(table)s), which the migrations make: "
                "nothing was written"
            ),
            file=str(source),
            kind=kind,
            name=name,
            table=table,
        )


def _sqlite_objects(path: Path) -> set[SchemaObject]:
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as database:
        rows = database.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    # sqlite_sequence, sqlite_stat1 and the indexes of UNIQUE and PRIMARY KEY are SQLite's own
    return {
        (kind, name, table, _normal(sql))
        for kind, name, table, sql in rows
        if not str(name).startswith("sqlite_")
    }


def _normal(sql: str | None) -> str:
    """SQL as SQLite keeps it, without what a version of SQLite or Django writes otherwise:
    quotes around names, spacing, case."""
    return " ".join(re.sub(r'["`\[\]]', "", sql or "").split()).casefold()


def _applied(source: Path) -> list[str]:
    """``app.migration`` for every migration the backup records, each one this code knows."""
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as database:
        rows = database.execute("SELECT app, name FROM django_migrations").fetchall()
    return _targets(source, rows)


def _targets(source: Path, rows: list[tuple[str, str]]) -> list[str]:
    """The newest migration of each app in ``rows``, each one this code knows."""

    known = MigrationLoader(None, ignore_no_migrations=True).graph.nodes
    for app, name in rows:
        if (app, name) not in known:
            raise InputError(
                gettext_noop(
                    "the backup records migration %(app)s.%(name)s, which this clubrating does "
                    "not have: restore it with the version that wrote it, or a newer one"
                ),
                file=str(source),
                app=str(app)[:40],
                name=str(name)[:80],
            )
    latest: dict[str, str] = {}
    for app, name in rows:  # each app's migrations are numbered in order: its newest is its target
        latest[app] = max(latest.get(app, name), name)
    return [f"{app}.{name}" for app, name in sorted(latest.items())]


def _migrate_probe(url: str, targets: list[str]) -> None:
    """Migrate the database of ``url`` (in the environment: it may hold a password) to
    ``targets``."""
    environment = {**os.environ, "CLUBRATING_DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *targets],
        env=environment,
        capture_output=True,
        text=True,
        timeout=PROBE_SECONDS,
    )
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise InputError(
            gettext_noop(
                "cannot make the schema of the backup's migrations to compare it with: %(detail)s"
            ),
            detail=lines[-1] if lines else f"exit {done.returncode}",
        )


# --- PostgreSQL ---------------------------------------------------------------------------------

PG_KINDS = (
    "TABLE DATA",
    "TABLE",
    "SEQUENCE OWNED BY",
    "SEQUENCE SET",
    "SEQUENCE",
    "DEFAULT",
    "FK CONSTRAINT",
    "CONSTRAINT",
    "INDEX",
)
"""The kinds of object in pg_dump's table of contents that migrations make (longest first, as
they are matched); anything else (TRIGGER, FUNCTION, VIEW, RULE, POLICY, EXTENSION ...) is not."""
PG_ENTRY = re.compile(r"^\d+; \d+ \d+ (?P<rest>.*)$")


def check_pg_listing(source: Path, listing: str, tables: set[str]) -> None:
    """Refuse a dump whose table of contents (``pg_restore --list``) holds an object of a kind
    migrations do not make, or one on a table that is not one of ``tables``; the line names
    the first three."""
    foreign: list[str] = []
    for line in listing.splitlines():
        entry = PG_ENTRY.match(line.strip())
        if entry is None:
            continue  # a comment of the listing (";") or a blank line
        rest = entry["rest"]
        kind = next((k for k in PG_KINDS if rest.startswith(k + " ")), None)
        words = rest[len(kind) + 1 :].split() if kind else []
        # "TABLE public club_club owner"; "CONSTRAINT public club_club club_club_pkey owner";
        # "SEQUENCE public club_club_id_seq owner", the sequence of club_club's id
        in_public = len(words) > 1 and words[0] == "public"
        table = words[1] if in_public else ""
        if kind is not None and kind.startswith("SEQUENCE"):
            table = re.sub(r"_[a-z0-9]+_seq$", "", table)
        if kind is None or not in_public or (kind != "INDEX" and table not in tables):
            foreign.append(rest.rsplit(" ", 1)[0][:120])  # without its owner
    _refuse_foreign(source, foreign)


# --- PostgreSQL, exactly: the dump's schema against a probe database's -----------------------

Runner = Callable[..., str]
"""``backup._run``: a PostgreSQL client of the server's version on the configured server."""
PG_HEADER = re.compile(
    r"^-- (?:Data for )?Name: (?P<name>.*); Type: (?P<kind>.*); Schema: (?P<schema>.*); Owner: .*$"
)
PG_NOISE = re.compile(
    r"--.*|SET [a-z_]+ = (?:'[^';\\]*'|[A-Za-z0-9_.]+);"
    r"|SELECT pg_catalog\.set_config\('search_path', '', false\);|\\(?:un)?restrict [A-Za-z0-9]+"
)
"""Whole lines of pg_dump's text that are no schema object: comments, one session setting each
(a second statement on the line is no noise: the line is compared), and the random key of
``\\restrict`` (pg_dump 17.6 and later)."""


def _refuse_foreign(source: Path, foreign: list[str]) -> None:
    """One line naming the first three of the backup's ``foreign`` objects, if any."""
    if foreign:
        raise InputError(
            gettext_noop(
                "the backup holds %(object)s, which no migration of clubrating makes: a "
                "backup is restored only with the schema the migrations make; nothing "
                "was written"
            ),
            file=str(source),
            object=", ".join(foreign[:3]) + (f" (+{len(foreign) - 3})" if len(foreign) > 3 else ""),
        )


def check_pg_schema(source: Path, run: Runner, pg_restore: str, pg_dump: str) -> None:
    """Refuse ``source`` unless its schema (``pg_restore --schema-only``) is, object by object and
    definition by definition, the one a probe database migrated to its migrations gets."""

    targets = _targets(
        source,
        _pg_applied(
            run(pg_restore, "--data-only", "--table=django_migrations", "--file=-", str(source))
        ),
    )
    backup = _pg_objects(
        run(pg_restore, "--schema-only", "--no-owner", "--no-privileges", "--file=-", str(source))
    )
    # Named after the database it guards (within PostgreSQL's 63 bytes), so that restores into
    # two databases of one server never mistake each other's probe.
    probe = f"{str(connection.settings_dict['NAME'])[:30]}_probe_{secrets.token_hex(8)}"
    quoted = connection.ops.quote_name(probe)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {quoted}")
    except (
        DatabaseError
    ) as error:  # the role lacks CREATEDB: the kinds were checked, not the definitions
        reason = (str(error).strip().splitlines() or [""])[0]
        print(
            gettext(
                "clubrating restore: %(source)s: only the kinds of schema object were "
                "checked, not their definitions: cannot make a probe database (%(reason)s)"
            )
            % {"source": source, "reason": reason},
            file=sys.stderr,
        )
        return
    try:
        _migrate_probe(_pg_url(connection.settings_dict, probe), targets)
        made = _pg_objects(
            run(
                pg_dump,
                "--schema-only",
                "--no-owner",
                "--no-privileges",
                "--file=-",
                f"--dbname={probe}",
            )
        )
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")
    _refuse_differences(source, backup, made)


PgObject = tuple[str, str, str]  # kind, schema, name


def _refuse_differences(
    source: Path, backup: dict[PgObject, str], made: dict[PgObject, str]
) -> None:
    """One line naming the first three objects of the backup not made so by the migrations,
    or the first one the migrations make that the backup lacks."""
    foreign = [" ".join(name) for name, sql in sorted(backup.items()) if made.get(name) != sql]
    _refuse_foreign(source, foreign)
    missing = sorted(set(made) - set(backup))
    if missing:
        kind, schema, name = missing[0]
        raise InputError(
            gettext_noop(
                "the backup lacks %(kind)s %(name)s (on %(table)s), which the migrations make: "
                "nothing was written"
            ),
            file=str(source),
            kind=kind,
            name=name,
            table=schema,
        )


def _pg_objects(text: str) -> dict[PgObject, str]:
    """``KIND schema name`` (as ``pg_restore --list`` names it) of every object of pg_dump's text,
    with its definition, whitespace collapsed."""
    objects: dict[PgObject, list[str]] = {}
    lines: list[str] = []
    for line in text.splitlines():
        header = PG_HEADER.match(line)
        if header:
            lines = objects.setdefault((header["kind"], header["schema"], header["name"]), [])
        elif line.strip() and not PG_NOISE.fullmatch(line):
            lines.append(line)
    return {name: " ".join(" ".join(sql).split()) for name, sql in objects.items()}


def _pg_applied(text: str) -> list[tuple[str, str]]:
    """(app, name) of the rows of ``COPY public.django_migrations (id, app, name, applied)``."""
    rows: list[tuple[str, str]] = []
    columns: list[str] = []
    for line in text.splitlines():
        copy = re.match(r"^COPY \S*django_migrations \((?P<columns>[^)]*)\) FROM stdin;$", line)
        if copy:
            columns = [column.strip().strip('"') for column in copy["columns"].split(",")]
        elif line == "\\.":
            columns = []
        elif columns:
            values = dict(zip(columns, line.split("\t")))
            rows.append((values.get("app", ""), values.get("name", "")))
    return rows


def _pg_url(settings: dict[str, Any], database: str) -> str:
    """The URL of ``database`` on the server, as its role (``djangoenv`` reads it)."""
    quote = functools.partial(urllib.parse.quote, safe="")
    user = quote(str(settings.get("USER") or ""))
    password = f":{quote(str(settings['PASSWORD']))}" if settings.get("PASSWORD") else ""
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{user}{password}@{quote(str(settings.get('HOST') or ''))}{port}/{database}"
