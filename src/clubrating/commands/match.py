"""``clubrating match NAME ...``: which members each typed name could be (R10, R11).

Proposals only: nothing is linked or merged (the arbiter confirms with
``clubrating link``). Against a roster file (one name a line, "Surname,
Given" or "Given Surname") no database is needed; without ``--roster`` the
club's members and their known spellings are read from the database.

A name that cannot be matched (empty, only punctuation, too long) gets a
one-line error on stderr and an entry with no proposals and an ``error``
field; the other names are still answered and the exit status is 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clubrating.commands.output import examples, open_database, print_json, verb_help, wants_json
from clubrating import djangoenv
from clubrating.djangoenv import gettext
from clubrating.errors import InputError
from clubrating.identity import MAX_PROPOSALS
from clubrating.words import N_, display_width, fit
from clubrating.identity.match import Matcher
from clubrating.identity.match import RosterEntry
from clubrating.identity.normalize import normalize_name

if TYPE_CHECKING:
    from clubrating.identity.match import Matcher, Proposal, RosterEntry

SHOWN_NAME = 80  # characters of a typed name echoed in the text output


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "match",
        parents=[common],
        help=verb_help("match"),
        description=gettext(
            "For each name, the members it could be, best first, with a score out of "
            "100 and the reasons in words. Names come from the arguments, from --names "
            "FILE (one a line), or from stdin when neither is given. Matched against "
            "--roster FILE (one name a line, no database) or the club's members. "
            "Nothing is linked: these are proposals for the arbiter."
        ),
        epilog=examples("clubrating match 'J. Smith' 'Aronyan, Levon' --roster members.txt --json"),
    )
    parser.add_argument("name", nargs="*", metavar="NAME", help=gettext("a name as typed"))
    parser.add_argument(
        "--names", metavar="FILE", help=gettext("names to match, one a line ('-' for stdin)")
    )
    parser.add_argument(
        "--roster",
        metavar="FILE",
        help=gettext("match against these names (one a line) instead of the club's members"),
    )
    parser.add_argument(
        "--club", metavar="SLUG", help=gettext("the club (needed when the database holds several)")
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=MAX_PROPOSALS,
        metavar="N",
        help=gettext("at most N proposals a name (1-%(most)s, default %(most)s)")
        % {"most": MAX_PROPOSALS},
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= MAX_PROPOSALS:
        raise InputError(
            N_("--limit must be between 1 and %(MAX_PROPOSALS)s, not %(limit)s"),
            MAX_PROPOSALS=MAX_PROPOSALS,
            limit=args.limit,
        )
    # the matcher (rapidfuzz) when the command runs, not when the parser is built

    names = gather_names(args.name, args.names)
    roster = read_roster(args.roster) if args.roster else club_roster(args)
    if sys.stderr.isatty() and len(roster) > 10_000:
        print(f"indexing {len(roster):,} names ...", file=sys.stderr)
    matcher = Matcher(roster)
    document, failed = match_names(matcher, names, args.limit)
    for entry in document:
        if "error" in entry:
            print(
                gettext("clubrating match: error: %(name)s: %(reason)s")
                % {"name": repr(shown(entry["name"])), "reason": why_not(matcher, entry["name"])},
                file=sys.stderr,
            )
    if wants_json(args):
        print_json(document)
    else:
        print(render(document))
    return 2 if failed else 0


def gather_names(arguments: Sequence[str], names_file: str | None) -> list[str]:
    """Names from the arguments, then the file; stdin when there are neither."""
    names = list(arguments)
    if names_file == "-" or (names_file is None and not names):
        names.extend(line.strip() for line in sys.stdin)
    elif names_file is not None:
        names.extend(line.strip() for line in _read_lines(names_file))
    names = [name for name in names if name]
    if not names:
        raise InputError(
            N_("no names to match: give NAME arguments, --names FILE or names on stdin")
        )
    return names


def _read_lines(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise InputError(N_("no such file"), file=path) from None
    except UnicodeDecodeError as error:
        raise InputError(
            N_("not UTF-8 text (byte %(start)s)"), file=path, start=error.start
        ) from None
    except OSError as error:
        raise InputError(error.strerror or "cannot read", file=path) from None


def read_roster(path: str) -> list[RosterEntry]:
    """One member a line (blank lines and ``#`` comments skipped); the key is the line number."""

    roster = []
    for number, line in enumerate(_read_lines(path), start=1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        try:
            normalize_name(name)
        except InputError as error:
            raise InputError(error.reason, file=path, line=number) from None
        roster.append(RosterEntry(number, name))
    if not roster:
        raise InputError(N_("no names in the roster"), file=path)
    return roster


def club_roster(args: argparse.Namespace) -> list[RosterEntry]:
    """The club's active members with their known spellings, from the database. ``match``
    needs no database with ``--roster``: the club app is imported here, once Django is set up
    (clubrating.commands, ``django=False``)."""
    open_database(args, must_exist=True)
    from clubrating.commands.club import the_club
    from clubrating.club.read.members import member_roster

    club = the_club(args)  # a database without a club says so in one line

    return [RosterEntry(key, name, tuple(aliases)) for key, name, aliases in member_roster(club)]


def why_not(matcher: Matcher, name: str) -> str:
    """Why ``name`` cannot be matched, in the command's language (the JSON keeps it in English)."""
    try:
        matcher.propose(name, limit=1)
    except InputError as error:
        return error.reason.translated(djangoenv)
    return ""


def match_names(
    matcher: Matcher, names: Sequence[str], limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The JSON document of docs/cli.md, and how many names could not be matched."""
    document: list[dict[str, Any]] = []
    failed = 0
    for name in names:
        try:
            proposals = matcher.propose(name, limit=limit)
        except InputError as error:
            failed += 1
            document.append({"name": name, "proposals": [], "error": str(error.reason)})
            continue
        document.append({"name": name, "proposals": [as_json(p) for p in proposals]})
    return document, failed


def as_json(proposal: Proposal) -> dict[str, Any]:
    return {
        "member": proposal.member,
        "score": proposal.score,
        "reasons": list(proposal.reason_words),
    }


def shown(name: str) -> str:
    """A typed name as echoed to the terminal: an absurdly long one is cut (the JSON keeps it
    whole)."""
    return name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME] + "..."


def render(document: Sequence[dict[str, Any]]) -> str:
    """A readable list: each name, then its proposals indented, best first."""
    lines = []
    for entry in document:
        lines.append(shown(entry["name"]))
        if "error" in entry:
            lines.append("  " + gettext("(not matched: %(reason)s)") % {"reason": entry["error"]})
        elif not entry["proposals"]:
            lines.append("  " + gettext("(no proposal: a new member?)"))
        width = max((display_width(p["member"]) for p in entry["proposals"]), default=0)
        for proposal in entry["proposals"]:
            reasons = "; ".join(
                gettext(reason) for reason in proposal["reasons"]
            )  # marked in identity.compare
            lines.append(f"  {proposal['score']:5.1f}  {fit(proposal['member'], width)}  {reasons}")
    return "\n".join(lines)
