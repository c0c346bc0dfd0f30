"""The manual rebuild of a club's history (R14)."""

from __future__ import annotations

from clubrating.club import audit
from clubrating.club.history import RebuildReport, rebuild
from clubrating.club.locking import history_write
from clubrating.club.models import Club


def check_history(club: Club, *, who: str) -> RebuildReport:
    """The manual rebuild (R14): replay everything, store it, and record whether the
    stored ratings matched the replay (a difference is a missed rebuild made visible)."""
    with history_write(club) as club:
        report = rebuild(club, reason=f"manual rebuild by {who}", expect_difference=False)
        audit.record(club, who, "rebuild", club.slug, new={"matched": report.changes_differing == 0,
                                                           "changes_differing": report.changes_differing},
                     summary=str(report))
    return report
