"""Tonight's pairings, pure: the Dutch engine the product uses (caissify-pairings)
checked against an independent one (pairing-core's dutch-2026) on the same simulated evenings.

Each evening: players with random ratings, five rounds, results drawn from the Elo expectation,
a requested half-point bye now and then, a forfeit now and then. Every round is paired by both
engines from the same history; the product's pairing is played on. Rounds where they differ are
sorted by why; a difference of any other kind fails the test.

Run with ``-s`` to see the figures. Over the 28 evenings (139 rounds) on 2026-12-01: 91 identical
(65 %); 28 refused by pairing-core (24 "no C.04.3 C4-compliant candidate" where caissify's
pairing keeps every absolute rule, 4 past its step budget); 15 the same pairs with other colours
(C.04.3 E.3/E.4 read differently: pairing-core aligns colour histories by round and ranks by
score, caissify counts played games only and ranks by pairing number); 1 bye given by
pairing-core to a higher score (C.04.3 C5); 4 other pairs. caissify took 7.5 ms a round,
pairing-core 53 ms.
"""

from __future__ import annotations

import collections
import random
from dataclasses import replace

import pytest

from clubrating.tournament.pairing import (
    History,
    PairingFailed,
    RoundPlan,
    Seat,
    pair_round,
    states_before,
)
from clubrating.formats.records import Bye as Rest
from clubrating.formats.records import ByeKind
from clubrating.formats.records import Pairing as Result

from .pairing_2026 import pair_round_2026

ROUNDS = 5
DRAW_BAND = (
    0.15  # a draw when the draw lands within ±0.15 of the expectation: ~30 % draws, a club's share
)


def _results(rng: random.Random, plan: RoundPlan, ratings: dict[int, int]) -> list[Result]:
    results = []
    for white, black in plan.boards:
        if rng.random() < 0.03:  # black did not come
            results.append(Result(plan.round, white, black, 2, 0, played=False))
            continue
        expected = 1 / (
            1 + 10 ** ((ratings[black] - ratings[white]) / 400)
        )  # FIDE B.02 8.1.2 (Elo)
        draw = rng.random()
        white_points = 2 if draw < expected - DRAW_BAND else 1 if draw < expected + DRAW_BAND else 0
        results.append(Result(plan.round, white, black, white_points, 2 - white_points))
    return results


def _why(ours: RoundPlan, theirs: RoundPlan | str, history: History) -> str:
    if isinstance(theirs, str):
        return "pairing-core refused"
    if ours.boards == theirs.boards and ours.bye == theirs.bye:
        return "same"
    if ours.pairs() == theirs.pairs() and ours.bye == theirs.bye:
        return "same pairs, other colours"
    states = states_before(history, ours.round)
    if (
        ours.bye is not None
        and theirs.bye is not None
        and states[ours.bye].points < states[theirs.bye].points
    ):
        # C.04.3 C5 (minimise the score of the bye's assignee): caissify found a pairing of the rest
        return "pairing-core's bye to a higher score"
    return "other pairs"


def simulate(seed: int, players: int) -> list[tuple[RoundPlan, RoundPlan | str, History]]:
    rng = random.Random(seed)
    ratings = dict(
        enumerate(sorted((rng.randint(1000, 2200) for _ in range(players)), reverse=True), 1)
    )
    history = History(tuple(Seat(n, r) for n, r in ratings.items()))
    rounds = []
    for rnd in range(1, ROUNDS + 1):
        present = list(ratings)
        rests = []
        if rng.random() < 0.3:
            absent = rng.choice(present)
            present.remove(absent)
            rests.append(Rest(rnd, absent, 1, ByeKind.HALF_POINT))
        try:
            ours = pair_round(history, rnd, ROUNDS, present)
        except PairingFailed:
            break  # a small field where everyone has met everyone
        try:
            theirs: RoundPlan | str = pair_round_2026(history, rnd, ROUNDS, present)
        except PairingFailed as error:
            theirs = str(error)
        rounds.append((ours, theirs, history))
        if ours.bye is not None:
            rests.append(Rest(rnd, ours.bye, 2, ByeKind.PAIRING))
        history = replace(
            history,
            results=history.results + tuple(_results(rng, ours, ratings)),
            rests=history.rests + tuple(rests),
        )
    return rounds


