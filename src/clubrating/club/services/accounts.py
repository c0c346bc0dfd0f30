"""Arbiter accounts: a login and a password, nothing more (spec R18).

Used by ``clubrating arbiter`` and the arbiters' page; each change leaves an audit entry in the
club. An invitation and a password reset are one-time links made with Django's password-reset
tokens (:class:`PasswordResetTokenGenerator`, one salt each): a token holds the login's password
hash and last login, so it stops working once used, and it expires after
``PASSWORD_RESET_TIMEOUT`` (docs/website.md, "Arbiters"). No e-mail is stored: the arbiter who
made the link passes it on.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club
from clubrating.club.services.outcome import Outcome
from clubrating.errors import InputError, NotFound, Refused, Text


class ClubTokens(PasswordResetTokenGenerator):
    """A token whose hash also holds the clubs its login is an arbiter of: a link made while the
    login was one club's arbiter stops working once it becomes another club's too (whoever
    holds the link would open that club's pages as well)."""

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        clubs = Club.objects.filter(arbiters=user.pk).order_by("pk").values_list("pk", flat=True)
        return super()._make_hash_value(user, timestamp) + ",".join(map(str, clubs))


class InviteTokens(ClubTokens):
    """An invitation's token: a reset token under its own salt, so neither opens the other."""

    key_salt = "clubrating.club.services.accounts.InviteTokens"


class ResetTokens(ClubTokens):
    key_salt = "clubrating.club.services.accounts.ResetTokens"


LINKS = {"invite": InviteTokens(), "reset": ResetTokens()}
"""The two kinds of one-time link, by the word of their address (/accounts/<kind>/...)."""


def add_arbiter(club: Club, username: str, password: str | None, *, who: str) -> Text:
    """Make ``username`` an arbiter of ``club`` (creating the login if needed); the message for the
    user."""
    username = username.strip()
    if not username or len(username) > 150:
        raise InputError(gettext_noop("a login name has 1 to 150 characters"))
    logins = get_user_model()
    user = logins.objects.filter(username=username).first()
    if user is None and password is None:
        raise InputError(
            gettext_noop("%(username)s is a new login: give a password (--password-stdin)"),
            username=repr(username),
        )
    if password is not None:
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise InputError(
                gettext_noop("the password is too weak: %(reasons)s"),
                reasons=" ".join(error.messages),
            ) from None
    with transaction.atomic():
        created = user is None
        if user is None:
            user = logins.objects.create_user(username=username, password=password)
        elif password is not None:
            user.set_password(password)
            user.save(update_fields=["password"])
        club.arbiters.add(user)
        audit.record(
            club,
            who,
            "arbiter-add",
            f"login {username}",
            new={"login": username, "created": created, "password_set": password is not None},
        )
    return Text(
        gettext_noop("%(username)s is an arbiter of %(name)s (new login)")
        if created
        else gettext_noop("%(username)s is an arbiter of %(name)s"),
        username=username,
        name=club.name,
    )


def login_exists(username: str) -> bool:
    return get_user_model().objects.filter(username=username.strip()).exists()


def remove_arbiter(club: Club, username: str, *, who: str) -> Text:
    """Take the login off the club's arbiters; never the last one who can log in (nobody could
    then add another but from the server's shell). The login itself stays."""
    with history_write(club.pk) as locked:  # two removals at once: the second sees the first
        user = locked.arbiters.filter(username=username).first()
        if user is None:
            raise NotFound(
                gettext_noop("%(username)s is not an arbiter of %(name)s"),
                username=repr(username),
                name=club.name,
            )
        others = [u for u in locked.arbiters.exclude(pk=user.pk) if u.has_usable_password()]
        if user.has_usable_password() and not others:
            raise Refused(
                gettext_noop(
                    "%(username)s is the last arbiter of %(name)s who can log in: add or invite "
                    "another first"
                ),
                username=repr(username),
                name=club.name,
            )
        locked.arbiters.remove(user)
        audit.record(club, who, "arbiter-remove", f"login {username}", old={"login": username})
    return Text(
        gettext_noop("%(username)s is no longer an arbiter of %(name)s"),
        username=username,
        name=club.name,
    )


def arbiters(club: Club) -> list[str]:
    return list(club.arbiters.order_by("username").values_list("username", flat=True))


def _link(kind: str, user: User) -> str:
    """The path of a one-time link for ``user`` (the site's address goes before it)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/accounts/{kind}/{uid}/{LINKS[kind].make_token(user)}/"


def invite_arbiter(club: Club, username: str, *, who: str) -> tuple[Outcome, str]:
    """A new login, an arbiter of ``club`` without a password yet, and the path of the one-time
    link with which its owner chooses one. A login name taken already is refused: an existing
    login is made an arbiter by ``clubrating arbiter add``."""
    username = username.strip()
    if not username or len(username) > 150 or any(c.isspace() for c in username):
        raise InputError(gettext_noop("a login name has 1 to 150 characters and no spaces"))
    logins = get_user_model()
    with transaction.atomic():
        if logins.objects.filter(username=username).exists():
            raise Refused(
                gettext_noop(
                    "%(username)s is a login already: choose another name, or make it an "
                    "arbiter with clubrating arbiter add"
                ),
                username=repr(username),
            )
        user = logins(username=username)
        user.set_unusable_password()
        user.save()
        club.arbiters.add(user)
        audit.record(club, who, "arbiter-invite", f"login {username}", new={"login": username})
    return (
        Outcome(
            Text(
                gettext_noop(
                    "%(username)s invited: pass on the link below; it works once, for %(days)s days"
                ),
                username=username,
                days=link_days(),
            )
        ),
        _link("invite", user),
    )


def reset_link(
    club: Club, username: str, *, who: str, administrator: bool = False
) -> tuple[Outcome, str]:
    """The path of a one-time link with which an arbiter of ``club`` who forgot the password
    chooses a new one; made by another arbiter or ``clubrating arbiter reset``. Whoever opens
    the link holds the login, so an arbiter makes one only for a login of this club alone: a
    login that is an arbiter of another club too is the server's ``administrator``'s to reset
    (else one club's arbiter would take over another club's pages)."""
    user = club.arbiters.filter(username=username).first()
    if user is None:
        raise NotFound(
            gettext_noop("%(username)s is not an arbiter of %(name)s"),
            username=repr(username),
            name=club.name,
        )
    if not administrator and Club.objects.filter(arbiters=user).exclude(pk=club.pk).exists():
        raise Refused(
            gettext_noop(
                "%(username)s is an arbiter of another club too: the server's administrator "
                "makes the reset link (clubrating arbiter reset)"
            ),
            username=username,
        )
    audit.record(club, who, "arbiter-reset-link", f"login {username}", new={"login": username})
    return (
        Outcome(
            Text(
                gettext_noop(
                    "a password reset link for %(username)s: pass it on; it works once, for "
                    "%(days)s days"
                ),
                username=username,
                days=link_days(),
            )
        ),
        _link("reset", user),
    )


def link_days() -> int:
    """How many days a link works (Django's ``PASSWORD_RESET_TIMEOUT``, in the settings)."""
    return int(settings.PASSWORD_RESET_TIMEOUT) // (24 * 3600)


def user_of_link(kind: str, uidb64: str, token: str) -> tuple[str, User | None]:
    """The login a one-time link names (or ``link:<uid>`` when it names none), and its user when
    the link works: None when it is no such link, used or expired, or its login is an arbiter of
    no club any more (removed before the link was used)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return f"link:{uidb64}", None
    user = get_user_model().objects.filter(pk=pk).first()
    if user is None:
        return f"link:{uidb64}", None
    works = LINKS[kind].check_token(user, token) and Club.objects.filter(arbiters=user).exists()
    return user.get_username(), user if works else None


def set_password(user: User, password: str, *, how: str) -> None:
    """A password chosen through an invitation, a reset link or the change form (``how``:
    ``invite``, ``reset``, ``change``), checked by Django's validators by the form that took it;
    audited in every club of the login. The change invalidates every link made before it."""
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        login = user.get_username()
        for club in Club.objects.filter(arbiters=user):
            audit.record(
                club,
                f"web:{login}",
                "arbiter-password",
                f"login {login}",
                new={"login": login, "how": how},
            )
