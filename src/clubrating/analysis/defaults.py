"""The analysis's defaults that the command line shows in its help: the engine, its node
budget and the opening book, and the reader of the seconds the environment may set (the
engine's timeout, a job's lease). A module of their own, without python-chess, so that building
the parser and starting Django do not import the engine's adapter (docs/testing.md, "The start
of a command")."""

from __future__ import annotations

import os

from clubrating.errors import InputError
from clubrating.words import N_

DEFAULT_ENGINE = "/usr/games/stockfish"  # Debian package stockfish (scripts/bootstrap)
DEFAULT_NODES = 150_000  # lichess's automatic analysis
DEFAULT_BOOK = "/usr/share/games/gnuchess/book.bin"  # Debian package gnuchess-book (bootstrap)


def env_seconds(name: str) -> float | None:
    """A number of seconds above 0 from the environment variable ``name``; None when unset.
    Anything else is an InputError naming the variable."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise InputError(
            N_("%(name)s must be a number of seconds above 0, not %(text)s"),
            name=name,
            text=repr(text),
        )
    return value
