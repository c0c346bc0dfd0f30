"""What the read-side pages, exports and API show: the shared queries with each
viewer's name privacy applied (R16, R17). Plain dicts; a fixed number of SQL
queries per page, whatever the number of rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import F, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext, gettext_lazy

from clubrating.club.read import tournaments as read_tournaments
from clubrating.club.store.models import (
    Bye,
    Club,
    Entry,
    Evening,
    Game,
    Member,
    Tournament,
    TournamentStatus,
    Visibility,
)
from clubrating.formats.records import (
    Bye as ByeRecord,
)
from clubrating.formats.records import (
    ByeKind,
    Pairing,
    PlayerEntry,
    Team,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.club.read import players as read_players
from clubrating.formats.pgn import KEPT_TAGS, keep_moves
from clubrating.identity import collation
from clubrating.rating import activity
from clubrating.tournament.standings import RANKED_AS_WRITTEN, RANKED_BY_POINTS
from clubrating.web.access import ClubAccess
from clubrating.web.card import card_document
from clubrating.web.chart import ChartPoint, rating_chart
from clubrating.web.labels import list_label
from clubrating.web.links import game_href
from clubrating.web.reading import figure

RECENT_TOURNAMENTS = 10
CLUBS_PAGE = 100  # public clubs a page of the index: a federation's server lists a thousand


def points_text(points: float) -> str:
    """2.5 -> "2½", 0.5 -> "½", 3.0 -> "3"."""
    whole, half = int(points), points - int(points) >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def _signed(value: float | None) -> str:
    return "" if value is None else figure(value, "+.1f")


def _rating(value: float | None) -> str:
    return "" if value is None else f"{value:.0f}"


def member_flags(ids: Iterable[int | None]) -> dict[int, tuple[str, bool, bool]]:
    """Member id -> (name, junior, consent) for the given members: one query."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {
        m: (n, j, c)
        for m, n, j, c in Member.objects.filter(id__in=wanted).values_list(
            "id", "name", "junior", "full_name_consent"
        )
    }


# --- the index -------------------------------------------------------------------------------


def public_clubs(search: str, page: str | None, language: str) -> tuple[int, Page[tuple[str, str]]]:
    """How many clubs are public, and one page (:data:`CLUBS_PAGE`) of the (name, slug) of those
    whose name contains ``search`` in any case, ё as е (identity/collation), in the name order
    of ``language``; a page number past the end or not a number gives the last or the first."""
    public = list(Club.objects.filter(visibility=Visibility.PUBLIC).values_list("name", "slug"))
    found = sorted(
        (club for club in public if collation.matches(search, club[0])),
        key=lambda club: (collation.sort_key(club[0], language), club[1]),
    )
    return len(public), Paginator(found, CLUBS_PAGE).get_page(page)


# --- club page -------------------------------------------------------------------------------


def club_ratings(
    access: ClubAccess, rating_list: str, search: str = "", language: str | None = None
) -> list[dict[str, Any]]:
    """The rating list as this viewer may see it, equal ratings in the name order of ``language``
    (the club's by default; reads.rating_list). ``search`` matches the shown name only, so that
    a name shown as initials cannot be found by its full spelling, in any case and with ё as е
    (identity/collation). Inactive members (:func:`inactive_rule`) are marked and not ranked;
    they keep their rating."""
    wanted = collation.fold(search)
    listed = read_players.rating_list(access.club, rating_list, language)
    days = [dt.date.fromisoformat(r["last_played"]) if r["last_played"] else None for r in listed]
    rule = inactive_rule(access.club, days)
    first = min((d for d in days if d), default=None)
    rows, rank = [], 0
    for row, day in zip(listed, days):
        inactive = rule is not None and activity.is_inactive(day, first, rule["since"])
        rank += not (row["provisional"] or inactive)
        name = access.name(
            row["name"],
            junior=row["junior"],
            consent=row["full_name_consent"],
            member_id=row["member_id"],
        )
        if wanted and wanted not in collation.fold(name):
            continue
        rows.append(
            {
                "rank": None if row["provisional"] or inactive else rank,
                "member_id": row["member_id"],
                "name": name,
                "rating": row["rating"],
                "rating_text": _rating(row["rating"]),
                "games": row["games"],
                "provisional": row["provisional"],
                "inactive": inactive,
                "last_played": row["last_played"],
            }
        )
    return rows


def inactive_rule(club: Club, days: Iterable[dt.date | None]) -> dict[str, Any] | None:
    """The club's rule on this list: months, the list's latest rated game, the first day that
    counts as active; None when the rule is off or nobody has played."""
    found = activity.cutoff(days, club.inactive_months)
    if found is None:
        return None
    return {"months": club.inactive_months, "latest": found[0], "since": found[1]}


