"""Stored values as a command's text shows them, in the command's language: a tournament's status
and kind, a list's time control (words.VALUE_WORDS, one list for the pages and the terminal),
a flag as yes or no. The JSON keeps every value as stored."""

from __future__ import annotations

from clubrating import djangoenv
from clubrating.words import N_, VALUE_WORDS

YES, NO = N_("yes"), N_("no")


def word(value: str) -> str:
    """The stored value in the command's language; a value the catalogue lacks stays as it is."""
    return djangoenv.gettext(value) if value in VALUE_WORDS else value


def yes_no(flag: bool) -> str:
    """A flag as a person reads it: yes or no, not True or False."""
    return djangoenv.gettext(YES if flag else NO)
