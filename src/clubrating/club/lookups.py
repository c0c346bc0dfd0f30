"""Rows looked up by what the arbiter types, and what every layer above reads the same way:
a club, a tournament or a member by reference, the member a merged one stands for now,
a stored game's result in words. Reads only; the services and the derived data use them."""

from __future__ import annotations

from django.db import models
from django.core.exceptions import ObjectDoesNotExist

from clubrating.club.models import Club, Game, Member, Tournament, merge_cycle
from clubrating.errors import InputError, NotFound
from clubrating.formats.results import result_text

MAX_ID = 2**63 - 1  # the largest id any of the databases stores (64-bit integers)


def find_club(slug: str | None = None) -> Club:
    """The club named by ``slug``, or the only club of the database."""
    if slug:
        try:
            return Club.objects.get(slug=slug)
        except Club.DoesNotExist:
            raise NotFound(f"no club {slug!r} in this database") from None
    clubs = list(Club.objects.all()[:2])
    if not clubs:
        raise NotFound("this database holds no club yet: run 'clubrating init NAME' first")
    if len(clubs) > 1:
        raise InputError("this database holds several clubs: say which with --club SLUG")
    return clubs[0]


def parse_id(ref: int | str | None) -> int | None:
    """A row id written as a number, or None when it cannot be one (not a whole number, out of range)."""
    text = str(ref).strip() if ref is not None else ""
    if not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if 1 <= value <= MAX_ID else None


def get_tournament(club: Club, tournament_id: int | str) -> Tournament:
    number = parse_id(tournament_id)
    tournament = Tournament.objects.filter(club=club, id=number).first() if number is not None else None
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id} in {club.name}")
    return tournament


def get_member(club: Club, ref: int | str) -> Member:
    """A member by id or by exact name (case-insensitive)."""
    text = str(ref).strip()
    number = parse_id(text)
    if number is not None:
        member = Member.objects.filter(club=club, id=number).first()
        if member is not None:
            return member
    matches = list(Member.objects.filter(club=club, name__iexact=text)[:2])
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"several members are called {text!r}: give the member's number")
    raise NotFound(f"no member {text!r} in {club.name}")


def reread(*rows: models.Model) -> None:
    """Read these rows again, under the club's lock: a service checks what is stored now,
    not what the caller read before another writer committed."""
    for row in rows:
        try:
            row.refresh_from_db()
        except ObjectDoesNotExist:
            raise NotFound(f"{row._meta.verbose_name} {row.pk} no longer exists: "
                           "it was deleted meanwhile") from None


def resolve_members(club: Club) -> dict[int, int]:
    """Member id -> the member it stands for now (following merges).

    Merges never form a cycle (each is checked under the club's lock); should a
    database hold one all the same, this says so instead of walking it forever.
    """
    parent = dict(Member.objects.filter(club=club).order_by("id").values_list("id", "merged_into_id"))
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
    parent = dict(Member.objects.filter(club=club).exclude(merged_into=None).values_list("id", "merged_into_id"))
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