def recent_tournaments(
    access: ClubAccess, limit: int | None = RECENT_TOURNAMENTS
) -> list[Tournament]:
    """The newest tournaments this viewer may open (:func:`shown_tournaments`), each with
    ``paired_rounds`` and ``planned_rounds`` when it is an evening paired here (else None)."""
    qs = (
        Tournament.objects.filter(shown_tournaments(access), club=access.club)
        .order_by("-date", "-sequence", "-id")
        .annotate(
            paired_rounds=F("evening__paired_rounds"), planned_rounds=F("evening__planned_rounds")
        )
    )
    return list(qs[:limit] if limit else qs)


RUNNING = Q(
    status=TournamentStatus.DRAFT, evening__paired_rounds__gte=1
)  # a draft evening being played


def shown_tournaments(access: ClubAccess) -> Q:
    """The tournaments this viewer may open: every one for an arbiter; the published ones and the
    running evenings (public while played, rated only when published) for everyone else."""
    return Q() if access.is_arbiter else Q(status=TournamentStatus.PUBLISHED) | RUNNING


def tournament_rows(access: ClubAccess) -> list[dict[str, Any]]:
    """The tournament list: each tournament with its players, rounds, winners (named as this
    viewer may see them), and whether any game has moves."""
    listed = recent_tournaments(access, None)
    summaries = read_tournaments.tournament_summaries(access.club, listed)
    flags = member_flags(m for s in summaries.values() for _, m in s["winners"])
    return [
        {
            "id": t.id,
            "name": t.name,
            "date": t.date,
            "kind": t.kind,
            "time_control": t.time_control,
            "is_published": t.is_published,
            "is_rated": t.is_rated,
            "status": t.status,
            "rounds": t.rounds,
            "paired_rounds": getattr(t, "paired_rounds", None),
            "planned_rounds": getattr(t, "planned_rounds", None),
            "summary": {
                **summaries[t.id],
                "winners": [
                    {"name": entry_name(access, t, name, m, flags), "member_id": m}
                    for name, m in summaries[t.id]["winners"]
                ],
            },
        }
        for t in listed
    ]


# --- player page -----------------------------------------------------------------------------


def get_member(access: ClubAccess, member_id: int) -> Member:
    member = Member.objects.filter(club=access.club, id=member_id).first()
    if member is None:
        raise Http404("no such member")
    return member


def member_or_redirect(
    access: ClubAccess, member_id: int, suffix: str = ""
) -> Member | HttpResponse:
    """The member, or a redirect to the same page of the member it was merged into."""
    member = get_member(access, member_id)
    if member.merged_into_id is not None:
        return redirect(f"{access.base}p/{member.active().id}/{suffix}")
    return member


def player(access: ClubAccess, member: Member) -> dict[str, Any]:
    """A member's page: history, charts, games; aliases only for arbiters."""
    hist, flags = read_players.player_history_and_opponents(member)
    names = {t["tournament_id"]: (t["tournament"], t["date"]) for t in hist["tournaments"]}
    shown: dict[int | None, str] = {}  # opponent member id -> the name this viewer sees
    for oid, (oname, junior, consent) in flags.items():
        shown[oid] = access.name(oname, junior=junior, consent=consent, member_id=oid)
    games = []
    for g in hist["games"]:
        oid = g["opponent_member_id"]
        tname, tdate = names.get(g["tournament_id"], ("", ""))
        games.append(
            {
                **g,
                "opponent": shown[oid]
                if oid is not None
                else access.name(g["opponent"], junior=True),
                "tournament": tname,
                "date": tdate,
                "score_text": points_text(g["score"]),
            }
        )
    history = [
        {
            **t,
            "score_text": points_text(t["score"]),
            "before_text": _rating(t["rating_before"]),
            "after_text": _rating(t["rating_after"]),
            "change_text": _signed(t["change"]),
        }
        for t in hist["tournaments"]
    ]
    name = access.name(
        member.name, junior=member.junior, consent=member.full_name_consent, member_id=member.id
    )
    return {
        "member": member,
        "name": name,
        "ratings": _with_activity(access.club, hist["ratings"]),
        "history": history,
        "games": games,
        "initial": hist["initial"],
        "card": card_document(access, hist, flags),
        "aliases": hist["aliases"] if access.is_arbiter else [],
        "charts": charts(
            hist["tournaments"],
            access.club.provisional_games,
            name,
            separate_lists=access.club.separate_lists,
        ),
    }


def player_card(access: ClubAccess, member: Member) -> dict[str, Any]:
    """The member's name and card as this viewer may see them, without the page's charts
    (the card's own exports)."""
    hist, flags = read_players.player_history_and_opponents(member)
    name = access.name(
        member.name, junior=member.junior, consent=member.full_name_consent, member_id=member.id
    )
    return {"name": name, "card": card_document(access, hist, flags)}


