"""The product's pure replay (``rating.replay``) against the oracle, on random histories.

The state machine checks the stored ratings against the oracle through the club's
services, but its ratings stay in a narrow band. Here the pure core meets what the machine
rarely draws: ratings far apart (the 400-point rule, 2650 and up), 2400 reached, juniors,
a player with many games in one tournament (K x n <= 700), the club's own numbers.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.rating.initial import InitialRating
from clubrating.rating.policy import club_policy, fide_policy
from clubrating.rating.replay import replay
from clubrating.rating.types import RatedGame, TournamentInput

from . import ratings as oracle

PLAYERS = 5
DAY = dt.date(2026, 1, 5)

games = st.lists(
    st.tuples(
        st.integers(0, PLAYERS - 1),
        st.integers(0, PLAYERS - 1),
        st.sampled_from((0, 1, 2)),
        st.booleans(),
    ),
    min_size=1,
    max_size=45,
)
settings_strategy = st.one_of(
    st.just(oracle.Settings(policy="fide")),
    st.builds(
        oracle.Settings,
        start=st.sampled_from((1200.0, 1500.0)),
        k_new=st.sampled_from((40.0, 25.0)),
        k_new_games=st.sampled_from((20, 2, 0)),
        k_established=st.sampled_from((20.0, 10.0)),
        provisional_games=st.sampled_from((5, 1, 0)),
    ),
)
initial_rows = st.lists(
    st.tuples(
        st.integers(0, PLAYERS - 1),
        st.sampled_from((1000.0, 1413.8, 2390.0, 2450.0, 2700.0)),
        st.sampled_from((None, 3, 40)),
    ),
    max_size=PLAYERS,
)


@settings(max_examples=150, deadline=None)
@given(
    rules=settings_strategy,
    history=st.lists(st.tuples(games, st.integers(0, 2)), min_size=1, max_size=4),
    initial=initial_rows,
    juniors=st.sets(st.integers(0, PLAYERS - 1)),
)
def test_the_pure_replay_gives_the_oracles_ratings(
    rules: oracle.Settings,
    history: list[tuple[list[tuple[int, int, int, bool]], int]],
    initial: list[tuple[int, float, int | None]],
    juniors: set[int],
) -> None:
    tournaments, inputs = [], []
    for number, (drawn, days) in enumerate(history, 1):
        played = [(w, b, p, on) for w, b, p, on in drawn if w != b]
        day = DAY + dt.timedelta(days=days)
        tournaments.append(
            oracle.Tournament(
                number,
                day,
                0,
                "standard",
                True,
                False,
                tuple(oracle.Game(w, b, p, on) for w, b, p, on in played),
            )
        )
        inputs.append(
            TournamentInput(
                number,
                day,
                tuple(RatedGame(w, b, p, on) for w, b, p, on in played),
                juniors=frozenset(juniors),
            )
        )
    facts = oracle.Facts(
        rules,
        {p: None for p in range(PLAYERS)},
        juniors,
        [oracle.InitialRow(p, r, g) for p, r, g in initial],
        tournaments,
    )
    changes, current = oracle.rate(facts)
    policy = (
        fide_policy()
        if rules.policy == "fide"
        else club_policy(
            start_rating=rules.start,
            k_new=rules.k_new,
            k_new_games=rules.k_new_games,
            k_established=rules.k_established,
            provisional_below=rules.provisional_games,
        )
    )
    result = replay(inputs, policy, initial=[InitialRating(p, r, g) for p, r, g in initial])
    got = {
        (outcome.id, c.player): (
            c.rating_before,
            c.rating_after,
            c.k,
            c.games_before,
            c.games_rated,
        )
        for outcome in result.outcomes
        for c in outcome.changes
    }
    want = {
        key: (c.rating_before, c.rating_after, c.k, c.games_before, c.games_rated)
        for key, c in changes.items()
    }
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-6), key
    assert result.final.keys() == {p for p, _ in current}
    for (p, _), now in current.items():
        assert (result.final[p].rating, result.final[p].games) == pytest.approx(
            (now.rating, now.games), abs=1e-6
        ), p
