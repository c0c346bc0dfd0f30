"""A change to a club's history rebuilds what derives from it: ONE call.

Every service that changes history (import, publish, correction, deletion,
redating, merge, unmerge, the junior flag under the FIDE policy, the manual
rebuild) calls :func:`rebuild_derived` inside its transaction: the ratings are replayed
(:mod:`clubrating.club.derived.ratings`), then the CPI ledger re-scored from the stored
facts (:mod:`clubrating.club.derived.ledger`), which reads the members the ratings'
merges resolve and the results as now corrected. Neither of the two imports
the other; this is where they meet, in that order.
"""

from __future__ import annotations

from typing import Any

from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.derived.ledger_correction import rebuild_cpi_of_players
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club, Game, Tournament
from clubrating.club.derived.ratings import OrderKey, RebuildReport, order_key, rebuild_ratings
from clubrating.errors import Text

__all__ = [
    "OrderKey",
    "RebuildReport",
    "order_key",
    "rebuild_derived",
    "rebuild_derived_if_published",
]


def rebuild_derived(
    club: Club,
    *,
    reason: str | Text,
    since: Tournament | OrderKey | None = None,
    expect_difference: bool = True,
    corrected: Game | None = None,
) -> RebuildReport:
    """Replay the published history (all of it, or from ``since`` on), store the ratings,
    then rebuild the CPI ledger; in the caller's transaction, or in one of its own holding
    the club's lock when called alone. The report is the ratings'. ``corrected``: the game
    whose result alone changed (``since`` its tournament): the ledger rebuilds its two
    players' rows when that is all the correction changes."""
    with history_write(club):
        key = order_key(since) if isinstance(since, Tournament) else since
        report = rebuild_ratings(
            club, reason=reason, since=key, expect_difference=expect_difference
        )
        if corrected is None or rebuild_cpi_of_players(club, corrected) is None:
            rebuild_cpi(club, since=key)  # the CPI ledger follows every history change
    return report


def rebuild_derived_if_published(
    tournament: Tournament,
    reason: str | Text,
    since: Tournament | tuple[Any, ...] | None = None,
    corrected: Game | None = None,
) -> RebuildReport | None:
    """The rebuild a change to ``tournament`` causes: none while it is a draft."""
    if not tournament.is_published:
        return None
    return rebuild_derived(
        tournament.club, reason=reason, since=since or tournament, corrected=corrected
    )
