"""Coach by CPI for a club member (spec C6): the weakest factor over the member's
analysed games and exercises from the member's own latest games.

Thin shell over the pure :mod:`clubrating.cpi.coach`: it reads the member's
ledger (the factors of every analysed game, already resolved through merges by
the ledger rebuild: a merged member's games are the surviving member's rows),
the stored facts of the latest games, and the club's averages, in a fixed
number of queries whatever the number of games.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Avg, BooleanField, ExpressionWrapper, FloatField, Max, Q
from django.db.models import Count as Rows
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from clubrating.analysis.see import exchange
from clubrating.club.derived.ledger import (
    RESULTS,
    club_preset,
    club_weights,
    playing_strength,
    stored_player_factors,
    weakest_of,
)
from clubrating.club.store.models import Club, CpiEntry, GameAnalysis, Lineage, Member
from clubrating.cpi.coach import (
    DEFAULT_LIMIT,
    FACTOR_NAMES,
    FACTORS,
    CoachGame,
    choose_exercises,
    factor_averages,
)
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.registry import COUNTS, SHARES
from clubrating.errors import InputError
from clubrating.words import N_

COACH_GAMES = (
    40  # ours: exercises come from the latest 40 analysed games (current form; bounds the cost)
)
MAX_LIMIT = 100  # ours: a worksheet, not a database dump
CLUB_AVERAGES_SECONDS = 3600  # the key changes with the ledger, so this only bounds memory use


def parse_factor(text: str) -> str:
    """``b1`` -> ``B1``, ``br`` -> ``Br``; anything else is an input error."""
    by_folded = {name.casefold(): name for name in FACTORS}
    name = by_folded.get(text.strip().casefold())
    if name is None:
        raise InputError(
            N_("unknown factor %(text)s: expected one of %(factors)s"),
            text=repr(text),
            factors=", ".join(FACTORS),
        )
    return name


def _means() -> dict[str, Any]:
    """Aggregates of ledger rows: each factor's mean (share factors where available, H and Br
    per game)."""

    def available(name: str) -> Q:
        return Q(**{f"factors__factors__{name}__available": True})

    # SQLite's KT gives the text 'null' for a JSON null, which CAST reads as 0: hence the filter.
    means: dict[str, Any] = {
        name: Avg(
            Cast(KT(f"factors__factors__{name}__value"), FloatField()), filter=available(name)
        )
        for name in SHARES
    }
    means.update(
        {name: Avg(Cast(KT(f"factors__factors__{name}__count"), FloatField())) for name in COUNTS}
    )
    return means


def club_averages(club: Club) -> dict[str, float | None]:
    """Each factor's mean over every analysed game of the club's members, computed by the
    database and kept in Django's cache while the club's ledger rows stay the same (a rewrite
    of the ledger inserts new rows with new ids, a deletion lowers the count; a restore takes
    ids back, and draws a new lineage token: models.Lineage): one query on a cache hit, two on
    a miss."""
    rows = CpiEntry.objects.filter(member__club=club)
    shape = rows.aggregate(last=Max("id"), rows=Rows("id"), lineage=Max(RawSQL(Lineage.sql(), ())))
    key = (
        f"clubrating.coach.club-averages:{shape['lineage']}:{club.id}:{shape['last']}:"
        f"{shape['rows']}"
    )
    found = cache.get(key)
    if found is None:
        found = rows.aggregate(**_means()) if shape["rows"] else {name: None for name in FACTORS}
        cache.set(key, found, CLUB_AVERAGES_SECONDS)
    return {name: found[name] for name in FACTORS}


def cpi_brief(member: Member, club: Club | None = None) -> dict[str, Any] | None:
    """For the member's page: the current CPI, the games analysed, whether the CPI is the
    spec's running sum (``running``) or else how the member plays (``strength``,
    :func:`clubrating.club.derived.ledger.playing_strength`), and the weakest factor
    (:func:`clubrating.cpi.coach.weakest_factor` over every analysed game); None before the
    first analysed game. One query (two without ``club``)."""
    rows = [
        {
            "cpi_after": after,
            "factors": (shown or {}).get("factors", {}),
            "game_score": (shown or {}).get("score", delta),
            "date": date,
        }
        for after, shown, delta, date in CpiEntry.objects.filter(member=member)
        .order_by("ordinal")
        .values_list("cpi_after", "factors", "delta", "game__tournament__date")
    ]
    if not rows:
        return None
    club = club or Club.objects.get(id=member.club_id)
    weights = club_weights(club)
    return {
        "cpi": rows[-1]["cpi_after"],
        "games": len(rows),
        "running": not weights.model.windowed,
        "strength": playing_strength(rows, weights, club_preset(club)),
        "weakest": weakest_of([row["factors"] for row in rows], weights),
    }


def _coach_games(rows: Sequence[tuple[Any, ...]], recent: int) -> list[CoachGame]:
    """The latest analysed games (rows newest first) with their stored facts and the club's
    result."""
    latest = {row[0]: row for row in rows[:recent]}
    facts = dict(
        GameAnalysis.objects.filter(game_id__in=list(latest)).values_list("game_id", "facts")
    )
    games = []
    for game_id, row in latest.items():
        if game_id in facts:
            stored = GameFacts.from_dict(facts[game_id])
            result = RESULTS.get((row[4], row[5]), stored.result)
            games.append(
                CoachGame(
                    game_id, Color(row[1]), dataclasses.replace(stored, result=result), row[3]
                )
            )
    return games


ROW_FIELDS = (
    "game_id",
    "color",
    "factors",
    "game__tournament__date",
    "game__white_points",
    "game__black_points",
    "game__tournament__name",
    "game__tournament_id",
)


def exercises_for(
    member: Member, limit: int = DEFAULT_LIMIT, factor: str | None = None, recent: int = COACH_GAMES
) -> dict[str, Any]:
    """The member's weakest factor (over every analysed game), its average beside the club's,
    and up to ``limit`` exercises for it (or for ``factor``) from the ``recent`` latest games.
    Four or five queries whatever the number of games (the club's averages come from a cache
    while the ledger is unchanged; one more query per merge level of a merged member)."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(
            N_("the number of exercises must be between 1 and %(most)s, not %(limit)s"),
            most=MAX_LIMIT,
            limit=limit,
        )
    wanted = parse_factor(factor) if factor else None
    member = member.active()
    club = Club.objects.get(id=member.club_id)
    rows = list(
        CpiEntry.objects.filter(member=member)
        .order_by("-ordinal")
        .values_list(
            *ROW_FIELDS, ExpressionWrapper(~Q(game__moves=""), output_field=BooleanField())
        )
    )
    shown = [(row[2] or {}).get("factors", {}) for row in rows]
    averages = factor_averages([stored_player_factors(factors) for factors in shown])
    weights = club_weights(club)
    weakest = weakest_of(shown, weights)
    chosen = wanted or (weakest["factor"] if weakest else None)
    games = _coach_games(rows, recent) if chosen else []
    exercises = choose_exercises(games, chosen, limit, exchange) if chosen else ()
    club_means = club_averages(club) if rows else {name: None for name in FACTORS}
    tournaments = {row[0]: (row[6], row[7], row[8]) for row in rows}
    return {
        "member_id": member.id,
        "name": member.name,
        "games": len(rows),
        "games_coached": len(games),
        "averages": {
            name: {
                "average": a.average,
                "available": a.available,
                "games": a.games,
                "club_average": club_means[name],
                "label": FACTOR_NAMES[name],
            }
            for name, a in averages.items()
        },
        "weakest": None
        if weakest is None
        else {**weakest, "club_average": club_means[weakest["factor"]]},
        "factor": chosen,
        "label": FACTOR_NAMES[chosen] if chosen else None,
        "exercises": [
            {
                **e.to_dict(),
                "tournament": tournaments[e.game_id][0],
                "tournament_id": tournaments[e.game_id][1],
                "has_moves": tournaments[e.game_id][2],
            }
            for e in exercises
        ],
    }
