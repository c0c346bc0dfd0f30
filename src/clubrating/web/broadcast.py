"""The live broadcast: a running evening's boards as a PGN that pollers read.

``/c/<slug>/t/<id>/live.pgn`` holds every round paired so far and ``.../round/<n>.pgn`` one
round, with the results and moves entered so far (``*`` for a game still played); a lichess
broadcast's round polls such a URL (docs/broadcast.md). Names follow the tournament page's
rules exactly (``pages.entry_name``): a private club's feed is a 404 to the public, a junior
without consent shows initials.

A poller fetches only changes: the answer carries a strong ``ETag`` (the SHA-256 of its body)
and ``Last-Modified`` (the club's newest audit entry: every write leaves one), and a request
whose ``If-None-Match`` or ``If-Modified-Since`` still holds gets a 304 without a body
(RFC 9110 13.2.2: If-None-Match decides when both are sent).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from clubrating.club.store.models import AuditEntry, Entry, Evening, EveningBoard, Game, Tournament
from clubrating.formats.pgn import BroadcastGame, write_broadcast
from clubrating.formats.results import PGN_UNFINISHED, pgn_result
from clubrating.web import pages, wall
from clubrating.web.access import ClubAccess, in_club, mark_privacy, resolve

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
SETTLED = dt.timedelta(seconds=1)  # HTTP dates count whole seconds: a change this recent may
#                                    be followed by another in the same second, so no date yet


def _pairings(
    t: Tournament, rounds: range
) -> list[tuple[int, int | None, Entry, Entry, Game | None]]:
    """(round, board, white, black, the game once its result is in) of those rounds: an
    evening's boards are paired before their games exist; an imported tournament's are its
    games."""
    if Evening.objects.filter(tournament=t).exists():
        boards = EveningBoard.objects.filter(tournament=t, round__in=rounds).select_related(
            "white", "black", "game"
        )
        return [
            (b.round, b.board, b.white, b.black, b.game) for b in boards.order_by("round", "board")
        ]
    games = Game.objects.filter(tournament=t, round__in=rounds).select_related("white", "black")
    return [(g.round, g.board, g.white, g.black, g) for g in games.order_by("round", "board", "id")]


def _rounds(t: Tournament) -> int:
    """The rounds there are so far: an evening's paired ones, else the tournament's."""
    evening = Evening.objects.filter(tournament=t).first()
    return evening.paired_rounds if evening is not None else t.rounds


def broadcast_games(access: ClubAccess, t: Tournament, rounds: range) -> list[BroadcastGame]:
    """The boards of those rounds as this viewer may see them; a double forfeit, which has no
    PGN result, is no game to follow and is left out."""
    rows = _pairings(t, rounds)
    flags = pages.member_flags(e.member_id for row in rows for e in row[2:4])
    games = []
    for rnd, board, white, black, game in rows:
        result = (
            PGN_UNFINISHED if game is None else pgn_result(game.white_points, game.black_points)
        )
        if game is not None and result == PGN_UNFINISHED:
            continue
        games.append(
            BroadcastGame(
                event=t.name,
                site=access.club.name,
                date=t.date,
                round=rnd,
                board=board,
                white=pages.entry_name(access, t, white.name, white.member_id, flags),
                black=pages.entry_name(access, t, black.name, black.member_id, flags),
                result=result,
                moves="" if game is None else game.moves,
            )
        )
    return games


def _last_change(access: ClubAccess) -> int | None:
    """The time of the club's newest audit entry as an HTTP date's seconds, or None while it is
    within the current second (or there is none)."""
    # the newest by id, on the index (club, id): a club's writes hold its lock one at a time
    newest = (
        AuditEntry.objects.filter(club=access.club).order_by("-id").values_list("when", flat=True)
    ).first()
    if newest is None or timezone.now() - newest < SETTLED:
        return None
    return int(newest.timestamp())


def _feed(
    request: HttpRequest, access: ClubAccess, tournament_id: int, rnd: int | None
) -> HttpResponse:
    t = wall.shown_tournament(access, tournament_id)
    played = _rounds(t)
    if rnd is not None and not 1 <= rnd <= played:
        raise Http404("no such round")
    out = io.StringIO()
    rounds = range(1, played + 1) if rnd is None else range(rnd, rnd + 1)
    write_broadcast(broadcast_games(access, t, rounds), out)
    body = out.getvalue().encode()
    response = mark_privacy(HttpResponse(body, content_type=PGN_TYPE), access)
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    response["ETag"] = etag
    response.setdefault("Cache-Control", "no-cache")  # may be kept, but asked again each time
    response["Vary"] = "Cookie"  # an arbiter's session sees full names
    changed = _last_change(access)
    if changed is not None:
        response["Last-Modified"] = http_date(changed)
    answer = get_conditional_response(request, etag=etag, last_modified=changed, response=response)
    return response if answer is None else answer


def _answer(
    request: HttpRequest, tournament_id: int, rnd: int | None, slug: str | None, token: str | None
) -> HttpResponse:
    access = resolve(request, slug=slug, token=token)
    with in_club(request, access.club):
        return _feed(request, access, tournament_id, rnd)


@require_safe
def live_pgn(
    request: HttpRequest, tournament_id: int, slug: str | None = None, token: str | None = None
) -> HttpResponse:
    """Every round paired so far."""
    return _answer(request, tournament_id, None, slug, token)


@require_safe
def round_pgn(
    request: HttpRequest,
    tournament_id: int,
    round_number: int,
    slug: str | None = None,
    token: str | None = None,
) -> HttpResponse:
    """One round: a lichess broadcast's round polls this one."""
    return _answer(request, tournament_id, round_number, slug, token)
