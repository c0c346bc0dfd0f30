"""The verbs that read the club's history as a whole: ratings (the list), player (a member's
lifetime) and audit (who changed what); ``rebuild``, which replays it, is :mod:`.rebuild`."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.commands.output import print_json, wants_json, whole
from clubrating.commands.club import _add, fmt_change, fmt_rating, the_club
from clubrating.commands.values import word
from clubrating.djangoenv import gettext, ngettext, pgettext
from clubrating.words import fit, widths
from clubrating.club.read.players import rating_list
from clubrating.club.read.players import player_history
from clubrating.club.read.members import get_member
from clubrating.club.read.audit_log import audit_page


def cmd_ratings(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    rows = rating_list(club, args.list)
    if wants_json(args):
        print_json({"club": club.name, "list": args.list, "players": rows})
        return 0
    print(gettext("%(club)s - %(list)s rating list") % {"club": club.name, "list": word(args.list)})
    headings = [
        pgettext("rating list", "rank"),
        pgettext("rating list", "name"),
        pgettext("rating list", "rating"),
        pgettext("rating list", "games"),
        pgettext("rating list", "last played"),
    ]
    w = widths(headings, (4, 32, 7, 5, 0))
    print(
        f"{fit(headings[0], w[0], '>')}  {fit(headings[1], w[1])} {fit(headings[2], w[2], '>')} "
        f"{fit(headings[3], w[3], '>')}  {headings[4]}"
    )
    provisional = "  " + gettext("provisional")
    for r in rows:
        rank = str(r["rank"]) if r["rank"] else "-"
        mark, rating = provisional if r["provisional"] else "", f"{r['rating']:.1f}"
        print(
            f"{fit(rank, w[0], '>')}  {fit(r['name'], w[1])} {fit(rating, w[2], '>')} "
            f"{fit(str(r['games']), w[3], '>')}  {r['last_played'] or ''}{mark}"
        )
    return 0


def cmd_player(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    history = player_history(get_member(club, args.member))
    if wants_json(args):
        print_json(history)
        return 0
    print(
        gettext("%(name)s (member %(id)s)") % {"name": history["name"], "id": history["member_id"]}
    )
    for lst, r in history["ratings"].items():
        print(
            f"  {word(lst)}: "
            + ngettext(
                "%(rating)s after %(count)s rated game",
                "%(rating)s after %(count)s rated games",
                r["games"],
            )
            % {"rating": f"{r['rating']:.1f}", "count": r["games"]}
            + (" " + gettext("(provisional)") if r["provisional"] else "")
        )
    if history["aliases"]:
        print(
            "  " + gettext("also written: %(aliases)s") % {"aliases": ", ".join(history["aliases"])}
        )
    headings = [
        pgettext("player history", "date"),
        pgettext("player history", "tournament"),
        pgettext("player history", "score"),
        pgettext("player history", "rated"),
        pgettext("player history", "before"),
        pgettext("player history", "after"),
        pgettext("player history", "change"),
    ]
    w = widths(headings, (10, 34, 5, 5, 7, 7, 7))

    def line(cells: list[str]) -> str:
        return f"{fit(cells[0], w[0])}  {fit(cells[1], w[1])} " + " ".join(
            fit(cell, width, ">") for cell, width in zip(cells[2:], w[2:])
        )

    print(line(headings))
    if history.get("initial"):
        i = history["initial"]
        print(
            line(
                [
                    "",
                    gettext("initial list"),
                    "",
                    "" if i["games"] is None else str(i["games"]),
                    "",
                    fmt_rating(i["rating"]),
                    "",
                ]
            )
        )
    for t in history["tournaments"]:
        print(
            line(
                [
                    str(t["date"]),
                    t["tournament"],
                    f"{t['score']:g}",
                    str(t["games_rated"]),
                    fmt_rating(t["rating_before"]),
                    fmt_rating(t["rating_after"]),
                    fmt_change(t["change"]),
                ]
            )
        )
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    club = the_club(args, write=False)

    document = audit_page(club, args.page, args.limit)
    if wants_json(args):
        print_json(document)
        return 0
    total, page, pages = document["total"], document["page"], document["pages"]
    print(
        ngettext(
            "%(club)s: %(count)s entry in the audit log, newest first; page %(page)s of %(pages)s "
            "(times in %(zone)s)",
            "%(club)s: %(count)s entries in the audit log, newest "
            "first; page %(page)s of %(pages)s (times in %(zone)s)",
            total,
        )
        % {
            "club": club.name,
            "count": total,
            "page": page,
            "pages": pages,
            "zone": document["time_zone"],
        }
    )
    for a in document["entries"]:
        effect = f"; {a['summary_translated']}" if a["summary_translated"] else ""
        print(f"{a['local']}  {a['who_translated']}: {a['sentence']}{effect}")
    if page < pages:
        print(gettext("older entries: clubrating audit --page %(page)s") % {"page": page + 1})
    return 0


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "ratings",
        cmd_ratings,
        "clubrating ratings --json",
    )
    p.add_argument(
        "--list", default="standard", help=gettext("standard, rapid or blitz (with separate lists)")
    )

    p = _add(
        subparsers,
        common,
        "player",
        cmd_player,
        "clubrating player 'Anna Berg'",
    )
    p.add_argument("member", help=gettext("member id, name or any name it is known under"))

    p = _add(
        subparsers,
        common,
        "audit",
        cmd_audit,
        "clubrating audit --page 2 --limit 20",
    )
    p.add_argument(
        "--page", type=whole(1), default=1, help=gettext("which page, 1 (the newest) to the last")
    )
    p.add_argument(
        "--limit", type=whole(1), default=50, help=gettext("entries a page (default 50)")
    )
