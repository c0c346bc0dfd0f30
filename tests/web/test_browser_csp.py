"""The Content-Security-Policy in a real browser (Chromium): the pages break no rule of
it (no script, the style block and the SVG charts' styles apply) and a script injected
into a page would not run."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.club.store.models import Club, Member

from .conftest import EVENING, publish_typed
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser


def test_the_pages_keep_their_styles_and_break_no_rule_of_the_policy(
    live_server, transactional_db, page
) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    tournament = publish_typed(club, EVENING, "January", dt.date(2024, 1, 9))
    anna = Member.objects.get(club=club, name="Anna Smith")
    complaints: list[str] = []
    page.on("console", lambda message: complaints.append(message.text))
    for path in (
        "/c/riverside/",
        f"/c/riverside/p/{anna.id}/",
        f"/c/riverside/t/{tournament.id}/",
        "/accounts/login/",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert (
            response is not None
            and "script-src 'none'" in response.headers["content-security-policy"]
        )
    page.goto(f"{live_server.url}/c/riverside/p/{anna.id}/")
    dashes = page.evaluate(
        "getComputedStyle(document.querySelector('svg.wide-chart .provisional-line'))"
        ".strokeDasharray"
    )
    body = page.evaluate("getComputedStyle(document.body).maxWidth")
    assert (dashes, body) == (
        "5px, 4px",
        "960px",
    )  # the page's <style> applies to the page and its chart
    page.evaluate("""() => { const s = document.createElement('script');
                             s.textContent = 'document.title = "ran"';
                             document.body.append(s); }""")
    assert page.title() != "ran"
    assert [c for c in complaints if "Content Security Policy" in c and "script" not in c] == []
