"""``clubrating evening``: tonight's evening from the command line, as on the arbiter's pages:
start it (a Swiss, a round robin or a double round robin), register, pair (a round robin's
table numbers at round 1 by rating, by lot or in the arbiter's order), change a round before
its first result (colours, an exchange, pairing it again), enter results, publish."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import Any

from clubrating.club.read.tournaments import game_result_text, get_tournament
from clubrating.formats.bounds import whole_number
from clubrating.formats.records import MAX_PLAYERS, TimeControl
from clubrating import djangoenv
from clubrating.formats import zones
from clubrating.commands.output import examples, print_json, verb_help, wants_json
from clubrating.djangoenv import gettext
from clubrating.commands.club import one_transaction, parse_date, the_club, who
from clubrating.errors import InputError, Text
from clubrating.tournament.roundrobin import MAX_SEED, PairingSystem
from clubrating.words import N_
from clubrating.club.store.models import Entry
from clubrating.errors import NotFound
from clubrating.club.store.models import Evening, EveningBoard
from clubrating.club.services import evening
from clubrating.club.services import keizer
from clubrating.club.store.models import Bye
from clubrating.club.services import pairing_changes

KEIZER_EVENINGS = "30"  # a season of weekly evenings, September to May, less the holidays
USAGE = {
    "start": "evening start NAME [--date YYYY-MM-DD] [--rounds N] [--system SYSTEM] "
    "[--keizer KEY=VALUE ...]",
    "register": "evening register T NAME [NAME ...]",
    "pair": "evening pair T [--order ORDER] [--seed N]",
    "show": "evening show T",
    "result": "evening result T BOARD RESULT",
    "colours": "evening colours T BOARD",
    "exchange": "evening exchange T NUMBER NUMBER [--confirm-rematch]",
    "repair": "evening repair T",
    "publish": "evening publish T",
    "mark": "evening mark T {present,apologies,absent} NUMBER [NUMBER ...]",
    "next": "evening next T NAME [--date YYYY-MM-DD]",
}
"""Each verb and the arguments it takes after it."""


def _words(args: argparse.Namespace, count: int, *, more: bool = False) -> list[str]:
    """The verb's arguments: exactly ``count`` of them (``more``: at least that many)."""
    words: list[str] = args.words
    if len(words) < count or (len(words) > count and not more):
        raise InputError(N_("expected: clubrating %(value)s"), value=USAGE[args.verb])
    return words


def _tournament(club: Any, text: str) -> Any:
    return get_tournament(club, text)


def _entry(tournament: Any, text: str) -> Any:
    """A player of the evening by start number."""

    number = whole_number(text, MAX_PLAYERS)  # never int(): of "²" it raises
    found = Entry.objects.filter(tournament=tournament, number=number).first() if number else None
    if found is None:
        raise NotFound(
            N_("no player number %(text)s in tournament %(id)s"), text=text, id=tournament.id
        )
    return found


def _board(tournament: Any, text: str) -> Any:
    """A board of the round paired last."""

    rnd = Evening.objects.get(tournament=tournament).paired_rounds
    board = whole_number(text, MAX_PLAYERS)
    found = (
        EveningBoard.objects.filter(tournament=tournament, round=rnd, board=board)
        .select_related("white", "black", "game")
        .first()
        if board
        else None
    )
    if found is None:
        raise NotFound(
            N_("no board %(text)s in round %(rnd)s of tournament %(id)s"),
            text=text,
            rnd=rnd,
            id=tournament.id,
        )
    return found


def _start(args: argparse.Namespace, club: Any) -> list[Text]:
    name = " ".join(_words(args, 1, more=True))
    date = zones.today(club.time_zone) if args.date is None else parse_date(args.date)
    keizer_system = args.system.strip().casefold() == "keizer"
    t = evening.start_evening(
        club,
        name,
        date,
        args.rounds or (KEIZER_EVENINGS if keizer_system else "5"),
        who=who(),
        time_control=args.time_control,
        system=args.system,
        keizer_settings=_settings(args.keizer or []),
    )
    return [
        Text(
            N_(
                "started '%(name)s': tournament %(id)s; register the players: "
                "clubrating evening register %(id)s NAME"
            ),
            name=t.name,
            id=t.id,
        )
    ]


def _settings(words: list[str]) -> dict[str, str]:
    """``--keizer KEY=VALUE`` options as a mapping (checked by the service)."""
    settings = {}
    for word in words:
        key, sign, value = word.partition("=")
        if not sign:
            raise InputError(N_("--keizer %(text)s: expected KEY=VALUE"), text=repr(word))
        settings[key.strip().casefold()] = value
    return settings


