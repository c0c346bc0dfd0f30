"""Pure tournament rules: the evening's Dutch pairing (:mod:`.pairing`), round robins
(:mod:`.roundrobin`), Keizer competitions (:mod:`.keizer`, :mod:`.keizer_pairing`), standings and
their tie-breaks (FIDE Handbook C.07).

No Django, no database: plain records in (:mod:`clubrating.formats.records`), ranked rows out.
"""

from clubrating.tournament.standings import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Rule,
    Standing,
    System,
    Table,
    Tiebreak,
    file_points,
    points_differences,
    rank_table,
    system_of,
    tiebreak_standings,
)

__all__ = [
    "ROUND_ROBIN_TIEBREAKS",
    "SWISS_TIEBREAKS",
    "Rule",
    "Standing",
    "System",
    "Table",
    "Tiebreak",
    "file_points",
    "points_differences",
    "rank_table",
    "system_of",
    "tiebreak_standings",
]
