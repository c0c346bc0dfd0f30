"""``clubrating monthly``: publish a month's frozen rating list, list the months published, show
one (docs/ratings.md, "Monthly lists")."""

from __future__ import annotations

import argparse
from typing import Any

from clubrating.commands.output import print_json, wants_json
from clubrating.commands.club import _add, fmt_change, fmt_rating, report, the_club, who
from clubrating.commands.values import word
from clubrating.djangoenv import gettext, pgettext
from clubrating.errors import InputError
from clubrating.words import N_, fit, widths
from clubrating.club.read import frozen_lists
from clubrating.club.read.frozen_lists import month_of
from clubrating.club.services.monthly_lists import publish_month
from clubrating.formats import zones
from clubrating.club.derived.frozen_lists import differs_from_replay, live_list, moves


def cmd_monthly(args: argparse.Namespace) -> int:
    if args.action == "publish":
        return _publish(args)
    club = the_club(args, write=False)

    if args.action == "list":
        months = frozen_lists.months(club)
        if wants_json(args):
            print_json({"club": club.slug, "months": months})
        for m in [] if wants_json(args) else months:
            print(f"{m['month']}  {m['day']}  {', '.join(word(name) for name in m['lists'])}")
        if not months and not wants_json(args):
            print(gettext("no monthly list published yet"))
        return 0
    if args.month is None:
        raise InputError(N_("a month is needed, YYYY-MM (clubrating monthly show 2026-12)"))
    frozen = frozen_lists.frozen_list(club, frozen_lists.month_of(args.month), args.list)
    _show(args, frozen)
    return 0


def _publish(args: argparse.Namespace) -> int:
    club = the_club(args)

    month = month_of(args.month) if args.month else zones.today(club.time_zone).replace(day=1)
    outcome = publish_month(club, month, who=who(), rating_list=args.list, replace=args.replace)
    report(outcome, args, month=f"{month:%Y-%m}")
    return 0


def _show(args: argparse.Namespace, frozen: Any) -> None:
    changed = frozen_lists.changes(frozen, frozen_lists.rows(frozen))
    rows = changed["rows"]
    month = f"{frozen.month:%Y-%m}"
    today = live_list(frozen)
    differs = differs_from_replay(frozen, today)
    if wants_json(args):
        print_json(
            {
                "club": frozen.club.slug,
                "month": month,
                "day": frozen.day.isoformat(),
                "list": frozen.rating_list,
                "published_at": frozen.published_at.isoformat(timespec="seconds"),
                "previous": changed["previous"],
                "live_list_differs": differs,
                "players": [
                    {k: v for k, v in r.items() if k not in ("junior", "full_name_consent")}
                    for r in rows
                ],
                "gone": [{"member_id": g["member_id"], "name": g["name"]} for g in changed["gone"]],
                **_since_publication(frozen, today),
            }
        )
        return
    print(
        gettext(
            "%(club)s - the %(list)s list of %(month)s, as it stood at the start of %(list_day)s, "
            "published on %(day)s"
        )
        % {
            "club": frozen.club.name,
            "list": word(frozen.rating_list),
            "month": month,
            "list_day": frozen.day.isoformat(),
            "day": f"{frozen.published_at:%Y-%m-%d}",
        }
    )
    if differs:
        print(gettext("a later change moved the live list of that day; this list stays as it was"))
    _table(rows)
    _print_since_publication(frozen, today)


