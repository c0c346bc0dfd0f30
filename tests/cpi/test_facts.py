"""Per-ply facts survive JSON and storage unchanged."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.cpi.facts import (
    BookStatus,
    Color,
    Depths,
    EngineInfo,
    EngineMove,
    GameFacts,
    PlyFacts,
    Score,
)
from tests.cpi.helpers import ENGINE, ply

scores = st.one_of(
    st.integers(-3000, 3000).map(lambda cp: Score(cp=cp)),
    st.integers(-20, 20).map(lambda m: Score(mate=m)),
)
lines = st.lists(
    st.builds(EngineMove, st.text(min_size=4, max_size=5), st.text(max_size=7), scores), max_size=3
).map(tuple)
plies = st.builds(
    PlyFacts,
    ply=st.integers(1, 400),
    color=st.sampled_from(Color),
    uci=st.text(min_size=4, max_size=5),
    san=st.text(max_size=7),
    legal_moves=st.integers(0, 218),
    best=lines,
    score_after=scores,
    clock_before=st.none() | st.floats(0, 10000),
    clock_after=st.none() | st.floats(0, 10000),
    book=st.none() | st.sampled_from(BookStatus),
    exchange=st.integers(-900, 900),
    shallow_best=st.none() | st.text(min_size=4, max_size=5),
)


depths = st.none() | st.lists(st.integers(1, 60), min_size=1, max_size=9).map(Depths.of)
engines = st.sampled_from(
    [ENGINE, EngineInfo("Stockfish", "15.1", 10_000, 3, hash_mb=4, threads=1)]
)


@settings(deadline=None)  # a shared machine: the time of one example says nothing here
@given(st.lists(plies, max_size=5), engines, depths)
def test_game_facts_round_trip_through_json(game_plies, engine, depth) -> None:
    facts = GameFacts(
        {"White": "A"}, "1-0", engine, tuple(game_plies), searches=3, cache_hits=1, depth=depth
    )
    assert GameFacts.from_dict(json.loads(json.dumps(facts.to_dict()))) == facts


@pytest.mark.parametrize(
    ("depths", "summary"),
    [
        ([], None),
        ([7], Depths(7, 7, 7, 1)),
        ([9, 7, 8, 12], Depths(7, 8.5, 12, 4)),
    ],
)
def test_depths_are_summarised_by_min_median_max(depths, summary) -> None:
    assert Depths.of(depths) == summary


def test_facts_stored_by_earlier_versions_still_read() -> None:
    old = {
        "headers": {},
        "result": "*",
        "engine": {"name": "S", "version": "1", "nodes": 1, "multipv": 3},
        "plies": [],
    }
    facts = GameFacts.from_dict(old)
    assert facts.depth is None and facts.engine.hash_mb is None and facts.engine.threads is None


@pytest.mark.parametrize(
    ("san", "after", "mated"),
    [
        ("Qh4#", "#1", True),  # stored by earlier versions: the line's mate 1, the SAN says mate
        ("Qh4#", "#0", True),
        ("Qh4", "#0", True),
        ("Qh4+", "#1", False),
        ("Qh4", 50, False),
    ],
)
def test_a_move_delivers_mate_by_its_score_or_its_san(san, after, mated) -> None:
    assert dataclasses.replace(ply(1, "d8h4", [("d8h4", 0)], after), san=san).delivers_mate is mated


def test_a_score_is_either_centipawns_or_mate() -> None:
    with pytest.raises(ValueError):
        Score(cp=1, mate=1)
    with pytest.raises(ValueError):
        Score()


@pytest.mark.parametrize(
    ("score", "negated"),
    [
        (Score(cp=35), Score(cp=-35)),
        (Score(mate=2), Score(mate=-2)),
        (Score(mate=-1), Score(mate=1)),
    ],
)
def test_negating_a_score_changes_the_point_of_view(score, negated) -> None:
    assert score.negated() == negated


def test_a_delivered_mate_cannot_be_negated() -> None:
    with pytest.raises(ValueError):
        Score(mate=0).negated()
