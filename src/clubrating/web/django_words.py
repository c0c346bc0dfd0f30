"""Django's own words an arbiter meets on our pages that Django's catalogue lacks in Armenian: the
password validators' (settings.AUTH_PASSWORD_VALIDATORS), exactly as Django 5.2's
``django/contrib/auth/password_validation.py`` passes them to gettext. Marked here so that
``scripts/messages`` keeps them in our catalogue, which Django reads before its own
(``LOCALE_PATHS``)."""

from __future__ import annotations

from clubrating.words import N_, Nn_

MESSAGES = (
    Nn_(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    Nn_(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
    ),
    N_("This password is too common."),
    N_("Your password can’t be a commonly used password."),
)
