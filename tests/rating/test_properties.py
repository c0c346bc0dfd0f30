"""Properties of a replay over random histories (hypothesis), for both policies."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.rating.elo import in_order, replay_reference
from clubrating.rating.policy import Policy, club_policy, fide_policy
from clubrating.rating.replay import replay
from clubrating.rating.types import RatedGame, RatingHistory, Standing, TournamentInput

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
POLICIES = [pytest.param(club_policy(), id="club"), pytest.param(fide_policy(), id="fide")]
TOLERANCE = 1e-9
BUGHOUSE_ID = 10_000  # after every generated id

keys = st.sampled_from(PLAYERS)
games = st.builds(
    RatedGame, keys, keys, st.integers(0, 2), st.sampled_from((True, True, True, True, False))
).filter(lambda g: g.white != g.black)


@st.composite
def histories(draw: st.DrawFn, min_size: int = 0) -> list[TournamentInput]:
    count = draw(st.integers(min_size, 9))
    return [
        TournamentInput(
            id=i,
            date=draw(st.dates(dt.date(2024, 1, 1), dt.date(2024, 1, 10))),
            sequence=draw(st.integers(0, 1)),
            games=tuple(draw(st.lists(games, max_size=10))),
            rated=draw(st.sampled_from((True, True, True, False))),
            juniors=draw(st.frozensets(keys, max_size=2)),
        )
        for i in range(count)
    ]


starts = st.dictionaries(
    keys,
    st.builds(Standing, st.integers(1000, 2700).map(float), st.integers(0, 40), st.booleans()),
    max_size=len(PLAYERS),
)


def assert_close(fast: RatingHistory, reference: RatingHistory) -> None:
    assert len(fast.outcomes) == len(reference.outcomes)
    for a, b in zip(fast.outcomes, reference.outcomes):
        assert a.id == b.id
        assert [c.player for c in a.changes] == [c.player for c in b.changes]
        for x, y in zip(a.changes, b.changes):
            assert (x.k, x.games_rated, x.score_rated, x.provisional_before, x.games_before) == (
                y.k,
                y.games_rated,
                y.score_rated,
                y.provisional_before,
                y.games_before,
            )
            for field in ("rating_before", "rating_after", "change", "expected"):
                assert getattr(x, field) == pytest.approx(getattr(y, field), abs=TOLERANCE)
    assert fast.final.keys() == reference.final.keys()
    for key, standing in reference.final.items():
        assert fast.final[key].rating == pytest.approx(standing.rating, abs=TOLERANCE)
        assert (fast.final[key].games, fast.final[key].peak_reached_2400) == (
            standing.games,
            standing.peak_reached_2400,
        )


def as_bytes(history: RatingHistory) -> bytes:
    return repr((tuple(history.outcomes), sorted(history.final.items()))).encode()


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=60, deadline=None)
@given(history=histories(), start=starts)
def test_the_fast_replay_equals_the_reference(
    policy: Policy, history: list[TournamentInput], start: dict[str, Standing]
) -> None:
    assert_close(replay(history, policy, start), replay_reference(history, policy, start))


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=30, deadline=None)
@given(history=histories(), seed=st.integers(0, 2**32))
def test_a_replay_is_deterministic_and_ignores_import_order(
    policy: Policy, history: list[TournamentInput], seed: int
) -> None:
    shuffled = list(history)
    random.Random(seed).shuffle(shuffled)
    first = replay(history, policy)
    assert (
        as_bytes(first) == as_bytes(replay(shuffled, policy)) == as_bytes(replay(history, policy))
    )


def with_inserted(
    tournament: TournamentInput, extra: Sequence[RatedGame], seed: int
) -> TournamentInput:
    games = list(tournament.games)
    rng = random.Random(seed)
    for game in extra:
        games.insert(rng.randint(0, len(games)), game)
    return TournamentInput(
        id=tournament.id,
        date=tournament.date,
        games=tuple(games),
        sequence=tournament.sequence,
        rated=tournament.rated,
        juniors=tournament.juniors,
    )


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=60, deadline=None)
@given(
    history=histories(min_size=1),
    unplayed=st.lists(games, max_size=6),
    bughouse=st.lists(games, max_size=6),
    seed=st.integers(0, 2**32),
)
def test_byes_forfeits_unplayed_games_and_bughouse_never_change_a_rating(
    policy: Policy,
    history: list[TournamentInput],
    unplayed: list[RatedGame],
    bughouse: list[RatedGame],
    seed: int,
) -> None:
    forfeits = [RatedGame(g.white, g.black, g.white_points, played=False) for g in unplayed]
    target = random.Random(seed).randrange(len(history))
    changed = [
        with_inserted(t, forfeits, seed) if i == target else t for i, t in enumerate(history)
    ]
    night = TournamentInput(
        id=BUGHOUSE_ID, date=dt.date(2024, 1, 5), games=tuple(bughouse), rated=False
    )
    plain, extended = replay(history, policy), replay([*changed, night], policy)
    assert [o for o in extended.outcomes if o.id != BUGHOUSE_ID] == list(plain.outcomes)
    assert next(o for o in extended.outcomes if o.id == BUGHOUSE_ID).changes == ()
    assert extended.final == plain.final


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=60, deadline=None)
@given(
    history=histories(min_size=1),
    opponents=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 2)), max_size=8),
)
def test_an_established_players_rating_is_untouched_by_games_against_provisional_players(
    policy: Policy, history: list[TournamentInput], opponents: list[tuple[int, int]]
) -> None:
    start = {"ann": Standing(1500.0, 30)}
    extra: dict[int, list[RatedGame]] = {}
    for n, (where, points) in enumerate(opponents):  # each newcomer plays one game: provisional
        extra.setdefault(where % len(history), []).append(RatedGame("ann", f"new{n}", points))
    changed = [with_inserted(t, extra.get(i, ()), i) for i, t in enumerate(history)]
    plain, extended = replay(history, policy, start), replay(changed, policy, start)
    for a, b in zip(plain.outcomes, extended.outcomes):
        assert {c.player: c for c in a.changes} == {
            c.player: c for c in b.changes if not str(c.player).startswith("new")
        }
    assert {k: v for k, v in extended.final.items() if not k.startswith("new")} == plain.final


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=40, deadline=None)
@given(history=histories(), start=starts, cut=st.integers(0, 9))
def test_a_replay_from_a_snapshot_equals_the_full_replay(
    policy: Policy, history: list[TournamentInput], start: dict[str, Standing], cut: int
) -> None:
    ordered = in_order(history)
    cut = min(cut, len(ordered))
    full = replay(history, policy, start)
    snapshot = replay(ordered[:cut], policy, start).final
    rest = replay(ordered[cut:], policy, snapshot)
    assert tuple(rest.outcomes) == tuple(full.outcomes)[cut:]
    assert rest.final == full.final


def test_a_replay_mutates_nothing_it_was_given() -> None:
    history = [TournamentInput(id=1, date=dt.date(2024, 1, 1), games=(RatedGame("ann", "bob", 2),))]
    start = {"ann": Standing(1500.0, 10)}
    copy_history, copy_start = list(history), dict(start)
    replay(history, club_policy(), start)
    replay_reference(history, club_policy(), start)
    assert (history, start) == (copy_history, copy_start)
