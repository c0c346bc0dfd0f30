"""clubrating.cpi: the Chess Performance Index, pure (DESIGN.md).

Per-ply facts (:mod:`.facts`) -> the eleven factors (:mod:`.factors`) ->
ΔCPI and the ledger (:mod:`.index`). No engine, no database, no file I/O.
"""

from clubrating.cpi.facts import (BookStatus, Color, EngineInfo, EngineMove, GameFacts, PlyFacts,
                                  Score)
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.registry import FACTORS, FactorSpec, Kind, PlayerFactors, player_factors
from clubrating.cpi.index import (LedgerEntry, LedgerGame, PlayerScore, Weights, delta_cpi, ledger,
                                  result_bonus, score_game, standings)

__all__ = [
    "FACTORS", "BookStatus", "Color", "Count", "EngineInfo", "EngineMove", "Factor", "FactorSpec", "GameFacts", "Kind",
    "LedgerEntry", "LedgerGame", "PlayerFactors", "PlayerScore", "PlyFacts", "Score", "Weights",
    "delta_cpi", "ledger", "player_factors", "result_bonus", "score_game", "standings",
]
