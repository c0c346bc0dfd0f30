"""A tournament file's text read by the reader of its format (TRF-16, PGN or CSV), the format
told by its name or its content. The PGN reader stands on python-chess: a command that reads
tournament files imports it (``rate``, ``import``, ``moves``); the others import the readers
they use from their own modules.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TextIO

from clubrating.errors import InputError
from clubrating.formats.common import check_bounds, check_text
from clubrating.formats.csv import read_csv
from clubrating.formats.records import TournamentRecord
from clubrating.formats.pgn import read_pgn
from clubrating.formats.trf import read_trf
from clubrating.words import N_

# Each format's reader, by its name.
READERS: dict[str, Callable[[TextIO, str], TournamentRecord]] = {
    "trf": read_trf,
    "pgn": read_pgn,
    "csv": read_csv,
}
EXTENSIONS = {".trf": "trf", ".trfx": "trf", ".pgn": "pgn", ".csv": "csv", ".tsv": "csv"}


def reader_of(format: str) -> Callable[[TextIO, str], TournamentRecord]:
    """The reader of ``format`` ('trf', 'pgn' or 'csv', a key of :data:`READERS`)."""
    return READERS[format]


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
