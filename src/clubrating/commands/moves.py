"""``clubrating moves T GAMES.pgn``: the moves of a tournament's stored games, from a PGN
file or typed for one game (``--round R --player NAME --typed TEXT``), replaced
(``--replace --typed TEXT``) or removed (``--remove``). ``clubrating
moves-links T``: the boards' moves links (the players' phone page), listed, made, revoked.

Without a decision flag a file whose names need confirming, or whose results differ
from the stored ones, is listed and nothing is stored; ``--accept-proposals``,
``--correct-results`` and ``--drop-differing`` store it, each decision audited.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clubrating.club.read.tournaments import get_tournament
from clubrating.club.services.tournaments import find_game
from clubrating import djangoenv
from clubrating.djangoenv import gettext
from clubrating.commands.output import print_json, wants_json, whole
from clubrating.commands.club import _add, the_club, who
from clubrating.errors import InputError
from clubrating.formats.records import MAX_ROUNDS
from clubrating.words import N_
from clubrating.club.services.moves import Undecided, attach_pgn_moves
from clubrating.files import read_tournament_file
from clubrating.club.services.moves import attach_typed_moves, remove_moves, replace_typed_moves
from clubrating.club.store.models import MovesLink
from clubrating.club.services import moves_links as ml
from django.utils import timezone
from clubrating.formats import zones

MARKS = {
    "exact": "=",
    "proposal": "?",
    "unmatched": "-",
    "ambiguous": "-",
    "twice": "-",
    "has-moves": "-",
}
WHY_NOT = {
    "unmatched": N_("no stored pairing of this round with these players"),
    "ambiguous": N_("more than one stored pairing"),
    "twice": N_("another game of the file found the same pairing"),
    "has-moves": N_("the stored game has moves already (kept)"),
}


def print_plan(plan: Any) -> None:
    """Each game of the file and what becomes of it, in the command's language."""
    for game in plan.games:
        head = f"  {game.index:>3} {MARKS[game.status]} " + gettext(
            "round %(round)s: %(white)s - %(black)s %(result)s"
        ) % {
            "round": game.round or "?",
            "white": game.white,
            "black": game.black,
            "result": game.result,
        }
        if game.status in WHY_NOT:
            print(
                f"{head}  ["
                + gettext("not stored: %(why)s") % {"why": gettext(WHY_NOT[game.status])}
                + "]"
            )
            continue
        print(head)
        for reason in game.reasons:
            print("        " + gettext("name: %(reason)s") % {"reason": reason})
        if game.differs:
            print(
                "        "
                + gettext("result differs: the file %(file)s, stored %(stored)s")
                % {"file": game.result, "stored": game.stored}
            )


def cmd_moves(args: argparse.Namespace) -> int:
    club = the_club(args)

    tournament = get_tournament(club, args.tournament)
    if args.typed is not None or args.remove or args.replace:
        return _typed(tournament, args)
    if args.file is None:
        raise InputError(
            N_("give a PGN file, or --round R --player NAME --typed 'MOVES' for one game")
        )

    record = read_tournament_file(args.file, format="pgn")
    try:
        outcome, plan = attach_pgn_moves(
            tournament,
            record,
            who=who(),
            accept=args.accept_proposals,
            correct=args.correct_results,
            drop=args.drop_differing,
        )
    except Undecided as undecided:
        if wants_json(args):
            print_json({"stored": False, "message": str(undecided), **undecided.plan.as_dict()})
        else:
            print_plan(undecided.plan)
            print(undecided.translated(djangoenv), file=sys.stderr)
        return 1
    if wants_json(args):
        print_json({"stored": True, "message": str(outcome), **plan.as_dict()})
    else:
        print_plan(plan)
        print(outcome.translated(djangoenv))
    return 0


def _typed(tournament: Any, args: argparse.Namespace) -> int:
    if args.round is None or args.player is None:
        raise InputError(
            N_("typed moves are for one game: give --round R and --player NAME (or number)")
        )
    if args.remove and (args.typed is not None or args.replace):
        raise InputError(
            N_("--remove takes no moves: give either --remove, or --replace --typed 'MOVES'")
        )
    if args.replace and args.typed is None:
        raise InputError(N_("--replace needs the new moves: --typed 'MOVES'"))
    game = find_game(tournament, args.round, args.player)
    if args.remove:
        outcome = remove_moves(game, who=who())
    elif args.replace:
        outcome = replace_typed_moves(game, args.typed, who=who(), confirm=args.confirm)
    else:
        outcome = attach_typed_moves(game, args.typed, who=who(), confirm=args.confirm)
    if wants_json(args):
        print_json({"stored": True, "message": str(outcome), "game_id": game.id})
    else:
        print(outcome.translated(djangoenv))
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    register_links(subparsers, common)
    p = _add(
        subparsers,
        common,
        "moves",
        cmd_moves,
        "clubrating moves 12 evening.pgn; clubrating moves 12 evening.pgn --accept-proposals "
        "--drop-differing; "
        "clubrating moves 12 --round 3 --player 'Anna Berg' --typed '1. e4 e5 2. Nf3 Nc6'; "
        "clubrating moves 12 --round 3 --player 'Anna Berg' --replace --typed '1. e4 e5 2. Nf3 "
        "Nf6'",
    )
    p.add_argument("tournament", metavar="T", help=gettext("the tournament's number"))
    p.add_argument(
        "file", metavar="GAMES.pgn", nargs="?", help=gettext("a PGN file of the tournament's games")
    )
    p.add_argument(
        "--accept-proposals",
        action="store_true",
        help=gettext(
            "accept every name the matcher found under another spelling (listed first without it)"
        ),
    )
    p.add_argument(
        "--correct-results",
        action="store_true",
        help=gettext(
            "where the file's result differs, correct the stored result to it (full replay)"
        ),
    )
    p.add_argument(
        "--drop-differing",
        action="store_true",
        help=gettext(
            "where the file's result differs, keep the stored result and drop those moves "
            "(not with --correct-results)"
        ),
    )
    p.add_argument(
        "--round", type=whole(1, MAX_ROUNDS), help=gettext("with --typed: the game's round")
    )
    p.add_argument("--player", help=gettext("with --typed: one of its players (name or number)"))
    p.add_argument(
        "--typed",
        metavar="MOVES",
        help=gettext(
            "the game's moves as written (SAN, move numbers optional, 0-0, Russian letters, clocks)"
        ),
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help=gettext(
            "with --typed: replace the game's stored moves (audited; their analysis is made again)"
        ),
    )
    p.add_argument(
        "--remove",
        action="store_true",
        help=gettext(
            "with --round and --player: remove the game's stored moves (audited; the result stays)"
        ),
    )
    p.add_argument(
        "--confirm",
        action="store_true",
        help=gettext(
            "with --typed: store moves that end in a position contradicting the stored result"
        ),
    )