def _colours_explained(ours: RoundPlan, theirs: RoundPlan, history: History) -> bool:
    """Each board whose colours differ is one where the two engines read FIDE C.04.3 E differently:
    both players want the same colour and their last different colours depend on whether unplayed
    rounds count (E.3), or the higher-ranked player is the higher score, not the lower number
    (E.4)."""
    states = states_before(history, ours.round)
    theirs_colour = {frozenset(b): b for b in theirs.boards}
    for board in ours.boards:
        if theirs_colour[frozenset(board)] == board:
            continue
        a, b = (states[n] for n in board)
        if _preference(a.colours) != _preference(b.colours):
            return False
    return True


def _preference(colours: list[str]) -> str:
    played = [c for c in colours if c != "u"]
    difference = played.count("W") - played.count("B")
    if difference or not played:
        return "B" if difference > 0 else "W" if difference < 0 else "-"
    return "W" if played[-1] == "B" else "B"


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 11, 12])
def test_the_two_dutch_engines_agree_or_differ_for_a_known_reason(players: int) -> None:
    why: collections.Counter[str] = collections.Counter()
    for seed in range(4):
        for ours, theirs, history in simulate(1000 * seed + players, players):
            reason = _why(ours, theirs, history)
            why[reason] += 1
            if reason == "same pairs, other colours":
                assert isinstance(theirs, RoundPlan) and _colours_explained(
                    ours, theirs, history
                ), (ours, theirs)
    print(f"\n{players} players, 4 evenings of {ROUNDS} rounds: {dict(why)}")
    assert why["same"] >= sum(why.values()) / 2  # most rounds come out identical
    # other pairs: 4 of 139 rounds, all in the 8-player evenings; e.g. seed 8, round 5, where
    # pairing-core
    # floats the leader (4/4) down to 1.5 points and caissify floats two 2.5s instead (C.04.3 C7:
    # minimise
    # the scores of the downfloaters, bracket by bracket)
    assert why["other pairs"] <= sum(why.values()) / 4, dict(why)


def test_a_round_one_pairing_is_the_same_by_both_engines_top_half_against_bottom_half() -> None:
    history = History(tuple(Seat(n, 2000 - 10 * n) for n in range(1, 8)))
    ours = pair_round(history, 1, 5, range(1, 8))
    assert ours == pair_round_2026(history, 1, 5, range(1, 8))
    assert (
        ours.boards == ((1, 4), (5, 2), (3, 6)) and ours.bye == 7
    )  # C.04.3: S1 against S2, colours alternate


def test_nobody_meets_the_same_opponent_twice_and_nobody_gets_a_second_pairing_bye() -> None:
    for seed in range(10):
        for ours, _, history in simulate(seed, 7):
            states = states_before(history, ours.round)
            assert all(b not in states[w].opponents for w, b in ours.boards)
            assert ours.bye is None or not states[ours.bye].had_pab_or_forfeit_win


def test_four_players_who_have_all_met_cannot_be_paired_a_fourth_time_in_one_line() -> None:
    seats = tuple(Seat(n, 1500) for n in range(1, 5))
    games = [(1, 1, 4), (1, 2, 3), (2, 1, 3), (2, 4, 2), (3, 1, 2), (3, 3, 4)]
    history = History(seats, tuple(Result(r, w, b, 1, 1) for r, w, b in games))
    with pytest.raises(PairingFailed, match="round 4 cannot be paired"):
        pair_round(history, 4, 5, range(1, 5))
