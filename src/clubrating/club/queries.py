"""Read-side queries shared by the CLI and the website: plain dicts, a fixed
number of SQL queries each, whatever the number of rows."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from clubrating.club.models import (
    AuditEntry,
    Bye,
    Club,
    CurrentRating,
    Entry,
    Game,
    Member,
    RatingChange,
    RebuildLog,
    Tournament,
    TournamentStatus,
)
from clubrating.club.rebuild import resolve_members
from clubrating.club.services import find_club, game_result_text


def rating_lists(club: Club) -> list[str]:
    lists = CurrentRating.objects.filter(member__club=club).values_list("rating_list", flat=True).distinct()
    return sorted(set(lists)) or ["standard"]


def rating_list(club: Club, rating_list: str = "standard") -> list[dict[str, Any]]:
    """Established players first by rating, provisional ones below (spec R6)."""
    rows = (CurrentRating.objects.filter(member__club=club, member__merged_into=None, rating_list=rating_list)
            .select_related("member").order_by("provisional", "-rating", "member__name", "member_id"))
    result = []
    rank = 0
    for row in rows:
        if not row.provisional:
            rank += 1
        result.append({
            "rank": None if row.provisional else rank, "member_id": row.member_id, "name": row.member.name,
            "rating": row.rating, "games": row.games, "provisional": row.provisional,
            "last_played": row.last_played.isoformat() if row.last_played else None,
            "junior": row.member.junior, "full_name_consent": row.member.full_name_consent,
        })
    return result


def member_ids_of(member: Member) -> list[int]:
    """The member and every member merged into it (transitively)."""
    ids, frontier = [member.id], [member.id]
    while frontier:
        frontier = list(Member.objects.filter(merged_into_id__in=frontier).values_list("id", flat=True))
        ids.extend(frontier)
    return ids


def player_history(member: Member) -> dict[str, Any]:
    """A member's lifetime history: every published tournament and every game."""
    ids = member_ids_of(member)
    entries = list(Entry.objects.filter(member_id__in=ids, tournament__status=TournamentStatus.PUBLISHED)
                   .select_related("tournament").order_by("tournament__date", "tournament__sequence", "tournament_id"))
    changes = {(c.tournament_id): c for c in RatingChange.objects.filter(member=member)}
    entry_ids = [e.id for e in entries]
    games = (Game.objects.filter(tournament__status=TournamentStatus.PUBLISHED)
             .filter(white_id__in=entry_ids) | Game.objects.filter(
                 tournament__status=TournamentStatus.PUBLISHED, black_id__in=entry_ids))
    games = games.select_related("white", "black", "white__member", "black__member").order_by(
        "tournament__date", "tournament__sequence", "tournament_id", "round", "board", "id")
    points: dict[int, int] = defaultdict(int)
    game_rows = []
    mine = set(entry_ids)
    for g in games:
        is_white = g.white_id in mine
        me, other = (g.white, g.black) if is_white else (g.black, g.white)
        scored = g.white_points if is_white else g.black_points
        points[me.tournament_id] += scored
        game_rows.append({
            "game_id": g.id, "tournament_id": g.tournament_id, "round": g.round,
            "colour": "white" if is_white else "black", "opponent": other.name,
            "opponent_member_id": other.member_id, "result": game_result_text(g),
            "score": scored / 2, "rated": g.played, "has_moves": bool(g.moves),
        })
    for b in Bye.objects.filter(entry_id__in=entry_ids):
        points[b.tournament_id] += b.points
    history = []
    for e in entries:
        c = changes.get(e.tournament_id)
        history.append({
            "tournament_id": e.tournament_id, "tournament": e.tournament.name, "date": e.tournament.date.isoformat(),
            "name_as_written": e.name, "score": points[e.tournament_id] / 2,
            "rated": c is not None, "rating_list": c.rating_list if c else None,
            "rating_before": c.rating_before if c else None, "rating_after": c.rating_after if c else None,
            "change": c.change if c else None, "games_rated": c.games_rated if c else 0,
            "score_rated": c.score_rated / 2 if c else 0.0, "k": c.k if c else None,
            "provisional_before": c.provisional_before if c else None,
        })
    current = {r.rating_list: r for r in CurrentRating.objects.filter(member=member)}
    aliases = sorted({e.name for e in entries} - {member.name})
    return {
        "member_id": member.id, "name": member.name, "junior": member.junior,
        "merged_into": member.merged_into_id,
        "ratings": {lst: {"rating": r.rating, "games": r.games, "provisional": r.provisional,
                          "last_played": r.last_played.isoformat() if r.last_played else None}
                    for lst, r in sorted(current.items())},
        "aliases": aliases, "tournaments": history, "games": game_rows,
    }


