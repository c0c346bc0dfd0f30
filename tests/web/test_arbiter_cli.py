"""``clubrating arbiter add|remove|list``: logins for the website."""

from __future__ import annotations

import io
import sys

import pytest
from django.contrib.auth.models import User

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Club

from .conftest import make_arbiter


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str = "") -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main(argv)


def test_an_arbiter_added_from_the_command_line_can_log_in_to_that_club_only(
    club: Club, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run(
            monkeypatch,
            ["arbiter", "add", "nina", "--club", "riverside", "--password-stdin"],
            "a long enough passphrase\n",
        )
        == 0
    )
    assert (
        capsys.readouterr().out.strip() == "nina is an arbiter of Riverside Chess Club (new login)"
    )
    assert club.arbiters.filter(username="nina").exists()
    assert User.objects.get(username="nina").check_password("a long enough passphrase")
    assert AuditEntry.objects.filter(club=club, action="arbiter-add", target="login nina").exists()
    assert run(monkeypatch, ["arbiter", "list", "--club", "riverside", "--json"]) == 0
    assert '"nina"' in capsys.readouterr().out
    assert run(monkeypatch, ["arbiter", "remove", "nina", "--club", "riverside"]) == 2
    assert "the last arbiter of Riverside Chess Club" in capsys.readouterr().err
    make_arbiter(club, "olga")
    assert run(monkeypatch, ["arbiter", "remove", "nina", "--club", "riverside"]) == 0
    assert not club.arbiters.filter(username="nina").exists()


def test_a_weak_or_missing_password_is_one_line_and_exit_2(
    club: Club, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run(
            monkeypatch,
            ["arbiter", "add", "nina", "--club", "riverside", "--password-stdin"],
            "abc\n",
        )
        == 2
    )
    assert "the password is too weak" in capsys.readouterr().err
    assert run(monkeypatch, ["arbiter", "add", "nina", "--club", "riverside"]) == 2
    assert "give a password" in capsys.readouterr().err


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
def test_a_password_that_is_no_utf8_is_one_line_and_stores_nothing(
    club: Club,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    errors: str,
) -> None:
    """Bytes that are no UTF-8 on stdin: a UTF-8 locale's stdin refuses them, a C locale's
    escapes them (a lone surrogate that no password hasher can encode)."""
    raw = io.BytesIO(b"long enough \xff\xfe passphrase\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw, encoding="utf-8", errors=errors))
    assert main(["arbiter", "add", "nina", "--club", "riverside", "--password-stdin"]) == 2
    err = capsys.readouterr().err
    assert (
        "the first line of standard input is not UTF-8 text" in err and len(err.splitlines()) == 1
    )
    assert not User.objects.filter(username="nina").exists()