def _mark(args: argparse.Namespace, club: Any) -> list[Any]:
    words = _words(args, 3, more=True)
    t = _tournament(club, words[0])
    attendance = keizer.Attendance.parse(words[1])
    return [keizer.mark(_entry(t, number), attendance, who=who()) for number in words[2:]]


def _next(args: argparse.Namespace, club: Any) -> list[Any]:
    words = _words(args, 2, more=True)
    previous = _tournament(club, words[0])
    date = zones.today(club.time_zone) if args.date is None else parse_date(args.date)
    t = keizer.continue_season(previous, " ".join(words[1:]), date, who=who())
    return [
        Text(
            N_("started '%(name)s': tournament %(id)s, the season's next evening"),
            name=t.name,
            id=t.id,
        )
    ]


def _register(args: argparse.Namespace, club: Any) -> list[Text]:
    words = _words(args, 2, more=True)
    t = _tournament(club, words[0])
    lines: list[Text] = []
    for name in words[1:]:
        e = evening.register(t, name, who=who())
        lines.append(
            Text(
                N_("registered '%(name)s' as number %(number)s: member %(member)s (member %(id)s)"),
                name=e.name,
                number=e.number,
                member=e.member.name,
                id=e.member_id,
            )
            if e.member
            else Text(
                N_("registered '%(name)s' as number %(number)s: to link"),
                name=e.name,
                number=e.number,
            )
        )
    return lines


Verb = Callable[[argparse.Namespace, Any], list[Any]]  # what each step did: an Outcome, or a line


def _one(action: Callable[[Any, list[str]], Any], count: int) -> Verb:
    """A verb on one tournament (the first argument) and ``count - 1`` more arguments."""

    def run(args: argparse.Namespace, club: Any) -> list[str]:
        words = _words(args, count)
        return [action(_tournament(club, words[0]), words[1:])]

    return run


def _show(args: argparse.Namespace, club: Any) -> list[Text | str]:
    t = _tournament(club, _words(args, 1)[0])
    ev = Evening.objects.get(tournament=t)
    # Texts: the JSON has them in English, the terminal in the command's language
    # ("  %(line)s": an indent)
    lines: list[Text | str] = [
        Text(
            N_("%(name)s: %(system)s, round %(round)s of %(rounds)s paired"),
            name=t.name,
            system=Text(PairingSystem(ev.system).label),
            round=ev.paired_rounds,
            rounds=ev.planned_rounds,
        )
    ]
    for b in EveningBoard.objects.filter(tournament=t, round=ev.paired_rounds).select_related(
        "white", "black", "game"
    ):
        result = game_result_text(b.game) if b.game else "..."
        lines.append(
            Text(
                "  %(line)s",
                line=Text(
                    N_(
                        "board %(board)s: %(white_number)s %(white)s - %(black_number)s "
                        "%(black)s  %(result)s"
                    ),
                    board=b.board,
                    white_number=b.white.number,
                    white=b.white.name,
                    black_number=b.black.number,
                    black=b.black.name,
                    result=result,
                ),
            )
        )
    keizer_season = ev.system == "keizer"
    for bye in Bye.objects.filter(
        tournament=t, round=ev.paired_rounds, kind__in=("U", "Z", " ")
    ).select_related("entry"):
        why = Text(N_("pairing bye")) if bye.kind == "U" else Text(N_("no game"))
        if keizer_season and bye.kind != "U":  # a Keizer season's marks
            why = Text(N_("apologies") if bye.kind == "Z" else N_("absent"))
        lines.append(
            Text(
                "  %(line)s",
                line=Text(
                    N_("no board: %(number)s %(name)s (%(why)s)"),
                    number=bye.entry.number,
                    name=bye.entry.name,
                    why=why,
                ),
            )
        )
    lines.append(Text(N_("standings:")))
    if keizer_season:
        return lines + _keizer_lines(t)
    for row, entry in evening.standings_of(t):
        lines.append(f"  {row.place or '':>3} {entry.name}  {row.points / 2:g}")
    return lines


def _keizer_lines(t: Any) -> list[Text | str]:
    """The Keizer ranking: place, name, Keizer points, value, games played and game points."""

    return [
        Text(
            N_(
                "  %(rank)3s %(name)s  %(score)s (value %(value)s; %(points)s from %(played)s "
                "games)"
            ),
            rank=row.rank,
            name=entry.name,
            score=f"{float(row.score):.2f}",
            value=row.value,
            points=f"{row.points / 2:g}",
            played=row.played,
        )
        for row, entry in keizer.table(t)
    ]


