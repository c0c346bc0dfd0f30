"""The audit log: every change of history says who, when, old -> new."""

from __future__ import annotations

import getpass
import os
from typing import Any

from clubrating.club.models import AuditEntry, Club


def cli_user() -> str:
    """Who is acting from the command line: ``cli:<login>``."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = os.environ.get("USER", "unknown")
    return f"cli:{login}"


def record(club: Club, who: str, action: str, target: str, *, old: Any = None, new: Any = None,
           summary: str = "") -> AuditEntry:
    return AuditEntry.objects.create(club=club, who=who, action=action, target=target[:200],
                                     old=old, new=new, summary=summary[:300])
