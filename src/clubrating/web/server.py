"""The production web server behind ``clubrating serve``: gunicorn's sync workers.

Rendering a page is CPU work in Python, so one interpreter serves one request at
a time no faster than its lock allows: threads (Django's ``runserver``) make 20
concurrent visitors wait on each other inside the view. Gunicorn forks worker
processes that share one listening socket, one request at a time each, and
restarts a worker that dies or hangs (docs.gunicorn.org, "Design": sync workers).
"""

from __future__ import annotations

import os
from typing import Any
from django.core.wsgi import get_wsgi_application
from django.db import connections
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

# gunicorn's documentation ("How Many Workers?") suggests 2 x cores + 1 for sync workers that
# wait on I/O; a page here is CPU-bound (SQLite in process), so one worker per core keeps the
# time inside a view lowest (bench_web.py: cores + 1 workers raised the p95 under 20 clients).
DEFAULT_WORKERS = os.cpu_count() or 1
TIMEOUT_SECONDS = 30  # gunicorn's default: a worker silent this long is killed and replaced
BACKLOG = 2048  # gunicorn's default listen() backlog
# The request line and headers, bounded before Django sees them (gunicorn's defaults, "Settings":
# limit_request_line 4094 bytes, 100 header fields of 8190 bytes each). gunicorn has no limit on
# the body: Django's middleware refuses one announced too large (web/security.limit_body).
REQUEST_LIMITS = {
    "limit_request_line": 4094,
    "limit_request_fields": 100,
    "limit_request_field_size": 8190,
}


def serve(host: str, port: int, workers: int | None = None) -> None:
    """Serve the configured Django project (djangoenv.setup done) until SIGINT/SIGTERM."""

    connections.close_all()  # a connection opened before the fork must not be shared by the workers
    options = {
        "bind": f"{host}:{port}",
        "workers": workers or DEFAULT_WORKERS,
        "worker_class": "sync",
        "timeout": TIMEOUT_SECONDS,
        "backlog": BACKLOG,
        "loglevel": "warning",
        **REQUEST_LIMITS,
    }

    class Application(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return get_wsgi_application()

    Application().run()
