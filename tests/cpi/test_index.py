"""ΔCPI (spec C1, the worked examples of C5) and the ledger (C2)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubrating.cpi.facts import Color, GameFacts, finished
from clubrating.cpi.factors import Count, Factor, eval_loss_from_cpl
from clubrating.cpi.registry import PlayerFactors
from clubrating.cpi.index import (
    LedgerGame,
    Weights,
    delta_cpi,
    ledger,
    result_bonus,
    score_game,
    standings,
)
from tests.cpi.helpers import game, ply

NONE = Factor(None, 0, 0)


def factors(
    cpl: float,
    b1: float,
    m1: tuple[int, int] = (0, 0),
    m2: tuple[int, int] = (0, 0),
    hangs: int = 0,
    brilliancies: int = 0,
) -> PlayerFactors:
    """The factors of a C5 example; those not listed are 0 (unavailable)."""
    return PlayerFactors(
        E=Factor(eval_loss_from_cpl(cpl), cpl, 1),
        T=NONE,
        O=NONE,
        B1=Factor(b1, b1, 1),
        B2=NONE,
        B3=NONE,
        M1=Factor.share(*m1),
        M2=Factor.share(*m2),
        M3=NONE,
        H=Count(hangs),
        Br=Count(brilliancies),
    )


@pytest.mark.parametrize(
    ("name", "player", "result", "color", "expected"),
    [
        (
            "lost, excellent quality",
            factors(25, 0.45, (2, 2), (1, 1), 0, 1),
            "1-0",
            Color.BLACK,
            88.25,
        ),
        ("won with a hang", factors(80, 0.34, hangs=1), "1-0", Color.WHITE, 9.8),
        ("perfect draw", factors(8, 0.75), "1/2-1/2", Color.WHITE, 48.8),
    ],
)
def test_the_worked_examples_of_c5(name, player, result, color, expected) -> None:
    bonus = result_bonus(finished(result), color)
    assert delta_cpi(player, bonus) == pytest.approx(expected, abs=1e-9), name


@pytest.mark.parametrize(
    ("result", "color", "bonus"),
    [
        ("1-0", Color.WHITE, 10),
        ("1-0", Color.BLACK, 0),
        ("0-1", Color.BLACK, 10),
        ("1/2-1/2", Color.BLACK, 5),
        ("*", Color.WHITE, 0),
    ],
)
def test_result_bonus_is_10_5_0(result, color, bonus) -> None:
    assert result_bonus(finished(result), color) == bonus


def test_weights_are_settings_and_change_delta_cpi() -> None:
    player = factors(80, 0.34, hangs=1)
    assert delta_cpi(player, 10, Weights.spec(H=-50)) == pytest.approx(9.8 - 25)
    assert Weights.from_dict(Weights.spec(E=31).to_dict()) == Weights.spec(E=31)


def _short_game(result: str, white_blunders: bool) -> GameFacts:
    if white_blunders:
        return game([ply(1, "c", [("a", 20), ("b", 10)], -600), ply(2, "x", [("x", 600)])], result)
    return game([ply(1, "a", [("a", 20), ("b", 10)]), ply(2, "x", [("x", -20)])], result)


def test_ledger_accumulates_per_player_in_game_order_and_clamps_at_zero() -> None:
    g1 = LedgerGame("g1", "ann", "bob", _short_game("1-0", False))
    g2 = LedgerGame("g2", "bob", "ann", _short_game("1-0", True))
    entries = ledger([g1, g2])
    by_game = {(e.game_id, e.player): e for e in entries}
    ann1, ann2 = by_game["g1", "ann"], by_game["g2", "ann"]
    assert ann1.cpi_before == 0 and ann2.cpi_before == ann1.cpi_after
    bob2 = by_game["g2", "bob"]
    assert bob2.delta < 0 and bob2.cpi_after == max(
        0.0, by_game["g1", "bob"].cpi_after + bob2.delta
    )
    assert standings(entries)["ann"] == ann2.cpi_after


def test_ledger_starts_from_the_configured_value_and_tops_out_at_4000() -> None:
    g = LedgerGame("g", "ann", "bob", _short_game("1-0", False))
    entries = ledger([g], Weights.spec(start=3990))
    assert entries[0].cpi_before == 3990 and entries[0].cpi_after == 4000


def test_rescoring_stored_facts_with_new_weights_needs_no_engine() -> None:
    stored = json.dumps(_short_game("0-1", True).to_dict())
    facts = GameFacts.from_dict(json.loads(stored))
    assert (
        score_game(facts)[Color.WHITE].delta_cpi
        != score_game(facts, Weights.spec(H=0))[Color.WHITE].delta_cpi
    )


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_ledger_stays_within_0_and_4000_and_is_deterministic(games) -> None:
    history = [
        LedgerGame(i, w, b, _short_game(r, blunder)) for i, (w, b, r, blunder) in enumerate(games)
    ]
    entries = ledger(history)
    assert all(0 <= e.cpi_after <= 4000 for e in entries)
    assert ledger(history) == entries
    assert len(entries) == 2 * len(games)
