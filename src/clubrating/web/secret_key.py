"""The installation's secret key (Django's SECRET_KEY): random, made once, kept in a file.

Where: beside an SQLite database, ``<database file>.secret-key``; for any other
database (PostgreSQL), ``$XDG_CONFIG_HOME/clubrating/secret-key`` (``~/.config``
when unset; XDG Base Directory Specification). File mode 0600. Servers of one
PostgreSQL database on several machines share ``CLUBRATING_SECRET_KEY`` instead.

No Django import here: the settings module reads it before Django starts.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import unquote, urlparse

from clubrating.errors import InputError
from clubrating.words import N_

KEY_BYTES = (
    50  # token_urlsafe(50): 67 characters, over Django's deploy check minimum (50, security.W009)
)


def key_path(database_url: str) -> Path:
    """Where the secret key of the installation that uses this database is kept."""
    url = urlparse(database_url)
    if url.scheme in ("sqlite", "spatialite"):
        name = unquote(
            url.path[1:]
        )  # as dj_database_url reads it: sqlite:///rel.db, sqlite:////abs.db
        if name and name != ":memory:":
            return Path(os.path.abspath(name + ".secret-key"))
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(config) / "clubrating" / "secret-key"


def installation_key(database_url: str) -> str:
    """The stored key if there is one; else a random key for this process only (a command
    that serves no page signs nothing that outlives it). Never creates a file."""
    try:
        text = key_path(database_url).read_text().strip()
    except OSError:
        text = ""
    return text or secrets.token_urlsafe(KEY_BYTES)


def ensure_key(database_url: str) -> Path:
    """Make the installation's key if it has none (``clubrating serve``): written to a
    private temporary file, then linked into place, so two servers starting at once
    both read one whole key. One clear line when the place is not writable."""
    path = key_path(database_url)
    if path.exists():
        try:
            readable = bool(path.read_text().strip())
        except OSError as error:
            raise InputError(
                N_(
                    "the secret key cannot be read (%(reason)s): give the server's user read "
                    "access, or set CLUBRATING_SECRET_KEY"
                ),
                file=str(path),
                reason=error.strerror,
            ) from None
        if not readable:
            raise InputError(
                N_(
                    "the secret key file is empty: remove it (a new one is made) or set "
                    "CLUBRATING_SECRET_KEY"
                ),
                file=str(path),
            )
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another server made it first: theirs is the key
        finally:
            temporary.unlink()
    except OSError as error:
        raise InputError(
            N_(
                "cannot store the secret key: %(reason)s; set CLUBRATING_SECRET_KEY or make "
                "the directory writable"
            ),
            file=str(path),
            reason=error.strerror,
        ) from None
    return path
