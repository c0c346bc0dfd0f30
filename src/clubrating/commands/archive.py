"""``clubrating export-club`` and ``import-club``: a club's whole history in one portable
file (:mod:`clubrating.club.services.archive`, the format in docs/archive.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from clubrating.djangoenv import gettext
from clubrating.commands.output import examples, open_database, print_json, verb_help, wants_json
from clubrating.commands.club import _add, the_club, who
from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.club.services.archive import export_club
from clubrating.club.services.archive import Arbiters
from clubrating import djangoenv
from clubrating.club.services.archive import import_club


def cmd_export_club(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    rows = export_club(club, Path(args.file))
    if wants_json(args):
        print_json({"club": club.slug, "file": args.file, "rows": rows})
    else:
        print(
            gettext("wrote club '%(name)s' (%(slug)s) to %(file)s: %(rows)s rows")
            % {"name": club.name, "slug": club.slug, "file": args.file, "rows": rows}
        )
    return 0


def arbiters_option(given: list[list[str]] | None) -> Any:
    """``--arbiters invite`` and ``--arbiters link LOGIN...``, each given once or not at all."""

    invite, link = False, set()
    for words in given or ():
        if words == ["invite"]:
            invite = True
        elif words[0] == "link" and len(words) > 1:
            link.update(words[1:])
        else:
            raise InputError(
                N_("--arbiters %(words)s: expected --arbiters invite or --arbiters link LOGIN..."),
                words=" ".join(words)[:80],
            )
    return Arbiters(invite=invite, link=frozenset(link))


def cmd_import_club(args: argparse.Namespace) -> int:
    open_database(args)

    djangoenv.check_writable()
    report = import_club(Path(args.file), who=who(), arbiters=arbiters_option(args.arbiters))
    club = report.club
    if wants_json(args):
        print_json(
            {
                "club": club.slug,
                "rows": report.rows,
                "new_logins": report.new_logins,
                "existing_logins": report.existing_logins,
                "arbiters_not_made": report.left_out,
            }
        )
    else:
        print("; ".join(line.translated(djangoenv) for line in report.lines))
    print(
        gettext("clubrating import-club: the unlisted link has a new token: %(link)s")
        % {"link": f"/u/{club.token}/"},
        file=sys.stderr,
    )
    for username in report.new_logins:
        print(
            gettext(
                "clubrating import-club: re-invite %(login)s: echo 'new password' | "
                "clubrating arbiter add %(login)s --club %(club)s --password-stdin"
            )
            % {"login": username, "club": club.slug},
            file=sys.stderr,
        )
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "export-club",
        cmd_export_club,
        "clubrating export-club --club riverside riverside.jsonl.gz",
    )
    p.add_argument("file", metavar="FILE", help=gettext("the archive to write"))
    p = subparsers.add_parser(
        "import-club",
        parents=[common],
        help=verb_help("import-club"),
        description=gettext(
            "Load an archive written by export-club into this database (SQLite or "
            "PostgreSQL), with new ids; refused if a club of the same short name is "
            "here, or if any value is not one clubrating writes. The unlisted link "
            "gets a new token; the archive's arbiters are made only with --arbiters."
        ),
        epilog=examples(
            "clubrating --database postgresql://club@localhost/club import-club riverside.jsonl.gz "
            "--arbiters invite; clubrating import-club riverside.jsonl.gz --arbiters link anna"
        ),
    )
    p.add_argument("file", metavar="FILE", help=gettext("the archive to read"))
    p.add_argument(
        "--arbiters",
        nargs="+",
        action="append",
        metavar=("MODE", "LOGIN"),
        help=gettext(
            "MODE invite: make the archive's arbiters that have no login here, without a "
            "password (re-invited); MODE link LOGIN...: make these existing logins, named by the "
            "archive, arbiters of the club (default: no arbiter is made, the report lists them)"
        ),
    )
    p.set_defaults(handler=cmd_import_club)
