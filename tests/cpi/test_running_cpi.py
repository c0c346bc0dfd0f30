"""One coherent CPI under every preset (spec C2): the ledger's CPI after = clamp(CPI before +
ΔCPI, 0, 4000) for every row, a good game raises the CPI and a poor one lowers it, and the
result's part of a game's ΔCPI reads the way a player reads it (a win never lowers it)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import (
    CPI_CEILING,
    CPI_FLOOR,
    PRESETS,
    LedgerGame,
    initial_cpi,
    ledger,
    score_game,
)
from tests.cpi.helpers import game, ply

MOVES = 30  # plies: above every preset's min_plies
BEST = [("a", 20), ("b", 5), ("c", -10)]


def played(number: int, how: str) -> object:
    """Ply ``number``: the engine's first, second or third choice, or a blunder of 400 cp."""
    if how == "blunder":
        return ply(number, "z", BEST, -400)
    return ply(number, {"first": "a", "second": "b", "third": "c"}[how], BEST)


def facts(moves: list[str], result: str) -> GameFacts:
    return game([played(n, how) for n, how in enumerate(moves, 1)], result)  # type: ignore[misc]


HOW = st.sampled_from(["first", "second", "third", "blunder"])
GAMES = st.lists(
    st.tuples(
        st.sampled_from("abc"),
        st.sampled_from("abc"),
        st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
        st.lists(HOW, min_size=MOVES, max_size=MOVES),
    ),
    min_size=1,
    max_size=10,
)


@pytest.mark.parametrize("name", sorted(PRESETS))
@settings(max_examples=40, deadline=None)
@given(games=GAMES)
def test_every_ledger_row_is_before_plus_delta_clamped_under_every_preset(name: str, games) -> None:
    weights = PRESETS[name]
    history = [
        LedgerGame(i, white, black, facts(moves, result))
        for i, (white, black, result, moves) in enumerate(games)
    ]
    last: dict[str, float] = {}
    for entry in ledger(history, weights):
        assert entry.cpi_after == max(CPI_FLOOR, min(CPI_CEILING, entry.cpi_before + entry.delta))
        assert entry.cpi_before == last.get(entry.player, initial_cpi(weights))  # the ledger chains
        last[entry.player] = entry.cpi_after


def ledger_of(weights_name: str, games: list[GameFacts]) -> list[float]:
    """White's ΔCPI in each of ``games``, played in that order against the same opponent."""
    entries = ledger(
        [LedgerGame(i, "anna", "ben", g) for i, g in enumerate(games)], PRESETS[weights_name]
    )
    return [e.delta for e in entries if e.player == "anna"]


SETTLING = [facts(["first", "second", "third", "blunder", "first", "second"] * 5, "1/2-1/2")] * 12
GOOD = facts(["first"] * MOVES, "1/2-1/2")
POOR = facts(["blunder"] * MOVES, "1/2-1/2")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_good_game_raises_the_cpi_and_a_poor_one_lowers_it_under_every_preset(name: str) -> None:
    good = ledger_of(name, [*SETTLING, GOOD])[-1]
    poor = ledger_of(name, [*SETTLING, POOR])[-1]
    assert good > 0 > poor, (good, poor)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_results_part_of_the_delta_is_never_negative_and_a_win_adds_at_least_a_draw(
    name: str,
) -> None:
    from clubrating.cpi.index import contributions  # the parts of a ΔCPI: what this test is about

    weights = PRESETS[name]
    assert weights.result.win >= weights.result.draw >= weights.result.loss >= 0
    parts = {}
    for result in ("1-0", "1/2-1/2", "0-1"):
        score = score_game(facts(["first", "blunder"] * (MOVES // 2), result), weights)[Color.WHITE]
        parts[result] = contributions(score, initial_cpi(weights), weights)
    assert parts["1-0"]["result"] >= parts["1/2-1/2"]["result"] >= parts["0-1"]["result"] == 0
    won = facts(["first", "blunder"] * (MOVES // 2), "1-0")
    delta = ledger([LedgerGame(0, "anna", "ben", won)], weights)[0].delta
    assert sum(parts["1-0"].values()) == pytest.approx(delta)  # the parts add up to the game's ΔCPI
