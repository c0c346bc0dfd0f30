"""Read-side queries shared by the CLI and the website: plain dicts, a fixed
number of SQL queries each, whatever the number of rows."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from clubrating.club import zones
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
from clubrating.club.lookups import find_club, resolve_members
from clubrating.formats.results import result_text


def rating_lists(club: Club) -> list[str]:
    lists = CurrentRating.objects.filter(member__club=club).values_list("rating_list", flat=True).distinct()
    return sorted(set(lists)) or ["standard"]


def member_ids_of(member: Member) -> list[int]:
    """The member and every member merged into it (transitively)."""
    ids, frontier = [member.id], [member.id]
    while frontier:
        frontier = list(Member.objects.filter(merged_into_id__in=frontier).values_list("id", flat=True))
        ids.extend(frontier)
    return ids


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
        result = result_text(wp, bp, played)
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
    return [{"when": a.when.astimezone(zones.zone(club.time_zone)).isoformat(timespec="seconds"),
             "local": zones.local_text(a.when, club.time_zone), "who": a.who, "action": a.action,
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
