"""The verbs on a club's tournaments: import, publish, unpublish, delete, correct, redate
and tournament (the standings, or the list)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clubrating.club.read.tournaments import get_tournament
from clubrating.club.services.names import accept_exact
from clubrating.club.services import tournaments as tournament_services
from clubrating.club.services.tournaments import (
    SameTournament,
    change_date,
    correct_result,
    find_game,
    import_tournament,
)
from clubrating import djangoenv
from clubrating.djangoenv import gettext, ngettext, pgettext
from clubrating.commands.output import print_json, wants_json, whole
from clubrating.commands.club import (
    Handler,
    _add,
    fmt_change,
    fmt_rating,
    one_transaction,
    parse_date,
    report,
    the_club,
    who,
)
from clubrating.commands.entries import entry_rows, print_entries
from clubrating.errors import InputError, Refused
from clubrating.formats.records import MAX_ROUNDS
from clubrating.formats.results import SPELLINGS, GameResult
from clubrating.commands.values import word
from clubrating.words import N_, fit, widths
from clubrating.files import read_tournament_bytes
from clubrating.club.read.tournaments import standings, tournaments
from clubrating.tournament.standings import RANKED_AS_WRITTEN, RANKED_BY_POINTS
from clubrating.words import display_width

# Results that begin with '-', which argparse takes for an option or for its '--': every
# such spelling GameResult reads (docs/formats.md's -- -+ -:+ -:- -/+ -/-).
DASH_RESULTS = frozenset(spelling for spelling in SPELLINGS if spelling.startswith("-"))


def protect_results(args: list[str]) -> list[str]:
    """``correct``'s arguments with a result such as ``--`` or ``-+`` marked as a positional
    (a leading space: argparse reads a word that starts with one as no option). A ``--``
    followed by another such result is dropped (``-- --`` is a double forfeit and options may
    follow), one followed by a word that is no option stays argparse's end of options
    (``-- 12 3 Anna 1-0``)."""
    protected = []
    for index, word in enumerate(args):
        following = args[index + 1] if index + 1 < len(args) else None
        if word == "--" and following in DASH_RESULTS:
            continue  # the end of options before a result that no longer needs it
        if word == "--" and following is not None and not following.startswith("-"):
            protected.append(word)
        elif word in DASH_RESULTS:
            protected.append(" " + word)
        else:
            protected.append(word)
    return protected


def result_text(text: str) -> str:
    """A result as typed on the command line (any spelling of docs/formats.md), in the services'
    words; what no spelling reads is handed on as typed, for the services to refuse."""
    found = GameResult.find(text)
    return found.value if found is not None else "".join(text.split())


def cmd_import(args: argparse.Namespace) -> int:
    club = the_club(args)

    path = args.file
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputError(
            N_("cannot read the file: %(strerror)s"), file=path, strerror=error.strerror
        ) from None
    record, digest = read_tournament_bytes(data, path)
    try:
        with one_transaction():
            tournament = import_tournament(
                club,
                record,
                who=who(),
                content_hash=digest,
                name=args.name,
                date=parse_date(args.date) if args.date else None,
                has_juniors=args.juniors,
                force=args.force,
            )
            linked = accept_exact(tournament, who=who()) if args.accept_exact else None
    except SameTournament as twin:
        raise Refused(N_("%(twin)s; --force imports it anyway"), twin=twin) from None
    for warning in record.warnings:
        said = warning.translated(djangoenv)
        print(gettext("warning: %(warning)s") % {"warning": said}, file=sys.stderr)
    if wants_json(args):
        print_json(
            {
                "tournament_id": tournament.id,
                "name": tournament.name,
                "date": tournament.date.isoformat(),
                "players": tournament.entries.count(),
                "games": tournament.games.count(),
                "status": tournament.status,
                "entries": entry_rows(tournament),
            }
        )
        return 0
    players, games = tournament.entries.count(), tournament.games.count()
    print(
        gettext(
            "imported tournament %(id)s '%(name)s' (%(date)s) as a draft: %(players)s, %(games)s"
        )
        % {
            "id": tournament.id,
            "name": tournament.name,
            "date": tournament.date,
            "players": ngettext("%(count)s player", "%(count)s players", players)
            % {"count": players},
            "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
        }
    )
    if linked:
        print(linked.translated(djangoenv))
    print_entries(tournament)
    return 0


def _tournament_verb(service: str) -> Handler:
    def handler(args: argparse.Namespace) -> int:
        club = the_club(args)

        outcome = getattr(tournament_services, service)(
            get_tournament(club, args.tournament), who=who()
        )
        report(outcome, args)
        return 0

    return handler


def cmd_correct(args: argparse.Namespace) -> int:
    club = the_club(args)

    tournament = get_tournament(club, args.tournament)
    game = find_game(tournament, args.round, args.player)
    report(correct_result(game, result_text(args.result), who=who()), args)
    return 0


def cmd_redate(args: argparse.Namespace) -> int:
    club = the_club(args)

    tournament = get_tournament(club, args.tournament)
    report(change_date(tournament, parse_date(args.date), who=who()), args)
    return 0


NAME_COLUMNS = 30  # wider names are cut with "…" (the JSON has them whole)


def cmd_tournament(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    if args.tournament is None:
        rows = tournaments(club)
        if wants_json(args):
            print_json(rows)
            return 0
        headings = [
            pgettext("tournament list", "id"),
            pgettext("tournament list", "date"),
            pgettext("tournament list", "status"),
            pgettext("tournament list", "kind"),
            pgettext("tournament list", "name"),
        ]
        w = widths(headings, (5, 10, 9, 8, 0))
        print(
            f"{fit(headings[0], w[0], '>')}  {fit(headings[1], w[1])}  {fit(headings[2], w[2])} "
            f"{fit(headings[3], w[3])} {headings[4]}"
        )
        for t in rows:  # the status and kind in words; the JSON has them as stored
            print(
                f"{fit(str(t['tournament_id']), w[0], '>')}  {fit(str(t['date']), w[1])}  "
                f"{fit(word(t['status']), w[2])} {fit(word(t['kind']), w[3])} {t['name']}"
            )
        return 0
    table = standings(get_tournament(club, args.tournament))
    if wants_json(args):
        print_json(table)
        return 0
    print(
        f"{table['name']} ({table['date']}), {word(table['status'])}"
        + ("" if table["rated"] else gettext(", bughouse: not rated"))
    )
    print(f"{ranked_by(table)}.")
    for line in standings_lines(table):
        print(line.rstrip())
    print(
        gettext(
            "no.: start number; a round's cell: the opponent's no., colour (w or b) and score "
            "(1 win, = draw, 0 loss); in ( ): not rated (bye, forfeit, game without a move)"
        )
    )
    for line in team_lines(table) + difference_lines(table):
        print(line)
    return 0


def ranked_by(table: dict[str, Any]) -> str:
    """The rule that ranked the table, with why the file's ranks were not used, translated."""

    if table["rule"] == "written":
        return gettext(RANKED_AS_WRITTEN)
    words = gettext(RANKED_BY_POINTS) % {
        "tiebreaks": ", ".join(gettext(t["name"]) for t in table["tiebreaks"])
    }
    why = table["ranking_why"]
    return words + (f" ({gettext(why['template']) % why['values']})" if why else "")


