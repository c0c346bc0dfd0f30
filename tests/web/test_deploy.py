"""The deployment files of deploy/, as docs/deploy.md installs them: Debian's nginx started from
the documented site configuration on loopback, in front of a real ``clubrating serve``, and the
systemd units checked by systemd's own ``systemd-analyze verify``."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from clubrating.cli import build_parser

from .test_serve import _free_port, _stop
from .test_serve_security import _env

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SITE = "club.example.org"
NGINX = "/usr/sbin/nginx"  # Debian's nginx (scripts/bootstrap's test packages)
CLIENT, OTHER_CLIENT = "127.0.0.2", "127.0.0.3"  # Linux answers all of 127/8 on loopback
STARTUP = 90.0  # seconds a server may take to listen on a busy 2-core machine


@dataclass
class Proxy:
    http_port: int
    https_port: int
    database: Path
    logs: Path  # nginx's access logs: Debian's access.log and the site's own

    def access_log(self) -> str:
        return "".join(p.read_text(encoding="utf-8") for p in sorted(self.logs.glob("*access.log")))


def _site_config(
    upstream: int, http_port: int, https_port: int, cert: Path, key: Path, logs: Path
) -> str:
    """deploy/nginx/clubrating.conf with the addresses, certificate and log directory of this test,
    nothing else."""
    text = (
        (DEPLOY / "nginx" / "clubrating.conf")
        .read_text(encoding="utf-8")
        .replace("/var/log/nginx/", f"{logs}/")
    )
    for old, new in {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen [::]:443 ssl;": "",
        f"/etc/letsencrypt/live/{SITE}/fullchain.pem": str(cert),
        f"/etc/letsencrypt/live/{SITE}/privkey.pem": str(key),
        "http://127.0.0.1:8000": f"http://127.0.0.1:{upstream}",
    }.items():
        assert old in text, f"deploy/nginx/clubrating.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    raise AssertionError(f"nothing listened on {port} in {STARTUP:.0f} s")


def _serve(database: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """``clubrating serve`` on a free port, once it listens."""
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clubrating",
            "--database",
            f"sqlite:///{database}",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    _wait_for_port(port, server)
    return server, port


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Proxy]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={SITE}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    database = tmp_path / "site.sqlite3"
    server, upstream = _serve(
        database,
        _env(
            CLUBRATING_HTTPS="1",
            CLUBRATING_PROXY_HEADER="X-Forwarded-For",
            CLUBRATING_ALLOWED_HOSTS=SITE,
        ),
    )
    http_port, https_port = _free_port(), _free_port()
    (tmp_path / "site.conf").write_text(
        _site_config(upstream, http_port, https_port, cert, key, tmp_path), encoding="utf-8"
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # the workers read this test's private files
    temporary = " ".join(
        f"{kind}_temp_path {tmp_path / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 1;\npid "
        f"{tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
        # Debian's nginx.conf in short: its http block logs every request unless a site says
        # otherwise
        f"events {{}}\nhttp {{\n  access_log {tmp_path / 'access.log'};\n  {temporary}\n"
        f"  include {tmp_path / 'site.conf'};\n}}\n",
        encoding="utf-8",
    )
    nginx = subprocess.Popen(
        [
            NGINX,
            "-p",
            str(tmp_path),
            "-e",
            str(tmp_path / "error.log"),
            "-c",
            str(tmp_path / "nginx.conf"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_port(https_port, nginx)
        yield Proxy(http_port, https_port, database, tmp_path)
    finally:
        nginx.terminate()
        nginx.communicate(timeout=30)
        _stop(server)


def _https(proxy: Proxy, source: str = CLIENT) -> http.client.HTTPSConnection:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own certificate
    return http.client.HTTPSConnection(
        "127.0.0.1", proxy.https_port, timeout=30, context=context, source_address=(source, 0)
    )


def _get(proxy: Proxy, path: str, source: str = CLIENT) -> http.client.HTTPResponse:
    connection = _https(proxy, source)
    connection.request("GET", path, headers={"Host": SITE})
    response = connection.getresponse()
    response.read()
    return response


def _failed_login(proxy: Proxy, source: str, forged: str) -> int:
    """One wrong password for 'anna' from ``source``, which also claims to be ``forged``."""
    connection = _https(proxy, source)
    connection.request("GET", "/accounts/login/", headers={"Host": SITE})
    page = connection.getresponse()
    body = page.read().decode()
    cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert cookie and token, body[:300]
    form = urllib.parse.urlencode(
        {"username": "anna", "password": "wrong", "csrfmiddlewaretoken": token.group(1)}
    )
    connection.request(
        "POST",
        "/accounts/login/",
        body=form,
        headers={
            "Host": SITE,
            "Cookie": f"csrftoken={cookie.group(1)}",
            "Origin": f"https://{SITE}",
            "Referer": f"https://{SITE}/accounts/login/",
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": forged,
        },
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def test_through_nginx_plain_http_is_redirected_and_answers_carry_the_security_headers(
    proxy: Proxy,
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=30)
    connection.request("GET", "/accounts/login/", headers={"Host": SITE})
    redirect = connection.getresponse()
    assert (
        redirect.status == 301
        and redirect.getheader("Location") == f"https://{SITE}/accounts/login/"
    )
    response = _get(proxy, "/accounts/login/")
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security") == "max-age=31536000; includeSubDomains"
    assert "default-src 'none'" in (response.getheader("Content-Security-Policy") or "")
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("Server") == "nginx"  # server_tokens off: no version
    assert "Secure" in (response.getheader("Set-Cookie") or "")
    assert _get(proxy, "/healthz").status == 200


def test_the_login_lockout_sees_the_address_nginx_saw_not_the_one_a_client_claims(
    proxy: Proxy,
) -> None:
    statuses = [_failed_login(proxy, CLIENT, forged=f"198.51.100.{n}") for n in range(6)]
    assert (
        statuses == [200] * 4 + [429] * 2
    )  # the fifth failure locks the login out (AXES_FAILURE_LIMIT)
    with sqlite3.connect(proxy.database) as database:
        addresses = {
            row[0] for row in database.execute("SELECT ip_address FROM axes_accessattempt")
        }
    assert addresses == {CLIENT}  # neither the forged addresses nor nginx's own 127.0.0.1
    assert (
        _failed_login(proxy, OTHER_CLIENT, forged=CLIENT) == 200
    )  # another address is not locked out


def test_nginx_answers_413_to_a_body_larger_than_the_upload_limit(proxy: Proxy) -> None:
    connection = _https(proxy)
    connection.putrequest("POST", "/c/riverside/arbiter/upload/", skip_host=True)
    connection.putheader("Host", SITE)
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(7 * 1024 * 1024))  # 7 MB announced, above 6 MB
    connection.endheaders(b"--x\r\n")
    response = connection.getresponse()
    assert (
        response.status == 413 and response.getheader("Server") == "nginx"
    )  # nginx's answer, not the app's
    # nginx's own default (1 MB) would refuse a 2 MB tournament file: that one reaches the website,
    # which refuses it for its missing CSRF token, not its size
    connection = _https(proxy)
    connection.request(
        "POST",
        "/accounts/login/",
        body=b"x=" + b"y" * (2 * 1024 * 1024),
        headers={"Host": SITE, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert connection.getresponse().status == 403


def test_nginxs_access_log_keeps_no_moves_link_token_and_logs_the_other_paths(proxy: Proxy) -> None:
    # a link's shape (token_urlsafe(16)); unknown here, and logged the same
    token = "Zq7Xk2Lw9Pv4Rt6Ys1Nb3A"
    assert _get(proxy, f"/m/{token}/").status == 404
    connection = _https(proxy)
    connection.request(
        "POST",
        f"/m/{token}/?from=slip",
        body=b"moves=e4",
        headers={"Host": SITE, "Content-Type": "application/x-www-form-urlencoded"},
    )
    connection.getresponse().read()
    connection.request(
        "GET", "/accounts/login/", headers={"Host": SITE, "Referer": f"https://{SITE}/m/{token}/"}
    )
    connection.getresponse().read()
    plain = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=30)
    plain.request("GET", f"/m/{token}/", headers={"Host": SITE})  # typed without https: redirected
    assert plain.getresponse().status == 301
    assert _get(proxy, "/healthz").status == 200
    time.sleep(0.2)  # nginx writes its log line after the answer
    log = proxy.access_log()
    assert token not in log and token[:8] not in log, log
    assert (
        log.count("/m/-/") == 4
    )  # the three requests to the link and the Referer, each with its path hidden
    assert (
        '"GET /accounts/login/ HTTP/1.1" 200' in log and '"GET /healthz HTTP/1.1" 200' in log
    )  # others logged
    assert '"POST /m/-/ HTTP/1.1" 403' in log  # the method and status stay, for the operator


def _clubrating(proxy: Proxy, *argv: str) -> str:
    """A clubrating command on the served database, as the operator runs one beside the server."""
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", f"sqlite:///{proxy.database}", *argv],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _phone_sends(proxy: Proxy, path: str, moves: str) -> tuple[int, str]:
    """A phone of its own (no cookies yet) behind the club's address opens its link and sends
    moves."""
    connection = _https(proxy)
    connection.request("GET", path, headers={"Host": SITE})
    page = connection.getresponse()
    body = page.read().decode()
    cookies = "; ".join(c.split(";")[0] for c in page.headers.get_all("Set-Cookie") or [])
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert page.status == 200 and "clubrating_device=" in cookies and token, (
        page.status,
        body[:300],
    )
    form = urllib.parse.urlencode({"moves": moves, "csrfmiddlewaretoken": token.group(1)})
    connection.request(
        "POST",
        path,
        body=form,
        headers={
            "Host": SITE,
            "Cookie": cookies,
            "Origin": f"https://{SITE}",
            "Referer": f"https://{SITE}/",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    response = connection.getresponse()
    return response.status, response.read().decode()


def test_behind_nginx_a_phone_guessing_links_is_slowed_and_the_rooms_valid_links_go_on(
    proxy: Proxy, tmp_path: Path
) -> None:
    """Every phone of the club's Wi-Fi reaches nginx from one address (127.0.0.2 here), which
    nginx appends to X-Forwarded-For."""
    results = tmp_path / "round1.csv"
    results.write_text("round,white,black,result\n1,Anna Smith,Bob Jones,1-0\n", encoding="utf-8")
    _clubrating(proxy, "init", "Riverside Chess Club")
    _clubrating(proxy, "import", str(results), "--date", "2026-03-03")
    links = re.findall(
        r"https://club\.example\.org(/m/[A-Za-z0-9_-]+/)",
        _clubrating(proxy, "moves-links", "1", "--make", "1", "--site", f"https://{SITE}"),
    )
    assert len(links) == 2
    from clubrating.club.services.moves_links import GUESSES

    guesser = _https(proxy)
    statuses = []
    for n in range(GUESSES + 1):
        guesser.request("GET", f"/m/guessed-token-{n:07d}/", headers={"Host": SITE})
        response = guesser.getresponse()
        response.read()
        statuses.append(response.status)
    assert statuses == [404] * GUESSES + [429]
    status, page = _phone_sends(
        proxy, links[0], "1. e4 e5 2. Nf3"
    )  # Anna's phone, the same address
    assert status == 200 and "received; the arbiter checks them" in page
    status, page = _phone_sends(proxy, links[1], "e4 e5 Nf3")  # Bob's phone
    assert status == 200 and "agreeing with your opponent&#x27;s: stored" in page
    assert _get(proxy, "/m/guessed-token-again/").status == 429  # the guesses are still refused
    listed = json.loads(_clubrating(proxy, "moves-links", "1", "--json"))
    assert [(row["colour"], row["opened"], row["pending"]) for row in listed] == [
        ("white", True, 0),
        ("black", True, 0),
    ]


UNITS = (
    "clubrating.service",
    "clubrating-worker@.service",
    "clubrating-backup.service",
    "clubrating-backup.timer",
)


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    """The units as installed, with this checkout's command and environment file in place of
    /opt/clubrating and /etc/clubrating (verify checks that the programs exist)."""
    command = str(Path(sys.executable).with_name("clubrating"))
    for unit in UNITS:
        text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8")
        text = text.replace("/opt/clubrating/.venv/bin/clubrating", command)
        text = text.replace(
            "/etc/clubrating/clubrating.env", str(DEPLOY / "systemd" / "clubrating.env")
        )
        (tmp_path / unit.replace("@.", "@1.")).write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", *sorted(str(p) for p in tmp_path.iterdir())],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "clubrating" not in done.stderr, done.stderr


def test_every_command_the_units_run_is_a_clubrating_command() -> None:
    parser = build_parser()
    commands = []
    for unit in UNITS:
        for line in (DEPLOY / "systemd" / unit).read_text(encoding="utf-8").splitlines():
            if line.startswith("ExecStart=/opt/clubrating/.venv/bin/clubrating"):
                commands.append(shlex.split(line.partition("=")[2])[1:])
    assert [c[0] for c in commands] == ["serve", "worker", "backup"]
    for argv in commands:
        parser.parse_args(argv)  # an unknown option exits (SystemExit) and fails the test
