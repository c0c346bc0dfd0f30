"""The language switcher in a real browser (Chromium, scripts off): choosing Русский on a
page posts the form, comes back to the same page, and the page and the next ones are in
Russian; the browser's own Accept-Language (English) no longer decides."""

from __future__ import annotations

import pytest

from clubrating.club.store.models import Tournament

from .test_browser import page  # noqa: F401  (the Chromium fixture)

pytestmark = pytest.mark.browser


def test_the_switcher_works_without_script_and_keeps_the_page(
    live_server, transactional_db, evening: Tournament, page
) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    context = page.context.browser.new_context(java_script_enabled=False, locale="en-US")
    browser = context.new_page()
    address = f"{live_server.url}/c/riverside/t/{evening.id}/"
    browser.goto(address)
    assert browser.locator("html").get_attribute("lang") == "en"
    browser.get_by_label("Language").select_option(label="Русский")
    browser.locator("form.language button").click()
    browser.wait_for_load_state()
    assert browser.url == address
    assert browser.locator("html").get_attribute("lang") == "ru"
    assert browser.locator("form.language select").input_value() == "ru"
    browser.goto(f"{live_server.url}/c/riverside/")
    assert browser.locator("html").get_attribute("lang") == "ru"
    assert [c["value"] for c in context.cookies() if c["name"] == "django_language"] == ["ru"]
    context.close()
