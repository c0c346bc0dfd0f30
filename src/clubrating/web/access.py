"""Who may see a club, under which address, and which name each viewer sees (spec R15-R17).

A club's pages live under one of two prefixes:

- ``/c/<slug>/`` for a public club, and for its arbiters whatever the visibility;
- ``/u/<token>/`` for an unlisted club (the token is the secret; the arbiter can
  rotate it). A public club answers under its token too.

Anyone else gets 404, never 403, so that a club's existence does not leak.
Pages of any club that is not public carry ``noindex`` (meta and
``X-Robots-Tag``) and ``Referrer-Policy: same-origin``: no other site learns
the address (an unlisted club's token is in it). Not ``no-referrer``: under
it browsers send ``Origin: null`` with every form, and Django's CSRF check
refuses them, so the arbiter of a club that is not public could post nothing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, wraps
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import connection
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.utils import timezone, translation

from clubrating.formats import zones
from clubrating.club.read.clubs import club_renamed_from
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CpiEntry,
    Entry,
    Lineage,
    Member,
    NameDisplay,
    RebuildLog,
    TournamentStatus,
    Visibility,
)
from clubrating.web.language import club_language

ARBITER_PREFIX = "web:"  # audit entries written from the website say "web:<login>"


@dataclass(frozen=True)
class ClubAccess:
    """One viewer's view of one club."""

    club: Club
    is_arbiter: bool
    base: str  # the prefix every link of the club's pages starts with
    api_base: str  # the same for the JSON API
    # juniors_event_members when the caller read them already (for many clubs at once)
    juniors_known: frozenset[int] | None = None
    history: str = ""  # history_version, when club_view read it for the page cache's key

    @property
    def noindex(self) -> bool:
        return self.club.visibility != Visibility.PUBLIC

    def name(
        self,
        name: str,
        *,
        junior: bool = False,
        consent: bool = False,
        juniors_event: bool = False,
        member_id: int | None = None,
    ) -> str:
        """The name this viewer may see (R16, R17): arbiters see full names. A member who
        played in an event with under-18 players is named by initials everywhere, not only
        on that event's pages: each of those pages links to the member's own."""
        if self.is_arbiter:
            return name
        juniors_event = juniors_event or (
            member_id is not None and member_id in self.juniors_event_members
        )
        return public_name(
            name,
            full=self.club.names == NameDisplay.FULL,
            junior=junior,
            consent=consent,
            juniors_event=juniors_event,
        )

    @cached_property
    def juniors_event_members(self) -> frozenset[int]:
        if self.juniors_known is not None:
            return self.juniors_known
        return juniors_event_members(self.club)


def juniors_event_members(club: Club) -> frozenset[int]:
    """The ids of every member who played in a published tournament marked as having under-18
    players (R16), and of every member merged with one of them (one person, several ids).
    One query, two when the club has such players."""
    played = set(
        Entry.objects.filter(
            tournament__club=club,
            tournament__has_juniors=True,
            tournament__status=TournamentStatus.PUBLISHED,
        )
        .exclude(member=None)
        .order_by()  # no default ordering: DISTINCT over the members, not over every entry
        .values_list("member_id", flat=True)
        .distinct()
    )
    if not played:
        return frozenset()
    # only a merged member has another root than itself: only their links are read
    parent = dict(
        Member.objects.filter(club=club)
        .exclude(merged_into=None)
        .values_list("id", "merged_into_id")
    )

    def root(member_id: int) -> int:
        seen = {member_id}  # a stored merge cycle (refused by the services) must not loop here
        while (up := parent.get(member_id)) is not None and up not in seen:
            member_id = up
            seen.add(up)
        return member_id

    people = {root(m) for m in played}
    return frozenset(people | {m for m in parent if root(m) in people})


def juniors_event_members_among(member_ids: Iterable[int]) -> frozenset[int]:
    """Those of ``member_ids`` (current members, merged into nobody, of any clubs) who are in
    their club's :func:`juniors_event_members`: one of them, or a member merged into one of them
    at any depth, played in such a tournament. For a page of a few players of many clubs: two
    queries, one more for each depth of merges."""
    person = {m: m for m in member_ids}  # every id of a person -> the current member
    frontier = list(person)
    while frontier:
        below = Member.objects.filter(merged_into__in=frontier).values_list("id", "merged_into_id")
        frontier = []
        for child, up in below:
            if child not in person:  # a stored merge cycle must not loop
                person[child] = person[up]
                frontier.append(child)
    played = (
        Entry.objects.filter(
            member__in=list(person),
            tournament__has_juniors=True,
            tournament__status=TournamentStatus.PUBLISHED,
        )
        .order_by()
        .values_list("member_id", flat=True)
        .distinct()
    )
    return frozenset(person[m] for m in played)


