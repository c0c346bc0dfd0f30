"""Run ``clubrating`` commands each in a process of its own, forked from one that has already
imported the command line: a command then costs what it does, not the half second of
starting Python and importing Django, python-chess and the command modules again.

Read from stdin, one JSON document a line: ``{"argv": [...], "stdin": "..."}``; written to
stdout, one a command: ``{"exit": N, "stdout": "...", "stderr": "..."}``. The parent never
starts Django, so each child chooses its database and reads its settings as a new process
does (``djangoenv.setup``), and opens no connection another child could share; it only
imports the Django modules every command imports and the libraries the writing commands
import (``PRELOAD``, none of which reads a setting as it is imported), which halves what a
command costs a child. Run as ``python forks.py`` in the directory the commands work in
(tests/club/test_readme_commands.py).
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import tempfile
import traceback

TIMEOUT = 600  # seconds a command may take
# Modules every command's start imports (Django's ORM, migrations, checks, templates, URLs, the
# database backend) that import without settings: imported once here, not again in each child.
PRELOAD = [
    "django.db.models",
    "django.db.migrations.loader",
    "django.db.migrations.executor",
    "django.core.management",
    "django.core.checks",
    "django.db.backends.sqlite3.base",
    "django.template",
    "django.urls",
    "django.forms",
    "django.contrib.admin",
    "django.contrib.auth.hashers",
    "sqlparse",
    "dj_database_url",
    "corsheaders",
    "django_tasks",
    # the libraries a writing or analysing command imports when it runs (a read command does not)
    "numpy",
    "chess.pgn",
    "rapidfuzz.process",
    "rapidfuzz.distance",
]


def run_child(argv: list[str], stdin: str, folder: str) -> int:
    """In the forked child: the command with its own stdin, stdout and stderr (files, so that
    what the engine or a worker it starts writes is kept too); its exit status."""
    from clubrating import cli

    paths = [os.path.join(folder, name) for name in ("stdin", "stdout", "stderr")]
    with open(paths[0], "w", encoding="utf-8") as handle:
        handle.write(stdin)
    for fd, (path, mode) in enumerate(
        zip(paths, (os.O_RDONLY, os.O_WRONLY | os.O_CREAT, os.O_WRONLY | os.O_CREAT))
    ):
        opened = os.open(path, mode, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    sys.argv = ["clubrating", *argv]
    signal.alarm(TIMEOUT)  # as subprocess.run(timeout=...) would end a command that hangs
    try:
        code: int = cli.main(argv)
    except SystemExit as stop:  # argparse's usage errors, as python -m clubrating exits
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    except BaseException:  # a bug: its traceback, and the status Python exits with
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def run(argv: list[str], stdin: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        child = os.fork()
        if child == 0:
            code = 1
            try:
                code = run_child(argv, stdin, folder)
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        output = {}
        for name in ("stdout", "stderr"):
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                output[name] = handle.read()
    return {"exit": os.waitstatus_to_exitcode(status), **output}


def main() -> None:
    from clubrating.commands import VERBS

    # the command modules that import without Django (the others import the club app, which
    # each child imports once its Django is set up on its own database)
    for verb in VERBS:
        if not verb.django:
            importlib.import_module(verb.path)
    for name in PRELOAD:
        importlib.import_module(name)
    from django.conf import settings

    assert not settings.configured  # each child still configures Django as a new process does
    for line in sys.stdin:
        order = json.loads(line)
        print(json.dumps(run(order["argv"], order.get("stdin", ""))), flush=True)


if __name__ == "__main__":
    main()
