"""Arbiters on the web: an invitation by a one-time link, one's own password changed, another
arbiter removed (never the last one who can log in), a forgotten password reset by a one-time
link from another arbiter or ``clubrating arbiter reset``; every action audited; the login
lockout counts the new forms."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from clubrating.cli import main
from clubrating.club.store.models import AuditEntry, Club
from clubrating.club.services import accounts
from clubrating.club.services.clubs import create_club
from clubrating.errors import NotFound, Refused

from .conftest import PASSWORD, WHO, make_arbiter

NEW = "a long new phrase for olga"
ADDRESS = {"REMOTE_ADDR": "203.0.113.9"}


def logs_in(login: str, password: str) -> bool:
    client = Client()
    client.post("/accounts/login/", {"username": login, "password": password})
    return "_auth_user_id" in client.session


def choose(path: str, password: str, again: str | None = None, **meta: str) -> int:
    response = Client().post(
        path, {"new_password1": password, "new_password2": again or password}, **meta
    )
    return response.status_code


def actions(club: Club) -> list[str]:
    return list(
        AuditEntry.objects.filter(club=club).order_by("id").values_list("action", flat=True)
    )


def test_an_invitation_works_once_and_makes_an_arbiter_who_can_log_in(club: Club) -> None:
    outcome, path = accounts.invite_arbiter(club, "olga", who=WHO)
    assert "olga invited" in outcome.translated() and path.startswith("/accounts/invite/")
    assert club.arbiters.filter(username="olga").exists() and not logs_in("olga", "")
    assert Client().get(path).status_code == 200
    assert choose(path, "short") == 200 and not logs_in("olga", "short")  # a validator said no
    assert choose(path, NEW) == 302 and logs_in("olga", NEW)
    assert choose(path, "another long phrase") == 404  # once only
    assert logs_in("olga", NEW)
    assert actions(club)[-2:] == ["arbiter-invite", "arbiter-password"]


def test_an_invitation_expires(club: Club) -> None:
    _, path = accounts.invite_arbiter(club, "olga", who=WHO)
    with override_settings(PASSWORD_RESET_TIMEOUT=-1):
        assert choose(path, NEW) == 404
    assert not logs_in("olga", NEW)


def test_a_reset_link_does_not_open_an_invitation_nor_the_other_way(club: Club) -> None:
    _, invite = accounts.invite_arbiter(club, "olga", who=WHO)
    assert choose(invite.replace("/invite/", "/reset/"), NEW) == 404
    make_arbiter(club, "anna")
    _, reset = accounts.reset_link(club, "anna", who=WHO)
    assert choose(reset.replace("/reset/", "/invite/"), NEW) == 404
    assert choose(reset, NEW) == 302 and logs_in("anna", NEW) and not logs_in("anna", PASSWORD)


def test_an_invitation_withdrawn_before_it_is_used_no_longer_works(club: Club) -> None:
    make_arbiter(club, "anna")
    _, path = accounts.invite_arbiter(club, "olga", who=WHO)
    accounts.remove_arbiter(club, "olga", who=WHO)
    assert choose(path, NEW) == 404 and not logs_in("olga", NEW)


@pytest.mark.parametrize("name", ["", " ", "two words", "x" * 151, "anna"])
def test_an_invitation_to_no_name_or_a_taken_one_is_refused(club: Club, name: str) -> None:
    make_arbiter(club, "anna")
    before = User.objects.count()
    with pytest.raises((Refused, ValueError)):
        accounts.invite_arbiter(club, name, who=WHO)
    assert User.objects.count() == before


def test_the_last_arbiter_who_can_log_in_is_never_removed(club: Club) -> None:
    make_arbiter(club, "anna")
    accounts.invite_arbiter(club, "olga", who=WHO)  # invited, no password yet: cannot log in
    with pytest.raises(Refused, match="last arbiter"):
        accounts.remove_arbiter(club, "anna", who=WHO)
    accounts.remove_arbiter(club, "olga", who=WHO)
    with pytest.raises(NotFound):
        accounts.remove_arbiter(club, "olga", who=WHO)
    assert list(club.arbiters.values_list("username", flat=True)) == ["anna"]
    assert User.objects.filter(username="olga").exists()  # the login stays: nothing deleted


def test_the_arbiters_page_invites_resets_and_removes(club: Club, arbiter_client: Client) -> None:
    base = "/c/riverside/arbiter/arbiters/"
    page = arbiter_client.post(f"{base}invite/", {"login": "olga"}, follow=True).content.decode()
    link = re.search(r"http://testserver(/accounts/invite/[^<\s]+)", page)
    assert link is not None and "olga invited" in page
    assert choose(link.group(1), NEW) == 302
    page = arbiter_client.post(f"{base}reset/", {"login": "olga"}, follow=True).content.decode()
    assert "/accounts/reset/" in page
    page = arbiter_client.post(f"{base}remove/", {"login": "anna-arbiter"}, follow=True)
    assert "another arbiter of the club removes you" in page.content.decode()
    arbiter_client.post(f"{base}remove/", {"login": "olga"}, follow=True)
    assert not club.arbiters.filter(username="olga").exists()
    assert arbiter_client.get(base).status_code == 200
    assert actions(club)[-4:] == [
        "arbiter-invite",
        "arbiter-password",
        "arbiter-reset-link",
        "arbiter-remove",
    ]


def test_an_arbiter_changes_the_own_password(club: Club) -> None:
    make_arbiter(club, "anna")
    client = Client()
    client.force_login(User.objects.get(username="anna"))
    assert client.get("/accounts/password_change/").status_code == 200
    form = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    assert client.post("/accounts/password_change/", form).status_code == 302
    assert client.get("/c/riverside/arbiter/").status_code == 200  # still logged in
    assert logs_in("anna", NEW) and not logs_in("anna", PASSWORD)
    assert actions(club)[-1] == "arbiter-password"
    assert Client().get("/accounts/password_change/").status_code == 302  # to the login


def test_wrong_current_passwords_lock_the_login_as_failed_logins_do(club: Club) -> None:
    make_arbiter(club, "anna")
    client = Client()
    client.force_login(User.objects.get(username="anna"))
    wrong = {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW}
    statuses = [
        client.post("/accounts/password_change/", wrong, **ADDRESS).status_code for _ in range(5)
    ]
    assert statuses == [200] * 4 + [429]  # the fifth failure (AXES_FAILURE_LIMIT) locks
    right = {**wrong, "old_password": PASSWORD}
    assert client.post("/accounts/password_change/", right, **ADDRESS).status_code == 429
    response = Client().post(
        "/accounts/login/", {"username": "anna", "password": PASSWORD}, **ADDRESS
    )
    assert response.status_code == 429  # the login page says the same


def test_links_that_are_no_links_lock_the_link_page(club: Club) -> None:
    _, path = accounts.invite_arbiter(club, "olga", who=WHO)
    forged = path.rsplit("/", 2)[0] + "/0-forged/"
    assert [choose(forged, NEW, **ADDRESS) for _ in range(5)] == [404] * 4 + [429]
    assert choose(path, NEW, **ADDRESS) == 429  # even the real one, from that address
    assert choose(path, NEW, REMOTE_ADDR="198.51.100.4") == 302


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_reset_command_makes_a_link(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "Riverside Chess Club"]) == 0
    club = Club.objects.get()
    make_arbiter(club, "anna")
    capsys.readouterr()
    assert main(["arbiter", "reset", "anna", "--json"]) == 0
    path = json.loads(capsys.readouterr().out)["path"]
    assert choose(path, NEW) == 302 and logs_in("anna", NEW)
    assert main(["arbiter", "reset", "nobody"]) == 2
    assert "not an arbiter" in capsys.readouterr().err
    assert actions(club)[-2:] == ["arbiter-reset-link", "arbiter-password"]


def test_an_arbiter_cannot_take_over_a_login_that_is_an_arbiter_of_another_club_too(
    club: Club, arbiter_client: Client
) -> None:
    # found: a reset link for olga (an arbiter of both clubs) made on riverside's page let
    # riverside's arbiter choose olga's password and open the other club's arbiter pages
    other = create_club("Other Club", who=WHO, slug="other")
    make_arbiter(club, "olga")
    other.arbiters.add(User.objects.get(username="olga"))
    base = "/c/riverside/arbiter/arbiters/"
    page = arbiter_client.post(f"{base}reset/", {"login": "olga"}, follow=True).content.decode()
    assert "/accounts/reset/" not in page
    assert "olga is an arbiter of another club too: the server&#x27;s administrator" in page
    assert "arbiter-reset-link" not in actions(club) and logs_in("olga", PASSWORD)
    with pytest.raises(Refused):
        accounts.reset_link(club, "olga", who=WHO)
    # the server's administrator may: ``clubrating arbiter reset`` runs on the server itself
    _, path = accounts.reset_link(club, "olga", who=WHO, administrator=True)
    assert choose(path, NEW) == 302 and logs_in("olga", NEW)


def test_a_reset_link_stops_working_once_its_login_becomes_an_arbiter_of_another_club(
    club: Club,
) -> None:
    # the link was made while olga was riverside's alone: once she is the other club's arbiter
    # too, whoever holds the link would open that club's pages as well
    make_arbiter(club, "olga")
    _, path = accounts.reset_link(club, "olga", who=WHO)
    _, invited = accounts.invite_arbiter(club, "petra", who=WHO)
    other = create_club("Other Club", who=WHO, slug="other")
    other.arbiters.add(User.objects.get(username="olga"), User.objects.get(username="petra"))
    assert choose(path, NEW) == 404 and choose(invited, NEW) == 404
    assert logs_in("olga", PASSWORD) and not logs_in("petra", NEW)
