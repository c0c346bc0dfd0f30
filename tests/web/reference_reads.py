"""The plain ORM readings of a player's history and of the rating list: the oracle that
:mod:`clubrating.club.read.players` (which fetches tuples through SQL the ORM compiled once) is
tested against on the same data. Production code has only the fast readings."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from clubrating.club.store.models import (
    Bye,
    Club,
    CurrentRating,
    Entry,
    Game,
    InitialEntry,
    Member,
    RatingChange,
    TournamentStatus,
)
from clubrating.club.read.members import member_ids_of
from clubrating.club.read.tournaments import game_result_text
from clubrating.identity.collation import sort_key


def rating_list(club: Club, rating_list: str = "standard") -> list[dict[str, Any]]:
    """Established players first by rating, provisional ones below (spec R6), equal ratings by
    name in the club's language."""
    rows = sorted(
        CurrentRating.objects.filter(
            member__club=club, member__merged_into=None, rating_list=rating_list
        ).select_related("member"),
        key=lambda r: (
            r.provisional,
            -r.rating,
            sort_key(r.member.name, club.language),
            r.member_id,
        ),
    )
    result = []
    rank = 0
    for row in rows:
        if not row.provisional:
            rank += 1
        result.append(
            {
                "rank": None if row.provisional else rank,
                "member_id": row.member_id,
                "name": row.member.name,
                "rating": row.rating,
                "games": row.games,
                "provisional": row.provisional,
                "last_played": row.last_played.isoformat() if row.last_played else None,
                "junior": row.member.junior,
                "full_name_consent": row.member.full_name_consent,
            }
        )
    return result


def _list_days(member: Member, rating_list: str) -> dict[str, str | None]:
    days = sorted(
        d
        for d in CurrentRating.objects.filter(
            member__club_id=member.club_id, member__merged_into=None, rating_list=rating_list
        ).values_list("last_played", flat=True)
        if d is not None
    )
    return {
        "list_first": days[0].isoformat() if days else None,
        "list_latest": days[-1].isoformat() if days else None,
    }


def player_history(member: Member) -> dict[str, Any]:
    """A member's lifetime history: every published tournament and every game."""
    ids = member_ids_of(member)
    entries = list(
        Entry.objects.filter(member_id__in=ids, tournament__status=TournamentStatus.PUBLISHED)
        .select_related("tournament")
        .order_by("tournament__date", "tournament__sequence", "tournament_id")
    )
    changes = {(c.tournament_id): c for c in RatingChange.objects.filter(member=member)}
    entry_ids = [e.id for e in entries]
    games = Game.objects.filter(tournament__status=TournamentStatus.PUBLISHED).filter(
        white_id__in=entry_ids
    ) | Game.objects.filter(tournament__status=TournamentStatus.PUBLISHED, black_id__in=entry_ids)
    games = games.select_related("white", "black", "white__member", "black__member").order_by(
        "tournament__date", "tournament__sequence", "tournament_id", "round", "board", "id"
    )
    points: dict[int, int] = defaultdict(int)
    game_rows = []
    mine = set(entry_ids)
    for g in games:
        is_white = g.white_id in mine
        me, other = (g.white, g.black) if is_white else (g.black, g.white)
        scored = g.white_points if is_white else g.black_points
        points[me.tournament_id] += scored
        game_rows.append(
            {
                "game_id": g.id,
                "tournament_id": g.tournament_id,
                "round": g.round,
                "colour": "white" if is_white else "black",
                "opponent": other.name,
                "opponent_member_id": other.member_id,
                "result": game_result_text(g),
                "score": scored / 2,
                "rated": g.played,
                "has_moves": bool(g.moves),
                "unplayed": g.unplayed,
                "colours_known": g.colours_known,
            }
        )
    byes = list(
        Bye.objects.filter(entry_id__in=entry_ids)
        .select_related("tournament")
        .order_by("tournament__date", "tournament__sequence", "tournament_id", "round")
    )
    for b in byes:
        points[b.tournament_id] += b.points
    for e in (
        entries
    ):  # the points written in the file are the standings' points, unless its column is all zero
        if e.points is not None and e.tournament.entries.filter(points__gt=0).exists():
            points[e.tournament_id] = e.points
    history = []
    for e in entries:
        c = changes.get(e.tournament_id)
        history.append(
            {
                "tournament_id": e.tournament_id,
                "tournament": e.tournament.name,
                "date": e.tournament.date.isoformat(),
                "name_as_written": e.name,
                "kind": e.tournament.kind,
                "score": points[e.tournament_id] / 2,
                "rated": c is not None,
                "rating_list": c.rating_list if c else None,
                "rating_before": c.rating_before if c else None,
                "rating_after": c.rating_after if c else None,
                "change": c.change if c else None,
                "games_rated": c.games_rated if c else 0,
                "score_rated": c.score_rated / 2 if c else 0.0,
                "k": c.k if c else None,
                "provisional_before": c.provisional_before if c else None,
            }
        )
    current = {r.rating_list: r for r in CurrentRating.objects.filter(member=member)}
    aliases = sorted({e.name for e in entries} - {member.name})
    listed = InitialEntry.objects.filter(member_id__in=ids).order_by("number").first()
    return {
        "member_id": member.id,
        "name": member.name,
        "junior": member.junior,
        "merged_into": member.merged_into_id,
        "ratings": {
            lst: {
                "rating": r.rating,
                "games": r.games,
                "provisional": r.provisional,
                "last_played": r.last_played.isoformat() if r.last_played else None,
                **_list_days(member, lst),
            }
            for lst, r in sorted(current.items())
        },
        "aliases": aliases,
        "tournaments": history,
        "games": game_rows,
        "byes": [
            {
                "tournament_id": b.tournament_id,
                "round": b.round,
                "points": b.points / 2,
                "kind": b.kind,
            }
            for b in byes
        ],
        "initial": {"name_as_written": listed.name, "rating": listed.rating, "games": listed.games}
        if listed
        else None,
    }
