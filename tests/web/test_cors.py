"""CORS for the read-only API (django-cors-headers): off by default; with origins configured,
those origins (and no other) may read /api/ with GET, and nothing else is opened to them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.test import Client, override_settings

from clubrating.club.store.models import Tournament
from clubrating.djangoenv import cors_origins
from clubrating.errors import InputError

SITE = "https://riverside-chess.example.org"
ALLOW = "Access-Control-Allow-Origin"


def test_by_default_no_origin_gets_the_header(client: Client, evening: Tournament) -> None:
    response = client.get("/api/c/riverside/ratings", headers={"Origin": SITE})
    assert response.status_code == 200 and ALLOW not in response


@override_settings(CORS_ALLOWED_ORIGINS=[SITE])
def test_a_configured_origin_reads_the_api_and_another_does_not(
    client: Client, evening: Tournament
) -> None:
    response = client.get("/api/c/riverside/ratings", headers={"Origin": SITE})
    assert response.status_code == 200 and response[ALLOW] == SITE
    assert "Access-Control-Allow-Credentials" not in response
    other = client.get(
        "/api/c/riverside/ratings", headers={"Origin": "https://elsewhere.example.com"}
    )
    assert other.status_code == 200 and ALLOW not in other


@override_settings(CORS_ALLOWED_ORIGINS=[SITE])
def test_only_api_paths_and_only_get_are_opened(client: Client, evening: Tournament) -> None:
    page = client.get("/c/riverside/", headers={"Origin": SITE})
    assert page.status_code == 200 and ALLOW not in page
    preflight = client.options(
        "/api/c/riverside/ratings", headers={"Origin": SITE, "Access-Control-Request-Method": "GET"}
    )
    assert preflight.status_code == 200 and preflight[ALLOW] == SITE
    assert preflight["Access-Control-Allow-Methods"] == "GET"


@pytest.mark.parametrize(
    "value, origins",
    [
        ("", []),
        ("https://a.example.org", ["https://a.example.org"]),
        (
            " https://a.example.org , http://localhost:8080 ",
            ["https://a.example.org", "http://localhost:8080"],
        ),
    ],
)
def test_the_setting_reads_comma_separated_origins(value: str, origins: list[str]) -> None:
    assert cors_origins(value) == origins


@pytest.mark.parametrize(
    "value", ["a.example.org", "https://a.example.org/", "ftp://a.example.org", "*"]
)
def test_what_is_not_an_origin_is_one_line_naming_the_variable(value: str) -> None:
    with pytest.raises(InputError, match="CLUBRATING_CORS_ORIGINS: .* is not an origin"):
        cors_origins(value)


def test_the_environment_variable_sets_the_allowed_origins() -> None:
    code = (
        "import django; django.setup(); from django.conf "
        "import settings; print(settings.CORS_ALLOWED_ORIGINS)"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubrating.settings",
        "CLUBRATING_CORS_ORIGINS": SITE,
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr([SITE])
