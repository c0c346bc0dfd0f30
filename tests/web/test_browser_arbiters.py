"""Arbiters on the web in a real browser (Debian's Chromium): one arbiter invites another, who
accepts the link, logs in and changes the password; then the first removes the second."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clubrating.club.store.models import AuditEntry, Club

from .conftest import PASSWORD, make_arbiter
from .test_browser import CHROMIUM, CHROMIUM_ARGS
from clubrating.club.services.clubs import create_club

pytestmark = pytest.mark.browser
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop here

CHOSEN = "olga's first long phrase"
CHANGED = "olga's second long phrase"


def log_in(page, url: str, login: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def test_invite_accept_log_in_change_the_password_and_remove(  # type: ignore[no-untyped-def]
    live_server, transactional_db
) -> None:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/bootstrap --test"
    from playwright.sync_api import sync_playwright

    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    make_arbiter(club, "anna")
    url, home = live_server.url, f"{live_server.url}/c/riverside/arbiter/arbiters/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        anna, olga = (browser.new_context().new_page() for _ in range(2))
        for page in (anna, olga):
            page.set_default_timeout(20_000)
        log_in(anna, url, "anna", PASSWORD)
        anna.goto(home)
        anna.fill("input[name=login]", "olga")
        anna.click("text=Make the invitation link")
        link = anna.locator(".msg.info").inner_text().strip()
        assert link.startswith(f"{url}/accounts/invite/")
        assert "invited, no password yet" in anna.content()

        olga.goto(link)  # passed on by hand: no e-mail
        assert "Welcome, olga" in olga.content()
        olga.fill("#id_new_password1", CHOSEN)
        olga.fill("#id_new_password2", CHOSEN)
        olga.click("button[type=submit]")
        olga.wait_for_url(f"{url}/accounts/login/")
        log_in(olga, url, "olga", CHOSEN)
        olga.goto(home)
        assert "anna" in olga.content()  # olga is an arbiter of the club now
        olga.goto(link)
        assert "This link does not work" in olga.content()  # once only

        olga.goto(f"{url}/accounts/password_change/")
        olga.fill("#id_old_password", CHOSEN)
        olga.fill("#id_new_password1", CHANGED)
        olga.fill("#id_new_password2", CHANGED)
        olga.click("button[type=submit]")
        assert "your password is changed" in olga.content()

        anna.goto(home)
        anna.click("text=Remove olga")
        assert "olga is no longer an arbiter" in anna.content()
        assert olga.goto(home).status == 404  # logged in, but no arbiter of the club now
        browser.close()
    assert not club.arbiters.filter(username="olga").exists()
    assert list(
        AuditEntry.objects.filter(club=club, action__startswith="arbiter-")
        .order_by("id")
        .values_list("action", "new__how")
    ) == [
        ("arbiter-invite", None),
        ("arbiter-password", "invite"),
        ("arbiter-password", "change"),
        ("arbiter-remove", None),
    ]
