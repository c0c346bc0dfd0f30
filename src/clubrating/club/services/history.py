"""The manual rebuild of a club's history (R14)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.derived.rebuild import RebuildReport, rebuild_derived
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club
from clubrating.errors import Text


def check_history(club: Club, *, who: str) -> RebuildReport:
    """The manual rebuild (R14): replay everything, store it, and record whether the
    stored ratings matched the replay (a difference is a missed rebuild made visible)."""
    with history_write(club) as club:
        report = rebuild_derived(
            club,
            reason=Text(gettext_noop("manual rebuild by %(who)s"), who=who),
            expect_difference=False,
        )
        audit.record(
            club,
            who,
            "rebuild",
            club.slug,
            new={
                "matched": report.changes_differing == 0,
                "changes_differing": report.changes_differing,
            },
            summary=report.text,
        )
    return report
