"""The read-only JSON API, under the same privacy rules as the pages.

A club's endpoints sit under ``/api/c/<slug>/`` (public clubs; any club for its
arbiters, logged in by session) or ``/api/u/<token>/`` (unlisted clubs). The
OpenAPI 3.1 description is written by hand as a dict (:data:`OPENAPI`): a few
endpoints do not need a framework, and a test checks every route is described.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.views.decorators.http import require_safe

from clubrating import __version__
from clubrating.club.store.models import Club, Tournament, TournamentStatus, Visibility
from clubrating.web import pages
from clubrating.web.access import ClubAccess, club_view
from clubrating.web.views import _list_name, ratings_document
from clubrating.web import wall
from clubrating.web.wall import shown_tournament


def _json(document: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(
        document, status=status, safe=False, json_dumps_params={"ensure_ascii": False}
    )


def api_view(view: Callable[..., Any]) -> Callable[..., HttpResponse]:
    """A JSON endpoint of a club: privacy from ``club_view``, 404 as JSON."""
    inner = club_view(lambda request, access, *a, **k: _json(view(request, access, *a, **k)))

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return inner(request, *args, **kwargs)
        except Http404:
            return _json({"error": "not found"}, status=404)

    return require_safe(wrapper)


@require_safe
def openapi(request: HttpRequest) -> HttpResponse:
    return _json(OPENAPI)


@require_safe
def clubs(request: HttpRequest) -> HttpResponse:
    return _json(
        [
            {"slug": c.slug, "name": c.name, "api": f"/api/c/{c.slug}/"}
            for c in Club.objects.filter(visibility=Visibility.PUBLIC).order_by("name")
        ]
    )


@api_view
def ratings(request: HttpRequest, access: ClubAccess) -> dict[str, Any]:
    rating_list, lists = _list_name(request, access)
    return {**ratings_document(access, rating_list), "lists": lists}


@api_view
def player(request: HttpRequest, access: ClubAccess, member_id: int) -> dict[str, Any]:
    member = pages.member_or_redirect(access, member_id)
    if isinstance(member, HttpResponse):  # merged: the member it was merged into answers
        raise Http404("merged")
    data = pages.player(access, member)
    history = [
        {
            k: t[k]
            for k in (
                "tournament_id",
                "tournament",
                "date",
                "score",
                "rated",
                "rating_list",
                "rating_before",
                "rating_after",
                "change",
                "games_rated",
            )
        }
        for t in data["history"]
    ]
    games = [
        {
            k: g[k]
            for k in (
                "tournament_id",
                "date",
                "round",
                "colour",
                "opponent",
                "opponent_member_id",
                "result",
                "score",
                "rated",
            )
        }
        for g in data["games"]
    ]
    return {
        "member_id": member.id,
        "name": data["name"],
        "left": member.left.isoformat() if member.left else None,
        "ratings": data["ratings"],
        "history": history,
        "games": games,
        "card": data["card"],
    }


@api_view
def tournaments(request: HttpRequest, access: ClubAccess) -> list[dict[str, Any]]:
    """The tournaments this viewer may open (``pages.shown_tournaments``: the published ones and the
    running evenings; every one for an arbiter), newest first. A running evening's row adds
    ``in_progress`` (its winners are the leaders so far); every other row is as it always was."""
    return [
        {
            "tournament_id": t["id"],
            "name": t["name"],
            "date": t["date"].isoformat(),
            "kind": t["kind"],
            "time_control": t["time_control"],
            "rounds": t["rounds"],
            "status": t["status"],
            "players": t["summary"]["players"],
            "winners": t["summary"]["winners"],
            "has_moves": t["summary"]["has_moves"],
            **_running(t),
        }
        for t in pages.tournament_rows(access)
    ]


def _running(row: dict[str, Any]) -> dict[str, Any]:
    """``in_progress`` and the rounds planned, for a draft evening with a round paired; else
    nothing."""
    if row["status"] != TournamentStatus.DRAFT or not row["paired_rounds"]:
        return {}
    return {"in_progress": True, "planned_rounds": row["planned_rounds"]}


def _in_progress(access: ClubAccess, t: Tournament) -> dict[str, Any]:
    """A running evening's current round as the public page shows it (same names, same rules),
    marked in progress; ``{"in_progress": False}`` for anything else."""

    now = wall.progress(t)
    if now is None:
        return {"in_progress": False}
    with translation.override(
        "en"
    ):  # the JSON's words are the contract's, in English whatever the page's language
        shown = wall.pairings(access, t, now["round"])
    boards = [
        {
            "board": b["board"],
            "white": b["white"],
            "black": b["black"],
            "result": b["result"] or None,
        }
        for b in shown["boards"]
    ]
    byes = [
        {"number": b["number"], "name": b["name"], "points": b["points"], "why": b["why"]}
        for b in shown["byes"]
    ]
    return {
        "in_progress": True,
        "pairings": {
            "round": now["round"],
            "planned_rounds": now["planned"],
            "boards": boards,
            "byes": byes,
        },
    }


@api_view
def tournament(request: HttpRequest, access: ClubAccess, tournament_id: int) -> dict[str, Any]:
    t = shown_tournament(
        access, tournament_id
    )  # published, or an evening being played (as the page)
    data = pages.tournament(access, t)
    players = [
        {
            "place": p["place"],
            "number": p["number"],
            "name": p["name"],
            "member_id": p["member_id"],
            "team": p["team"],
            "points": p["points"],
            "tiebreaks": p["tiebreaks"],
            "rating_before": p["rating_before"],
            "rating_after": p["rating_after"],
            "change": p["change"],
            "games_rated": p["games_rated"],
            "rounds": [
                {
                    k: c[k]
                    for k in ("round", "opponent", "colour", "score", "result", "rated", "note")
                }
                for c in p["rounds"]
            ],
        }
        for p in data["players"]
    ]
    return {
        k: data[k]
        for k in (
            "tournament_id",
            "name",
            "date",
            "status",
            "kind",
            "time_control",
            "rated",
            "rounds",
            "ranked_by",
            "rule",
            "system",
            "tiebreaks",
        )
    } | {"players": players, **_in_progress(access, t)}


# --- the OpenAPI description -----------------------------------------------------------------


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _ok(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "200": {"description": text, "content": {"application/json": {"schema": schema}}},
        "404": {
            "description": "no such club, player or tournament, or not visible to you",
            "content": {"application/json": {"schema": _ref("Error")}},
        },
    }


_NUM = {"type": "number"}
_INT = {"type": "integer"}
_STR = {"type": "string"}
_DATE = {"type": "string", "format": "date"}
_OPT_NUM = {"type": ["number", "null"]}
_CLUB_PARAMS = [
    {
        "name": "ref",
        "in": "path",
        "required": True,
        "schema": _STR,
        "description": "the club's slug (under /api/c/) or its unlisted token (under /api/u/)",
    }
]


def _club_paths(prefix: str) -> dict[str, Any]:
    params = _CLUB_PARAMS
    tid = [{"name": "tournament_id", "in": "path", "required": True, "schema": _INT}]
    mid = [{"name": "member_id", "in": "path", "required": True, "schema": _INT}]
    lst = [
        {
            "name": "list",
            "in": "query",
            "required": False,
            "schema": _STR,
            "description": "rating list (standard, rapid, blitz) when the club keeps several",
        }
    ]
    return {
        f"{prefix}/{{ref}}/ratings": {
            "get": {
                "summary": "The club's rating list (R6 order)",
                "parameters": params + lst,
                "responses": _ok(_ref("RatingList"), "the rating list"),
            }
        },
        f"{prefix}/{{ref}}/players/{{member_id}}": {
            "get": {
                "summary": "A member's lifetime history and games",
                "parameters": params + mid,
                "responses": _ok(_ref("Player"), "the member's history"),
            }
        },
        f"{prefix}/{{ref}}/tournaments": {
            "get": {
                "summary": (
                    "The club's published tournaments and its evenings being played, newest first"
                ),
                "parameters": params,
                "responses": _ok(
                    {"type": "array", "items": _ref("TournamentSummary")}, "the tournaments"
                ),
            }
        },
        f"{prefix}/{{ref}}/tournaments/{{tournament_id}}": {
            "get": {
                "summary": "Standings, crosstable cells and rating changes",
                "parameters": params + tid,
                "responses": _ok(_ref("Standings"), "the standings"),
            }
        },
    }


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props)}


OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "clubrating",
        "version": __version__,
        "description": "Read-only club rating data. Names follow the club's privacy settings "
        "(initials for juniors without recorded consent); arbiter-only clubs answer 404.",
    },
    "paths": {
        "/api/clubs": {
            "get": {
                "summary": "Public clubs",
                "responses": {
                    "200": {
                        "description": "public clubs",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": _obj(slug=_STR, name=_STR, api=_STR),
                                }
                            }
                        },
                    }
                },
            }
        },
        **_club_paths("/api/c"),
        **_club_paths("/api/u"),
    },
    "components": {
        "schemas": {
            "Error": _obj(error=_STR),
            "RatingList": _obj(
                club=_obj(slug=_STR, name=_STR),
                list=_STR,
                lists={"type": "array", "items": _STR},
                players={
                    "type": "array",
                    "items": _obj(
                        rank={"type": ["integer", "null"]},
                        member_id=_INT,
                        name=_STR,
                        rating=_NUM,
                        games=_INT,
                        provisional={"type": "boolean"},
                        last_played={"type": ["string", "null"], "format": "date"},
                    ),
                },
            ),
            "Player": _obj(
                member_id=_INT,
                name=_STR,
                left={"type": ["string", "null"], "format": "date"},
                ratings={"type": "object"},
                history={
                    "type": "array",
                    "items": _obj(
                        tournament_id=_INT,
                        tournament=_STR,
                        date=_DATE,
                        score=_NUM,
                        rated={"type": "boolean"},
                        rating_list={"type": ["string", "null"]},
                        rating_before=_OPT_NUM,
                        rating_after=_OPT_NUM,
                        change=_OPT_NUM,
                        games_rated=_INT,
                    ),
                },
                games={
                    "type": "array",
                    "items": _obj(
                        tournament_id=_INT,
                        date=_DATE,
                        round=_INT,
                        colour={"enum": ["white", "black"]},
                        opponent=_STR,
                        opponent_member_id={"type": ["integer", "null"]},
                        result=_STR,
                        score=_NUM,
                        rated={"type": "boolean"},
                    ),
                },
                card=_ref("Card"),
            ),
            "Card": _obj(
                games={"type": "array", "items": _ref("CardGame")},
                performances={
                    "type": "array",
                    "items": _obj(
                        tournament_id=_INT,
                        tournament=_STR,
                        rating=_NUM,
                        average_opponent=_NUM,
                        games=_INT,
                        score=_NUM,
                    ),
                },
                peaks={
                    "type": "object",
                    "additionalProperties": _obj(
                        rating=_NUM,
                        date={"type": ["string", "null"], "format": "date"},
                        tournament_id={"type": ["integer", "null"]},
                    ),
                },
                colours={"type": "object", "additionalProperties": _ref("Tally")},
                head_to_head={
                    "type": "array",
                    "items": {
                        "allOf": [
                            _ref("Tally"),
                            _obj(
                                opponent_id=_INT,
                                opponent=_STR,
                                last_date=_DATE,
                                last_tournament_id=_INT,
                            ),
                        ]
                    },
                },
                streaks=_obj(winning=_ref("Streak"), unbeaten=_ref("Streak")),
                best_wins={"type": "array", "items": _ref("CardGame")},
            ),
            "CardGame": _obj(
                tournament_id=_INT,
                tournament=_STR,
                date=_DATE,
                round=_INT,
                colour={"enum": ["white", "black", None]},
                opponent_id={"type": ["integer", "null"]},
                opponent=_STR,
                opponent_rating=_OPT_NUM,
                result=_STR,
                score=_NUM,
                rated={"type": "boolean"},
                status={"enum": ["rated", "provisional opponent", "forfeit", "bye", "bughouse"]},
                expected=_OPT_NUM,
                change=_OPT_NUM,
                game_id={"type": ["integer", "null"]},
            ),
            "Tally": _obj(games=_INT, wins=_INT, draws=_INT, losses=_INT, score=_NUM),
            "Streak": _obj(
                length=_INT,
                **{
                    "from": {"type": ["string", "null"], "format": "date"},
                    "to": {"type": ["string", "null"], "format": "date"},
                },
            ),
            "TournamentSummary": _obj(
                tournament_id=_INT,
                name=_STR,
                date=_DATE,
                kind=_STR,
                time_control=_STR,
                rounds=_INT,
                status=_STR,
                players=_INT,
                has_moves={"type": "boolean"},
                winners={
                    "type": "array",
                    "items": _obj(name=_STR, member_id={"type": ["integer", "null"]}),
                },
            ),
            "Standings": _obj(
                tournament_id=_INT,
                name=_STR,
                date=_DATE,
                status=_STR,
                kind=_STR,
                time_control=_STR,
                rated={"type": "boolean"},
                rounds=_INT,
                ranked_by=_STR,
                rule={"enum": ["written", "tiebreaks"]},
                system={"enum": ["swiss", "round_robin"]},
                tiebreaks={"type": "array", "items": _obj(short=_STR, name=_STR, source=_STR)},
                players={
                    "type": "array",
                    "items": _obj(
                        place={"type": ["integer", "null"]},
                        number=_INT,
                        name=_STR,
                        member_id={"type": ["integer", "null"]},
                        team={"type": ["string", "null"]},
                        points=_NUM,
                        tiebreaks={"type": "array", "items": {"type": ["number", "null"]}},
                        rating_before=_OPT_NUM,
                        rating_after=_OPT_NUM,
                        change=_OPT_NUM,
                        games_rated=_INT,
                        rounds={"type": "array", "items": {"type": "object"}},
                    ),
                },
            ),
        }
    },
}

# Added to the standings, not required (a contract only grows): a running evening's current round.
_SIDE = _obj(number=_INT, name=_STR, points=_STR)
OPENAPI["components"]["schemas"]["Standings"]["properties"].update(
    in_progress={"type": "boolean", "description": "an evening being played: not rated yet"},
    pairings=_obj(
        round=_INT,
        planned_rounds=_INT,
        boards={
            "type": "array",
            "items": _obj(
                board=_INT, white=_SIDE, black=_SIDE, result={"type": ["string", "null"]}
            ),
        },
        byes={"type": "array", "items": _obj(number=_INT, name=_STR, points=_STR, why=_STR)},
    ),
)
# Added to the tournament list's rows, not required: present (and true) only on an evening being
# played.
OPENAPI["components"]["schemas"]["TournamentSummary"]["properties"].update(
    in_progress={
        "type": "boolean",
        "description": "an evening being played (not rated yet): only its row "
        "has this field, every other row is as before",
    },
    planned_rounds={
        "type": "integer",
        "description": "an evening being played: the rounds it will have",
    },
)