def team_lines(table: dict[str, Any]) -> list[str]:
    """A team event's teams as the file lists them: name, players by board, the sum of their
    points."""
    if not table["teams"]:
        return []
    lines = ["", gettext("Teams (players by board, points):")]
    for number, team in enumerate(table["teams"], 1):
        players = "; ".join(
            f"{board}. {p['name']} {p['points']:g}" for board, p in enumerate(team["players"], 1)
        )
        lines.append(f"{number:>3}  {team['name']}  {team['points']:g}: {players}")
    return lines


def difference_lines(table: dict[str, Any]) -> list[str]:
    """Each player whose points written in the file differ from the results, with the unplayed
    rounds that can explain it, for the arbiter to correct the file or accept it."""
    if not table["differences"]:
        return []
    count = len(table["differences"])
    lines = [
        "",
        ngettext(
            "The standings are the file's points and ranks; for %(count)s player they differ from"
            " the results (written, computed, unplayed rounds):",
            "The standings are the file's points and ranks; for %(count)s players they differ from"
            " the results (written, computed, unplayed rounds):",
            count,
        )
        % {"count": count},
    ]
    for d in table["differences"]:
        rounds = "; ".join(gettext("R%(round)s %(code)s") % c for c in d["rounds"]) or "–"
        lines.append(
            f"{d['number']:>5}  {d['name']}  {d['written']:g}  {d['computed']:g}  {rounds}"
        )
    return lines


