"""The verbs that keep an installation running: backup and restore of the whole database, and
its health (:mod:`clubrating.club.ops.backup`, :mod:`clubrating.club.ops.health`)."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Any

from clubrating import djangoenv
from clubrating.djangoenv import gettext, ngettext
from clubrating.commands.output import option, print_json, wants_json
from clubrating.commands.club import _add
from clubrating.errors import InputError
from clubrating.words import N_
from django.db import connection
from clubrating.club.ops.backup import backup, default_name
from clubrating.club.ops.backup import restore
from clubrating.club.ops.health import health


def _open(args: argparse.Namespace, *, must_exist: bool, verb: str = "") -> None:
    """Django on the chosen database, its schema left as it is: a backup copies what is there,
    a restore first checks that the database is empty. Both copy every club: ``--club`` is
    refused (the file of one club's backup would have held the others)."""
    if verb and args.club is not None:
        raise InputError(
            N_(
                "--club %(club)s: %(verb)s copies the whole database, every club; one club "
                "moves with clubrating export-club --club SLUG FILE and import-club FILE"
            ),
            club=args.club,
            verb=verb,
        )

    djangoenv.setup(
        option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL),
        must_exist=must_exist,
    )


def cmd_backup(args: argparse.Namespace) -> int:
    _open(args, must_exist=True, verb="backup")

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
    _open(args, must_exist=False, verb="restore")

    djangoenv.check_writable("a restore writes the database")

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


def _ok(state: str) -> str:
    """A component's state: "ok" in words, else its own one-line error as it said it."""
    return gettext("ok") if state == "ok" else state


def cmd_status(args: argparse.Namespace) -> int:
    _open(args, must_exist=True)

    state = health()
    if wants_json(args):
        print_json(state.as_dict())
        return 0 if state.healthy else 1
    oldest = (
        ""
        if state.oldest_waiting_seconds is None
        else gettext(", the oldest for %(seconds)s s")
        % {"seconds": f"{state.oldest_waiting_seconds:.0f}"}
    )
    print(gettext("database: %(state)s") % {"state": _ok(state.database)})
    if state.queue != "ok":
        print(gettext("job queue: %(state)s") % {"state": state.queue})
    if state.database == "ok":
        unapplied = ", ".join(state.unapplied_migrations)
        print(
            gettext("migrations: %(names)s not applied") % {"names": unapplied}
            if unapplied
            else gettext("migrations: all applied")
        )
        print(
            gettext("analysis jobs waiting: %(count)s%(oldest)s")
            % {"count": state.jobs_waiting, "oldest": oldest}
        )
        print(
            gettext("workers seen in the last %(minutes)s minutes: %(count)s")
            % {"minutes": state.workers_seen_minutes, "count": state.workers_seen}
        )
    problems = "; ".join(text.translated(djangoenv) for text in state.problem_texts)
    print(
        gettext("healthy")
        if state.healthy
        else gettext("not healthy: %(problems)s") % {"problems": problems}
    )
    return 0 if state.healthy else 1


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "backup",
        cmd_backup,
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
        "clubrating --database sqlite:///restored.sqlite3 restore nightly.sqlite3",
    )
    p.add_argument("file", metavar="FILE", help=gettext("a file written by clubrating backup"))
    _add(
        subparsers,
        common,
        "status",
        cmd_status,
        "clubrating status --json",
    )
