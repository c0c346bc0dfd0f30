"""A fair-play signal for the arbiter (spec C7, "anti-cheat"): how far the quality
of each member's recent games stands above what their club rating predicts.

Never an automatic action and never shown to members: the arbiter reads it as one reason to
look closer, beside everything else they know. The quality is ΔCPI under the club's fitted
settings, which is mostly engine agreement (B1) and centipawn loss (E); the prediction is the
fit's measurement model, ΔCPI = α + β·Elo with noise σ per game, evaluated at the member's
club rating. So z = (mean ΔCPI of the last n games − (α + β·rating)) / sqrt(σ²/n + (β·floor)²).

Caveat the output repeats: the club rating is the club's own scale, not the fitted pool's;
a club whose ratings sit far from the pool's (a new club's 1200s) shifts every z alike, so
read the order and the outliers, not the absolute value.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from clubrating.club.derived.ledger import club_preset, club_weights
from clubrating.club.store.models import Club, CpiEntry
from clubrating.club.read.players import rating_list
from clubrating.errors import InputError, Refused
from clubrating.words import N_, Nn_

RECENT_GAMES = 10  # ours: the window of the dashboard's "plays like"
MIN_GAMES = 5  # ours: fewer games make a z of noise
Z_LOOK_CLOSER = 2.5  # ours: about 1 player in 160 by chance alone under a normal model


def fair_play(club: Club, recent: int = RECENT_GAMES, min_games: int = MIN_GAMES) -> dict[str, Any]:
    """Every member with at least ``min_games`` analysed games: the mean ΔCPI, engine agreement
    and accuracy of their last ``recent`` games, what their rating predicts and the z-score,
    highest z first."""
    if recent < min_games:
        raise InputError(
            Nn_(
                "the latest %(count)d game is too few for a z-score: at least %(least)d",
                "the latest %(count)d games are too few for a z-score: at least %(least)d",
            ),
            count=recent,
            least=min_games,
        )
    weights = club_weights(club)
    elo = weights.model.elo_map
    if elo is None:
        raise Refused(
            N_(
                "the club's CPI settings (preset %(preset)s) have no Elo map "
                "to predict game quality from a rating: choose a fitted preset "
                "(the settings page, or clubrating cpi-weights --preset)"
            ),
            preset=repr(club_preset(club)),
        )
    ratings = {row["member_id"]: row for row in rating_list(club)}
    games: dict[int, list[dict[str, Any]]] = {}
    for member_id, delta, shown in (
        CpiEntry.objects.filter(member__club=club, member__merged_into=None)
        .order_by("member_id", "-ordinal")
        .values_list("member_id", "delta", "factors")
    ):
        mine = games.setdefault(member_id, [])
        if len(mine) < recent:
            # the game's score (C1's sum, what the measurement model predicts), not the ledger's
            # ΔCPI
            mine.append({**(shown or {}), "delta": (shown or {}).get("score", delta)})
    rows = [
        _row(ratings[m], mine, elo.alpha, elo.beta, elo.sigma, elo.floor)
        for m, mine in games.items()
        if m in ratings and len(mine) >= min_games
    ]
    rows.sort(key=lambda r: (-r["z"], r["name"]))
    return {
        "preset": club_preset(club),
        "recent_games": recent,
        "look_closer_at_z": Z_LOOK_CLOSER,
        "members": rows,
    }


def _row(
    rating: dict[str, Any],
    mine: list[dict[str, Any]],
    alpha: float,
    beta: float,
    sigma: float,
    floor: float,
) -> dict[str, Any]:
    n = len(mine)
    mean = statistics.fmean(g["delta"] for g in mine)
    expected = alpha + beta * rating["rating"]
    z = (mean - expected) / math.sqrt(sigma**2 / n + (beta * floor) ** 2)
    agreement = [
        g["factors"]["B1"]["value"]
        for g in mine
        if g.get("factors", {}).get("B1", {}).get("available")
    ]
    accuracy = [g["accuracy"] for g in mine if g.get("accuracy") is not None]
    loss = [
        g["acpl"] for g in mine if g.get("acpl") is not None
    ]  # mean centipawn loss of each game
    return {
        "member_id": rating["member_id"],
        "name": rating["name"],
        "rating": rating["rating"],
        "games": n,
        "mean_delta": round(mean, 2),
        "expected_delta": round(expected, 2),
        "z": round(z, 2),
        "engine_agreement": round(statistics.fmean(agreement), 3) if agreement else None,
        "accuracy": round(statistics.fmean(accuracy), 1) if accuracy else None,
        "acpl": round(statistics.fmean(loss), 1) if loss else None,
        "look_closer": z >= Z_LOOK_CLOSER,
    }
