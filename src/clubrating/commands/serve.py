"""``clubrating serve`` (the website) and ``clubrating worker`` (background jobs)."""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import socket
import sys
import tempfile
from typing import Any

from clubrating.commands.output import (
    MAX_JOBS,
    MAX_NODES,
    examples,
    open_database,
    option,
    seconds,
    verb_help,
    whole,
)
from clubrating.djangoenv import gettext
from clubrating.errors import InputError, Text
from clubrating.words import N_
from clubrating.djangoenv import DEFAULT_DATABASE_URL
from clubrating.web.secret_key import ensure_key
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from clubrating.web.server import serve
from clubrating import djangoenv


def cmd_serve(args: argparse.Namespace) -> int:
    if args.dev or args.check or os.environ.get("CLUBRATING_PAGE_CACHE"):
        return _serve(args)
    # gunicorn's workers share one page cache: a directory of this server's own (0700), so no
    # page of another server or of an earlier run (another database, perhaps) is ever served.
    # Removed by this process only: a worker is a fork of it, and leaves through this frame too.
    owner, pages = os.getpid(), tempfile.mkdtemp(prefix="clubrating-pages-")
    os.environ["CLUBRATING_PAGE_CACHE"] = pages
    try:
        return _serve(args)
    finally:
        if os.getpid() == owner:
            shutil.rmtree(pages, ignore_errors=True)


def prepare(args: argparse.Namespace) -> None:
    """Before Django starts: the installation's secret key (made on the first start, beside
    the database; web/secret_key.py) unless CLUBRATING_SECRET_KEY gives one, then the database."""

    if not os.environ.get("CLUBRATING_SECRET_KEY"):
        ensure_key(option(args, "database", "CLUBRATING_DATABASE_URL", DEFAULT_DATABASE_URL))
    open_database(args)


def check_deploy() -> int:
    """Django's deployment checks (``manage.py check --deploy``) on the settings the server uses."""

    try:
        call_command("check", deploy=True, fail_level="WARNING")
    except SystemCheckError as error:
        print(f"clubrating: {error}", file=sys.stderr)
        return 1
    return 0


def check_port(host: str, port: int) -> None:
    """One line, before anything starts, when another program listens on the port already (gunicorn
    would log five retries and exit 1; runserver says it and exits 0). Bound as the servers bind it
    (SO_REUSEADDR), then closed again."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror as error:
        raise InputError(
            N_("--host %(host)s: not an address of this computer (%(strerror)s)"),
            host=host,
            strerror=error.strerror,
        ) from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise InputError(
                N_(
                    "port %(port)s on %(host)s is in use by another program: stop it, or choose "
                    "another port with --port"
                ),
                port=port,
                host=host,
            ) from None
        raise InputError(
            N_("cannot listen on %(host)s:%(port)s: %(strerror)s"),
            host=host,
            port=port,
            strerror=error.strerror,
        ) from None


def _serve(args: argparse.Namespace) -> int:
    prepare(args)
    if args.check:
        return check_deploy()

    check_port(args.host, args.port)
    from clubrating.club.jobs.status import queue_state

    waiting = queue_state().warning()  # analysis never comes without a worker: said first
    print(serving_line(f"http://{args.host}:{args.port}/", waiting), flush=True)
    if args.dev:
        call_command(
            "runserver", f"{args.host}:{args.port}", use_reloader=False, use_threading=True
        )
        return 0

    serve(args.host, args.port, args.workers)
    return 0


def serving_line(url: str, waiting: Text | None) -> str:
    """The server's first line, in the command's language: where it serves, and a queue no worker
    takes."""

    if waiting is None:
        return djangoenv.gettext("clubrating: serving on %(url)s (Ctrl-C to stop)") % {"url": url}
    return djangoenv.gettext("clubrating: serving on %(url)s (Ctrl-C to stop); %(waiting)s") % {
        "url": url,
        "waiting": waiting.translated(djangoenv),
    }


def cmd_worker(args: argparse.Namespace) -> int:
    open_database(args)

    # The analysis tasks read their engine settings from the environment.
    for name, env in (
        ("engine", "CLUBRATING_ENGINE"),
        ("book", "CLUBRATING_BOOK"),
        ("nodes", "CLUBRATING_NODES"),
        ("jobs", "CLUBRATING_JOBS"),
    ):
        value = option(args, name, env)
        if value is not None:
            os.environ[env] = str(value)

    from clubrating.club.jobs import rq_workers
    from clubrating.club.jobs.tasks import keep_leases

    if rq_workers.uses_rq():  # CLUBRATING_REDIS_URL: an RQ worker
        return rq_workers.run_worker(once=args.once)
    keep_leases()  # lost jobs back in the queue; this worker's leases renewed
    options: dict[str, Any] = {"interval": args.interval}
    if args.once:
        options["batch"] = True
    call_command("db_worker", **options)
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "serve",
        parents=[common],
        help=verb_help("serve"),
        description=gettext("Serve the club website (Django) on this machine."),
        epilog=examples("clubrating serve --port 8000"),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=gettext("the address to listen on (default %(default)s)"),
    )
    p.add_argument(
        "--port", type=whole(1, 65535), default=8000, help=gettext("the port (default %(default)s)")
    )
    p.add_argument(
        "--workers",
        type=whole(1),
        default=None,
        help=gettext("worker processes (gunicorn sync workers; default: one per CPU core)"),
    )
    p.add_argument(
        "--dev",
        action="store_true",
        help=gettext("Django's threaded development server instead of gunicorn"),
    )
    p.add_argument(
        "--check",
        action="store_true",
        help=gettext(
            "run Django's deployment checks (check --deploy) with the server's "
            "settings, then exit; set CLUBRATING_HTTPS=1 as the server will have it"
        ),
    )
    p.set_defaults(handler=cmd_serve)
    p = subparsers.add_parser(
        "worker",
        parents=[common],
        help=verb_help("worker"),
        description=gettext(
            "Run the queued background jobs (Django tasks: the database backend, or RQ "
            "on the Redis server of $CLUBRATING_REDIS_URL)."
        ),
        epilog=examples("clubrating worker --once"),
    )
    p.add_argument(
        "--interval",
        type=seconds(0, 3600),
        default=1.0,
        help=gettext("seconds between polls of the queue"),
    )
    p.add_argument("--once", action="store_true", help=gettext("run what is queued, then stop"))
    p.add_argument(
        "--nodes",
        type=whole(1, MAX_NODES),
        help=gettext("engine nodes per position (default: $CLUBRATING_NODES or 150000)"),
    )
    p.add_argument(
        "--jobs",
        type=whole(1, MAX_JOBS),
        help=gettext("engine processes (default: $CLUBRATING_JOBS or the number of cores)"),
    )
    p.set_defaults(handler=cmd_worker)
