"""The club's verbs: init, import, entries, link, publish ... on a database.

Every verb is a thin translation to :mod:`clubrating.club.services` (writes)
or :mod:`clubrating.club.queries` (reads).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Callable
from typing import Any, cast

from clubrating.cli import option, print_json, wants_json, whole
from clubrating.errors import InputError, Refused
from clubrating.formats.records import MAX_ROUNDS
from clubrating.formats.results import SPELLINGS, GameResult
from clubrating.words import fit, plural

Handler = Callable[[argparse.Namespace], int | None]

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
            continue   # the end of options before a result that no longer needs it
        if word == "--" and following is not None and not following.startswith("-"):
            protected.append(word)
        elif word in DASH_RESULTS:
            protected.append(" " + word)
        else:
            protected.append(word)
    return protected


class ResultArguments(argparse.ArgumentParser):
    """The parser of ``correct``: takes every documented result spelling (``protect_results``)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        return super().parse_known_args(protect_results(list(sys.argv[1:] if args is None else args)),
                                        namespace)


def result_text(text: str) -> str:
    """A result as typed on the command line (any spelling of docs/formats.md), in the services'
    words; what no spelling reads is handed on as typed, for the services to refuse."""
    found = GameResult.find(text)
    return found.value if found is not None else "".join(text.split())


def open_database(args: argparse.Namespace, *, must_exist: bool = False) -> None:
    """Start Django on the chosen database and bring its schema up to date; ``must_exist``: a
    database file that is not there is an error, not created (every command but ``init``)."""
    from clubrating import djangoenv
    djangoenv.setup(option(args, "database", "CLUBRATING_DATABASE_URL", djangoenv.DEFAULT_DATABASE_URL),
                    migrate=True, must_exist=must_exist)


def the_club(args: argparse.Namespace, *, write: bool = True) -> Any:
    """The club the command is about; ``write``: the command changes the database, so a
    read-only one is refused at once, in one line naming the file and why; a database that
    does not exist is not created."""
    open_database(args, must_exist=True)
    from clubrating import djangoenv
    from clubrating.club.services import find_club

    if write:
        djangoenv.check_writable()

    return find_club(getattr(args, "club", None))


def who() -> str:
    from clubrating.club.audit import cli_user

    return cli_user()


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"{text!r} is not a date: expected YYYY-MM-DD") from None


def report(outcome: Any, args: argparse.Namespace, **extra: Any) -> None:
    if wants_json(args):
        doc = {"message": outcome.message, **extra}
        if outcome.rebuild is not None:
            doc["rebuild"] = outcome.rebuild.as_dict()
        print_json(doc)
    else:
        print(outcome)


