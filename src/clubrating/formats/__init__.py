"""clubrating.formats: pure readers and writers of tournament files (TRF-16, PGN, CSV).

Every reader takes an open text handle and a source name for messages, and
returns a :class:`~clubrating.formats.records.TournamentRecord`; bad input is
an :class:`~clubrating.errors.InputError` with file and line. Opening files is
the shell's job (:mod:`clubrating.files`).
"""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from clubrating.errors import InputError
from clubrating.formats.common import check_bounds, check_text, decode_text
from clubrating.formats.csv import read_csv, write_csv
from clubrating.formats.records import TournamentRecord
from clubrating.formats.trf import read_trf, write_trf
from clubrating.words import N_

if TYPE_CHECKING:
    from clubrating.formats.pgn import read_pgn, write_pgn

# The PGN reader and writer stand on python-chess (chess.pgn brings chess.engine and asyncio),
# which a command that reads no PGN does without: they are imported on first use (PEP 562).
LAZY = {"read_pgn": "clubrating.formats.pgn", "write_pgn": "clubrating.formats.pgn"}
# Each format's reader, by its name in this module.
READERS = {"trf": "read_trf", "pgn": "read_pgn", "csv": "read_csv"}
EXTENSIONS = {".trf": "trf", ".trfx": "trf", ".pgn": "pgn", ".csv": "csv", ".tsv": "csv"}

__all__ = [
    "READERS",
    "decode_text",
    "detect_format",
    "reader_of",
    "read_csv",
    "read_pgn",
    "read_tournament_text",
    "read_trf",
    "write_csv",
    "write_pgn",
    "write_trf",
]


def __getattr__(name: str) -> Any:
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(LAZY[name]), name)
    globals()[name] = value
    return value


def reader_of(format: str) -> Callable[[TextIO, str], TournamentRecord]:
    """The reader of ``format`` ('trf', 'pgn' or 'csv', a key of :data:`READERS`)."""
    reader: Callable[[TextIO, str], TournamentRecord] = getattr(
        sys.modules[__name__], READERS[format]
    )
    return reader


def detect_format(text: str, name: str = "") -> str:
    """'trf', 'pgn' or 'csv': from the file name's extension when it is one of
    .trf/.pgn/.csv/.tsv, else from the content (TRF: a line starting with
    '001 ' or '012 '; PGN: the first line starting with '['; else CSV)."""
    dot = name.rfind(".")
    extension = name[dot:].lower() if dot > name.replace("\\", "/").rfind("/") else ""
    if extension in EXTENSIONS:
        return EXTENSIONS[extension]
    lines = [line.lstrip("\ufeff") for line in text.splitlines() if line.strip()]
    if any(line.startswith(("001 ", "012 ")) for line in lines):
        return "trf"
    if lines and lines[0].lstrip().startswith("["):
        return "pgn"
    return "csv"


def read_tournament_text(text: str, source: str, *, format: str | None = None) -> TournamentRecord:
    """Read a tournament from its decoded text, detecting the format unless given."""
    if not text.strip():
        raise InputError(
            N_("the file is empty: expected a TRF, PGN or CSV tournament"), file=source
        )
    check_text(text, source)
    chosen = (format or detect_format(text, source)).lower()
    if chosen not in READERS:
        raise InputError(
            N_("unknown format %(format)s: expected one of %(value)s"),
            file=source,
            format=repr(format),
            value=", ".join(READERS),
        )
    record = reader_of(chosen)(io.StringIO(text, newline=None), source)
    check_bounds(record)  # the PGN reader's too: rounds, players, names
    return record