def standings_lines(table: dict[str, Any]) -> list[str]:
    """The standings as aligned columns: place, start number, name, points, one column a round,
    rating before and change. Widths count characters as a terminal shows them (words.fit)."""

    players = table["players"]
    rounds = sorted(
        {c["round"] for p in players for c in p["rounds"]}
        | set(range(1, (table["rounds"] or 0) + 1))
    )
    cells = [{c["round"]: _cell(c) for c in p["rounds"]} for p in players]
    widths = {r: max([len(str(r))] + [len(row.get(r, "")) for row in cells]) for r in rounds}
    name_width = min(NAME_COLUMNS, max([4] + [display_width(p["name"]) for p in players]))
    number_width = max([3] + [len(str(p["number"])) for p in players])
    place_h, number_h, name_h = (
        pgettext("standings", "place"),
        pgettext("standings", "no."),
        pgettext("standings", "name"),
    )
    points_h, before_h, change_h = (
        pgettext("standings", "points"),
        pgettext("standings", "before"),
        pgettext("standings", "change"),
    )
    place_w, points_w, before_w, change_w = (
        max(least, display_width(heading))
        for least, heading in ((5, place_h), (6, points_h), (7, before_h), (7, change_h))
    )
    number_width, name_width = (
        max(number_width, display_width(number_h)),
        max(name_width, display_width(name_h)),
    )
    header = (
        f"{fit(place_h, place_w, '>')}  {fit(number_h, number_width, '>')} "
        f" {fit(name_h, name_width)}  {fit(points_h, points_w, '>')}  "
        + "".join(f"{str(r):<{widths[r]}}  " for r in rounds)
        + f"{fit(before_h, before_w, '>')} {fit(change_h, change_w, '>')}"
    )
    lines = [header]
    for place, (p, row) in enumerate(zip(players, cells), 1):
        shown_place = p.get("place", place) or "-"  # None: not ranked in the file (withdrawn)
        lines.append(
            f"{fit(str(shown_place), place_w, '>')}  {fit(str(p['number']), number_width, '>')}  "
            f"{fit(p['name'], name_width)}  {fit(format(p['points'], 'g'), points_w, '>')}  "
            + "".join(f"{row.get(r, ''):<{widths[r]}}  " for r in rounds)
            + f"{fit(fmt_rating(p['rating_before']), before_w, '>')} "
            + fit(fmt_change(p["change"]), change_w, ">")
        )
    return lines


def _cell(cell: dict[str, Any]) -> str:
    score = {1.0: "1", 0.5: "=", 0.0: "0"}.get(cell["score"], str(cell["score"]))
    text = f"{cell['opponent'] or 'bye'}{cell['colour'] or ''}{score}"
    return text if cell["rated"] else f"({text})"


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "import",
        cmd_import,
        "clubrating import 2026-11-27.trf --accept-exact",
    )
    p.add_argument("file", help=gettext("the tournament file (TRF, PGN or CSV)"))
    p.add_argument("--name", help=gettext("the tournament's name (default: from the file)"))
    p.add_argument(
        "--date", help=gettext("the tournament's date, YYYY-MM-DD (default: from the file)")
    )
    p.add_argument(
        "--juniors",
        action="store_true",
        help=gettext("under-18 players took part: initials by default"),
    )
    p.add_argument(
        "--accept-exact",
        action="store_true",
        help=gettext("link names that match one member exactly"),
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=gettext(
            "import it even if it looks like a tournament already stored (same date, players "
            "and results)"
        ),
    )

    for name, service in (
        ("publish", "publish"),
        ("unpublish", "unpublish"),
        ("delete", "delete_tournament"),
    ):
        p = _add(subparsers, common, name, _tournament_verb(service), f"clubrating {name} 12")
        p.add_argument("tournament", help=gettext("the tournament's number"))

    p = _add(
        subparsers,
        common,
        "correct",
        cmd_correct,
        "clubrating correct 12 3 'Anna Berg' 1/2-1/2; clubrating correct 12 3 4 --",
    )
    p.set_defaults(
        prepare_arguments=protect_results
    )  # reads '--', '-+' ... as results (cli.VerbParser)
    p.add_argument("tournament", help=gettext("the tournament's number"))
    p.add_argument(
        "round",
        type=whole(1, MAX_ROUNDS),
        help=gettext("the round, 1 to %(most)s") % {"most": MAX_ROUNDS},
    )
    p.add_argument(
        "player",
        help=gettext(
            "start number or name of either player (as written in the tournament, "
            "or any name of the member it is linked to)"
        ),
    )
    p.add_argument(
        "result",
        help=gettext(
            "1-0, 0-1, 1/2-1/2 (or =), +- / -+ (forfeit), -- (double forfeit); "
            "also +:- -:+ -:- +/- -/+ -/- (docs/formats.md)"
        ),
    )

    p = _add(
        subparsers,
        common,
        "redate",
        cmd_redate,
        "clubrating redate 12 2026-11-20",
    )
    p.add_argument("tournament", help=gettext("the tournament's number"))
    p.add_argument("date", help=gettext("the new date, YYYY-MM-DD"))

    p = _add(
        subparsers,
        common,
        "tournament",
        cmd_tournament,
        "clubrating tournament 12",
    )
    p.add_argument(
        "tournament",
        nargs="?",
        help=gettext("the tournament's number (none: the list of tournaments)"),
    )
