"""Publishing a monthly list: every rating list of the club (or one) frozen as it stood at the
start of the month's list day (the club's ``list-day``, the 1st by default), stored with that day
once and never changed by a later correction (docs/
ratings.md, "Monthly lists"). A month published already is refused; ``replace`` publishes it
again from today's history, on the arbiter's explicit word, with the old figures in the audit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club.derived.frozen_lists import ListedRow, lists_on
from clubrating.club.store import audit
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club, FrozenList, FrozenRow
from clubrating.club.services.outcome import Outcome
from clubrating.errors import Refused, Text
from clubrating.formats import zones
from clubrating.words import N_, Nn_


def publish_month(
    club: Club,
    month: dt.date,
    *,
    who: str,
    rating_list: str | None = None,
    replace: bool = False,
) -> Outcome:
    """Freeze the lists of ``month`` as they stood at the start of its list day (the club's
    setting when published, stored with each list) in one transaction with its audit entry."""
    month = month.replace(day=1)
    with history_write(club) as locked:
        day = month.replace(day=locked.list_day)
        if day > zones.today(locked.time_zone):
            raise Refused(
                gettext_noop("the list of %(month)s is frozen from %(day)s on, which has not come"),
                month=f"{month:%Y-%m}",
                day=day.isoformat(),
            )
        lists = _chosen(lists_on(locked, day), rating_list, day)
        held = FrozenList.objects.filter(club=locked, month=month, rating_list__in=lists)
        old = {f.rating_list: _summary(f) for f in held}
        if old and not replace:
            raise Refused(
                gettext_noop(
                    "the %(lists)s list of %(month)s was published already and stays as it is; to "
                    "publish it again, say so (replacing it goes in the audit log)"
                ),
                lists=list_names(sorted(old)),
                month=f"{month:%Y-%m}",
            )
        held.delete()
        now = timezone.now()
        for name, rows in lists.items():
            frozen = FrozenList.objects.create(
                club=locked,
                rating_list=name,
                month=month,
                day=day,
                published_at=now,
                published_by=who,
            )
            FrozenRow.objects.bulk_create(_frozen_rows(frozen, rows))
        new = {name: {"players": len(rows)} for name, rows in lists.items()}
        audit.record(
            locked,
            who,
            "monthly-list-replaced" if old else "monthly-list",
            f"monthly list {month:%Y-%m}",
            old=old or None,
            new={"month": f"{month:%Y-%m}", "day": day.isoformat(), "lists": new},
        )
    players = sum(len(rows) for rows in lists.values())
    return Outcome(
        Text(
            gettext_noop("the list of %(month)s published (%(lists)s): %(players)s"),
            month=f"{month:%Y-%m}",
            lists=list_names(list(lists)),
            players=Text(Nn_("%(count)s player", "%(count)s players"), count=players),
        )
    )


def list_names(names: list[str]) -> Text:
    """Rating lists' names, each translated where shown ("standard"; "rapid, blitz")."""
    first, *rest = names
    if not rest:
        return Text(first)
    return Text(N_("%(one)s, %(others)s"), one=Text(first), others=list_names(rest))


def _chosen(
    lists: dict[str, list[ListedRow]], rating_list: str | None, day: dt.date
) -> dict[str, list[ListedRow]]:
    if rating_list is not None:
        if rating_list not in lists:
            raise Refused(
                gettext_noop("the club had no %(list)s list on %(day)s (it has: %(lists)s)"),
                list=Text(rating_list[:40]),
                day=day.isoformat(),
                lists=list_names(list(lists)) if lists else "-",
            )
        return {rating_list: lists[rating_list]}
    if not lists:
        raise Refused(
            gettext_noop(
                "nothing to freeze: no rated game before %(day)s and no initial list; "
                "nothing was stored"
            ),
            day=day.isoformat(),
        )
    return lists


def _summary(frozen: FrozenList) -> dict[str, object]:
    return {
        "day": frozen.day.isoformat(),
        "players": frozen.rows.count(),
        "published_at": frozen.published_at.isoformat(timespec="seconds"),
        "published_by": frozen.published_by,
    }


def _frozen_rows(frozen: FrozenList, rows: Iterable[ListedRow]) -> list[FrozenRow]:
    return [
        FrozenRow(
            frozen_list=frozen,
            member_id=r.member_id,
            position=position,
            rank=r.rank,
            name=r.name,
            rating=r.rating,
            games=r.games,
            provisional=r.provisional,
            inactive=r.inactive,
            last_played=r.last_played,
        )
        for position, r in enumerate(rows, start=1)
    ]
