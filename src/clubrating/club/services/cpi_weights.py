"""The club's CPI weights, changed under the club's lock with an audit entry; the ledger
re-scored from the stored facts (no engine) in the same transaction."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.derived.ledger import (
    WEIGHT_NAMES,
    CpiReport,
    club_preset,
    club_weights,
    rebuild_cpi,
)
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club
from clubrating.cpi.index import PRESETS, Weights
from clubrating.errors import InputError


def set_cpi_weights(
    club: Club, changes: dict[str, float | None], *, who: str, preset: str | None = None
) -> CpiReport:
    """Change some weights (None: back to the preset's value), or start from another preset
    (its values replace every override), and re-score the ledger, without the engine, in one
    transaction with an audit entry (old -> new)."""
    if not changes and preset is None:
        raise InputError(gettext_noop("no weight to change: give NAME=VALUE or a preset"))
    unknown = sorted(set(changes) - set(WEIGHT_NAMES))
    if unknown:
        raise InputError(
            gettext_noop("unknown weight %(value)s: expected one of %(value2)s"),
            value=repr(unknown[0]),
            value2=", ".join(WEIGHT_NAMES),
        )
    k = changes.get("k")
    if (
        k is not None and not 0 <= k <= 1
    ):  # ΔCPI = k·(what the game shows − CPI before): a share of the gap
        raise InputError(
            gettext_noop(
                "k must be between 0 and 1 (the share of the gap a game moves the CPI), "
                "not %(value)s"
            ),
            value=f"{k:g}",
        )
    if preset is not None and preset not in PRESETS:
        raise InputError(
            gettext_noop("unknown CPI preset %(preset)s: expected one of %(value)s"),
            preset=repr(preset),
            value=", ".join(PRESETS),
        )
    with history_write(club):
        club.refresh_from_db()  # the weights as stored now, under the club's lock
        old = club_weights(club).to_dict()
        old_preset = club_preset(club)
        overrides: dict[str, Any] = (
            {"preset": preset} if preset is not None else dict(club.cpi_weights or {})
        )
        defaults = PRESETS[preset if preset is not None else old_preset].to_dict()
        for name, value in changes.items():
            if name == "start":
                club.cpi_start = Weights().model.start if value is None else value
            elif value is None or value == defaults[name]:
                overrides.pop(name, None)
            else:
                overrides[name] = value
        club.cpi_weights = overrides
        club.save(update_fields=["cpi_weights", "cpi_start"])
        new = club_weights(club).to_dict()
        report = rebuild_cpi(club)
        shown = [
            n for n in WEIGHT_NAMES if n in changes or (preset is not None and old[n] != new[n])
        ]
        was: dict[str, Any] = {"preset": old_preset} if preset is not None else {}
        now: dict[str, Any] = {"preset": club_preset(club)} if preset is not None else {}
        audit.record(
            club,
            who,
            "cpi-weights",
            club.slug,
            old={**was, **{n: old[n] for n in shown}},
            new={**now, **{n: new[n] for n in shown}},
            summary=report.text,
        )
    return report
