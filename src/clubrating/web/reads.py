"""Fast twins of two shared queries for the busiest pages.

:func:`clubrating.club.queries.player_history` and ``rating_list`` build ORM
objects with several joins per row: about 100 ms for a player with 500 games.
These read plain tuples (``values_list``) and return exactly the same dicts
(tests/web/test_reads.py compares them on the same data), in a fixed number of
queries.
"""

from __future__ import annotations

from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from django.db.models import Q
from django.db.models.functions import Length

from clubrating.club.models import Bye, Club, CurrentRating, Entry, Game, Member, RatingChange, TournamentStatus
from clubrating.club.queries import member_ids_of
from clubrating.club.services import game_result_text

PUBLISHED = TournamentStatus.PUBLISHED
ORDER = ("tournament__date", "tournament__sequence", "tournament_id")


def rating_list(club: Club, rating_list: str = "standard") -> list[dict[str, Any]]:
    """Established players first by rating, provisional ones below (spec R6)."""
    rows = (CurrentRating.objects.filter(member__club=club, member__merged_into=None, rating_list=rating_list)
            .order_by("provisional", "-rating", "member__name", "member_id")
            .values_list("member_id", "member__name", "rating", "games", "provisional", "last_played",
                         "member__junior", "member__full_name_consent"))
    result, rank = [], 0
    for member_id, name, rating, games, provisional, last, junior, consent in rows:
        if not provisional:
            rank += 1
        result.append({"rank": None if provisional else rank, "member_id": member_id, "name": name,
                       "rating": rating, "games": games, "provisional": provisional,
                       "last_played": last.isoformat() if last else None, "junior": junior,
                       "full_name_consent": consent})
    return result


def _games(entry_ids: list[int]) -> list[tuple[Any, ...]]:
    return list(Game.objects.filter(Q(white_id__in=entry_ids) | Q(black_id__in=entry_ids),
                                    tournament__status=PUBLISHED)
                .annotate(moves_length=Length("moves"))
                .order_by(*ORDER, "round", "board", "id")
                .values_list("id", "tournament_id", "round", "white_id", "black_id", "white_points",
                             "black_points", "played", "moves_length", "white__name", "black__name",
                             "white__member_id", "black__member_id"))


def player_history(member: Member) -> dict[str, Any]:
    """The same document as :func:`clubrating.club.queries.player_history`."""
    ids = member_ids_of(member)
    entries = list(Entry.objects.filter(member_id__in=ids, tournament__status=PUBLISHED).order_by(*ORDER)
                   .values_list("id", "tournament_id", "name", "tournament__name", "tournament__date"))
    changes = {row[0]: row[1:] for row in RatingChange.objects.filter(member=member).values_list(
        "tournament_id", "rating_list", "rating_before", "rating_after", "games_rated", "score_rated", "k",
        "provisional_before")}
    entry_ids = [e[0] for e in entries]
    mine = set(entry_ids)
    points: dict[int, int] = defaultdict(int)
    game_rows = []
    for gid, tid, rnd, white, black, wp, bp, played, moves, wname, bname, wmember, bmember in _games(entry_ids):
        is_white = white in mine
        scored = wp if is_white else bp
        points[tid] += scored
        game_rows.append({
            "game_id": gid, "tournament_id": tid, "round": rnd, "colour": "white" if is_white else "black",
            "opponent": bname if is_white else wname, "opponent_member_id": bmember if is_white else wmember,
            "result": game_result_text(SimpleNamespace(white_points=wp, black_points=bp, played=played)),  # type: ignore[arg-type]
            "score": scored / 2, "rated": played, "has_moves": bool(moves),
        })
    for tid, pts in Bye.objects.filter(entry_id__in=entry_ids).values_list("tournament_id", "points"):
        points[tid] += pts
    return {
        "member_id": member.id, "name": member.name, "junior": member.junior,
        "merged_into": member.merged_into_id, "ratings": _ratings(member),
        "aliases": sorted({e[2] for e in entries} - {member.name}),
        "tournaments": [_history_row(e, changes.get(e[1]), points[e[1]]) for e in entries], "games": game_rows,
    }


def _history_row(entry: tuple[Any, ...], c: tuple[Any, ...] | None, points: int) -> dict[str, Any]:
    _, tid, written, name, date = entry
    lst, before, after, rated, score, k, provisional = c if c else (None,) * 7
    return {
        "tournament_id": tid, "tournament": name, "date": date.isoformat(), "name_as_written": written,
        "score": points / 2, "rated": c is not None, "rating_list": lst, "rating_before": before,
        "rating_after": after, "change": after - before if c else None, "games_rated": rated if c else 0,
        "score_rated": score / 2 if c else 0.0, "k": k, "provisional_before": provisional,
    }


def _ratings(member: Member) -> dict[str, dict[str, Any]]:
    rows = CurrentRating.objects.filter(member=member).values_list(
        "rating_list", "rating", "games", "provisional", "last_played")
    return {lst: {"rating": r, "games": g, "provisional": p, "last_played": d.isoformat() if d else None}
            for lst, r, g, p, d in sorted(rows)}
