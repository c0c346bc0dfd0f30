"""The public game viewer: a game's moves, the board after any of them and the moves lichess
would mark (inaccuracy, mistake, blunder) from the stored analysis, with the engine's choice.

Same privacy as the game's tournament (:func:`clubrating.web.wall.shown_tournament`: a draft's
game is 404 unless the draft is an evening being played) and its names (initials rules). No
script: the board is python-chess's SVG drawn on the server, each move a link to ``?ply=N``
(N half-moves played, as python-chess's ``Board.ply()`` counts them), in reading order. The
engine is never run here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from html import escape
from typing import Any

import chess
import chess.pgn
import chess.svg
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from clubrating.club.read.tournaments import game_result_text
from clubrating.club.store.models import Game, GameAnalysis, Tournament
from clubrating.cpi.advice import Advice, Judgement, game_advice
from clubrating.cpi.facts import GameFacts
from clubrating.formats.movetext import SHOWN_LETTERS, san_in_letters
from clubrating.formats.pgn import KEPT_TAGS, keep_moves, write_pgn
from clubrating.formats.records import (
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentKind,
    TournamentRecord,
)
from clubrating.web import pages, wall
from clubrating.web.access import ClubAccess, club_view

BOARD_PIXELS = 400  # the SVG's own size; the page's CSS scales it down to a phone's width


@dataclass(frozen=True, slots=True)
class Move:
    """One half-move of the game as the page shows it."""

    ply: int  # half-moves played after it (python-chess Board.ply())
    number: int  # the move number written before White's move
    white: bool  # White moved
    san: str
    move: chess.Move
    advice: Advice | None
    shown: str = ""  # the move in the reader's piece letters (SAN stays in PGN and JSON)
    best_shown: str = ""  # the engine's choice, the same way


def public_game(access: ClubAccess, game_id: int) -> tuple[Game, Tournament]:
    """The game and its tournament, when this viewer may see the tournament; 404 otherwise."""
    game = (
        Game.objects.filter(tournament__club=access.club, id=game_id)
        .select_related("white", "black")
        .first()
    )
    if game is None:
        raise Http404("no such game")
    return game, wall.shown_tournament(access, game.tournament_id)


def read_moves(game: Game) -> tuple[chess.Board, list[chess.Move]] | None:
    """The start position and the stored moves (a game set up from a FEN starts there); None
    when python-chess cannot play them on a board (a bughouse game's drops)."""
    setup = "".join(
        f'[{tag} "{game.headers[tag]}"]\n' for tag in ("SetUp", "FEN") if game.headers.get(tag)
    )
    read = chess.pgn.read_game(io.StringIO(f"{setup}\n{game.moves}"))
    if read is None or read.errors:
        return None
    return read.board(), list(read.mainline_moves())


def stored_advice(
    game: Game, start: chess.Board, moves: list[chess.Move]
) -> tuple[GameFacts | None, list[Advice | None]]:
    """The stored analysis and each move's mark; none when the game was not analysed, or was
    analysed with other moves than those stored now (the next analysis replaces it)."""
    data = GameAnalysis.objects.filter(game=game).values_list("facts", flat=True).first()
    facts = GameFacts.from_dict(data) if data else None
    if facts is None or [p.uci for p in facts.plies] != [m.uci() for m in moves]:
        return None, [None] * len(moves)
    marks = game_advice(facts.plies)
    first = start.ply() + 1
    return facts, [marks.get(first + i) for i in range(len(moves))]


def game_moves(
    start: chess.Board, moves: list[chess.Move], marks: list[Advice | None], facts: GameFacts | None
) -> list[Move]:
    """The moves with their SAN: the analysis's (the same moves) where there is one, saving
    python-chess a legal-move search a move; each also in the page language's piece letters."""
    board, out = start.copy(stack=False), []
    sans: list[str | None] = (
        [p.san for p in facts.plies] if facts is not None else [None] * len(moves)
    )
    language = get_language() or ""
    for move, advice, known in zip(moves, marks, sans):
        number, white, san = (
            board.fullmove_number,
            board.turn == chess.WHITE,
            known or board.san(move),
        )
        shown = san_in_letters(board, move, language) if language in SHOWN_LETTERS else san
        best = advice.best_san if advice is not None else None
        best_shown = best and san_in_letters(board, board.parse_san(best), language)
        board.push(move)
        out.append(Move(board.ply(), number, white, san, move, advice, shown, best_shown or ""))
    return out


def move_list(moves: list[Move], current: int) -> SafeString:
    """An ordered list of full moves, each half-move a link to the board after it."""
    rows: list[list[str]] = []
    for m in moves:
        if m.white or not rows:
            rows.append([f'<span class="no">{m.number}.{"" if m.white else ".."}</span>'])
        mark = ""
        if m.advice is not None:
            j = m.advice.judgement
            mark = (
                f'<abbr class="mark {j.label}" '
                f'title="{escape(str(JUDGEMENT_WORDS[j]))}">{j.glyph}</abbr>'
            )
        here = ' aria-current="step"' if m.ply == current else ""
        rows[-1].append(f'<a href="?ply={m.ply}"{here}>{escape(m.shown)}{mark}</a>')
    return mark_safe(
        '<ol class="moves">' + "".join(f"<li>{' '.join(r)}</li>" for r in rows) + "</ol>"
    )


def board_svg(start: chess.Board, moves: list[Move], ply: int) -> SafeString:
    """The position after ``ply`` half-moves, the last move shaded (python-chess's SVG)."""
    board = start.copy(stack=False)
    played = [m for m in moves if m.ply <= ply]
    for m in played:
        board.push(m.move)
    last = played[-1].move if played else None
    svg = chess.svg.board(
        board,
        size=BOARD_PIXELS,
        lastmove=last,
        coordinates=True,
        check=board.king(board.turn) if board.is_check() else None,
    )
    return mark_safe(svg)  # noqa: S308 - python-chess's SVG from a position, no user text


JUDGEMENT_WORDS = {
    Judgement.INACCURACY: gettext_lazy("inaccuracy"),
    Judgement.MISTAKE: gettext_lazy("mistake"),
    Judgement.BLUNDER: gettext_lazy("blunder"),
}


def _counted(judgement: Judgement, n: int) -> str:
    """ "1 inaccuracy", "2 blunders", in the language's plural forms (one / few / many in
    Russian)."""
    words = {
        Judgement.INACCURACY: ngettext("%(count)s inaccuracy", "%(count)s inaccuracies", n),
        Judgement.MISTAKE: ngettext("%(count)s mistake", "%(count)s mistakes", n),
        Judgement.BLUNDER: ngettext("%(count)s blunder", "%(count)s blunders", n),
    }
    return words[judgement] % {"count": n}


def judgement_counts(moves: list[Move], white: bool) -> str:
    """ "1 inaccuracy, 0 mistakes, 2 blunders": one player's marks."""
    found = [m.advice.judgement for m in moves if m.advice is not None and m.white == white]
    return ", ".join(_counted(j, found.count(j)) for j in Judgement)


def _ply(request: HttpRequest, first: int, last: int) -> int | None:
    """``?ply=N`` within the game; the last position without it; None when it is not one."""
    text = request.GET.get("ply")
    if text is None:
        return last
    if not (text.isascii() and text.isdigit() and len(text) < 6) or not first <= int(text) <= last:
        return None
    return int(text)


def players(access: ClubAccess, game: Game, tournament: Tournament) -> dict[str, dict[str, Any]]:
    flags = pages.member_flags([game.white.member_id, game.black.member_id])
    return {
        side: {
            "name": pages.entry_name(access, tournament, entry.name, entry.member_id, flags),
            "member_id": entry.member_id,
        }
        for side, entry in (("white", game.white), ("black", game.black))
    }


@require_safe
@club_view
def game_page(request: HttpRequest, access: ClubAccess, game_id: int) -> HttpResponse:
    game, tournament = public_game(access, game_id)
    context: dict[str, Any] = {
        "access": access,
        "club": access.club,
        "base": access.base,
        "game": game,
        "tournament": tournament,
        "result": game_result_text(game),
        "players": players(access, game, tournament),
    }
    read = read_moves(game) if game.moves.strip() else None
    if read is None:
        return render(request, "web/game.html", {**context, "unreadable": bool(game.moves.strip())})
    start, played = read
    facts, marks = stored_advice(game, start, played)
    moves = game_moves(start, played, marks, facts)
    first, last = start.ply(), start.ply() + len(moves)
    ply = _ply(request, first, last)
    if ply is None:
        return HttpResponse(
            gettext("ply= takes a number from %(first)s to %(last)s (half-moves played)")
            % {"first": first, "last": last}
            + "\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    current = next((m for m in moves if m.ply == ply), None)
    context.update(
        has_moves=True,
        moves_html=move_list(moves, ply),
        board=board_svg(start, moves, ply),
        current=current,
        ply=ply,
        first=first,
        last=last,
        facts=facts,
        marked=[m for m in moves if m.advice is not None],
        counts=[
            {
                "side": gettext(side.capitalize()),
                "name": context["players"][side]["name"],
                "text": judgement_counts(moves, side == "white"),
            }
            for side in ("white", "black")
        ],
    )
    return render(request, "web/game.html", context)


def game_record(access: ClubAccess, game: Game, tournament: Tournament) -> TournamentRecord:
    """The one game as a record for the PGN writer: names as this viewer sees them, the kept
    tags only (as the tournament's PGN export, :func:`clubrating.web.pages.export_record`)."""
    names = players(access, game, tournament)
    pairing = Pairing(
        round=game.round,
        white=1,
        black=2,
        white_points=game.white_points,
        black_points=game.black_points,
        played=game.played,
        board=game.board,
        moves=keep_moves(game.moves)[0] if game.moves else None,
        headers=tuple((k, str(v)) for k, v in (game.headers or {}).items() if k in KEPT_TAGS),
    )
    return TournamentRecord(
        name=tournament.name,
        date=tournament.date,
        players=(PlayerEntry(1, names["white"]["name"]), PlayerEntry(2, names["black"]["name"])),
        pairings=(pairing,),
        rounds=tournament.rounds,
        time_control=TimeControl(tournament.time_control),
        kind=TournamentKind(tournament.kind),
        source=f"game {game.id}",
        format=tournament.source_format,
    )


@require_safe
@club_view
def game_pgn(request: HttpRequest, access: ClubAccess, game_id: int) -> HttpResponse:
    game, tournament = public_game(access, game_id)
    if not game.moves.strip():
        raise Http404("no moves were recorded for this game")
    out = io.StringIO()
    write_pgn(game_record(access, game, tournament), out)
    response = HttpResponse(out.getvalue(), content_type="application/x-chess-pgn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.id}.pgn"'
    return response
