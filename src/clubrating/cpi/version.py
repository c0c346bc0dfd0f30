"""The version of the CPI's scoring rules, for the ledgers a database stores.

A stored ledger row holds a ΔCPI and a CPI computed by the rules of the version that wrote it;
a new version whose rules differ must re-score every club's stored analyses before a page shows
them (docs/cpi.md, "A new version's rules"). The rules are the factors' definitions
(:data:`clubrating.cpi.factors.DEFINITIONS_VERSION`), every preset's settings, the default
preset, the scoring and the ledger's arithmetic: all that makes ``tests/cpi/data/
golden_scores.json`` (each preset's settings, the scores of its reference games and their
ledger). :data:`SCORING_VERSION` is a fingerprint of them, written here as a constant so that
every command's start compares it with each club's mark (``Club.cpi_scored_with``) in one query
without importing the CPI (tests/cpi/test_scoring_version.py recomputes it from the real modules
and fails, printing the new value, when the rules changed and this constant did not).

Nothing here imports anything: every command's start imports this module.
"""

SCORING_VERSION = "ab076869469d720e"
"""sha256 of the default preset's name and the golden document, its first 16 hex digits."""
