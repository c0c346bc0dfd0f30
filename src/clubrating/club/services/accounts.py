"""Arbiter accounts: a login and a password, nothing more (spec R18).

Used by ``clubrating arbiter``; each change leaves an audit entry in the club.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from clubrating.club import audit
from clubrating.club.models import Club
from clubrating.errors import InputError, NotFound


def add_arbiter(club: Club, username: str, password: str | None, *, who: str) -> str:
    """Make ``username`` an arbiter of ``club`` (creating the login if needed); the message for the
    user."""
    username = username.strip()
    if not username or len(username) > 150:
        raise InputError(gettext_noop("a login name has 1 to 150 characters"))
    User = get_user_model()
    user = User.objects.filter(username=username).first()
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
            user = User.objects.create_user(username=username, password=password)
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
    return f"{username} is an arbiter of {club.name}" + (" (new login)" if created else "")


def login_exists(username: str) -> bool:
    return get_user_model().objects.filter(username=username.strip()).exists()


def remove_arbiter(club: Club, username: str, *, who: str) -> str:
    user = club.arbiters.filter(username=username).first()
    if user is None:
        raise NotFound(
            gettext_noop("%(username)s is not an arbiter of %(name)s"),
            username=repr(username),
            name=club.name,
        )
    with transaction.atomic():
        club.arbiters.remove(user)
        audit.record(club, who, "arbiter-remove", f"login {username}", old={"login": username})
    return f"{username} is no longer an arbiter of {club.name}"


def arbiters(club: Club) -> list[str]:
    return list(club.arbiters.order_by("username").values_list("username", flat=True))
