"""The language of each page: the visitor's, else the club's.

Chosen per request, in this order, among ``settings.LANGUAGES`` (URLs carry no language):

1. the visitor's own choice, the cookie the switcher sets (Django's ``set_language``);
2. the browser's ``Accept-Language``, its first language the catalogue has;
3. on a club's pages (its public pages, the arbiter's, a board's moves link) the club's
   default language, a setting of the club, applied where the view has found the club
   (:func:`club_language`: no query of its own);
4. ``settings.LANGUAGE_CODE``.

A language the catalogue does not have (a cookie ``de``, a header ``fr``) is passed over.
The page cache keys on the language chosen (web/access.py), and every response says what it
varies on, so that no cache in between gives one visitor's language to another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from clubrating.club.store.models import Club
from clubrating.identity import collation
from clubrating.web.security import Handler

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)


def supported(code: str) -> str | None:
    """The catalogue's language for ``code`` ("ru-RU" -> "ru"), or None."""
    code = code.strip().lower()
    for candidate in (code, code.split("-")[0]):
        if candidate in LANGUAGE_CODES:
            return candidate
    return None


def accepted(header: str) -> Iterator[str]:
    """The languages of an ``Accept-Language`` header the catalogue has, the preferred first."""
    for code, _quality in parse_accept_lang_header(header):
        if code != "*" and (found := supported(code)):
            yield found


def visitor_language(request: HttpRequest) -> str | None:
    """The visitor's choice (the switcher's cookie), else their browser's; None when neither
    names a language of the catalogue."""
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""))
    return chosen or next(accepted(request.META.get("HTTP_ACCEPT_LANGUAGE", "")), None)


def club_language(request: HttpRequest, club: Club) -> AbstractContextManager[None]:
    """While a club's page is made: its texts in the visitor's language, else the club's."""
    language = visitor_language(request) or supported(club.language) or settings.LANGUAGE_CODE
    request.LANGUAGE_CODE = language  # the response's Content-Language
    return translation.override(language)


Item = TypeVar("Item")


def in_name_order(items: Iterable[Item], name: Callable[[Item], str]) -> list[Item]:
    """``items`` by ``name`` in the alphabet of the page's language (identity/collation: ё with
    е, the page's script first, any case); items of one name keep the order they came in."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return sorted(items, key=lambda item: collation.sort_key(name(item), language))


def choose_language(get_response: Handler) -> Handler:
    """Every page in the visitor's language, else ``settings.LANGUAGE_CODE``; a club's pages
    put the club's default in between (:func:`club_language`, once the view found the club)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        language = visitor_language(request) or settings.LANGUAGE_CODE
        request.LANGUAGE_CODE = language  # as Django's LocaleMiddleware sets it
        with translation.override(language):
            response = get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response

    return middleware
