"""The verbs on the club's history as a whole: rebuild (replay and compare), ratings (the
list), player (a member's lifetime) and audit (who changed what)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clubrating.cli import print_json, wants_json, whole
from clubrating.commands.club import _add, fmt_change, fmt_rating, the_club, who
from clubrating.words import fit, plural

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


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    _add(subparsers, common, "rebuild", cmd_rebuild,
         "replay the whole history and say whether the stored ratings matched (R14)", "clubrating rebuild")

    p = _add(subparsers, common, "ratings", cmd_ratings, "the rating list, provisional players below",
             "clubrating ratings --json")
    p.add_argument("--list", default="standard", help="standard, rapid or blitz (with separate lists)")

    p = _add(subparsers, common, "player", cmd_player, "a member's lifetime history", "clubrating player 'Anna Berg'")
    p.add_argument("member", help="member id, name or any name it is known under")

    p = _add(subparsers, common, "audit", cmd_audit, "the audit log: who changed what, when (newest first)",
             "clubrating audit --page 2 --limit 20")
    p.add_argument("--page", type=whole(1), default=1, help="which page, 1 (the newest) to the last")
    p.add_argument("--limit", type=whole(1), default=50, help="entries a page (default 50)")
