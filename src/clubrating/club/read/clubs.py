"""The club looked up by its slug, its ids parsed, its rating lists."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CurrentRating,
)
from clubrating.errors import InputError, NotFound
from clubrating.formats.bounds import whole_number

MAX_ID = 2**63 - 1  # the largest id any of the databases stores (64-bit integers)


def find_club(slug: str | None = None) -> Club:
    """The club named by ``slug``, or the only club of the database."""
    if slug:
        try:
            return Club.objects.get(slug=slug)
        except Club.DoesNotExist:
            raise NotFound(
                gettext_noop("no club %(slug)s in this database: %(value)s"),
                slug=repr(slug),
                value=_slugs(),
            ) from None
    clubs = list(Club.objects.all()[:2])
    if not clubs:
        raise NotFound(
            gettext_noop("this database holds no club yet: run 'clubrating init NAME' first")
        )
    if len(clubs) > 1:
        raise InputError(
            gettext_noop(
                "this database holds several clubs: say which with --club SLUG (%(value)s)"
            ),
            value=_slugs(),
        )
    return clubs[0]


SLUGS_SHOWN = 20  # a federation's database may hold hundreds of clubs


def club_renamed_from(slug: str) -> Club | None:
    """The club whose address word was ``slug`` before the arbiter changed it (its settings'
    audit entries keep every old one), the latest such change first; None when no club was."""
    entry = (
        AuditEntry.objects.filter(action="settings", old__slug=slug)
        .select_related("club")
        .order_by("-id")
        .first()
    )
    return None if entry is None or entry.club.slug == slug else entry.club


def _slugs() -> str:
    """The clubs' short names, as --club takes them."""
    slugs = list(Club.objects.order_by("slug").values_list("slug", flat=True)[: SLUGS_SHOWN + 1])
    if not slugs:
        return "it holds no club yet (clubrating init NAME)"
    more = f" and {Club.objects.count() - SLUGS_SHOWN} more" if len(slugs) > SLUGS_SHOWN else ""
    return "the clubs are " + ", ".join(slugs[:SLUGS_SHOWN]) + more


def parse_id(ref: int | str | None) -> int | None:
    """A row id written as a number, or None when it cannot be one (not a whole number, out of
    range)."""
    value = whole_number(str(ref) if ref is not None else "", MAX_ID)
    return value if value else None


def rating_lists(club: Club) -> list[str]:
    lists = (
        CurrentRating.objects.filter(member__club=club)
        .values_list("rating_list", flat=True)
        .distinct()
    )
    return sorted(set(lists)) or ["standard"]
