"""A process serving pages keeps its PostgreSQL connection between requests (Django's persistent
connections): opening one forks a server process, 7 ms at a load of 7, more than the club page's
queries (docs/benchmarks.md, "Rendered pages at 20 clients"). A SQLite file is opened anew for
each request, so that a file restored in its place is read at once."""

from __future__ import annotations

from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import RequestFactory

from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.djangoenv import KEPT_CONNECTION_SECONDS


def serve(handler: WSGIHandler, path: str) -> Any:
    """One request as gunicorn's worker makes it: Django's request signals around it, the
    response closed once sent (request_finished: Django closes connections past their age)."""
    started: list[str] = []
    response = handler(RequestFactory().get(path).environ, lambda status, _: started.append(status))
    b"".join(response)
    response.close()
    assert started == ["200 OK"], path
    return connection.connection  # the driver's connection, None once closed


def test_a_process_serving_pages_keeps_its_postgresql_connection_between_requests(
    transactional_db: None,
) -> None:
    club = create_club("Riverside", who="t", slug="riverside")
    set_privacy(club, who="t", visibility="public")
    handler = WSGIHandler()
    first = serve(handler, "/c/riverside/")
    second = serve(handler, "/c/riverside/?again=1")
    if connection.vendor == "postgresql":
        assert connection.settings_dict["CONN_MAX_AGE"] == KEPT_CONNECTION_SECONDS
        assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
        assert first is not None and second is first
    else:  # SQLite (the tests' in memory, whose connection Django never closes)
        assert connection.settings_dict["CONN_MAX_AGE"] == 0
