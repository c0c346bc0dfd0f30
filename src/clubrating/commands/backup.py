"""The verbs that keep an installation running: backup and restore of the whole database, and
its health (:mod:`clubrating.club.backup`, :mod:`clubrating.club.health`)."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Any

from clubrating.djangoenv import gettext, ngettext
from clubrating.cli import option, print_json, wants_json
from clubrating.commands.club import _add


def _open(args: argparse.Namespace, *, must_exist: bool) -> None:
    """Django on the chosen database, its schema left as it is: a backup copies what is there,
    a restore first checks that the database is empty."""
    from clubrating import djangoenv

    djangoenv.setup(
        option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL),
        must_exist=must_exist,
    )


def cmd_backup(args: argparse.Namespace) -> int:
    _open(args, must_exist=True)
    from django.db import connection

    from clubrating.club.backup import backup, default_name

    target = backup(
        Path(args.file or default_name(dt.datetime.now(dt.timezone.utc), connection.vendor))
    )
    if wants_json(args):
        print_json(
            {"file": str(target), "bytes": target.stat().st_size, "database": connection.vendor}
        )
    else:
        print(
            gettext(
                "backed up the database to %(file)s (%(bytes)s "
                "bytes); restore it with: clubrating restore %(file)s"
            )
            % {"file": target, "bytes": f"{target.stat().st_size:,}"}
        )
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    _open(args, must_exist=False)
    from clubrating import djangoenv

    djangoenv.check_writable("a restore writes the database")
    from clubrating.club.backup import restore

    restored = restore(Path(args.file))
    if wants_json(args):
        print_json(
            {
                "file": args.file,
                "clubs": restored.clubs,
                "audit_entries": restored.audit_entries,
                "migrations_applied": list(restored.migrations_applied),
            }
        )
        return 0
    applied = len(restored.migrations_applied)
    newer = (
        ngettext(
            "; %(count)s newer migration applied", "; %(count)s newer migrations applied", applied
        )
        % {"count": applied}
        if applied
        else ""
    )
    print(
        gettext("restored %(file)s: %(clubs)s, %(entries)s%(newer)s")
        % {
            "file": args.file,
            "newer": newer,
            "clubs": ngettext("%(count)s club", "%(count)s clubs", restored.clubs)
            % {"count": restored.clubs},
            "entries": ngettext(
                "%(count)s audit entry", "%(count)s audit entries", restored.audit_entries
            )
            % {"count": restored.audit_entries},
        }
    )
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    _open(args, must_exist=True)
    from clubrating.club.health import health

    state = health()
    if wants_json(args):
        print_json(state.as_dict())
        return 0 if state.healthy else 1
    oldest = (
        ""
        if state.oldest_waiting_seconds is None
        else f", the oldest for {state.oldest_waiting_seconds:.0f} s"
    )
    print(f"database: {state.database}")
    if state.queue != "ok":
        print(f"job queue: {state.queue}")
    if state.database == "ok":
        unapplied = ", ".join(state.unapplied_migrations)
        print(f"migrations: {unapplied + ' not applied' if unapplied else 'all applied'}")
        print(f"analysis jobs waiting: {state.jobs_waiting}{oldest}")
        print(
            f"workers seen in the last {state.workers_seen_minutes} minutes: {state.workers_seen}"
        )
    print("healthy" if state.healthy else "not healthy: " + "; ".join(state.problems))
    return 0 if state.healthy else 1


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "backup",
        cmd_backup,
        gettext(
            "copy the whole database into a new file, safe while "
            "the server runs (SQLite's backup API, pg_dump)"
        ),
        "clubrating backup; clubrating backup nightly.sqlite3",
    )
    p.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help=gettext("the new file (default: clubrating-YYYYMMDD-HHMMSS.sqlite3 or .pgdump, UTC)"),
    )
    p = _add(
        subparsers,
        common,
        "restore",
        cmd_restore,
        gettext("load a backup into an empty database, then apply the migrations newer than it"),
        "clubrating --database sqlite:///restored.sqlite3 restore nightly.sqlite3",
    )
    p.add_argument("file", metavar="FILE", help=gettext("a file written by clubrating backup"))
    _add(
        subparsers,
        common,
        "status",
        cmd_status,
        gettext(
            "the installation's health, as /healthz reports it: database, "
            "migrations, analysis queue, workers (exit 1 when not healthy)"
        ),
        "clubrating status --json",
    )
