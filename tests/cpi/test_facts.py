"""Per-ply facts survive JSON and storage unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubrating.cpi.facts import BookStatus, Color, EngineMove, GameFacts, PlyFacts, Score
from tests.cpi.helpers import ENGINE

scores = st.one_of(st.integers(-3000, 3000).map(lambda cp: Score(cp=cp)),
                   st.integers(-20, 20).map(lambda m: Score(mate=m)))
lines = st.lists(st.builds(EngineMove, st.text(min_size=4, max_size=5), st.text(max_size=7), scores),
                 max_size=3).map(tuple)
plies = st.builds(
    PlyFacts, ply=st.integers(1, 400), color=st.sampled_from(Color), uci=st.text(min_size=4, max_size=5),
    san=st.text(max_size=7), legal_moves=st.integers(0, 218), best=lines, score_after=scores,
    clock_before=st.none() | st.floats(0, 10000), clock_after=st.none() | st.floats(0, 10000),
    book=st.none() | st.sampled_from(BookStatus), exchange=st.integers(-900, 900),
    shallow_best=st.none() | st.text(min_size=4, max_size=5),
)


@given(st.lists(plies, max_size=5))
def test_game_facts_round_trip_through_json(game_plies) -> None:
    facts = GameFacts({"White": "A"}, "1-0", ENGINE, tuple(game_plies), searches=3, cache_hits=1)
    assert GameFacts.from_dict(json.loads(json.dumps(facts.to_dict()))) == facts


def test_a_score_is_either_centipawns_or_mate() -> None:
    with pytest.raises(ValueError):
        Score(cp=1, mate=1)
    with pytest.raises(ValueError):
        Score()


@pytest.mark.parametrize(("score", "negated"), [
    (Score(cp=35), Score(cp=-35)), (Score(mate=2), Score(mate=-2)), (Score(mate=-1), Score(mate=1)),
])
def test_negating_a_score_changes_the_point_of_view(score, negated) -> None:
    assert score.negated() == negated


def test_a_delivered_mate_cannot_be_negated() -> None:
    with pytest.raises(ValueError):
        Score(mate=0).negated()
