"""The analyze JSON of hand-written analysed games under every preset, and their ledger, as
written by the code before the factor registry and the typed weights: byte for byte the same
(the analyze contract of docs/cli.md). To write the file again after a deliberate change:
``PYTHONPATH=src python -m tests.cpi.test_golden_scores > tests/cpi/data/golden_scores.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clubrating.commands.analyze import game_document
from clubrating.cpi.facts import BookStatus, GameFacts
from clubrating.cpi.index import PRESETS, LedgerGame, ledger
from tests.cpi.coach_games import BLUNDER, BOOK, CLOCKS, OPEN_GAME, SACRIFICE, build, mate_missed

GOLDEN = Path(__file__).parent / "data" / "golden_scores.json"
RUY_LOPEZ = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Nb8",
    "d4",
    "Nbd7",
    "Nbd2",
    "Bb7",
    "Bc2",
    "Re8",
]
LONG_NOTES: dict[int, dict[str, Any]] = {
    **{
        n: {
            "book": BookStatus.TOP10 if n < 9 else BookStatus.OUT,
            "clock": (None if n < 3 else 900 - 7 * n, 900 - 7 * n - (n % 5) * 3),
        }
        for n in range(1, 25)
    },
    11: {"best": [("d4", 40), ("c3", 30), ("h3", 20)], "after": -180, "clock": (823, 700)},
    14: {"best": [("O-O", 10), ("Bb7", 0)], "after": -420},
    17: {"best": [("Ng5", "#3"), ("h3", 60)], "after": 60},
    20: {"best": [("Nbd7", 0), ("Bb7", -5), ("c5", -10)], "after": -5},
}


def games() -> list[GameFacts]:
    return [
        build(OPEN_GAME, BLUNDER, "0-1"),
        build(OPEN_GAME, CLOCKS, "1-0", headers={"TimeControl": "600+0"}),
        build(OPEN_GAME, BOOK, "1/2-1/2"),
        build(OPEN_GAME, SACRIFICE, "1-0"),
        build(OPEN_GAME, mate_missed(2), "1-0"),
        build(
            RUY_LOPEZ, LONG_NOTES, "0-1", headers={"TimeControl": "900+0", "Termination": "Normal"}
        ),
        build(RUY_LOPEZ, {}, "1/2-1/2"),
    ]


def _scores(document: dict[str, Any]) -> dict[str, Any]:
    """The game's scoring part of the analyze JSON (the per-ply facts are the engine's)."""
    return {key: document[key] for key in ("result", "definitions", "players")}


def golden_document() -> str:
    played = games()
    out: dict[str, Any] = {}
    for name in sorted(PRESETS):
        weights = PRESETS[name]
        entries = ledger(
            [
                LedgerGame(i, "anna" if i % 2 else "ben", "ben" if i % 2 else "anna", facts)
                for i, facts in enumerate(played)
            ],
            weights,
        )
        out[name] = {
            "weights": weights.to_dict(),
            "games": [_scores(game_document(g, weights)) for g in played],
            "ledger": [
                [e.game_id, e.player, e.color.value, e.cpi_before, e.delta, e.cpi_after]
                for e in entries
            ],
        }
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def test_the_analyze_json_and_the_ledger_are_as_the_code_before_the_registry_wrote_them() -> None:
    assert golden_document() == GOLDEN.read_text(encoding="utf-8")


if __name__ == "__main__":
    print(golden_document(), end="")
