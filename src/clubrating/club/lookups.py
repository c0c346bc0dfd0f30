"""Rows looked up by what the arbiter types, and what every layer above reads the same way:
a club, a tournament or a member by reference, the member a merged one stands for now,
a stored game's result in words. Reads only; the services and the derived data use them."""

from __future__ import annotations

from django.db import models
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_noop

from clubrating.formats.bounds import whole_number
from clubrating.formats.records import MAX_NAME_LENGTH
from clubrating.club.models import AuditEntry, Club, Entry, Game, Member, Tournament, merge_cycle
from clubrating.errors import InputError, NotFound
from clubrating.formats.results import result_text
from clubrating.identity.same import is_exact, word_key

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


def get_tournament(club: Club, tournament_id: int | str) -> Tournament:
    number = parse_id(tournament_id)
    tournament = (
        Tournament.objects.filter(club=club, id=number).first() if number is not None else None
    )
    if tournament is None:
        raise NotFound(
            gettext_noop("no tournament %(tournament_id)s in %(name)s"),
            tournament_id=tournament_id,
            name=club.name,
        )
    return tournament


def get_member(club: Club, ref: int | str) -> Member:
    """A member by id, or by name (:func:`find_member_by_name`): what every command and form
    that takes a member reads."""
    text = str(ref).strip()
    number = parse_id(text)
    if number is not None:
        member = Member.objects.filter(club=club, id=number).first()
        if member is not None:
            return member
    return find_member_by_name(club, text)


def find_member_by_name(club: Club, typed: str) -> Member:
    """The one member :func:`members_called` finds; NotFound for none, and one line that
    lists them when several members carry the name."""
    text = " ".join(typed.split())
    found = members_called(club, text)
    if not found:
        raise NotFound(
            gettext_noop("no member %(text)s in %(name)s"), text=repr(text), name=club.name
        )
    if len(found) > 1:
        shown = ", ".join(f"{m.name} (member {m.id})" for m in found)
        raise InputError(
            gettext_noop(
                "%(text)s could be %(count)s members: %(shown)s; give the member's number"
            ),
            text=repr(text),
            count=len(found),
            shown=shown,
        )
    return found[0]


def members_called(club: Club, typed: str) -> list[Member]:
    """The members called ``typed``, or written so in a tournament, or whose merged member was
    called so; by the matcher's exact rule (:func:`clubrating.identity.same.is_exact`: the same
    words whatever the case or customary order).

    A member's own name comes first (a merged member's too, for ``unmerge``); a name that is
    a member's and the members merged into it is that member.
    """
    text = " ".join(typed.split())
    if (
        len(text) > MAX_NAME_LENGTH
    ):  # no member is called so; SQLite refuses a LIKE pattern that long
        raise InputError(
            gettext_noop("a name of %(count)s characters: at most %(MAX_NAME_LENGTH)s"),
            count=len(text),
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        )
    if not word_key(text):
        raise InputError(gettext_noop("say which member: a member's number or name"))
    named = [
        m
        for m in Member.objects.filter(_containing(text), club=club).order_by("id")
        if is_exact(text, m.name)
    ]
    if named:
        top = resolve_members(club)
        ends = {top[m.id] for m in named}
        return (
            [m for m in named if m.id in ends]
            if len(ends) == 1 and ends <= {m.id for m in named}
            else named
        )
    written = {
        member_id
        for member_id, name in Entry.objects.filter(
            _containing(text), tournament__club=club, member__isnull=False
        )
        .values_list("member_id", "name")
        .distinct()
        if is_exact(text, name)
    }
    if not written:
        return []
    top = resolve_members(club)
    return list(Member.objects.filter(id__in={top[m] for m in written}).order_by("id"))


def _containing(text: str) -> models.Q:
    """Rows whose name holds the longest word typed: the database narrows the search when
    that word is ASCII (SQLite folds the case of ASCII letters only); else every row is read."""
    longest = max(text.replace(",", " ").split(), key=len)
    return models.Q(name__icontains=longest) if longest.isascii() else models.Q()


def names_known(club: Club) -> dict[int, set[str]]:
    """Active member id -> every name it is known under: its own, those of the members merged
    into it, and the names it (or they) were written under in the club's tournaments."""
    top = resolve_members(club)
    known: dict[int, set[str]] = {}
    for member_id, name in Member.objects.filter(club=club).values_list("id", "name"):
        known.setdefault(top[member_id], set()).add(name)
    for member_id, name in (
        Entry.objects.filter(tournament__club=club, member__isnull=False)
        .values_list("member_id", "name")
        .distinct()
    ):
        known.setdefault(top[member_id], set()).add(name)
    return known


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


def resolve_members(club: Club) -> dict[int, int]:
    """Member id -> the member it stands for now (following merges).

    Merges never form a cycle (each is checked under the club's lock); should a
    database hold one all the same, this says so instead of walking it forever.
    """
    parent = dict(
        Member.objects.filter(club=club).order_by("id").values_list("id", "merged_into_id")
    )
    resolved: dict[int, int] = {}
    for member_id in parent:
        walked, on_the_way = [member_id], {member_id}
        while parent.get(walked[-1]) is not None and walked[-1] not in resolved:
            walked.append(parent[walked[-1]])
            if walked[-1] in on_the_way:
                raise merge_cycle(walked)
            on_the_way.add(walked[-1])
        end = resolved.get(walked[-1], walked[-1])
        resolved.update((m, end) for m in walked)
    return resolved


def merged_persons(club: Club) -> dict[int, int]:
    """Merged member id -> the member it stands for now; a member missing from it stands for
    itself. As :func:`resolve_members`, but reading only the merged members (few)."""
    parent = dict(
        Member.objects.filter(club=club)
        .exclude(merged_into=None)
        .values_list("id", "merged_into_id")
    )
    resolved: dict[int, int] = {}
    for member_id in parent:
        walked = [member_id]
        while walked[-1] in parent:
            walked.append(parent[walked[-1]])
            if walked[-1] in walked[:-1]:
                raise merge_cycle(walked)
        resolved[member_id] = walked[-1]
    return resolved


def game_result_text(game: Game) -> str:
    """The stored game's result in the club's words: 1-0, 0-1, 1/2-1/2, +-, -+, --
    (:func:`clubrating.formats.results.result_text`)."""
    return result_text(game.white_points, game.black_points, game.played)
