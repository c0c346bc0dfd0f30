"""The CPI's factors in a player's words: every factor of the registry has them."""

from __future__ import annotations

import pytest

from clubrating.commands.cpi_words import (
    DIRECTION,
    MEANS,
    depth_line,
    factor_table,
    factor_value,
    plays_like,
)
from clubrating.cpi.index import PRESETS, fitted_nodes
from clubrating.cpi.presets import PROVENANCE
from clubrating.cpi.registry import FACTORS, NAMES


def test_every_factor_of_the_registry_has_words_and_a_direction() -> None:
    assert set(MEANS) == set(NAMES) and all(MEANS.values())
    assert all(spec.sign in DIRECTION for spec in FACTORS)


@pytest.mark.parametrize(
    ("name", "factor", "text"),
    [
        (
            "E",
            {"value": 0.584, "numerator": 7728.0, "denominator": 100.0, "available": True},
            "58 % (77 cp lost a move)",
        ),
        (
            "O",
            {"value": 0.8, "numerator": 4.0, "denominator": 5.0, "available": True},
            "80 % (4 of 5)",
        ),
        ("T", {"value": 0.31, "numerator": 1.2, "denominator": 3.9, "available": True}, "31 %"),
        (
            "M1",
            {"value": None, "numerator": 0.0, "denominator": 0.0, "available": False},
            "not measured",
        ),
        ("H", {"count": 2}, "2"),
    ],
)
def test_a_factor_reads_as_a_percentage_or_a_count(
    name: str,
    factor: dict,  # type: ignore[type-arg]
    text: str,
) -> None:
    assert factor_value(name, factor) == text


def test_the_table_has_one_row_a_factor_in_the_registry_order() -> None:
    factors = {
        n: (
            {"count": 0}
            if n in ("H", "Br")
            else {"value": 0.5, "numerator": 1.0, "denominator": 2.0, "available": True}
        )
        for n in NAMES
    }
    rows = factor_table(factors)
    assert [r.split()[0] for r in rows] == list(NAMES)
    assert "fewer is better" in rows[NAMES.index("H")]
    assert (
        plays_like({"elo": 1627, "sd": 210}, 5)
        == "plays like 1627 ± 210 over the last 5 analysed games"
    )
    assert (
        plays_like({"elo": 1627, "sd": 210}, 1)
        == "plays like 1627 ± 210 over the last 1 analysed game"
    )
    assert plays_like({"elo": 1627, "sd": 210}) == "plays like 1627 ± 210 (this game alone)"
    assert plays_like(None, 5) == ""


@pytest.mark.parametrize(
    ("fitted", "nodes", "line"),
    [
        (
            10_000,
            [150_000],
            "the preset was fitted at 10,000 nodes a position; these games were analysed at 150,000"
            " (a deeper analysis finds fewer mistakes: the figure may read higher)",
        ),
        (
            10_000,
            [1_000],
            "the preset was fitted at 10,000 nodes a position; these games were analysed at 1,000"
            " (a shallower analysis sees more mistakes: the figure may read lower)",
        ),
        (
            10_000,
            [10_000],
            "the preset was fitted at 10,000 nodes a position, as these games were analysed",
        ),
        (
            10_000,
            [10_000, 150_000],
            "the preset was fitted at 10,000 nodes a position; "
            "these games were analysed at 10,000, 150,000",
        ),
        (None, [150_000], ""),  # the spec's arithmetic: no engine fitted it
        (10_000, [], ""),  # no analysed game to compare
    ],
)
def test_the_depth_line_names_the_fits_nodes_beside_the_analysis(
    fitted: int | None, nodes: list[int], line: str
) -> None:
    assert depth_line(fitted, nodes) == line


def test_each_fitted_preset_records_the_nodes_it_was_fitted_at_and_the_spec_none() -> None:
    assert fitted_nodes("spec") is None
    depths = {
        "fide-classical": 150_000,
        "lichess-blitz": 10_000,
        "lichess-rapid": 10_000,
    }  # a club's default; lichess
    for name in PRESETS:
        if name != "spec":
            engine = PROVENANCE[name]["engine"]
            assert (
                isinstance(engine, dict) and fitted_nodes(name) == engine["nodes"] == depths[name]
            )
