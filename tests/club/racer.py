"""A ``clubrating`` command run in a process of its own, for the concurrency tests.

    python racer.py DATABASE ROLE COMMAND [ARGS ...]
    python racer.py DATABASE batch            (a JSON list of commands on stdin)

ROLE says what the process tells the test on stdout (one word a line) while the
real command runs (``clubrating.cli.main``, the code the user runs):

- ``hold``: the first process of a race. Once its transaction has written
  (right after its first audit entry, or the first migration recorded), it
  prints ``inside`` and waits for a line on stdin before it commits: the test
  holds it there until the second process is in the race.
- ``second``: prints ``backend PID`` (PostgreSQL's process of its connection),
  ``lock`` just before a statement that takes a write lock (SQLite's
  ``BEGIN IMMEDIATE``, PostgreSQL's ``FOR UPDATE`` / ``FOR NO KEY UPDATE`` /
  ``pg_advisory_lock``) and ``inside`` after its first audit entry.

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


def install(role: str) -> None:
    from django.db.backends.signals import connection_created
    from django.db.migrations.recorder import MigrationRecorder

    from clubrating.club.store import audit

    if role == "hold":
        audit.record = hold_once(audit.record)
        MigrationRecorder.record_applied = hold_once(MigrationRecorder.record_applied)
    elif role == "second":
        audit.record = tell_once(audit.record)
        connection_created.connect(watch_statements, weak=False)


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