def _print_since_publication(frozen: Any, today: Any) -> None:
    """The month page's "Since publication" as text: who stands elsewhere on the live list of
    the list's day (published -> live) and the changes since publication that moved them."""
    print()
    print(gettext("Since publication"))
    moved = moves(frozen, today)
    if not moved:
        print(gettext("Nothing moved: the live list of that day is still this one."))
        return
    print(
        gettext(
            "On the live list of the same day, as today's history gives it, these players stand "
            "elsewhere:"
        )
    )
    headings = [
        pgettext("rating list", "name"),
        gettext("Rating: published → live"),
        gettext("Rank: published → live"),
    ]
    w = widths(headings, (32, 0, 0))
    print(f"  {fit(headings[0], w[0])}  {fit(headings[1], w[1], '>')}  {headings[2]}")
    for m in moved:
        rating = f"{fmt_rating(m.rating_then) or '-'} -> {fmt_rating(m.rating_now) or '-'}"
        rank = f"{m.rank_then or '-'} -> {m.rank_now or '-'}"
        print(f"  {fit(m.name, w[0])}  {fit(rating, w[1], '>')}  {rank}")
    corrections = frozen_lists.corrections_since(frozen)
    if corrections:
        print(gettext("Changes made since publication that moved them:"))
    named = frozen_lists.members_named({c["member_id"] for c in corrections if "member_id" in c})
    for c in corrections:
        day = zones.local_text(c["when"], frozen.club.time_zone)[:10]
        what = gettext(frozen_lists.ACTIONS[c["action"]])
        if c.get("tournament") is not None:
            about = f"{c['tournament'].name} ({c['tournament'].date:%Y-%m-%d})"
        elif "member_id" in c:
            about = named.get(c["member_id"], {}).get("name", "")
        else:
            about = c.get("name") or ", ".join(c.get("settings", ()))
        print(f"  {day}: {what}" + (f" - {about}" if about else ""))


def _since_publication(frozen: Any, today: Any) -> dict[str, Any]:
    """Who stands elsewhere on the live list of the list's day, published -> live, and the
    audit entries since publication that moved them (the month page's "Since publication")."""
    moved = moves(frozen, today)
    corrections = frozen_lists.corrections_since(frozen) if moved else []
    return {
        "moved": [
            {
                "member_id": m.member_id,
                "name": m.name,
                "rating_published": m.rating_then,
                "rating_live": m.rating_now,
                "rank_published": m.rank_then,
                "rank_live": m.rank_now,
            }
            for m in moved
        ],
        "moved_by": [
            {
                "action": c["action"],
                "when": c["when"].isoformat(timespec="seconds"),
                **(
                    {"member_id": c["member_id"]}
                    if "member_id" in c
                    else {"settings": c["settings"]}
                    if "settings" in c
                    else {
                        "tournament_id": c["tournament_id"],
                        "tournament": c["name"],
                        "date": c["tournament"].date.isoformat() if c["tournament"] else None,
                    }
                ),
            }
            for c in corrections
        ],
    }


def _table(rows: list[dict[str, Any]]) -> None:
    headings = [
        pgettext("rating list", "rank"),
        pgettext("rating list", "name"),
        pgettext("rating list", "rating"),
        pgettext("rating list", "games"),
        pgettext("monthly list", "change"),
    ]
    w = widths(headings, (4, 32, 7, 5, 0))
    print(
        f"{fit(headings[0], w[0], '>')}  {fit(headings[1], w[1])} {fit(headings[2], w[2], '>')} "
        f"{fit(headings[3], w[3], '>')}  {headings[4]}"
    )
    for r in rows:
        rank = str(r["rank"]) if r["rank"] else "-"
        moved = (
            pgettext("monthly list", "new")
            if r.get("new")
            else fmt_change(r.get("rating_change"))
            if r.get("rating_change")
            else ""
        )
        print(
            f"{fit(rank, w[0], '>')}  {fit(r['name'], w[1])} "
            f"{fit(fmt_rating(r['rating']), w[2], '>')} {fit(str(r['games']), w[3], '>')}  {moved}"
        )


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    p = _add(
        subparsers,
        common,
        "monthly",
        cmd_monthly,
        "clubrating monthly publish 2026-12; clubrating monthly list; "
        "clubrating monthly show 2026-12 --json",
    )
    p.add_argument(
        "action",
        choices=("publish", "list", "show"),
        help=gettext(
            "publish: freeze the lists as they stood at the start of the month's list day (the "
            "club's list-day setting, the 1st by default); list: the months "
            "published; show: one month's list and what changed since the month before"
        ),
    )
    p.add_argument(
        "month",
        nargs="?",
        help=gettext("the month, YYYY-MM (publish: this month by default)"),
    )
    p.add_argument(
        "--list",
        metavar="LIST",
        help=gettext("one rating list only (standard, rapid or blitz with separate lists)"),
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help=gettext(
            "publish: publish a month published already again, from today's history (the "
            "audit log keeps the old figures)"
        ),
    )