def _verbs(args: argparse.Namespace) -> dict[str, Verb]:
    return {
        "start": _start,
        "register": _register,
        "pair": _one(
            lambda t, _: evening.pair_next_round(
                t, who=who(), numbering=evening.parse_numbering(args.order or "", args.seed or "")
            ),
            1,
        ),
        "show": _show,
        "result": _one(lambda t, w: evening.enter_result(_board(t, w[0]), w[1], who=who()), 3),
        "colours": _one(lambda t, w: pairing_changes.swap_colours(_board(t, w[0]), who=who()), 2),
        "exchange": _one(
            lambda t, w: pairing_changes.exchange_players(
                t, _entry(t, w[0]), _entry(t, w[1]), who=who(), confirm_rematch=args.confirm_rematch
            ),
            3,
        ),
        "repair": _one(lambda t, _: pairing_changes.repair_round(t, who=who()), 1),
        "publish": _one(lambda t, _: evening.publish_evening(t, who=who()), 1),
        "mark": _mark,
        "next": _next,
    }


def cmd_evening(args: argparse.Namespace) -> int:
    writes = args.verb != "show"
    club = the_club(args, write=writes)  # opens the database: the services import after it
    with one_transaction() if writes else contextlib.nullcontext():
        lines = _verbs(args)[args.verb](args, club)
    if wants_json(args):
        print_json({"messages": [str(line) for line in lines]})
    else:
        print(
            "\n".join(
                line if isinstance(line, str) else line.translated(djangoenv) for line in lines
            )
        )
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "evening",
        parents=[common],
        help=verb_help("evening"),
        description=gettext(
            "Tonight's evening paired here, as on the arbiter's pages. Verbs: %(verbs)s."
        )
        % {"verbs": "; ".join(f"clubrating {usage}" for usage in USAGE.values())},
        epilog=examples(
            "clubrating evening start 'Club championship' --date 2026-11-26 --system round-robin; "
            "clubrating evening pair 13 --order lot; clubrating evening pair 13 --order 'Bea "
            "Roth,3,1,2,5'; "
            "clubrating evening colours 13 2; clubrating evening exchange 14 1 2"
        ),
    )
    p.add_argument("verb", choices=tuple(USAGE), help=gettext("what to do (the verbs above)"))
    p.add_argument(
        "words", nargs="*", metavar="ARG", help=gettext("the verb's arguments (see above)")
    )
    p.add_argument(
        "--club", metavar="SLUG", help=gettext("the club (needed when the database holds several)")
    )
    p.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help=gettext("start: the evening's date (default today, in the club's time zone)"),
    )
    p.add_argument(
        "--rounds",
        metavar="N",
        help=gettext(
            "start: a Swiss's number of rounds (default 5; a round robin's are its table's)"
        ),
    )
    p.add_argument(
        "--system",
        default="swiss",
        help=gettext(
            "start: swiss (the default), round-robin, double-round-robin or keizer (a season of "
            "evenings: --rounds is its number of evenings, default 30)"
        ),
    )
    p.add_argument(
        "--keizer",
        action="append",
        metavar="KEY=VALUE",
        help=gettext(
            "start --system keizer: a setting of the season, repeated for each: top (the value "
            "of place 1, or auto), step, own-value (yes/no), apology and bye (fractions of one's "
            "own value, such as 1/3), apology-cap, rematch-gap, rated (season: the season is one "
            "rated tournament; evening: each evening is); see docs/keizer.md"
        ),
    )
    p.add_argument(
        "--time-control",
        default=TimeControl.STANDARD.value,
        choices=[tc.value for tc in TimeControl],
        help=gettext("start: the time control (default standard)"),
    )
    p.add_argument(
        "--order",
        metavar="ORDER",
        help=gettext(
            "pair, round 1 of a round robin: its table numbers by rating (the default, "
            "highest first), lot (a drawing of lots; its seed is printed and audited), numbers "
            "(the order of entry) or a list of every player, table number 1 first, by start "
            "number or name: '3,1,Bea Roth,2'"
        ),
    )
    p.add_argument(
        "--seed",
        metavar="N",
        help=gettext(
            "pair --order lot: draw with this seed (0 to %(most)s), to repeat "
            "a drawing; without it a seed is drawn"
        )
        % {"most": MAX_SEED},
    )
    p.add_argument(
        "--confirm-rematch",
        action="store_true",
        help=gettext(
            "exchange: pair two players who have met already, or give a second pairing bye"
        ),
    )
    p.set_defaults(handler=cmd_evening)
