"""The audit log read back: its pages, the last rebuild and why."""

from __future__ import annotations

from typing import Any

from clubrating.club.store.audit_text import read_stored, sentence, who_shown
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    RebuildLog,
)
from clubrating.errors import InputError, Text
from clubrating.formats import zones
from clubrating.words import N_, Nn_


def audit_log(club: Club, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """The club's audit entries, newest first, each with its sentence and its time in the club's
    zone;
    ``who`` and ``summary`` as stored (English), ``who_translated`` and ``summary_translated`` in
    the
    active language."""
    return [
        {
            "when": a.when.astimezone(zones.zone(club.time_zone)).isoformat(timespec="seconds"),
            "local": zones.local_text(a.when, club.time_zone),
            "who": a.who,
            "who_translated": who_shown(a.who),
            "action": a.action,
            "target": a.target,
            "old": a.old,
            "new": a.new,
            "summary": a.summary,
            "summary_translated": read_stored(a.summary_text, a.summary),
            "sentence": sentence(a.action, a.target, a.old, a.new),
        }
        for a in AuditEntry.objects.filter(club=club)[offset : offset + limit]
    ]


def audit_page(club: Club, page: int = 1, per_page: int = 50) -> dict[str, Any]:
    """One page of the audit log (newest first) and how many entries and pages there are."""
    total = AuditEntry.objects.filter(club=club).count()
    pages = max(1, -(-total // per_page))
    if not 1 <= page <= pages:
        raise InputError(
            N_(
                "page %(page)s: the audit log has %(pages)s of %(per_page)s (%(entries)s), "
                "expected 1 to %(last)s"
            ),
            page=page,
            per_page=per_page,
            last=pages,
            pages=Text(Nn_("%(count)s page", "%(count)s pages"), count=pages),
            entries=Text(Nn_("%(count)s entry", "%(count)s entries"), count=total),
        )
    return {
        "club": club.slug,
        "time_zone": zones.zone_name(club.time_zone),
        "total": total,
        "page": page,
        "pages": pages,
        "per_page": per_page,
        "entries": audit_log(club, per_page, (page - 1) * per_page),
    }


def last_rebuild(club: Club) -> RebuildLog | None:
    return RebuildLog.objects.filter(club=club).order_by("-when", "-id").first()


def rebuild_reason(log: RebuildLog) -> str:
    """Why the history was rebuilt, in the active language (as stored, in English, for a log row
    written before reasons were kept to translate)."""
    return read_stored(log.reason_text, log.reason)
