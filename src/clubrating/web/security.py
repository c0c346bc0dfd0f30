"""Two middlewares and the client address (privacy and security).

- :func:`limit_body`: a request whose body is announced larger than
  ``MAX_REQUEST_BYTES`` gets 413 before anything (CSRF, the login check, the
  upload parser) reads it.
- :func:`security_headers`: the Content-Security-Policy on every response, and
  ``X-Robots-Tag: noindex`` on everything under an unlisted address, 404s
  included: robots.txt lets crawlers in there so that they read the noindex.
  Under a board's moves link (``/m/``) also ``Referrer-Policy: strict-origin``: its token is
  the capability, and a Referer then carries the site's origin only, never the path (not
  ``no-referrer``: under it browsers post forms with ``Origin: null``, which Django's CSRF
  check refuses; web/access.py says the same of the club pages).
- :class:`HideMovesTokens`: the logging filter that writes ``/m/…/`` for a moves link's token
  in every log line (Django's "Not Found: /m/..." warnings, the development server's request
  lines); gunicorn writes no access log (web/server.py).
- :func:`client_ip`: the address django-axes locks, from ``CLUBRATING_PROXY_HEADER``
  behind a reverse proxy.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Handler = Callable[[HttpRequest], HttpResponse]
MOVES_LINK_PREFIX = "/m/"
UNLISTED_PREFIXES = ("/u/", "/api/u/", MOVES_LINK_PREFIX)
_MOVES_TOKEN = re.compile(r"/m/[^/\s\"?]+")


def limit_body(get_response: Handler) -> Handler:
    def middleware(request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse(
                "unreadable Content-Length\n", status=400, content_type="text/plain"
            )
        if length > settings.MAX_REQUEST_BYTES:
            limit = settings.MAX_REQUEST_BYTES // (1024 * 1024)
            return HttpResponse(
                f"the request is larger than {limit} MB\n", status=413, content_type="text/plain"
            )
        return get_response(request)

    return middleware


def security_headers(get_response: Handler) -> Handler:
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        if request.path.startswith(UNLISTED_PREFIXES):
            response["X-Robots-Tag"] = "noindex, nofollow"
        if request.path.startswith(MOVES_LINK_PREFIX):
            response["Referrer-Policy"] = "strict-origin"
        return response

    return middleware


class HideMovesTokens(logging.Filter):
    """Rewrites a record whose message holds a moves link (``/m/<token>``) to ``/m/…``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if MOVES_LINK_PREFIX in message:
            record.msg, record.args = _MOVES_TOKEN.sub("/m/…", message), ()
        return True


def client_ip(request: HttpRequest) -> str | None:
    """REMOTE_ADDR, or with ``CLUBRATING_PROXY_HEADER`` set, the address the proxy put in that
    header: the right-most of a list (X-Forwarded-For), which the proxy appended itself; the
    ones before it came from the client and prove nothing (MDN, X-Forwarded-For, "Security")."""
    header: str = settings.CLUBRATING_PROXY_HEADER
    if header:
        value: str = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        forwarded = [part.strip() for part in value.split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    address: str | None = request.META.get("REMOTE_ADDR")
    return address
