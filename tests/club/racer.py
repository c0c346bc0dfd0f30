"""A ``clubrating`` command run in a process of its own, for the concurrency tests.

    python racer.py DATABASE ROLE COMMAND [ARGS ...]
    python racer.py DATABASE batch            (a JSON list of commands on stdin)

ROLE says what the process tells the test on stdout (one word a line) while the
real command runs (``clubrating.cli.main``, the code the user runs):

- ``hold``: the first process of a race. Once its transaction has written
  (right after its first audit entry is inserted, one at a time or in bulk,
  or the first migration recorded), it
  prints ``inside`` and waits for a line on stdin before it commits: the test
  holds it there until the second process is in the race.
- ``second``: prints ``backend PID`` (PostgreSQL's process of its connection),
  ``lock`` just before a statement that takes a write lock (SQLite's
  ``BEGIN IMMEDIATE``, PostgreSQL's ``FOR UPDATE`` / ``FOR NO KEY UPDATE`` /
  ``pg_advisory_lock``) and ``inside`` after its first audit entry is inserted.

Every process ends with ``done CODE`` (the command's exit code); its stderr is
the command's.
"""

from __future__ import annotations

import json
import sys
from typing import Any

LOCKING = ("BEGIN IMMEDIATE", "FOR UPDATE", "FOR NO KEY UPDATE", "PG_ADVISORY_LOCK")


def say(word: str) -> None:
    print(word, file=sys.__stdout__, flush=True)


HELD: list[bool] = []  # once per process, whichever hook comes first


def hold_once(function: Any) -> Any:
    """``function`` that, the first time, says ``inside`` and waits for the test's go."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        if not HELD:
            HELD.append(True)
            say("inside")
            sys.stdin.readline()
        return result

    return wrapper


def tell_once(function: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        if not HELD:
            HELD.append(True)
            say("inside")
        return result

    return wrapper


def watch_statements(sender: Any, connection: Any, **kwargs: Any) -> None:
    """On each new connection: say its server process, and each locking statement."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            say(f"backend {cursor.fetchone()[0]}")

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if any(word in str(sql).upper() for word in LOCKING):
            say("lock")
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(wrapper)


AUDIT_INSERT = 'INSERT INTO "CLUB_AUDITENTRY"'


def after_audit_inserts(then: Any) -> Any:
    """On each new connection: ``then()`` after each statement that inserts audit entries
    (``audit.record`` and the services' bulk inserts alike: the hook is the SQL itself)."""

    def connected(sender: Any, connection: Any, **kwargs: Any) -> None:
        def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            result = execute(sql, params, many, context)
            if str(sql).upper().startswith(AUDIT_INSERT):
                then()
            return result

        connection.execute_wrappers.append(wrapper)

    return connected


def install(role: str) -> None:
    from django.db.backends.signals import connection_created
    from django.db.migrations.recorder import MigrationRecorder

    from django.db import connections

    hooks = []
    if role == "hold":
        hooks.append(after_audit_inserts(hold_once(lambda: None)))
        MigrationRecorder.record_applied = hold_once(MigrationRecorder.record_applied)
    elif role == "second":
        hooks += [after_audit_inserts(tell_once(lambda: None)), watch_statements]
    for hook in hooks:
        connection_created.connect(hook, weak=False)
        for open_already in connections.all(initialized_only=True):
            if open_already.connection is not None:
                hook(None, open_already)


def main() -> int:
    database, role, *command = sys.argv[1:]
    from clubrating import cli, djangoenv

    if role == "batch":
        for argv in json.load(sys.stdin):
            code = cli.main(["--database", database, *argv])
            if code:
                print(f"racer: {argv} ended with {code}", file=sys.stderr)
                return code
        return 0
    # Django is set up before the hooks (they import the app's modules); the schema is
    # brought up to date by the command itself (every database command migrates first).
    djangoenv.setup(database)
    install(role)
    code = cli.main(["--database", database, *command])
    say(f"done {code}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