CHANGED = N_("(the pairing changed)")  # a link whose board is no longer paired
LINK_LINES = {  # a link just made, by the colour of the player it is for
    "white": N_(
        "round %(round)s board %(board)s: %(white)s - %(black)s, White's link (%(player)s)  "
        "%(link)s"
    ),
    "black": N_(
        "round %(round)s board %(board)s: %(white)s - %(black)s, Black's link (%(player)s)  "
        "%(link)s"
    ),
    "": N_("round %(round)s board %(board)s: %(white)s - %(black)s  %(link)s"),
}


def cmd_moves_links(args: argparse.Namespace) -> int:
    club = the_club(args)

    tournament = get_tournament(club, args.tournament)
    if args.revoke is not None:
        link = (
            MovesLink.objects.filter(tournament=tournament, id=args.revoke)
            .select_related("tournament")
            .first()
        )
        if link is None:
            raise InputError(
                N_(
                    "tournament %(id)s has no moves link %(revoke)s: "
                    "clubrating moves-links %(id)s lists them"
                ),
                id=tournament.id,
                revoke=args.revoke,
            )
        print(ml.revoke_link(link, who=who()).translated(djangoenv))
        return 0
    if args.make is not None:
        site = (args.site or "").rstrip("/")
        issued = ml.issue_links(tournament, args.make, who=who())
        rows = [
            {
                "round": i.link.round,
                "board": i.link.board,
                "white": i.white,
                "black": i.black,
                "link": site + i.path,
                "player": i.player,
                "colour": i.link.colour,
            }
            for i in issued
        ]
        if wants_json(args):
            print_json(rows)
        else:
            for row in rows:
                said = gettext(LINK_LINES[str(row["colour"] or "")])
                print(said % {**row, "board": row["board"] or "-"})
        return 0
    links = ml.links_of(tournament)
    listed = [_link_row(link) for link in links]
    if wants_json(args):
        print_json(listed)
    else:
        for link, row in zip(links, listed):
            line = gettext(
                "%(id)s round %(round)s board %(board)s: %(players)s  %(state)s, "
                "%(pending)s waiting of %(submissions)s sent"
            )
            print(
                line
                % {
                    **row,
                    "id": f"{row['id']:>5}",
                    "board": row["board"] or "-",
                    "players": gettext(CHANGED) if row["players"] == CHANGED else row["players"],
                    "state": _state_text(link, club.time_zone),
                }
            )
    return 0


def _state_text(link: Any, time_zone: str) -> str:
    """Whether the link works, and until when in the club's time zone, in the command's language."""

    if link.revoked:
        return gettext("revoked")
    if link.expires <= timezone.now():
        return gettext("expired")
    return gettext("works until %(when)s") % {"when": zones.local_text(link.expires, time_zone)}


def _link_row(link: Any) -> dict[str, Any]:
    pairing = link.evening_board or link.game
    state = (
        "revoked"
        if link.revoked
        else "expired"
        if link.expires <= timezone.now()
        else f"works until {link.expires:%Y-%m-%d %H:%M} UTC"
    )
    sent = list(link.submissions.values_list("state", flat=True))
    return {
        "id": link.id,
        "round": link.round,
        "board": link.board,
        "players": f"{pairing.white.name} - {pairing.black.name}" if pairing else CHANGED,
        "state": state,
        "player": link.player.name if link.player else None,
        "colour": link.colour or None,
        "submissions": len(sent),
        "pending": sent.count("pending"),
        "opened": bool(link.device),
    }  # opened on a phone, which it now belongs to (docs/moves.md)


def register_links(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "moves-links",
        cmd_moves_links,
        "clubrating moves-links 12; clubrating moves-links 12 --make 3 --site "
        "https://chess.example.org; "
        "clubrating moves-links 12 --revoke 41",
    )
    p.add_argument("tournament", metavar="T", help=gettext("the tournament's number"))
    p.add_argument(
        "--make",
        type=whole(1, MAX_ROUNDS),
        metavar="R",
        help=gettext(
            "make a link for every board of round R and print them (shown once: only a hash is "
            "kept); the boards' earlier links stop working"
        ),
    )
    p.add_argument(
        "--site",
        metavar="URL",
        help=gettext("with --make: the site's address, printed before each link's path"),
    )
    p.add_argument(
        "--revoke",
        type=whole(1, 2**63 - 1),
        metavar="ID",
        help=gettext("revoke the link numbered ID"),
    )
