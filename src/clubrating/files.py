"""Opening tournament files: the shell around the pure readers of :mod:`clubrating.formats`.

Reads the bytes, decides the encoding (:func:`clubrating.formats.decode_text`),
detects the format and hands the text to the pure reader. The SHA-256 of the
bytes lets the import service refuse the same file imported twice.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from clubrating.errors import InputError
from clubrating.formats.common import decode_text
from clubrating.formats.reading import read_tournament_text
from clubrating.formats.records import TournamentRecord
from clubrating.words import N_


def read_tournament_bytes(
    data: bytes, name: str, *, format: str | None = None
) -> tuple[TournamentRecord, str]:
    """Read an uploaded file's bytes: the record and the hex SHA-256 of the bytes."""
    if not data.strip():
        raise InputError(N_("the file is empty: expected a TRF, PGN or CSV tournament"), file=name)
    # decoded (UTF-16 too), a NUL or another control character left is a binary or a damaged
    # file: read_tournament_text refuses it with its line
    return read_tournament_text(decode_text(data, name), name, format=format), hashlib.sha256(
        data
    ).hexdigest()


def read_tournament_file(path: str, *, format: str | None = None) -> TournamentRecord:
    """Read a tournament file (TRF, PGN or CSV; format detected unless given)."""
    return read_tournament_file_with_hash(path, format=format)[0]


def read_tournament_file_with_hash(
    path: str, *, format: str | None = None
) -> tuple[TournamentRecord, str]:
    """Read a tournament file: the record and the hex SHA-256 of its bytes."""
    file = Path(path)
    if file.is_dir():
        raise InputError(
            N_("is a directory: expected a tournament file (TRF, PGN or CSV)"), file=path
        )
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputError(N_("no such file"), file=path) from None
    except OSError as error:
        raise InputError(
            N_("cannot read the file (%(strerror)s)"), file=path, strerror=error.strerror
        ) from None
    return read_tournament_bytes(data, path, format=format)