def public_name(
    name: str, *, full: bool, junior: bool, consent: bool, juniors_event: bool = False
) -> str:
    """Full name only when the club shows full names and, for a junior or an event with
    under-18 players, the arbiter recorded consent (R16, R17); initials otherwise."""
    if full and (consent or not (junior or juniors_event)):
        return name
    return initials(name)


_PART = re.compile(r"[^\W\d_]", re.UNICODE)


def initials(name: str) -> str:
    """ "Jason Becher" -> "J. B."; "Becher, Jason" -> "J. B."; "Anna-Maria Li" -> "A.-M. L."."""
    if "," in name:
        last, _, first = name.partition(",")
        name = f"{first} {last}"
    parts = []
    for word in name.split():
        pieces = [p for p in word.split("-") if _PART.search(p)]
        if pieces:
            found = [m for p in pieces if (m := _PART.search(p))]
            parts.append("-".join(m.group(0).upper() + "." for m in found))
    return " ".join(parts) or "?"


def is_arbiter_of(request: HttpRequest, club: Club) -> bool:
    user = request.user
    return bool(user.is_authenticated and club.arbiters.filter(pk=user.pk).exists())


def resolve(
    request: HttpRequest,
    *,
    slug: str | None = None,
    token: str | None = None,
    with_history: bool = False,
) -> ClubAccess:
    """The club of the address, if this viewer may see it; 404 otherwise. ``with_history``: its
    :func:`history_version` too, read in the same query (a round trip less for each page the
    page cache may answer)."""
    clubs = Club.objects.all()
    if with_history:
        column = f"{Club._meta.db_table}.{Club._meta.pk.column}"
        clubs = clubs.annotate(
            **{name: RawSQL(sql, []) for name, sql in zip(HISTORY_IDS, _latest_ids(column))}
        )
    if slug is not None:
        club = clubs.filter(slug=slug).first()
        if club is None:
            raise Http404("no such club")
        arbiter = is_arbiter_of(request, club)
        if not (arbiter or club.visibility == Visibility.PUBLIC):
            raise Http404("no such club")
        base, api = f"/c/{club.slug}/", f"/api/c/{club.slug}/"
    else:
        club = clubs.filter(token=token).first() if token else None
        if club is None:
            raise Http404("no such club")
        arbiter = is_arbiter_of(request, club)
        if club.visibility == Visibility.ARBITER and not arbiter:
            raise Http404("no such club")
        base, api = f"/u/{club.token}/", f"/api/u/{club.token}/"
    history = _version(club, *(getattr(club, n) for n in HISTORY_IDS)) if with_history else ""
    return ClubAccess(club, arbiter, base, api, history=history)


@contextmanager
def in_club(request: HttpRequest, club: Club) -> Iterator[None]:
    """While a page of the club is made, its dates and times read in the club's zone and its
    texts in the visitor's language, else the club's (web/language.py)."""
    with timezone.override(zones.zone(club.time_zone)), club_language(request, club):
        yield


def mark_privacy(response: HttpResponse, access: ClubAccess) -> HttpResponse:
    """Headers of every page and export of a club that is not public (R15)."""
    if access.noindex:
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "same-origin"
    if access.is_arbiter:
        response["Cache-Control"] = "private, no-store"
    return response


View = Callable[..., HttpResponse]
PAGE_CACHE_SECONDS = 600  # the key changes with the history, so this only bounds memory use
# Says whether the shared page cache answered ("hit") or stored the page ("miss"), as X-Cache does
# for proxies.
CACHE_HEADER = "X-Clubrating-Page-Cache"


