"""Every write that changes a club's history is serialised per club.

:func:`history_write` opens (or joins) the write's transaction and takes the club's lock first:
PostgreSQL ``SELECT ... FOR NO KEY UPDATE`` on the club's row (writers of the club exclude each
other, while a row that merely refers to the club is not held up: PostgreSQL manual, 13.3.2
"Row-Level Locks"); SQLite's ``BEGIN IMMEDIATE`` (``transaction_mode`` in settings.py). The
service then reads what it checks inside the lock, on current data. A writer waits at most
:data:`LOCK_WAIT_SECONDS`; then the club is busy, one line, never a server error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import ObjectDoesNotExist
from django.db import OperationalError, connection, models, transaction
from django.utils.translation import gettext_noop

from clubrating.club.store.models import (
    Club,
)
from clubrating.errors import NotFound, Refused
from clubrating.words import N_

# The same wait as SQLite's busy timeout (settings.py, OPTIONS["timeout"] = 20) and below
# gunicorn's 30 s worker timeout (web/server.py), so that a waiting request answers.
LOCK_WAIT_SECONDS = 20
BUSY = (
    "another change to this club's history is still running (a rebuild takes a while): "
    "nothing was changed, try again in a minute"
)


@contextmanager
def history_write(club: Club | int) -> Iterator[Club]:
    """The transaction of one write to ``club``'s history, holding the club's lock.

    Yields the club as stored now (read under the lock). Nested calls join the
    outer transaction (the lock is held already).
    """
    club_id = club if isinstance(club, int) else club.pk
    outermost = not connection.in_atomic_block
    try:
        with transaction.atomic():
            locked = _lock(club_id)
            yield locked
    except OperationalError as error:
        if outermost and _is_lock_wait(error):
            raise Refused(BUSY) from None
        raise


def _lock(club_id: int) -> Club:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # SET LOCAL: for this transaction only (PostgreSQL manual, "lock_timeout")
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT_SECONDS}s'")
    locked = Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
    if locked is None:
        raise NotFound(N_("no club %(club)s in this database (deleted meanwhile?)"), club=club_id)
    return locked


def _is_lock_wait(error: OperationalError) -> bool:
    """SQLite's "database is locked" (busy timeout), PostgreSQL's lock_not_available (55P03)."""
    cause = error.__cause__
    return "database is locked" in str(error) or getattr(cause, "sqlstate", None) == "55P03"


def reread(*rows: models.Model) -> None:
    """Read these rows again, under the club's lock: a service checks what is stored now,
    not what the caller read before another writer committed."""
    for row in rows:
        try:
            row.refresh_from_db()
        except ObjectDoesNotExist:
            raise NotFound(
                gettext_noop("%(verbose_name)s %(pk)s no longer exists: it was deleted meanwhile"),
                verbose_name=row._meta.verbose_name,
                pk=row.pk,
            ) from None
