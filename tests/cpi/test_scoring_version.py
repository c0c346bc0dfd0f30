"""The scoring version written in clubrating/cpi/version.py is the fingerprint of the rules the
code scores by now: a change of a preset, of the factors' definitions or of the arithmetic
changes the golden document (tests/cpi/test_golden_scores.py), and with it the fingerprint, and
this test fails until the constant is the new one (each club's stored ledger is then re-scored
at the first start of the new version: docs/cpi.md, "A new version's rules")."""

from __future__ import annotations

import hashlib

from clubrating.cpi import version
from clubrating.cpi.index import DEFAULT_PRESET
from tests.cpi.test_golden_scores import golden_document


def fingerprint(default_preset: str, golden: str) -> str:
    text = f"{default_preset}\n{golden}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_the_scoring_version_is_the_fingerprint_of_the_rules_of_this_code() -> None:
    now = fingerprint(DEFAULT_PRESET, golden_document())
    assert version.SCORING_VERSION == now, (
        f"the CPI's rules changed: set SCORING_VERSION = {now!r} in src/clubrating/cpi/version.py "
        "(each club's stored ledger is re-scored at the first start of this version)"
    )


def test_the_fingerprint_changes_with_the_default_preset_and_with_any_score() -> None:
    golden = golden_document()
    assert fingerprint("spec", golden) != fingerprint(DEFAULT_PRESET, golden)
    nudged = golden.replace('"delta_cpi": ', '"delta_cpi": 1', 1)
    assert nudged != golden and fingerprint(DEFAULT_PRESET, nudged) != fingerprint(
        DEFAULT_PRESET, golden
    )
