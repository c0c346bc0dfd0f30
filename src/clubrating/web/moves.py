"""The arbiter's pages for moves of stored games: "Add moves" (a PGN for a tournament) and
one game's page (its moves, typed as on a scoresheet; stored moves corrected: replaced by
typed ones, or removed).

The PGN page shows what the file would attach: each game matched, the names the matcher
proposes (a box to tick each), the results that differ side by side (correct the stored
result, or drop those moves). The file's text travels in the form, so confirming sends it
again and the service matches it again under the club's lock: nothing is kept between
requests. A typed game with an illegal move shows the message, the board (python-chess's
SVG) and the FEN, with the text kept in the form. No script (the CSP says none).
"""

from __future__ import annotations

from typing import Any

import chess
import chess.svg
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.safestring import SafeString, mark_safe
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from clubrating.club.store.models import Game
from clubrating.club.services import moves_links as ml
from clubrating.club.services.outcome import Outcome
from clubrating.club.services.moves import (
    NeedsConfirmation,
    Status,
    Undecided,
    attach_pgn_moves,
    attach_typed_moves,
    remove_moves,
    replace_typed_moves,
)
from clubrating.errors import ClubratingError, InputError, NotFound
from clubrating.formats.movetext import MoveError
from clubrating.web.access import ClubAccess
from clubrating.web.arbiter import MAX_UPLOAD_BYTES, _page, _tournament, act, arbiter_view, who
from clubrating.formats.common import decode_text
from clubrating.formats.reading import read_tournament_text
import io
import chess.pgn
from clubrating.club.jobs.status import STATES, queue_state, retry_analysis, tournament_analysis
from clubrating.club.read.clubs import parse_id
from clubrating.club.read.tournaments import game_result_text

BOARD_PIXELS = 280  # a board that fits a 360 px phone beside nothing else


def board_svg(fen: str) -> SafeString:
    """The position drawn by python-chess (chess.svg): SVG made from a FEN, no user text in it."""
    # python-chess's SVG, no user text in it
    return mark_safe(chess.svg.board(chess.Board(fen), size=BOARD_PIXELS))  # noqa: S308


