"""The project's small exception hierarchy (docs/architecture.md: one clean line at the edge).

Every error a user can cause derives from :class:`ClubratingError`; the CLI and
the web turn it into one readable line. Anything else is a bug and keeps its
traceback.

An error keeps its English template and its named parameters (:class:`Text`), so
that it is translated where it is shown, in the language of the person who reads it:
``str(error)`` stays English (logs, tests, JSON), ``error.translated(catalogue)`` is the
line for a person.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Catalogue(Protocol):
    """Where translations come from: ``django.utils.translation``, ``clubrating.djangoenv`` (the
    command's language) or :data:`ENGLISH`."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int, /) -> str: ...


class _English:
    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return singular if count == 1 else plural


ENGLISH: Catalogue = _English()


class Text:
    """A sentence to translate when shown: an English ``%(name)s`` template marked for the
    catalogue (``N_`` or ``gettext_noop``; a counted one, ``Nn_``, a pair of forms chosen by
    the ``count`` parameter) and its named values, which may be Texts too."""

    __slots__ = ("template", "params")

    def __init__(self, template: str | tuple[str, str], /, **params: object) -> None:
        self.template = template
        self.params: Mapping[str, object] = params

    def translated(self, catalogue: Catalogue = ENGLISH) -> str:
        if isinstance(self.template, tuple):
            count = self.params["count"]
            assert isinstance(count, int), "a counted text needs its count"
            text = catalogue.ngettext(*self.template, count)
        else:
            text = catalogue.gettext(self.template)
        if not self.params:
            return text
        values = {
            name: value.translated(catalogue)
            if isinstance(value, Text | ClubratingError)
            else value
            for name, value in self.params.items()
        }
        return text % values

    def __str__(self) -> str:
        return self.translated()

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other) if isinstance(other, Text | str) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


class ClubratingError(Exception):
    """A user's mistake or a refused operation, shown as one line."""

    def __init__(self, message: str | tuple[str, str] | Text = "", /, **params: object) -> None:
        self.text = message if isinstance(message, Text) else Text(message, **params)
        super().__init__(str(self.text))

    def translated(self, catalogue: Catalogue = ENGLISH) -> str:
        """The line for a person, in the language of ``catalogue``."""
        return self.text.translated(catalogue)

    def __reduce__(self) -> tuple[object, ...]:
        # An error raised in a worker process crosses back pickled; subclasses whose __init__
        # takes other arguments than the message could not be rebuilt by calling it again.
        return (_restored, (type(self), self.args, self.__dict__))


def _restored(
    kind: type[ClubratingError], args: tuple[object, ...], state: dict[str, object]
) -> ClubratingError:
    """The error ``kind`` with its ``args`` and attributes, without calling its __init__."""
    error = Exception.__new__(kind)
    error.args = args
    error.__dict__.update(state)
    return error


class InputError(ClubratingError, ValueError):
    """Bad input in a file or an argument: ``file:line: what was expected``."""

    def __init__(
        self,
        message: str | tuple[str, str] | Text,
        *,
        file: str | None = None,
        line: int | None = None,
        **params: object,
    ) -> None:
        self.file = file
        self.line = line
        super().__init__(message, **params)
        self.reason = self.text  # what was wrong, without the place

    def __str__(self) -> str:
        return self.translated()

    def translated(self, catalogue: Catalogue = ENGLISH) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + self.text.translated(catalogue)


class NotFound(ClubratingError, LookupError):
    """A club, member, tournament or game that does not exist."""


class Refused(ClubratingError):
    """An operation that would break a rule (merge into itself, a duplicate import ...)."""
