"""clubrating.formats: pure readers and writers of tournament files (TRF-16, PGN, CSV).

Every reader takes an open text handle and a source name for messages, and
returns a :class:`~clubrating.formats.records.TournamentRecord`; bad input is
an :class:`~clubrating.errors.InputError` with file and line. Opening files is
the shell's job (:mod:`clubrating.files`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TextIO

from clubrating.errors import InputError
from clubrating.formats.common import check_bounds, decode_text
from clubrating.formats.csv import read_csv, write_csv
from clubrating.formats.pgn import read_pgn, write_pgn
from clubrating.formats.records import TournamentRecord
from clubrating.formats.trf import read_trf, write_trf
from clubrating.words import N_

READERS: dict[str, Callable[[TextIO, str], TournamentRecord]] = {
    "trf": read_trf, "pgn": read_pgn, "csv": read_csv}
EXTENSIONS = {".trf": "trf", ".trfx": "trf", ".pgn": "pgn", ".csv": "csv", ".tsv": "csv"}

__all__ = ["READERS", "decode_text", "detect_format", "read_csv", "read_pgn", "read_tournament_text",
           "read_trf", "write_csv", "write_pgn", "write_trf"]


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
        raise InputError(N_("the file is empty: expected a TRF, PGN or CSV tournament"), file=source)
    chosen = (format or detect_format(text, source)).lower()
    if chosen not in READERS:
        raise InputError(N_("unknown format %(format)s: expected one of %(value)s"), file=source,
                         format=repr(format), value=', '.join(READERS))
    record = READERS[chosen](io.StringIO(text, newline=None), source)
    check_bounds(record)   # the PGN reader's too: rounds, players, names
    return record
