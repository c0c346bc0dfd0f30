"""Hardening of the website: login lockout by login and address, request bodies
capped before they are read, the Content-Security-Policy and the robots rules."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from clubrating.club.store.models import Club, Tournament
from clubrating.settings import MAX_REQUEST_BYTES
from clubrating.web.arbiter import MAX_UPLOAD_BYTES

from .conftest import PASSWORD, make_arbiter

# --- login lockout ---------------------------------------------------------------------------


def _login(username: str, password: str, **meta: str) -> tuple[int, bool]:
    """The real login view: (status, whether the client is now logged in)."""
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": password}, **meta)
    return response.status_code, "_auth_user_id" in client.session


def _attack(username: str, **meta: str) -> None:
    for _ in range(6):  # one more than AXES_FAILURE_LIMIT
        _login(username, "wrong password", **meta)


def test_failed_logins_lock_that_login_from_that_address_only(club: Club) -> None:
    make_arbiter(club, "anna")
    make_arbiter(club, "olga")
    _attack("anna", REMOTE_ADDR="203.0.113.7")
    assert _login("anna", PASSWORD, REMOTE_ADDR="203.0.113.7") == (429, False)  # locked
    assert _login("olga", PASSWORD, REMOTE_ADDR="203.0.113.7")[
        1
    ]  # another arbiter behind the same proxy
    assert _login("anna", PASSWORD, REMOTE_ADDR="198.51.100.2")[
        1
    ]  # the arbiter from her own address


def test_a_forwarded_address_counts_only_when_the_proxy_header_is_configured(club: Club) -> None:
    make_arbiter(club, "anna")
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    # Not configured: a client-sent X-Forwarded-For changes nothing (no way around the lockout).
    for n in range(6):
        _login("anna", "wrong password", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}", **proxy)
    assert _login("anna", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99", **proxy)[1] is False
    User.objects.filter(username="anna").delete()
    make_arbiter(club, "anna")
    from axes.models import AccessAttempt

    AccessAttempt.objects.all().delete()
    with override_settings(CLUBRATING_PROXY_HEADER="X-Forwarded-For"):
        _attack("anna", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)
        assert _login("anna", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy) == (429, False)
        # The proxy appends the address it saw: the right-most one is the client's.
        assert _login("anna", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.7, 198.51.100.2", **proxy)[
            1
        ]


# --- request bodies --------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(club: Club) -> None:
    body = b"x" * (MAX_REQUEST_BYTES + 1)
    for url in ("/accounts/login/", "/c/riverside/arbiter/upload/", "/c/riverside/"):
        response = Client().generic("POST", url, body, content_type="application/octet-stream")
        assert response.status_code == 413, url


def test_an_arbiter_uploads_a_big_legitimate_file(club: Club, arbiter_client: Client) -> None:
    """An annotated PGN of 4.5 MB (a coach's commentary): under the limit, imported."""
    comment = "{" + "The knight heads for d5, where no pawn can chase it. " * 4000 + "}"
    games = "".join(
        '[Event "Annotated night"]\n[Date "2024.03.05"]\n[Round '
        f'"{r}"]\n[White "Anna Smith"]\n[Black "Bob Jones"]\n[Result '
        f'"1-0"]\n\n1. e4 {comment} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
        for r in range(1, 21)
    )
    data = games.encode()
    assert 4_000_000 < len(data) < MAX_UPLOAD_BYTES
    response = arbiter_client.post(
        "/c/riverside/arbiter/upload/", {"file": SimpleUploadedFile("night.pgn", data)}
    )
    assert response.status_code == 302
    assert Tournament.objects.get(club=club, name="Annotated night").games.count() == 20


# --- headers ---------------------------------------------------------------------------------


def test_every_page_forbids_scripts_and_the_templates_have_none(
    club: Club, evening: Tournament
) -> None:
    from django.template.loaders.app_directories import get_app_template_dirs
    from pathlib import Path

    for directory in get_app_template_dirs("templates"):
        for template in Path(directory).rglob("web/**/*.html"):
            text = template.read_text()
            assert not re.search(r"<script|javascript:|\son[a-z]+=", text, re.I), template
    for url in (
        "/",
        "/c/riverside/",
        f"/c/riverside/t/{evening.id}/",
        "/accounts/login/",
        "/c/nope/",
        "/robots.txt",
        "/api/c/riverside/ratings",
    ):
        policy = Client().get(url)["Content-Security-Policy"]
        assert "script-src 'none'" in policy and "default-src 'none'" in policy, url
        assert (
            "frame-ancestors 'none'" in policy and "style-src 'self' 'unsafe-inline'" in policy
        ), url


def test_robots_txt_lets_crawlers_read_the_noindex_of_unlisted_pages(db: None) -> None:
    robots = Client().get("/robots.txt").content.decode()
    rules = [
        line.removeprefix("Disallow:").strip()
        for line in robots.splitlines()
        if line.startswith("Disallow:")
    ]
    assert rules and not [
        r for r in rules if "/u/token/".startswith(r) or "/api/u/token/ratings".startswith(r)
    ]


@pytest.mark.parametrize(
    "url", ["/u/no-such-token/", "/u/no-such-token/t/1/", "/api/u/no-such-token/ratings"]
)
def test_a_404_under_an_unlisted_address_is_noindex_too(db: None, url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 404
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_an_arbiter_only_club_under_its_token_is_404_and_noindex(club: Club) -> None:
    from clubrating.club.services.clubs import set_privacy

    set_privacy(club, who="test", visibility="arbiter")
    club.refresh_from_db()
    response = Client().get(f"/u/{club.token}/")
    assert response.status_code == 404 and response["X-Robots-Tag"] == "noindex, nofollow"
