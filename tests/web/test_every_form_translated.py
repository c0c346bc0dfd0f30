"""Every form of the website submitted in Armenian and in Russian, with what it offers and with what
it refuses: the page that answers shows no English.

The page crawl (tests/web/test_every_page_translated.py) reads every page of its club; this crawl
reads the same pages, finds their forms and submits each one twice, as a person would: first with
input it refuses (every text, number and file field filled with nonsense, which changes nothing),
then with what the form itself offers (its values, its first choices, its placeholders' examples).
The page a form answers with, after its redirect, is read with the page crawl's check. Forms are
told apart by their target and their fields (a page of twenty "link" rows is one form); the
destructive ones (delete) are sent last, so that the others find what they act on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from .test_every_page_translated import LANGUAGES, Site, leaks, site, texts_of  # noqa: F401
from .test_translated_pages import catalogue  # noqa: F401  (the fixture: the .po files compiled)

# Forms not sent, and why.
NOT_SENT = {
    "/language/": "the switcher: it sets the reader's language, which this crawl chooses itself",
    "/accounts/logout/": "logs the crawl's arbiter out; its answer is the login page, crawled",
}
PGN_TAG = re.compile(r'\[[A-Za-z]+ "[^"]*"\]')  # [White "..."]: PGN's syntax, named in its errors
NONSENSE = "\u00a7\u00a7 ?"  # no name, number, date, result, move or setting reads as this
VALID_FILE = b"name,rating,games\nAnna Smith,1600,20\n"
NONSENSE_FILE = b"\x00\x01 not a list"


@dataclass
class Form:
    page: str
    action: str
    arbiter: bool
    fields: list[dict[str, str]] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return self.action, tuple(sorted({f["name"] for f in self.fields}))

    def data(self, refused: bool) -> dict[str, object]:
        """The form's fields filled as a person would: with what it offers, or with nonsense."""
        sent: dict[str, object] = {}
        for f in self.fields:
            name, kind = f["name"], f.get("type", "text")
            if kind in ("submit", "button", "reset", "image") and not f.get("value"):
                continue
            if kind == "checkbox" or kind == "radio":
                if "checked" in f:
                    sent[name] = f.get("value", "on")
            elif kind == "file":
                body = NONSENSE_FILE if refused else VALID_FILE
                sent[name] = SimpleUploadedFile("list.csv", body, content_type="text/csv")
            elif kind == "select":
                choices = self.options.get(name) or [""]
                sent[name] = f.get("value") or next((c for c in choices if c), "")
            elif kind in ("hidden", "submit", "button"):
                sent[name] = f.get("value", "")
            elif refused:
                sent[name] = NONSENSE
            else:
                sent[name] = f.get("value") or f.get("placeholder") or "Anna Smith"
        return sent


class Forms(HTMLParser):
    """The forms of a page that post: their target and fields (inputs, selects with their
    options, textareas and the buttons that carry a name)."""

    def __init__(self, page: str, arbiter: bool) -> None:
        super().__init__()
        self.page, self.arbiter = page, arbiter
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self.current = Form(self.page, a.get("action") or self.page, self.arbiter)
            self.forms.append(self.current)
        elif self.current is None or not a.get("name") and tag != "option":
            return
        elif tag in ("input", "button"):
            self.current.fields.append(
                {"type": a.get("type", "submit" if tag == "button" else "text"), **a}
            )
        elif tag == "textarea":
            self.current.fields.append({"type": "textarea", **a})
        elif tag == "select":
            self.select = a["name"]
            self.current.fields.append({"type": "select", "name": a["name"]})
        elif tag == "option" and self.select is not None:
            self.current.options.setdefault(self.select, []).append(a.get("value", ""))
            if "selected" in a:
                self.current.fields[-1]["value"] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


def forms_of(site: Site, language: str, arbiter: Client) -> list[Form]:
    """The different forms of every page the page crawl reads (GET), in the order first met."""
    found: dict[tuple[str, tuple[str, ...]], Form] = {}
    for visit in [v for visits in site.visits.values() for v in visits]:
        if visit.post is not None or visit.status != 200:
            continue
        client = arbiter if visit.arbiter else Client()
        response = client.get(visit.path, headers={"accept-language": language})
        if not response["Content-Type"].startswith("text/html"):
            continue
        parser = Forms(visit.path, visit.arbiter)
        parser.feed(response.content.decode())
        for form in parser.forms:
            if form.action not in NOT_SENT:
                found.setdefault(form.key, form)
    return list(found.values())


def submit(
    form: Form, refused: bool, language: str, arbiter: Client, names: list[str]
) -> list[str]:
    client = arbiter if form.arbiter else Client()
    data = form.data(refused)
    response = client.post(form.action, data, headers={"accept-language": language}, follow=True)
    assert response.status_code < 500, (form.action, response.status_code)
    how = "refused" if refused else "offered"
    texts = [
        PGN_TAG.sub(" ", text)
        for text in texts_of(response.content.decode(), response["Content-Type"])
    ]
    path = response.request["PATH_INFO"]
    typed = sorted({*names, *(v for v in sent_texts(data) if v.strip())}, key=len, reverse=True)
    return [
        f"{form.action} ({how}) -> {path} [{language}]: {leak}"
        for leak in leaks(path, texts, typed, language)
    ]


def sent_texts(data: dict[str, object]) -> list[str]:
    """What the crawl sent, as a page may show it back: the values, a file's words and its text on
    one line (a page shows a file's lines so)."""
    found: list[str] = []
    for value in data.values():
        if isinstance(value, SimpleUploadedFile):
            text = value.file.getvalue().decode("utf-8", "replace")  # type: ignore[union-attr]
            found += [" ".join(text.split()), *text.split()]
        else:
            found.append(str(value))
    return found


def crawl(site: Site, language: str) -> tuple[int, list[str]]:
    arbiter = Client()
    arbiter.force_login(User.objects.get(username="anna-arbiter"))
    forms = forms_of(site, language, arbiter)
    found = [leak for form in forms for leak in submit(form, True, language, arbiter, site.names)]
    last = sorted(forms, key=lambda form: "delete" in form.action)
    found += [leak for form in last for leak in submit(form, False, language, arbiter, site.names)]
    return len(forms), found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_answers_in_armenian_or_russian(
    catalogue: None, site: Site, language: str
) -> None:  # noqa: F811
    count, found = crawl(site, language)
    assert count >= 30, count  # the arbiter's pages hold some forty different forms
    assert found == [], f"{len(found)} texts in English:\n" + "\n".join(found)
