"""The project's small exception hierarchy (STYLE.md, practice 7).

Every error a user can cause derives from :class:`ClubratingError`; the CLI and
the web turn it into one readable line. Anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations


class ClubratingError(Exception):
    """A user's mistake or a refused operation, shown as one line."""


class InputError(ClubratingError, ValueError):
    """Bad input in a file or an argument: ``file:line: what was expected``."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.reason = message
        where = ""
        if file is not None:
            where = f"{file}:{line}: " if line is not None else f"{file}: "
        super().__init__(where + message)


class NotFound(ClubratingError, LookupError):
    """A club, member, tournament or game that does not exist."""


class Refused(ClubratingError):
    """An operation that would break a rule (merge into itself, a duplicate import ...)."""
