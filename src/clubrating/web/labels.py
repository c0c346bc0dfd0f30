"""The words of a tournament's and a game's stored values (time control, kind, status, colour),
marked for the catalogue: the database and the JSON API keep the English value, and a page shows
it as ``{% translate value %}`` (or :func:`label`) in its own language."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from clubrating.words import VALUE_WORDS as WORDS  # one list, the terminal's too


def label(value: str) -> str:
    """The stored value in the page's language; a value the catalogue lacks stays as it is."""
    return gettext(value) if value in WORDS else value


# The name of a club's one rating list, kept as "standard" when the club rates every time control
# together (Club.separate_lists false): it holds rapid and blitz games as well.
EVERY_TIME_CONTROL = gettext_noop("every time control")


def list_label(rating_list: str, separate_lists: bool) -> str:
    """A rating list's name in the page's language: its time control where the club keeps a list
    per time control, "every time control" for a club's one list."""
    return label(rating_list) if separate_lists else gettext(EVERY_TIME_CONTROL)