def _pgn_text(request: HttpRequest) -> tuple[str, str]:
    """The PGN sent: an uploaded file, else the text of the form (a confirmation sends it again)."""
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size and upload.size > MAX_UPLOAD_BYTES:
            raise InputError(
                gettext("the file is larger than %(mb)s MB")
                % {"mb": MAX_UPLOAD_BYTES // 1024 // 1024},
                file=upload.name,
            )

        return decode_text(upload.read()), upload.name or "upload.pgn"
    text = request.POST.get("pgn", "")
    if not text.strip():
        raise InputError(gettext("choose a PGN file, or paste its games"))
    return text, request.POST.get("source", "") or "pasted.pgn"


def _indices(request: HttpRequest, name: str) -> set[int]:
    """The numbers posted as ``name``; what is no number (of "²", of 5,000 digits) is left out."""
    return {n for v in request.POST.getlist(name) if (n := parse_id(v)) is not None}


def _decisions(request: HttpRequest, choice: str) -> set[int]:
    return {
        n
        for k, v in request.POST.items()
        if k.startswith("result-") and v == choice and (n := parse_id(k[7:])) is not None
    }


@arbiter_view
def add_moves(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    t = _tournament(access, tournament_id)
    page = "web/arbiter/moves.html"
    if request.method != "POST":
        return _page(request, access, page, tournament=t)

    text, source = "", ""
    try:
        text, source = _pgn_text(request)
        record = read_tournament_text(text, source, format="pgn")
        outcome, _ = attach_pgn_moves(
            t,
            record,
            who=who(request),
            accept=_indices(request, "accept"),
            correct=_decisions(request, "correct"),
            drop=_decisions(request, "drop"),
        )
    except Undecided as undecided:
        messages.warning(request, undecided.translated(translation))
        return _page(
            request,
            access,
            page,
            tournament=t,
            plan=undecided.plan,
            pgn=text,
            source=source,
            storable=Status.STORABLE,
        )
    except ClubratingError as error:
        messages.error(request, error.translated(translation))
        return _page(request, access, page, tournament=t, pgn=text, source=source)
    messages.success(request, outcome.translated(translation))
    return redirect(f"{access.base}arbiter/t/{t.id}/")


def _game(access: ClubAccess, game_id: int) -> Game:
    game = (
        Game.objects.filter(tournament__club=access.club, id=game_id)
        .select_related("tournament__club", "white", "black")
        .first()
    )
    if game is None:
        raise Http404("no such game")
    return game


def _final_fen(game: Game) -> str | None:
    """The position after the stored moves, or None when they cannot be read."""

    read = chess.pgn.read_game(io.StringIO(game.moves))
    return None if read is None else read.end().board().fen()


@arbiter_view
def game_page(request: HttpRequest, access: ClubAccess, game_id: int) -> HttpResponse:
    game = _game(access, game_id)
    context: dict[str, Any] = {
        "game": game,
        "tournament": game.tournament,
        "result": game_result_text(game),
        "typed": "",
        **_pending(game),
    }
    if request.method == "POST" and "submission" in request.POST:
        return act(request, lambda: _accept(request, game), f"{access.base}arbiter/g/{game.id}/")
    if request.method == "POST" and "remove" in request.POST:
        return act(
            request,
            lambda: remove_moves(game, who=who(request)),
            f"{access.base}arbiter/g/{game.id}/",
        )
    if request.method == "POST":
        text = request.POST.get("moves", "")
        confirm = request.POST.get("confirm") == "on"
        try:
            if "replace" in request.POST:  # the form under stored moves: a correction
                outcome = replace_typed_moves(game, text, who=who(request), confirm=confirm)
            else:
                outcome = attach_typed_moves(game, text, who=who(request), confirm=confirm)
        except MoveError as error:
            messages.error(request, error.translated(translation))
            context.update(
                typed=text,
                error=error,
                why=error.why.translated(translation),
                board=board_svg(error.fen),
            )
        except NeedsConfirmation as error:
            messages.warning(request, error.translated(translation))
            context.update(typed=text, confirming=True)
        except ClubratingError as error:
            messages.error(request, error.translated(translation))
            context.update(typed=text)
        else:
            messages.success(request, outcome.translated(translation))
            return redirect(f"{access.base}arbiter/g/{game.id}/")
    elif game.moves.strip():
        fen = _final_fen(game)
        if fen is not None:
            context.update(board=board_svg(fen), fen=fen)
    return _page(request, access, "web/arbiter/game.html", **context)


def _pending(game: Game) -> dict[str, Any]:
    """The players' submissions waiting for the arbiter, each after the first with the first
    move where it parts from it and each with why its device keeps it waiting, and those
    decided, with the reason."""
    pending = ml.pending_for(game)
    first = pending[0].moves if pending else ""
    waiting = ml.waiting_reasons(pending)  # where the device is why it waits
    return {
        "pending": [
            {
                "submission": s,
                "differs": _difference(first, s.moves) if i else None,
                "waiting": gettext(waiting[s.id]) if s.id in waiting else "",
            }
            for i, s in enumerate(pending)
        ],
        "either": any(s.side == ml.EITHER for s in pending),
        "decided": [
            {"submission": s, "state": gettext(SUBMISSION_WORDS.get(s.state, s.state))}
            for s in ml.decided_for(game)
        ],
    }


def _difference(first: str, other: str) -> str | None:
    found = ml.first_difference(first, other)
    return None if found is None else found.text.translated(translation)


# A players' submission's state as the arbiter reads it (MovesSubmission.state).
SUBMISSION_WORDS = {
    "pending": gettext_noop("waiting"),
    "accepted": gettext_noop("accepted"),
    "set-aside": gettext_noop("set aside"),
    "superseded": gettext_noop("superseded"),
}


def _accept(request: HttpRequest, game: Game) -> Outcome:
    number = parse_id(request.POST.get("submission"))
    found = next((s for s in ml.pending_for(game) if s.id == number), None)
    if found is None:
        raise NotFound(gettext("no such submission waiting for this game"))
    return ml.accept_submission(
        found, who=who(request), confirm=request.POST.get("confirm") == "on"
    )


# The analysis states as the arbiter reads them (club/jobs/status.STATES), in the page's language.
STATE_WORDS = {
    "queued": gettext_lazy("queued"),
    "running": gettext_lazy("running"),
    "analysed": gettext_lazy("analysed"),
    "failed": gettext_lazy("failed"),
    "not queued": gettext_lazy("not queued"),
}


@arbiter_view
def analysis_page(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """Per tournament: its games with moves queued, running, analysed or failed (with the
    reason), and a retry (a POST, audited)."""

    t = _tournament(access, tournament_id)
    if request.method == "POST":
        return act(
            request,
            lambda: retry_analysis(t, who=who(request)),
            f"{access.base}arbiter/t/{t.id}/analysis/",
        )
    status = tournament_analysis(t)
    waiting = queue_state().warning()
    return _page(
        request,
        access,
        "web/arbiter/analysis.html",
        tournament=t,
        status=status,
        counts=[(STATE_WORDS[state], status.count(state)) for state in STATES],
        waiting=waiting.translated(translation) if waiting else None,
        games=[(g, STATE_WORDS.get(g.state, "")) for g in status.games],
    )
