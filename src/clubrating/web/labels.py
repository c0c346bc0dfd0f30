"""The words of a tournament's and a game's stored values (time control, kind, status, colour),
marked for the catalogue: the database and the JSON API keep the English value, and a page shows
it as ``{% translate value %}`` (or :func:`label`) in its own language."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

WORDS = frozenset(
    {
        gettext_noop("standard"),
        gettext_noop("rapid"),
        gettext_noop("blitz"),  # Tournament.time_control
        gettext_noop("chess"),
        gettext_noop("bughouse"),  # Tournament.kind
        gettext_noop("draft"),
        gettext_noop("published"),  # TournamentStatus
        gettext_noop("white"),
        gettext_noop("black"),  # a game's colour
    }
)


def label(value: str) -> str:
    """The stored value in the page's language; a value the catalogue lacks stays as it is."""
    return gettext(value) if value in WORDS else value
