"""The fitting pipeline of ``clubrating calibrate``, pure: the rated games of one time control
among parsed PGN games, each player-side as its factors and the rating of its ``WhiteElo`` /
``BlackElo`` tag, and the report of a fit (:mod:`.calibrate`): the settings a club loads, the
cross-validation beside the spec's ΔCPI, the simulated careers (C4, C7 of docs/rules.md).
``commands/calibrate.py`` reads the files, runs the engine and prints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from clubrating.cpi.calibrate import (
    FEATURES,
    Side,
    careers,
    settings_of,
    side_values,
    time_control_class,
)
from clubrating.cpi.difficulty import difficulty_values
from clubrating.cpi.factors import FITTED_E, EvalLossForm, eval_loss
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import Weights, score_game
from clubrating.cpi.nested import e_key
from clubrating.cpi.regression import cross_validate, fit
from clubrating.cpi.weights import ScoringModel
from clubrating.errors import InputError
from clubrating.formats.bounds import whole_number
from clubrating.words import N_

if TYPE_CHECKING:
    import chess.pgn

DEFAULT_MIN_PLIES = 20  # ours: a game of fewer than 10 moves each says little of either player
DEFAULT_WINDOW = 10  # "plays like 1750 ± 150 over the last 10 games"


def rating_of(headers: chess.pgn.Headers, tag: str) -> float | None:
    """The rating of a ``WhiteElo`` / ``BlackElo`` tag, None unless a plausible one."""
    rating = whole_number(headers.get(tag, ""), 3500)  # never int(): of "²" it raises
    return float(rating) if rating is not None and rating >= 100 else None


def pick_games(
    games: Iterable[chess.pgn.Game], time_control: str | None
) -> tuple[list[chess.pgn.Game], Counter[str], str]:
    """The rated games of one time control, what was left out and why, and the time control."""
    left_out: Counter[str] = Counter()
    picked: list[chess.pgn.Game] = []
    classes: Counter[str] = Counter()
    for game in games:
        if (
            rating_of(game.headers, "WhiteElo") is None
            or rating_of(game.headers, "BlackElo") is None
        ):
            left_out["without both ratings"] += 1
            continue
        first = next(iter(game.mainline()), None)
        kind = time_control_class(dict(game.headers), first.clock() if first is not None else None)
        if time_control is not None and kind not in (time_control, "unknown"):
            left_out[f"{kind}, not {time_control}"] += 1
            continue
        classes[kind] += 1
        picked.append(game)
    known = sorted(k for k in classes if k != "unknown")
    if time_control is None and len(known) > 1:
        raise InputError(
            N_(
                "games of several time controls (%(controls)s): "
                "fit one at a time with --time-control"
            ),
            controls=", ".join(f"{k} {classes[k]}" for k in known),
        )

    return picked, left_out, time_control or (known[0] if known else "unknown")


# the spec's C1 weights, read once (careers call this ~30,000 times)
SPEC_WEIGHTS = Weights().to_dict()
FITTED_FORM = Weights(model=ScoringModel(e_form=FITTED_E))  # the factors as the fit reads them
SPEC_E_KEY = "E_spec"  # not a feature: the spec's E, for the baseline


def sides_of(
    facts: list[GameFacts],
    min_plies: int,
    e_forms: Sequence[EvalLossForm] = (),
    difficulty: bool = False,
) -> list[Side]:
    """Each scored player-side with its rating; anonymous players ('?') are one group a game.
    ``e_forms``: E read each of these ways too, under :func:`clubrating.cpi.nested.e_key`;
    ``difficulty``: the candidate features of :mod:`clubrating.cpi.difficulty` too."""
    sides = []
    for number, game in enumerate(facts):
        if len(game.plies) < min_plies:
            continue
        scores = score_game(game, FITTED_FORM)
        for color, tag in ((Color.WHITE, "White"), (Color.BLACK, "Black")):
            elo = rating_of(game.headers, f"{tag}Elo")  # type: ignore[arg-type]
            assert elo is not None  # pick_games kept only games with both ratings
            name = game.headers.get(tag, "?").strip()
            group = name if name not in ("", "?") else f"game:{number}"
            band = game.headers.get("Band") or f"{int(elo // 200) * 200}"
            values = side_values(scores[color].factors, game.outcome, color)
            values[SPEC_E_KEY] = eval_loss(game.plies, color).value  # the baseline: the spec's E
            values.update(
                {e_key(form): eval_loss(game.plies, color, form).value for form in e_forms}
            )
            if difficulty:
                values.update(difficulty_values(game.plies, color))
            sides.append(Side(elo, values, group, band, scores[color].factors.acpl))
    return sides


def spec_delta(side: Side) -> float:
    """The spec's ΔCPI of a side (C1 weights, C3's E, unavailable adds 0): the report's
    baseline."""
    values = {**side.values, "E": side.values.get(SPEC_E_KEY, side.values.get("E"))}
    return sum(SPEC_WEIGHTS[name] * (values.get(name) or 0.0) for name in FEATURES)


def calibration_document(
    sides: list[Side],
    *,
    pool: str,
    time_control: str,
    provenance: dict[str, Any],
    folds: int,
    min_plies: int,
    window: int,
) -> dict[str, Any]:
    """The document of ``clubrating calibrate --json``: the fit of ``sides`` and its evidence."""
    model = fit(sides)  # an InputError when the sides cannot be fitted
    report = cross_validate(sides, k=folds, spec_delta=spec_delta)
    return {
        "pool": pool,
        "time_control": time_control,
        "settings": settings_of(model, min_plies=min_plies, window=window, floor=report.floor),
        "provenance": provenance,
        "cross_validation": report.to_dict(),
        "careers": careers(sides, model, spec_delta, window=window),
    }
