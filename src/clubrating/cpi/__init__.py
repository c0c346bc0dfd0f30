"""clubrating.cpi: the Chess Performance Index, pure (docs/architecture.md, docs/rules.md C1-C7).

Per-ply facts (:mod:`.facts`) -> the factors of the registry (:mod:`.registry`, measured in
:mod:`.factors`) -> ΔCPI and the ledger (:mod:`.index`) under the settings of :mod:`.weights`.
No engine, no database, no file I/O.
"""

from clubrating.cpi.facts import (
    BookStatus,
    Color,
    EngineInfo,
    EngineMove,
    GameFacts,
    PlyFacts,
    Score,
)
from clubrating.cpi.factors import Count, Factor
from clubrating.cpi.registry import FACTORS, FactorSpec, Kind, PlayerFactors, player_factors
from clubrating.cpi.index import (
    LedgerEntry,
    LedgerGame,
    PlayerScore,
    delta_cpi,
    ledger,
    result_bonus,
    score_game,
    standings,
)
from clubrating.cpi.weights import FactorWeight, ResultBonus, ScoringModel, Weights

__all__ = [
    "FACTORS",
    "BookStatus",
    "Color",
    "Count",
    "EngineInfo",
    "EngineMove",
    "Factor",
    "FactorSpec",
    "FactorWeight",
    "GameFacts",
    "Kind",
    "LedgerEntry",
    "LedgerGame",
    "PlayerFactors",
    "PlayerScore",
    "PlyFacts",
    "ResultBonus",
    "Score",
    "ScoringModel",
    "Weights",
    "delta_cpi",
    "ledger",
    "player_factors",
    "result_bonus",
    "score_game",
    "standings",
]