def _with_activity(club: Club, ratings: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The member's ratings, each marked ``inactive`` by the club's rule on its list."""

    def day(text: str | None) -> dt.date | None:
        return dt.date.fromisoformat(text) if text else None

    out = {}
    for lst, r in ratings.items():
        rule = inactive_rule(club, [day(r["list_latest"])])
        out[lst] = {
            **r,
            "inactive": rule is not None
            and activity.is_inactive(day(r["last_played"]), day(r["list_first"]), rule["since"]),
        }
    return out


def charts(
    tournaments: list[dict[str, Any]], provisional_games: int, name: str, *, separate_lists: bool
) -> list[dict[str, str]]:
    """One SVG chart per rating list the member played in."""
    by_list: dict[str, list[dict[str, Any]]] = {}
    for t in tournaments:
        if t["rated"]:
            by_list.setdefault(t["rating_list"], []).append(t)
    out = []
    for lst, rows in sorted(by_list.items()):
        games, points = 0, []
        for t in rows:
            games += t["games_rated"]
            points.append(
                ChartPoint(
                    dt.date.fromisoformat(t["date"]), t["rating_after"], games < provisional_games
                )
            )
        first = rows[0]
        start = ChartPoint(
            dt.date.fromisoformat(first["date"]) - dt.timedelta(days=1),
            first["rating_before"],
            bool(first["provisional_before"]),
        )
        shown = list_label(lst, separate_lists)
        title = gettext("Rating history of %(name)s (%(list)s)") % {"name": name, "list": shown}
        svg = "\n".join(
            rating_chart(points, title=title, start=start, narrow=narrow, key=f"chart-{lst}")
            for narrow in (False, True)
        )  # the page shows the one drawn for its width
        out.append({"list": lst, "list_name": shown, "svg": svg})
    return out


def lichess_history(access: ClubAccess, member: Member) -> list[dict[str, Any]]:
    """The rating history in lichess's shape: [{"name", "points": [[y, m0, d, rating]]}];
    months count from 0 as in lichess's /api/user/{name}/rating-history."""
    hist = read_players.player_history(member)
    lists: dict[str, list[list[int]]] = {}
    for t in hist["tournaments"]:
        if t["rated"]:
            day = dt.date.fromisoformat(t["date"])
            lists.setdefault(t["rating_list"], []).append(
                [day.year, day.month - 1, day.day, round(t["rating_after"])]
            )
    return [{"name": lst.capitalize(), "points": pts} for lst, pts in sorted(lists.items())]


# --- tournament page -------------------------------------------------------------------------


def get_tournament(access: ClubAccess, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(club=access.club, id=tournament_id).first()
    if tournament is None or not (tournament.is_published or access.is_arbiter):
        raise Http404("no such tournament")
    return tournament


def entry_name(
    access: ClubAccess,
    tournament: Tournament,
    name: str,
    member_id: int | None,
    flags: dict[int, tuple[str, bool, bool]],
) -> str:
    """A tournament's name for a player: the member's name when linked, privacy applied."""
    if member_id is not None and member_id in flags:
        member, junior, consent = flags[member_id]
        return access.name(
            member,
            junior=junior,
            consent=consent,
            juniors_event=tournament.has_juniors,
            member_id=member_id,
        )
    return access.name(name, junior=True)


def tournament(access: ClubAccess, t: Tournament) -> dict[str, Any]:
    data = read_tournaments.standings(t)
    flags = member_flags(p["member_id"] for p in data["players"])
    rounds = max([data["rounds"]] + [c["round"] for p in data["players"] for c in p["rounds"]])
    rows = []
    for p in data["players"]:
        cells = {c["round"]: c for c in p["rounds"]}
        rows.append(
            {
                **p,
                "name": entry_name(access, t, p["name"], p["member_id"], flags),
                "written": p["name"],
                "points_text": points_text(p["points"]),
                "tiebreak_texts": ["" if v is None else figure(v, "g") for v in p["tiebreaks"]],
                "cells": [
                    _linked(_cell(cells.get(r), t.is_rated), cells.get(r), access.base, t.id)
                    for r in range(1, rounds + 1)
                ],
                "before_text": _rating(p["rating_before"]),
                "after_text": _rating(p["rating_after"]),
                "change_text": _signed(p["change"]),
            }
        )
    names = {row["number"]: row["name"] for row in rows}
    teams = [
        {
            **team,
            "players": [
                {**p, "name": names[p["number"]], "points_text": points_text(p["points"])}
                for p in team["players"]
            ],
            "points_text": points_text(team["points"]),
        }
        for team in data["teams"]
    ]
    return {
        **data,
        "tournament": t,
        "players": rows,
        "round_numbers": list(range(1, rounds + 1)),
        "has_unrated": any(c["unrated"] for r in rows for c in r["cells"] if c),
        "teams": teams,
        "ranked_by_words": ranked_by_words(data),
        "tiebreak_columns": tiebreak_columns(data),
    }


def tiebreak_columns(data: dict[str, Any]) -> list[dict[str, str]]:
    """The tie-breaks' columns in the page's language (``tiebreaks`` keeps the API's English)."""
    return [
        {"short": gettext(t["short"]), "name": gettext(t["name"]), "source": t["source"]}
        for t in data["tiebreaks"]
    ]


def ranked_by_words(data: dict[str, Any]) -> str:
    """``ranked_by`` (the API's English, TieTable.describe) in the page's language."""
    if data["rule"] == "written":
        return gettext(RANKED_AS_WRITTEN)
    words = gettext(RANKED_BY_POINTS) % {
        "tiebreaks": ", ".join(gettext(t["name"]) for t in data["tiebreaks"])
    }
    why = data.get("ranking_why")
    return words + (f" ({gettext(why['template']) % why['values']})" if why else "")


UNRATED_WHY = {
    "forfeit": gettext_lazy("forfeit: not rated"),
    "not played": gettext_lazy("not played: not rated"),
}


def _cell(cell: dict[str, Any] | None, rated_event: bool) -> dict[str, Any] | None:
    """A crosstable cell: "12w1" style text, and why it is not rated (R8)."""
    if cell is None:
        return None
    score = points_text(cell["score"])
    if cell["note"] == "bye":
        return {
            "text": gettext("bye %(score)s") % {"score": score},
            "unrated": True,
            "why": gettext("bye: counts in the standings, not rated"),
        }
    colour = cell["colour"] or "-"
    if cell["note"] is not None:
        mark = {"1": "+", "0": "−"}.get(score, score)
        return {
            "text": f"{cell['opponent']}{colour}{mark}",
            "unrated": True,
            "why": UNRATED_WHY.get(cell["note"], cell["note"]),
        }
    why = "" if rated_event else gettext("bughouse: not rated")
    return {"text": f"{cell['opponent']}{colour}{score}", "unrated": not rated_event, "why": why}


def _linked(
    shown: dict[str, Any] | None, cell: dict[str, Any] | None, base: str, tournament_id: int
) -> dict[str, Any] | None:
    """A crosstable cell with the address of its game in the viewer, when the game has moves."""
    if shown is None or cell is None or not cell.get("has_moves"):
        return shown
    return {**shown, "href": game_href(base, cell["game_id"], tournament_id, has_moves=True)}


def export_record(access: ClubAccess, t: Tournament) -> TournamentRecord:
    """The stored tournament as a record for the TRF and PGN writers, names as this viewer sees
    them."""
    entries = list(Entry.objects.filter(tournament=t).order_by("number"))
    flags = member_flags(e.member_id for e in entries)
    number = {e.id: e.number for e in entries}
    pairings = tuple(
        Pairing(
            round=g.round,
            white=number[g.white_id],
            black=number[g.black_id],
            white_points=g.white_points,
            black_points=g.black_points,
            played=g.played,
            unplayed=Unplayed(g.unplayed) if g.unplayed else None,
            colours_known=g.colours_known,
            board=g.board,
            moves=keep_moves(g.moves)[0] if g.moves else None,
            headers=tuple((k, str(v)) for k, v in (g.headers or {}).items() if k in KEPT_TAGS),
        )
        for g in Game.objects.filter(tournament=t).order_by("round", "board", "id")
    )
    byes = tuple(
        ByeRecord(b.round, number[b.entry_id], b.points, ByeKind(b.kind))
        for b in Bye.objects.filter(tournament=t).order_by("round", "id")
    )
    table = read_tournaments.rank_rounds(
        t,
        {e.number: e.rank for e in entries},
        pairings,
        byes,
        {e.number: e.points for e in entries},
    )  # the page's order and points
    place = {row.number: row.place for row in table.rows}
    points = {row.number: row.points for row in table.rows}
    players = tuple(
        PlayerEntry(
            e.number,
            entry_name(access, t, e.name, e.member_id, flags),
            rank=place[e.number],
            points=points[e.number],
        )
        for e in entries
    )
    return TournamentRecord(
        name=t.name,
        date=t.date,
        players=players,
        pairings=pairings,
        byes=byes,
        rounds=t.rounds,
        time_control=TimeControl(t.time_control),
        kind=TournamentKind(t.kind),
        source=f"tournament {t.id}",
        format=t.source_format,
        headers=tuple((code, text) for code, text in t.trf_headers or []),
        teams=tuple(Team(name, tuple(numbers)) for name, numbers in t.teams or []),
        planned_rounds=next((e.planned_rounds for e in Evening.objects.filter(tournament=t)), None),
    )