def fmt_rating(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def fmt_change(value: float | None) -> str:
    return "" if value is None else f"{value:+.1f}"


# --- handlers ------------------------------------------------------------------------------

def cmd_init(args: argparse.Namespace) -> int:
    open_database(args)
    from clubrating import djangoenv

    djangoenv.check_writable()
    from clubrating.club.services import create_club

    club = create_club(args.name, who=who(), slug=args.slug, policy=args.policy, separate_lists=args.separate_lists,
                       time_zone=args.time_zone or "")
    if wants_json(args):
        print_json({"club": club.slug, "name": club.name, "policy": club.policy})
    else:
        print(f"created club '{club.name}' ({club.slug}), policy {club.policy}")
        print(f"who can see it: {club.get_visibility_display().lower()}, once logged in to the website; to show it "
              "to others: clubrating privacy --visibility unlisted (anyone with the link) or --visibility public")
        print(f"add an arbiter: clubrating arbiter add LOGIN --club {club.slug}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services
    from clubrating.files import read_tournament_bytes

    path = args.file
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputError(f"cannot read the file: {error.strerror}", file=path) from None
    record, digest = read_tournament_bytes(data, path)
    try:
        tournament = services.import_tournament(
            club, record, who=who(), content_hash=digest, name=args.name,
            date=parse_date(args.date) if args.date else None, has_juniors=args.juniors, force=args.force)
    except services.SameTournament as twin:
        raise Refused(f"{twin}; --force imports it anyway") from None
    for warning in record.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    linked = services.accept_exact(tournament, who=who()) if args.accept_exact else None
    if wants_json(args):
        print_json({"tournament_id": tournament.id, "name": tournament.name, "date": tournament.date.isoformat(),
                    "players": tournament.entries.count(), "games": tournament.games.count(),
                    "status": tournament.status, "entries": entry_rows(tournament)})
        return 0
    print(f"imported tournament {tournament.id} '{tournament.name}' ({tournament.date}) as a draft: "
          f"{plural(tournament.entries.count(), 'player')}, {plural(tournament.games.count(), 'game')}")
    if linked:
        print(linked)
    print_entries(tournament)
    return 0


def entry_rows(tournament: Any) -> list[dict[str, Any]]:
    from clubrating.club.matching import proposals_for

    return [{"number": e.number, "name": e.name, "member_id": e.member_id,
             "member": e.member.name if e.member else None,
             "proposals": [p.as_dict() for p in proposals]}
            for e, proposals in proposals_for(tournament)]


def print_entries(tournament: Any) -> None:
    rows = entry_rows(tournament)
    unlinked = sum(1 for r in rows if r["member_id"] is None)
    for r in rows:
        if r["member_id"] is not None:
            print(f"  {r['number']:>4}  {fit(r['name'], 32)} = {r['member']} (member {r['member_id']})")
            continue
        shown = "; ".join(f"{p['member']} (member {p['member_id']}, {p['score']:.0f}: {', '.join(p['reasons'])})"
                          for p in r["proposals"]) or "no member looks like this name"
        print(f"  {r['number']:>4}  {fit(r['name'], 32)} ? {shown}")
    if unlinked:
        print(f"{plural(unlinked, 'name')} to confirm: clubrating link {tournament.id} NUMBER MEMBER, or with "
              "--new NUMBER, --exact or --all-new")
    else:
        print(_all_linked(tournament))


def _all_linked(tournament: Any) -> str:
    """What to do next once every name is linked: publish a draft; a published one is rated already."""
    from clubrating.club.models import TournamentStatus

    if tournament.status == TournamentStatus.DRAFT:
        return f"every name is linked: clubrating publish {tournament.id}"
    return "every name is linked"


def cmd_entries(args: argparse.Namespace) -> int:
    if args.tournament == "initial":   # the club's initial list (commands/initial_list.py)
        from clubrating.commands.initial_list import cmd_entries_initial
        return cmd_entries_initial(args)
    club = the_club(args, write=False)
    from clubrating.club.services import get_tournament

    tournament = get_tournament(club, args.tournament)
    if wants_json(args):
        print_json(entry_rows(tournament))
    else:
        print(f"tournament {tournament.id} '{tournament.name}' ({tournament.date}), {tournament.status}")
        print_entries(tournament)
    return 0


def cmd_link(args: argparse.Namespace) -> int:
    if args.tournament == "initial":   # the club's initial list (commands/initial_list.py)
        from clubrating.commands.initial_list import cmd_link_initial
        return cmd_link_initial(args)
    club = the_club(args)
    from clubrating.club import services
    from clubrating.club.models import Entry

    tournament = services.get_tournament(club, args.tournament)
    outcomes = []
    if args.exact:
        outcomes.append(services.accept_exact(tournament, who=who()))
    for number in args.new or ():
        outcomes.append(services.new_member(_entry(tournament, number), who=who()))
    if args.number is not None:
        entry = _entry(tournament, args.number)
        if args.member is None:
            raise InputError("say which member: clubrating link TOURNAMENT NUMBER MEMBER (id, name or alias)")
        if args.member == "-":
            outcomes.append(services.unlink(entry, who=who()))
        else:
            outcomes.append(services.link(entry, services.get_member(club, args.member), who=who()))
    if args.all_new:
        outcomes.append(services.all_new_members(tournament, who=who()))
    if not outcomes:
        raise InputError("nothing to do: give NUMBER MEMBER, --new NUMBER, --exact or --all-new")
    if wants_json(args):
        print_json({"messages": [str(o) for o in outcomes], "entries": entry_rows(tournament)})
    else:
        for outcome in outcomes:
            print(outcome)
        left = Entry.objects.filter(tournament=tournament, member=None).count()
        print(f"{plural(left, 'name')} still to confirm" if left else _all_linked(tournament))
    return 0


def _entry(tournament: Any, number: str) -> Any:
    from clubrating.club.models import Entry
    from clubrating.errors import NotFound

    entry = Entry.objects.filter(tournament=tournament, number=int(number) if str(number).isdigit() else -1).first()
    if entry is None:
        raise NotFound(f"tournament {tournament.id} has no player number {number}")
    return entry


def _tournament_verb(service: str) -> Handler:
    def handler(args: argparse.Namespace) -> int:
        club = the_club(args)
        from clubrating.club import services

        outcome = getattr(services, service)(services.get_tournament(club, args.tournament), who=who())
        report(outcome, args)
        return 0
    return handler


def cmd_correct(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    tournament = services.get_tournament(club, args.tournament)
    game = services.find_game(tournament, args.round, args.player)
    report(services.correct_result(game, result_text(args.result), who=who()), args)
    return 0


def cmd_redate(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    tournament = services.get_tournament(club, args.tournament)
    report(services.change_date(tournament, parse_date(args.date), who=who()), args)
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club.services import check_history

    result = check_history(club, who=who())
    matched = result.changes_differing == 0
    if wants_json(args):
        print_json({**result.as_dict(), "matched": matched})
    else:
        print(result)
        if matched:
            print("the stored ratings matched the replay exactly")
    if not matched:
        print(f"clubrating rebuild: warning: {plural(result.changes_differing, 'stored rating change')} differed from "
              "the replay of the history and were replaced: a rebuild was missed somewhere (R14)",
              file=sys.stderr)
        return 1
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.reads import rating_list

    rows = rating_list(club, args.list)
    if wants_json(args):
        print_json({"club": club.name, "list": args.list, "players": rows})
        return 0
    print(f"{club.name} - {args.list} rating list")
    print(f"{'rank':>4}  {'name':<32} {'rating':>7} {'games':>5}  last played")
    for r in rows:
        rank = f"{r['rank']:>4}" if r["rank"] else "   -"
        mark = "  provisional" if r["provisional"] else ""
        print(f"{rank}  {fit(r['name'], 32)} {r['rating']:>7.1f} {r['games']:>5}  {r['last_played'] or ''}{mark}")
    return 0


def cmd_player(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.reads import player_history
    from clubrating.club.services import get_member

    history = player_history(get_member(club, args.member))
    if wants_json(args):
        print_json(history)
        return 0
    print(f"{history['name']} (member {history['member_id']})")
    for lst, r in history["ratings"].items():
        print(f"  {lst}: {r['rating']:.1f} after {plural(r['games'], 'rated game')}" + (" (provisional)" if r["provisional"] else ""))
    if history["aliases"]:
        print("  also written: " + ", ".join(history["aliases"]))
    print(f"{'date':<10}  {'tournament':<34} {'score':>5} {'rated':>5} {'before':>7} {'after':>7} {'change':>7}")
    if history.get("initial"):
        i = history["initial"]
        print(f"{'':<10}  {'initial list':<34} {'':>5} {'' if i['games'] is None else i['games']:>5} "
              f"{'':>7} {fmt_rating(i['rating']):>7} {'':>7}")
    for t in history["tournaments"]:
        print(f"{t['date']:<10}  {fit(t['tournament'], 34)} {t['score']:>5g} {t['games_rated']:>5} "
              f"{fmt_rating(t['rating_before']):>7} {fmt_rating(t['rating_after']):>7} {fmt_change(t['change']):>7}")
    return 0


NAME_COLUMNS = 30   # wider names are cut with "…" (the JSON has them whole)


def cmd_tournament(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.queries import standings, tournaments
    from clubrating.club.services import get_tournament

    if args.tournament is None:
        rows = tournaments(club)
        if wants_json(args):
            print_json(rows)
            return 0
        print(f"{'id':>5}  {'date':<10}  {'status':<9} {'kind':<8} name")
        for t in rows:
            print(f"{t['tournament_id']:>5}  {t['date']}  {t['status']:<9} {t['kind']:<8} {t['name']}")
        return 0
    table = standings(get_tournament(club, args.tournament))
    if wants_json(args):
        print_json(table)
        return 0
    print(f"{table['name']} ({table['date']}), {table['status']}" + ("" if table["rated"] else ", bughouse: not rated"))
    print(f"{table['ranked_by']}.")
    for line in standings_lines(table):
        print(line.rstrip())
    print("no.: start number; a round's cell: the opponent's no., colour (w or b) and score (1 win, = draw, "
          "0 loss); in ( ): not rated (bye, forfeit, game without a move)")
    return 0


def standings_lines(table: dict[str, Any]) -> list[str]:
    """The standings as aligned columns: place, start number, name, points, one column a round,
    rating before and change. Widths count characters as a terminal shows them (words.fit)."""
    from clubrating.words import display_width

    players = table["players"]
    rounds = sorted({c["round"] for p in players for c in p["rounds"]} | set(range(1, (table["rounds"] or 0) + 1)))
    cells = [{c["round"]: _cell(c) for c in p["rounds"]} for p in players]
    widths = {r: max([len(str(r))] + [len(row.get(r, "")) for row in cells]) for r in rounds}
    name_width = min(NAME_COLUMNS, max([4] + [display_width(p["name"]) for p in players]))
    number_width = max([3] + [len(str(p["number"])) for p in players])
    header = (f"{'place':>5}  {'no.':>{number_width}}  {fit('name', name_width)}  {'points':>6}  "
              + "".join(f"{str(r):<{widths[r]}}  " for r in rounds) + f"{'before':>7} {'change':>7}")
    lines = [header]
    for place, (p, row) in enumerate(zip(players, cells), 1):
        shown_place = p.get("place", place) or "-"   # None: not ranked in the file (withdrawn)
        lines.append(f"{shown_place:>5}  {p['number']:>{number_width}}  {fit(p['name'], name_width)}  "
                     f"{p['points']:>6g}  " + "".join(f"{row.get(r, ''):<{widths[r]}}  " for r in rounds)
                     + f"{fmt_rating(p['rating_before']):>7} {fmt_change(p['change']):>7}")
    return lines


def _cell(cell: dict[str, Any]) -> str:
    score = {1.0: "1", 0.5: "=", 0.0: "0"}.get(cell["score"], str(cell["score"]))
    text = f"{cell['opponent'] or 'bye'}{cell['colour'] or ''}{score}"
    return text if cell["rated"] else f"({text})"


def cmd_audit(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.queries import audit_page

    document = audit_page(club, args.page, args.limit)
    if wants_json(args):
        print_json(document)
        return 0
    total, page, pages = document["total"], document["page"], document["pages"]
    print(f"{club.name}: {plural(total, 'entry')} in the audit log, newest first; page {page} of {pages} "
          f"(times in {document['time_zone']})")
    for a in document["entries"]:
        effect = f"; {a['summary']}" if a["summary"] else ""
        print(f"{a['local']}  {a['who']}: {a['sentence']}{effect}")
    if page < pages:
        print(f"older entries: clubrating audit --page {page + 1}")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(services.merge(services.get_member(club, args.absorbed), services.get_member(club, args.into),
                          who=who()), args)
    return 0


def cmd_duplicates(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)
    from clubrating.club.matching import possible_duplicates

    pairs = possible_duplicates(club, args.min_score)
    if wants_json(args):
        print_json([pair.as_dict() for pair in pairs])
        return 0
    for pair in pairs:
        print(f"{pair.score:5.1f}  {pair.absorbed.name} (member {pair.absorbed.id}) may be "
              f"{pair.into.name} (member {pair.into.id}): {'; '.join(pair.reasons)}")
        print(f"       clubrating merge {pair.absorbed.id} {pair.into.id}   or   "
              f"clubrating distinct {pair.absorbed.id} {pair.into.id}")
    if not pairs:
        print("no two members look like one person")
    return 0


def cmd_distinct(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(services.mark_distinct(services.get_member(club, args.one), services.get_member(club, args.other),
                                  who=who(), undo=args.undo), args)
    return 0


def cmd_unmerge(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    report(services.unmerge(services.get_member(club, args.member), who=who()), args)
    return 0


def cmd_privacy(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    outcome = services.set_privacy(club, who=who(), visibility=args.visibility, names=args.names,
                                   rotate_token=args.rotate_token)
    # The address to share, as the website answers it (web/urls.py): an unlisted club only under its
    # token, a public one under its slug; an arbiter-only club has none (everyone else gets 404).
    link = {"unlisted": f"/u/{club.token}/", "public": f"/c/{club.slug}/"}.get(club.visibility)
    report(outcome, args, visibility=club.visibility, names=club.names, link=link)
    if not wants_json(args) and link is not None:
        print(f"link: {link}")
    return 0


def cmd_member(args: argparse.Namespace) -> int:
    club = the_club(args)
    from clubrating.club import services

    flag = {"yes": True, "no": False, None: None}
    member = services.get_member(club, args.member)
    done = []
    if args.name is not None:
        done.append(services.rename_member(member, args.name, who=who()))
    if args.name is None or args.junior is not None or args.consent is not None:
        done.append(services.set_member_flags(member, who=who(), junior=flag[args.junior],
                                              consent=flag[args.consent]))
    report(services.Outcome("; ".join(o.message for o in done), done[-1].rebuild), args)  # one document
    return 0


# --- registration --------------------------------------------------------------------------

def _add(subparsers: Any, common: argparse.ArgumentParser, name: str, handler: Handler, help: str,
         example: str) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(name, parents=[common], help=help, description=help,
                                   epilog=f"{'Examples' if '; ' in example else 'Example'}: {example}")
    parser.add_argument("--club", metavar="SLUG", help="the club (needed when the database holds several)")
    parser.set_defaults(handler=handler)
    return cast(argparse.ArgumentParser, parser)


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(subparsers, common, "init", cmd_init, "create a club in the database",
             "clubrating init 'Riverside Chess Club'")
    p.add_argument("name")
    p.add_argument("--slug", help="short name used in links")
    p.add_argument("--policy", choices=("club", "fide"), default="club")
    p.add_argument("--separate-lists", action="store_true", help="one rating list per time control")
    p.add_argument("--time-zone", metavar="ZONE",
                   help="the club's time zone, an IANA name such as Asia/Yerevan (default: the server's)")

    p = _add(subparsers, common, "import", cmd_import, "import a tournament file (TRF, PGN, CSV) as a draft",
             "clubrating import 2026-11-27.trf --accept-exact")
    p.add_argument("file")
    p.add_argument("--name", help="the tournament's name (default: from the file)")
    p.add_argument("--date", help="the tournament's date, YYYY-MM-DD (default: from the file)")
    p.add_argument("--juniors", action="store_true", help="under-18 players took part: initials by default")
    p.add_argument("--accept-exact", action="store_true", help="link names that match one member exactly")
    p.add_argument("--force", action="store_true",
                   help="import it even if it looks like a tournament already stored (same date, players "
                        "and results)")

    p = _add(subparsers, common, "entries", cmd_entries, "the names of a tournament with the members they could be",
             "clubrating entries 12   (or: clubrating entries initial, the initial list)")
    p.add_argument("tournament", help="the tournament's number, or 'initial' for the initial list")

    p = _add(subparsers, common, "link", cmd_link, "confirm which member a name is, or make it a new member",
             "clubrating link 12 4 'John Smith'; clubrating link 12 --exact --all-new")
    p.add_argument("tournament", help="the tournament's number, or 'initial' for the initial list")
    p.add_argument("number", nargs="?", help="the player's number in the tournament")
    p.add_argument("member", nargs="?", help="member id, name or any name it is known under ('-' to unlink a draft's name)")
    p.add_argument("--new", action="append", metavar="NUMBER", help="make this name a new member")
    p.add_argument("--exact", action="store_true", help="link every name that matches one member exactly")
    p.add_argument("--all-new", action="store_true", help="make every name still unlinked a new member")

    for name, service, help in (("publish", "publish", "rate a draft tournament and show it"),
                                ("unpublish", "unpublish", "take a tournament back to draft (ratings rebuilt)"),
                                ("delete", "delete_tournament", "delete a tournament (ratings rebuilt)")):
        p = _add(subparsers, common, name, _tournament_verb(service), help, f"clubrating {name} 12")
        p.add_argument("tournament")

    p = _add(subparsers, common, "correct", cmd_correct, "correct a game's result (ratings rebuilt)",
             "clubrating correct 12 3 'Anna Berg' 1/2-1/2; clubrating correct 12 3 4 --")
    p.__class__ = ResultArguments   # argparse builds every verb's parser of one class: this one reads '--'
    p.add_argument("tournament")
    p.add_argument("round", type=whole(1, MAX_ROUNDS), help=f"the round, 1 to {MAX_ROUNDS}")
    p.add_argument("player", help="start number or name of either player (as written in the tournament, "
                                  "or any name of the member it is linked to)")
    p.add_argument("result", help="1-0, 0-1, 1/2-1/2 (or =), +- / -+ (forfeit), -- (double forfeit); "
                                  "also +:- -:+ -:- +/- -/+ -/- (docs/formats.md)")

    p = _add(subparsers, common, "redate", cmd_redate, "change a tournament's date (ratings rebuilt)",
             "clubrating redate 12 2026-11-20")
    p.add_argument("tournament")
    p.add_argument("date")

    _add(subparsers, common, "rebuild", cmd_rebuild,
         "replay the whole history and say whether the stored ratings matched (R14)", "clubrating rebuild")

    p = _add(subparsers, common, "ratings", cmd_ratings, "the rating list, provisional players below",
             "clubrating ratings --json")
    p.add_argument("--list", default="standard", help="standard, rapid or blitz (with separate lists)")

    p = _add(subparsers, common, "player", cmd_player, "a member's lifetime history", "clubrating player 'Anna Berg'")
    p.add_argument("member", help="member id, name or any name it is known under")

    p = _add(subparsers, common, "tournament", cmd_tournament,
             "standings of a tournament (or the list of tournaments)", "clubrating tournament 12")
    p.add_argument("tournament", nargs="?")

    p = _add(subparsers, common, "audit", cmd_audit, "the audit log: who changed what, when (newest first)",
             "clubrating audit --page 2 --limit 20")
    p.add_argument("--page", type=whole(1), default=1, help="which page, 1 (the newest) to the last")
    p.add_argument("--limit", type=whole(1), default=50, help="entries a page (default 50)")

    p = _add(subparsers, common, "merge", cmd_merge, "two members are one person: merge the first into the second",
             "clubrating merge 31 7")
    p.add_argument("absorbed")
    p.add_argument("into")

    p = _add(subparsers, common, "duplicates", cmd_duplicates,
             "members whose names look like one person (proposals to merge, never applied)",
             "clubrating duplicates --min-score 90")
    p.add_argument("--min-score", type=float, default=85.0, metavar="N",
                   help="list pairs whose names score N or more against each other (85-100, default 85)")

    p = _add(subparsers, common, "distinct", cmd_distinct,
             "two members are two people: no longer listed by 'duplicates'", "clubrating distinct 31 7 [--undo]")
    p.add_argument("one")
    p.add_argument("other")
    p.add_argument("--undo", action="store_true", help="take it back: the pair may be listed again")

    p = _add(subparsers, common, "unmerge", cmd_unmerge, "undo a merge", "clubrating unmerge 31")
    p.add_argument("member")

    p = _add(subparsers, common, "privacy", cmd_privacy, "who sees the club page and how names are shown",
             "clubrating privacy --visibility unlisted --names initials")
    p.add_argument("--visibility", choices=("arbiter", "unlisted", "public"))
    p.add_argument("--names", choices=("full", "initials"))
    p.add_argument("--rotate-token", action="store_true", help="give the unlisted link a new token")

    p = _add(subparsers, common, "member", cmd_member, "a member's name, junior flag and full-name consent",
             "clubrating member 7 --junior yes --consent no; clubrating member 7 --name 'John Smith'")
    p.add_argument("member")
    p.add_argument("--name", help="correct the member's name (the spellings typed in tournaments stay)")
    p.add_argument("--junior", choices=("yes", "no"))
    p.add_argument("--consent", choices=("yes", "no"), help="the arbiter recorded consent to show the full name")