def history_version(club: Club) -> str:
    """Changes whenever what a page shows can change: every write of history, privacy and
    member flags leaves an audit entry (services), every rebuild a log row (R14), and every
    rewrite of the CPI ledger new ledger ids (it deletes and inserts, ids never reused:
    SQLite AUTOINCREMENT, PostgreSQL sequences); the ledger's id is global, so a new analysis
    in any club refreshes every club's pages (cpi.analyse_games leaves no audit entry).
    A restore takes those ids back to the backup's, so the database's lineage token
    (:class:`~clubrating.club.store.models.Lineage`, drawn anew by every restore) is part of
    it: a version of the lost lineage never comes again, in any process's cache or a shared one
    that outlived the database."""
    # One plain statement (standard SQL, SQLite and PostgreSQL): the ORM's queries cost 0.3 ms each.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(_latest_ids('%s'))}", [club.id, club.id])
        lineage, audit, rebuilt, cpi = cursor.fetchone()
    return _version(club, lineage, audit, rebuilt, cpi)


def _latest_ids(club_id: str) -> list[str]:
    """The database's lineage token, the newest audit entry and rebuild of the club whose id is
    ``club_id`` (a parameter, or the club table's column in a query of clubs), and the newest CPI
    ledger row: SQL columns."""
    latest = [
        f"(SELECT MAX({m._meta.pk.column}) FROM {m._meta.db_table} "
        f"WHERE {m._meta.get_field('club').column} = {club_id})"
        for m in (AuditEntry, RebuildLog)
    ]
    return [
        Lineage.sql(),
        *latest,
        f"(SELECT MAX({CpiEntry._meta.pk.column}) FROM {CpiEntry._meta.db_table})",
    ]


HISTORY_IDS = ("history_lineage", "history_audit", "history_rebuilt", "history_cpi")
"""The club's annotations of :func:`_latest_ids` when :func:`resolve` reads them with the club."""


def _version(
    club: Club, lineage: str | None, audit: int | None, rebuilt: int | None, cpi: int | None
) -> str:
    return (
        f"{lineage}:{club.id}:{club.visibility}:{club.names}:{club.token}:{audit}:{rebuilt}:{cpi}"
    )


def shared_cache_allowed(request: HttpRequest) -> bool:
    """Whether this request may be answered from, and its answer stored in, the page cache
    shared by all visitors: a GET of an anonymous visitor who carries no session and no
    pending messages (a page rendered for them could show their messages to everyone)."""
    if request.method != "GET" or request.user.is_authenticated:
        return False
    return not ({settings.SESSION_COOKIE_NAME, CookieStorage.cookie_name} & request.COOKIES.keys())


def moved(request: HttpRequest, slug: str | None) -> HttpResponse | None:
    """A permanent redirect from a club's old address word to its new one (the arbiter changed
    it in the settings), for whoever may see the club; None when ``slug`` names a club now, or
    none ever was."""
    if slug is None or Club.objects.filter(slug=slug).exists():
        return None
    club = club_renamed_from(slug)
    if club is None or not (club.visibility == Visibility.PUBLIC or is_arbiter_of(request, club)):
        return None
    old, new = f"/c/{slug}/", f"/c/{club.slug}/"
    path = request.get_full_path()
    return (
        HttpResponsePermanentRedirect(new + path.removeprefix(old))
        if path.startswith(old)
        else None
    )


def club_view(view: View) -> View:
    """Resolve ``slug`` or ``token`` of the URL into ``access``, mark the response, and
    serve anonymous viewers from a cache keyed on the club's history version and the language."""

    @wraps(view)
    def wrapper(
        request: HttpRequest,
        *args: Any,
        slug: str | None = None,
        token: str | None = None,
        **kwargs: Any,
    ) -> HttpResponse:
        started = time.perf_counter()
        cacheable = shared_cache_allowed(request)
        try:
            access = resolve(request, slug=slug, token=token, with_history=cacheable)
        except Http404:  # an old address word is looked up only when no club has it now
            if (redirect := moved(request, slug)) is not None:
                return redirect
            raise
        with in_club(request, access.club):
            # The language too: one address serves each visitor the page in their language.
            key = (
                (
                    f"clubrating.page:{access.history}:{translation.get_language()}:"
                    f"{request.get_full_path()}"
                )
                if cacheable
                else ""
            )
            response = cache.get(key) if cacheable else None
            if response is not None:
                response[CACHE_HEADER] = "hit"
            else:
                response = mark_privacy(view(request, access, *args, **kwargs), access)
                if (
                    cacheable
                    and response.status_code == 200
                    and not response.streaming
                    and not response.cookies
                ):
                    cache.set(key, response, PAGE_CACHE_SECONDS)
                    response[CACHE_HEADER] = "miss"
        # Server-Timing (W3C): the view's own time, visible in browsers' developer tools and the
        # benchmark.
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response

    return wrapper
