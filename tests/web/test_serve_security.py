"""``clubrating serve`` hardening: the installation's own secret key, the
deployment checks, HTTPS headers, and a body refused before it is read."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.test import override_settings
from django.utils.safestring import mark_safe

from clubrating.errors import InputError
from clubrating.web.secret_key import ensure_key, key_path

from .test_serve import _start, _stop

OLD_CONSTANT = (
    "clubrating-dev-only-change-me-in-production"  # the key every installation had before
)
PAYLOAD = '<img id="pwned" src=x>'


def _env(**extra: str) -> dict[str, str]:
    # As a server is started: none of this test run's settings (the browser tests set
    # DJANGO_ALLOW_ASYNC_UNSAFE).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLUBRATING_", "DJANGO_"))}
    return {**env, "CLUBRATING_DEBUG": "0", **extra}


def _forged_messages_cookie(key: str) -> str:
    """A messages cookie holding HTML marked safe, signed with ``key``."""
    with override_settings(SECRET_KEY=key):
        return str(
            CookieStorage(HttpRequest())._encode([Message(constants.INFO, mark_safe(PAYLOAD))])
        )


def _request(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def _settings_key(env: dict[str, str]) -> str:
    code = (
        "import django; django.setup(); from django.conf "
        "import settings; print(settings.SECRET_KEY)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DJANGO_SETTINGS_MODULE": "clubrating.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_serve_makes_a_private_random_key_beside_the_database_and_a_forged_cookie_is_ignored(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    server, port = _start(database, _env())
    try:
        status, _, body = _request(
            port,
            "/accounts/login/",
            {"Cookie": f"messages={_forged_messages_cookie(OLD_CONSTANT)}"},
        )
        assert status == 200 and "Arbiter login" in body and PAYLOAD not in body
    finally:
        _stop(server)
    key_file = tmp_path / "site.sqlite3.secret-key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    key = key_file.read_text().strip()
    assert len(key) >= 50 and key != OLD_CONSTANT
    server, port = _start(database, _env())  # a restart keeps the key (sessions survive it)
    _stop(server)
    assert key_file.read_text().strip() == key
    assert _settings_key(_env(CLUBRATING_DATABASE_URL=database)) == key


def test_the_environment_key_wins_and_no_installation_has_a_constant_key(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path}/other.sqlite3"
    assert (
        _settings_key(_env(CLUBRATING_DATABASE_URL=database, CLUBRATING_SECRET_KEY="k" * 60))
        == "k" * 60
    )
    first, second = (_settings_key(_env(CLUBRATING_DATABASE_URL=database)) for _ in range(2))
    assert (
        OLD_CONSTANT not in (first, second) and first != second
    )  # no file: a key of the process only
    assert not (tmp_path / "other.sqlite3.secret-key").exists()  # only the server writes one


def test_the_deployment_checks_are_clean_under_https(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "clubrating.cli",
            "--database",
            f"sqlite:///{tmp_path}/s.sqlite3",
            "serve",
            "--check",
        ],
        env=_env(CLUBRATING_HTTPS="1"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout + result.stderr
    assert "WARNINGS" not in result.stdout + result.stderr


def test_under_https_plain_http_is_redirected_and_https_answers_carry_hsts_and_csp(
    tmp_path: Path,
) -> None:
    server, port = _start(f"sqlite:///{tmp_path}/site.sqlite3", _env(CLUBRATING_HTTPS="1"))
    try:
        status, headers, _ = _request(port, "/accounts/login/", {"Host": "localhost"})
        assert status == 301 and headers["location"] == "https://localhost/accounts/login/"
        # Through the TLS proxy in front (on the same host): gunicorn believes its
        # X-Forwarded-Proto.
        status, headers, _ = _request(
            port, "/accounts/login/", {"Host": "localhost", "X-Forwarded-Proto": "https"}
        )
        assert status == 200
        assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
        assert "script-src 'none'" in headers["content-security-policy"]
    finally:
        _stop(server)


def test_a_body_announced_too_large_is_refused_before_it_is_sent(tmp_path: Path) -> None:
    server, port = _start(f"sqlite:///{tmp_path}/site.sqlite3", _env())
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.putrequest("POST", "/accounts/login/")
        conn.putheader("Content-Type", "application/x-www-form-urlencoded")
        conn.putheader("Content-Length", str(1024**3))  # 1 GB announced, 1 kB sent
        conn.endheaders(b"username=a&password=" + b"x" * 1000)
        response = conn.getresponse()  # within the timeout: nobody waits for the rest
        assert response.status == 413
        conn.close()
    finally:
        _stop(server)


def test_the_key_of_a_server_database_lives_in_the_users_config_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = ensure_key("postgres://club@db.example/ratings")
    assert path == tmp_path / "config" / "clubrating" / "secret-key"
    assert path.stat().st_mode & 0o777 == 0o600 and (path.parent.stat().st_mode & 0o077) == 0
    assert (
        ensure_key("postgres://club@db.example/ratings") == path
        and len(path.read_text().strip()) >= 50
    )
    assert key_path("sqlite:///:memory:") == path


def test_a_key_that_cannot_be_stored_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(InputError) as error:
        ensure_key(f"sqlite:///{tmp_path}/a-file/site.sqlite3")
    assert str(error.value).startswith(
        f"{tmp_path}/a-file/site.sqlite3.secret-key: cannot store the secret key"
    )
    assert "CLUBRATING_SECRET_KEY" in str(error.value)


def test_a_key_file_that_cannot_be_read_or_is_empty_stops_the_server_in_one_line(
    tmp_path: Path,
) -> None:
    """Before: serve went on and every gunicorn worker signed with a random key of its own
    (logins and CSRF failing at random); now one line naming the file."""
    database = f"sqlite:///{tmp_path}/site.sqlite3"
    key_path(database).mkdir()  # unreadable as a file (root reads any file)
    with pytest.raises(InputError, match="the secret key cannot be read") as error:
        ensure_key(database)
    assert str(error.value).startswith(f"{tmp_path}/site.sqlite3.secret-key: ")
    key_path(database).rmdir()
    key_path(database).write_text("\n")
    with pytest.raises(InputError, match="the secret key file is empty"):
        ensure_key(database)
