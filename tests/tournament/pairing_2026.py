"""pairing-core's ``dutch-2026`` kernel, an independent implementation of the FIDE Dutch system,
pairing the same round as the product's :func:`~clubrating.tournament.pairing.pair_round`: the
check of the product's pairing (test_pairing.py). Only the tests use it, so pairing-core is a
test dependency (pyproject.toml, ``[test]``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pairing_core.errors import PairingError
from pairing_core.fide2026 import DUTCH_2026, P26Player, P26Request, pair_2026

from clubrating.tournament.pairing import (
    Float,
    History,
    PairingFailed,
    PlayerState,
    RoundPlan,
    _checked,
    states_before,
)
from clubrating.words import N_

P26_MAX_STEPS = 50_000
"""pairing-core's search budget: its exact search is factorial in a bracket's size (its README,
limitation L1); past this many steps it gives up with a typed error instead of running for minutes
(13 players once took 205 s without a budget)."""


def pair_round_2026(
    history: History, round_: int, total_rounds: int, present: Iterable[int]
) -> RoundPlan:
    """The same round by pairing-core's ``dutch-2026`` kernel: the check of :func:`pair_round`."""
    states = states_before(history, round_)
    wanted = sorted(set(present))
    players = tuple(_p26_player(states[n], set(wanted)) for n in wanted)
    try:
        result = pair_2026(
            P26Request(
                players=players,
                ruleset=DUTCH_2026,
                round_number=round_,
                total_rounds=max(total_rounds, round_),
                is_last_round=round_ == total_rounds,
                max_steps=P26_MAX_STEPS,
            )
        )
    except PairingError as error:
        raise PairingFailed(
            N_("round %(round)s cannot be paired: %(error)s"), round=round_, error=str(error)
        ) from None
    boards = tuple((int(p.white_id), int(p.black_id)) for p in result.pairs)
    return _checked(RoundPlan(round_, boards, result.bye_id), states, set(wanted))


def _p26_player(state: PlayerState, present: set[int]) -> P26Player:
    """pairing-core's player: opponents among tonight's present players only (it refuses others)."""
    tags = {Float.DOWN: "D", Float.UP: "U", Float.NONE: ""}
    floats = [tags[f] for f in state.floats]
    return P26Player(
        id=state.number,
        tpn=state.number,
        score=state.score,
        rating=state.rating,
        colors="".join(state.colours),
        opponents=tuple(sorted(state.opponents & present)),
        unplayed=state.colours.count("u"),
        last_float=(floats[-1:] or [""])[0],
        prev_float=(floats[-2:-1] or [""])[0],
        got_pab=state.had_pab_or_forfeit_win,
        played=len(state.opponents),
    )
