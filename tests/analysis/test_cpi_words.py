"""The CPI's factors in a player's words: every factor of the registry has them."""

from __future__ import annotations

import pytest

from clubrating.commands.cpi_words import DIRECTION, MEANS, factor_table, factor_value, plays_like
from clubrating.cpi.registry import FACTORS, NAMES


def test_every_factor_of_the_registry_has_words_and_a_direction() -> None:
    assert set(MEANS) == set(NAMES) and all(MEANS.values())
    assert all(spec.sign in DIRECTION for spec in FACTORS)


@pytest.mark.parametrize(("name", "factor", "text"), [
    ("E", {"value": 0.584, "numerator": 7728.0, "denominator": 100.0, "available": True}, "58 % (77 cp lost a move)"),
    ("O", {"value": 0.8, "numerator": 4.0, "denominator": 5.0, "available": True}, "80 % (4 of 5)"),
    ("T", {"value": 0.31, "numerator": 1.2, "denominator": 3.9, "available": True}, "31 %"),
    ("M1", {"value": None, "numerator": 0.0, "denominator": 0.0, "available": False}, "not measured"),
    ("H", {"count": 2}, "2"),
])
def test_a_factor_reads_as_a_percentage_or_a_count(name: str, factor: dict, text: str) -> None:  # type: ignore[type-arg]
    assert factor_value(name, factor) == text


def test_the_table_has_one_row_a_factor_in_the_registry_order() -> None:
    factors = {n: ({"count": 0} if n in ("H", "Br") else
                   {"value": 0.5, "numerator": 1.0, "denominator": 2.0, "available": True}) for n in NAMES}
    rows = factor_table(factors)
    assert [r.split()[0] for r in rows] == list(NAMES)
    assert "fewer is better" in rows[NAMES.index("H")]
    assert plays_like({"elo": 1627, "sd": 210}, "over the last 5 games") == "plays like 1627 ± 210 over the last 5 games"
    assert plays_like(None, "x") == ""