def standings(tournament: Tournament) -> dict[str, Any]:
    """Standings with every round's cell; byes, forfeits and bughouse marked as not rated.

    Plain rows (``values_list``), four queries whatever the size of the tournament."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number").values_list(
        "id", "number", "name", "member_id", "member__name"))
    cells: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    points: dict[int, int] = defaultdict(int)
    number = {e[0]: e[1] for e in entries}
    games = Game.objects.filter(tournament=tournament).values_list(
        "id", "round", "white_id", "black_id", "white_points", "black_points", "played", "unplayed",
        "colours_known")
    for gid, rnd, white, black, wp, bp, played, unplayed, colours_known in games:
        result = game_result_text(Game(white_points=wp, black_points=bp, played=played))
        for me, other, scored, colour in ((white, black, wp, "w"), (black, white, bp, "b")):
            points[me] += scored
            cells[me][rnd] = {
                "round": rnd, "opponent": number[other], "colour": colour if colours_known else None,
                "score": scored / 2, "game_id": gid, "result": result,
                "rated": played and tournament.is_rated,
                "note": None if played else ("forfeit" if unplayed != "no-moves" else "not played"),
            }
    for rnd, entry_id, bye_points in Bye.objects.filter(tournament=tournament).values_list(
            "round", "entry_id", "points"):
        points[entry_id] += bye_points
        cells[entry_id][rnd] = {"round": rnd, "opponent": None, "colour": None, "score": bye_points / 2,
                                "game_id": None, "result": "bye", "rated": False, "note": "bye"}
    changes = {m: (before, after, n) for m, before, after, n in RatingChange.objects.filter(
        tournament=tournament).values_list("member_id", "rating_before", "rating_after", "games_rated")}
    rows: list[dict[str, Any]] = []
    for entry_id, entry_number, name, member_id, member_name in entries:
        before, after, rated = changes.get(member_id, (None, None, 0)) if member_id else (None, None, 0)
        rows.append({
            "number": entry_number, "name": name, "member_id": member_id, "member": member_name,
            "points": points[entry_id] / 2, "rounds": [cells[entry_id][r] for r in sorted(cells[entry_id])],
            "rating_before": before, "rating_after": after,
            "change": None if before is None or after is None else after - before, "games_rated": rated,
        })
    rows.sort(key=lambda r: (-r["points"], r["number"]))
    return {
        "tournament_id": tournament.id, "name": tournament.name, "date": tournament.date.isoformat(),
        "status": tournament.status, "kind": tournament.kind, "time_control": tournament.time_control,
        "rated": tournament.is_rated, "rounds": tournament.rounds, "players": rows,
    }


def tournaments(club: Club, *, published_only: bool = False) -> list[dict[str, Any]]:
    qs = Tournament.objects.filter(club=club).order_by("-date", "-sequence", "-id")
    if published_only:
        qs = qs.filter(status=TournamentStatus.PUBLISHED)
    return [{"tournament_id": t.id, "name": t.name, "date": t.date.isoformat(), "status": t.status,
             "kind": t.kind, "time_control": t.time_control, "rounds": t.rounds} for t in qs]


def audit_log(club: Club, limit: int = 50) -> list[dict[str, Any]]:
    return [{"when": a.when.isoformat(timespec="seconds"), "who": a.who, "action": a.action,
             "target": a.target, "old": a.old, "new": a.new, "summary": a.summary}
            for a in AuditEntry.objects.filter(club=club)[:limit]]


def last_rebuild(club: Club) -> RebuildLog | None:
    return RebuildLog.objects.filter(club=club).order_by("-when", "-id").first()


def member_roster(club: Club | None = None) -> list[tuple[int, str, tuple[str, ...]]]:
    """(member id, name, aliases) of every active member: what name matching looks at.

    Aliases are the other spellings under which the member (or a member merged
    into it) was linked in some tournament.
    """
    club = club or find_club()
    members = list(Member.objects.filter(club=club).values_list("id", "name", "merged_into_id"))
    top = resolve_members(club)
    spellings: dict[int, set[str]] = defaultdict(set)
    for member_id, name in Entry.objects.filter(tournament__club=club).exclude(member=None).values_list(
            "member_id", "name").distinct():
        spellings[top[member_id]].add(name)
    for member_id, name, _ in members:
        if top[member_id] != member_id:
            spellings[top[member_id]].add(name)
    return [(m, name, tuple(sorted(spellings[m] - {name}))) for m, name, p in members if p is None]
