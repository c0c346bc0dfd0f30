"""The middleware that refuses a request carrying a control character in any value.

Every form of the site, the players' phone page and the API's query strings read their
values from ``request.GET`` and ``request.POST``: a value, a field's name or an uploaded
file's name holding a control character other than layout (tab, line ends: a textarea's
lines) is answered 400 before any view runs, naming the field, so nothing of it is stored
(a NUL would also make PostgreSQL refuse the write with a 500). What a control character is:
:mod:`clubrating.words`. An uploaded file's content is the file readers' to check, with its
line (:func:`clubrating.formats.common.check_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from clubrating.words import LAYOUT, control_name, find_control

Handler = Callable[[HttpRequest], HttpResponse]


def _texts(request: HttpRequest) -> Iterator[tuple[str, str]]:
    """(field, text) of every name and value of the query string and the form, and every
    uploaded file's name."""
    forms = (request.GET, request.POST) if request.method == "POST" else (request.GET,)
    for form in forms:
        for field, texts in form.lists():
            yield field, field
            for text in texts:
                yield field, text
    if request.method == "POST":
        for field, uploads in request.FILES.lists():
            for upload in uploads:
                yield field, upload.name or ""


def refuse_control_characters(get_response: Handler) -> Handler:
    def middleware(request: HttpRequest) -> HttpResponse:
        for field, text in _texts(request):
            if (at := find_control(text, LAYOUT)) >= 0:
                why = gettext(
                    "The field %(field)s holds a control character (%(character)s), "
                    "which no one types: correct it and send the form again."
                ) % {"field": ascii(field[:40])[1:-1], "character": control_name(text[at])}
                return render(request, "refused_input.html", {"why": why}, status=400)
        return get_response(request)

    return middleware
