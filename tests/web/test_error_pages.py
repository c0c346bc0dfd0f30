"""The error pages are the site's own, in the visitor's language: <html lang> right, the texts
from the catalogue (English here, the msgids), the language switcher on the 404 page."""

from __future__ import annotations

import re

from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from clubrating.club.store.models import Club


def test_a_missing_page_is_the_sites_own_404_in_the_visitors_language(club: Club) -> None:
    for path in ("/c/nope/", "/c/riverside/t/999999/", "/u/no-such-token/", "/nothing-here/"):
        english = Client().get(path)
        assert english.status_code == 404, path
        html = english.content.decode()
        assert '<html lang="en">' in html and "<h1>Page not found</h1>" in html, path
        assert 'action="/language/"' in html
        russian = Client().get(path, headers={"accept-language": "ru"})
        assert (
            russian.status_code,
            re.search(r'<html lang="(\w+)">', russian.content.decode())[1],
        ) == (404, "ru")  # type: ignore[index]


def test_the_server_error_page_needs_no_request_context_and_names_its_language() -> None:
    with translation.override("hy"):
        response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500 and '<html lang="hy">' in html and "<title>" in html
    with translation.override("en"):
        html = server_error(RequestFactory().get("/")).content.decode()
    assert "<h1>Server error</h1>" in html and "Try again in a moment" in html
