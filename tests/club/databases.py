"""Databases of a test's own, for tests whose commands run in processes of their own (none of
pytest-django's databases: other processes write them), and a witness that reads them straight."""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def on_postgres(server: str) -> bool:
    return server.startswith(("postgres://", "postgresql://"))


@contextmanager
def own_database(
    folder: Path, prefix: str, server: str | None = None, *, template: str | None = None
) -> Iterator[str]:
    """A new database, dropped after: on the PostgreSQL server of ``server`` (default
    $CLUBRATING_DATABASE_URL; ``template``'s when given) when it names one, else a SQLite file
    in ``folder``. Empty, or holding what ``template`` holds (SQLite's online backup,
    PostgreSQL's CREATE DATABASE ... TEMPLATE: nobody may be connected to it then).
    Made through the server's maintenance database, as Django makes its test databases: the URL
    may name a database that does not exist (pytest-django makes test_<name> from it)."""
    if template is not None:
        server = template
    server = os.environ.get("CLUBRATING_DATABASE_URL", "") if server is None else server
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    if not on_postgres(server):
        path = folder / f"{name}.sqlite3"
        if template is not None:
            with (
                closing(sqlite3.connect(template.removeprefix("sqlite:///"))) as source,
                closing(sqlite3.connect(path)) as target,
            ):
                source.backup(target)
        yield f"sqlite:///{path}"
        return
    import psycopg

    parts = urlsplit(server)
    admin = urlunsplit(parts._replace(path="/postgres"))
    copied = f" TEMPLATE {urlsplit(template).path.lstrip('/')}" if template is not None else ""
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}{copied}")
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def query(database: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql``, read straight from the database (no Django in this process); none
    from a SQLite file that was never made."""
    if database.startswith("sqlite:///"):
        path = database.removeprefix("sqlite:///")
        if not os.path.exists(path):
            return []
        with sqlite3.connect(path) as connection:
            return connection.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(database) as connection:
        return list(connection.execute(sql).fetchall())  # type: ignore[arg-type]


def dump() -> list[str]:
    """The whole of pytest-django's database as text, to compare before and after a refused
    write: SQLite's ``iterdump`` (schema and rows), PostgreSQL's ``pg_dump`` of it, less the
    sequences' positions (``setval``), which a rolled-back insert moves on PostgreSQL by design
    (its manual, "Sequence Manipulation Functions": nextval is never rolled back), and the
    dump's own random key."""
    from django.db import connection

    connection.ensure_connection()
    if connection.vendor == "sqlite":
        return list(connection.connection.iterdump())
    from clubrating.club.ops.backup import _pg_program, _run

    # \restrict and \unrestrict carry a key pg_dump draws anew for each dump (PostgreSQL 17.6)
    return [
        line
        for line in _run(_pg_program("pg_dump"), "--no-owner").splitlines()
        if "pg_catalog.setval" not in line and not line.startswith(("\\restrict ", "\\unrestrict "))
    ]
