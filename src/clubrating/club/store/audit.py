"""The audit log: every change of history says who, when, old -> new."""

from __future__ import annotations

import getpass
import os
from typing import Any

from clubrating.club.store.audit_text import stored
from clubrating.club.store.models import AuditEntry, Club
from clubrating.errors import Text


def cli_user() -> str:
    """Who is acting from the command line: ``cli:<login>``."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = os.environ.get("USER", "unknown")
    return f"cli:{login}"


def record(
    club: Club,
    who: str,
    action: str,
    target: str,
    *,
    old: Any = None,
    new: Any = None,
    summary: str | Text | None = "",
) -> AuditEntry:
    """Leave the entry; a ``summary`` given as a Text is stored in English and as the sentence to
    translate where it is read (:func:`clubrating.club.store.audit_text.read_stored`)."""
    summary = summary or ""
    return AuditEntry.objects.create(
        club=club,
        who=who,
        action=action,
        target=target[:200],
        old=old,
        new=new,
        summary=str(summary)[:300],
        summary_text=stored(summary),
    )
