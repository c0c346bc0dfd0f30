"""The player card read from the store: the member's history (:mod:`clubrating.club.read.players`)
turned into the pure card's rows, with everybody's standing before each tournament.

The standings come from the stored rating changes (derived data, rebuilt by every
correction): four queries whatever the number of games (the merged members, the
changes of the member and the opponents at the member's tournaments, the earlier changes
of those who have none there, their rows of the initial list). A player
who had no rated game in a tournament (an established player who met only
provisional ones) stands as after the latest earlier change, or as the initial list.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from clubrating.club.read.members import merged_persons
from clubrating.club.store.models import Club, InitialEntry, RatingChange
from clubrating.club.read.policy import policy_for
from clubrating.club.read.players import fetch
from clubrating.rating.card import (
    Before,
    Card,
    CardBye,
    CardGame,
    OwnChange,
    StandingKey,
    build_card,
)
from clubrating.rating.initial import InitialRating, initial_standings
from clubrating.rating.policy import Policy
from clubrating.rating.types import Standing

BUGHOUSE = "bughouse"


def player_card(club: Club, hist: dict[str, Any]) -> tuple[Card, dict[int, int]]:
    """The card of the member of ``hist`` (:func:`reads.player_history`), and member id -> the
    member it stands for now, for every merged member (opponents link to the active one)."""
    me = hist["member_id"]
    roots = merged_persons(club)
    kind = {t["tournament_id"]: t["kind"] for t in hist["tournaments"]}
    day = {t["tournament_id"]: dt.date.fromisoformat(t["date"]) for t in hist["tournaments"]}
    games = [
        CardGame(
            g["tournament_id"],
            day[g["tournament_id"]],
            g["round"],
            g["colour"] if g["colours_known"] else None,
            roots.get(g["opponent_member_id"], g["opponent_member_id"]),
            round(g["score"] * 2),
            g["rated"],
            kind[g["tournament_id"]] != BUGHOUSE,
            g["game_id"],
        )
        for g in hist["games"]
    ]
    byes = [
        CardBye(b["tournament_id"], day[b["tournament_id"]], b["round"], round(b["points"] * 2))
        for b in hist["byes"]
    ]
    changes = [
        OwnChange(
            t["tournament_id"],
            day[t["tournament_id"]],
            t["rating_list"],
            t["rating_before"],
            t["rating_after"],
            t["k"],
            bool(t["provisional_before"]),
        )
        for t in hist["tournaments"]
        if t["rated"]
    ]
    needed = {
        (g.tournament_id, who)
        for g in games
        if g.played and g.rated_event
        for who in (me, g.opponent)
    }
    policy = policy_for(club)
    before = standings_before(club, needed, policy, roots)
    initial = hist["initial"]["rating"] if hist.get("initial") else None
    return build_card(me, games, byes, changes, before, policy, initial), roots


def standings_before(
    club: Club, needed: set[StandingKey], policy: Policy, roots: dict[int, int] | None = None
) -> dict[StandingKey, Before]:
    """Each (tournament, member)'s standing before the tournament: the stored change's
    ``rating_before``, else the latest earlier change on the tournament's list, else the
    initial list, else new (R3). Three queries whatever the number of games."""
    if not needed:
        return {}
    members = sorted({m for _, m in needed})
    rows = fetch(
        RatingChange.objects.filter(
            tournament_id__in=sorted({t for t, _ in needed}), member_id__in=members
        )
        .order_by()
        .values_list(
            "tournament_id",
            "member_id",
            "rating_list",
            "rating_before",
            "provisional_before",
            "tournament__date",
            "tournament__sequence",
        )
    )
    found = {
        (t, m): Before(before, bool(p)) for t, m, _, before, p, _, _ in rows if (t, m) in needed
    }
    key = {
        t: ((_day(d), seq, t), lst) for t, _, lst, _, _, d, seq in rows
    }  # a played game rates a side
    missing = needed - found.keys()
    latest = max((key[t][0] for t, _ in missing if t in key), default=None)
    earlier = fetch(
        RatingChange.objects.filter(  # always run: the same queries whatever the data
            member_id__in=sorted({m for _, m in missing}) or [-1],
            tournament__club_id=club.id,
            tournament__date__lte=latest[0] if latest else dt.date.min,
        )
        .order_by("tournament__date", "tournament__sequence", "tournament_id")
        .values_list(
            "member_id",
            "rating_list",
            "rating_after",
            "games_before",
            "games_rated",
            "tournament__date",
            "tournament__sequence",
            "tournament_id",
        )
    )
    initial = _initial(members, roots or {}, policy)
    for t, m in missing:
        at, lst = key.get(t, ((dt.date.max, 0, t), "standard"))
        held = [
            Standing(after, games + rated)
            for who, held_list, after, games, rated, d, seq, tid in earlier
            if who == m and held_list == lst and (_day(d), seq, tid) < at
        ]
        standing = held[-1] if held else initial.get(m, policy.new_standing())
        found[(t, m)] = Before(standing.rating, policy.is_provisional(standing))
    return found


def _day(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)


def _initial(members: list[int], roots: dict[int, int], policy: Policy) -> dict[int, Standing]:
    """The initial list's standing of each of ``members`` (a merged member's row counts for the
    member it was merged into; of two rows of one person, the first)."""
    ids = members + [m for m, root in roots.items() if root in set(members)]
    rows = fetch(
        InitialEntry.objects.filter(member_id__in=ids)
        .order_by("number")
        .values_list("member_id", "rating", "games")
    )
    return initial_standings((InitialRating(roots.get(m, m), r, g) for m, r, g in rows), policy)
