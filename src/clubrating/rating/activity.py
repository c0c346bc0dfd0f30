"""Inactive members: no rated game in the last N months of the list's own history.

"Today" is the date of the latest rated game on the list, not the calendar: a
club's list looked at a year after its last event shows the members as they stood
that evening (all of them active), not everybody inactive; a member who stopped
while the club went on playing is inactive. A member with no rated game yet (an
initial list's rating only) counts from the list's first rated game. Being
inactive changes nothing in the history: the rating is kept, only listed apart.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable

# as FIDE's rating list: inactive after a year without a rated game (B02, "inactive players")
DEFAULT_MONTHS = 12


def months_before(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` calendar months earlier (31 March - 1 month = 29 February of a leap
    year)."""
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    return dt.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def cutoff(last_played: Iterable[dt.date | None], months: int) -> tuple[dt.date, dt.date] | None:
    """(the list's latest rated game, the first date that still counts as active), or None when
    the rule is off (``months`` 0) or nobody has played."""
    days = [d for d in last_played if d is not None]
    if months <= 0 or not days:
        return None
    latest = max(days)
    return latest, months_before(latest, months)


def is_inactive(last_played: dt.date | None, first_game: dt.date | None, since: dt.date) -> bool:
    """No rated game on or after ``since``; a member who never played counts from ``first_game``."""
    seen = last_played if last_played is not None else first_game
    return seen is not None and seen < since
