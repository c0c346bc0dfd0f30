"""The seeded simulators: a realistic club and a federation-sized history."""

from __future__ import annotations

from collections import Counter

import pytest

from clubrating.errors import InputError
from clubrating.formats.records import ByeKind, TournamentKind
from clubrating.rating.policy import club_policy
from clubrating.rating.records import tournament_input
from clubrating.rating.replay import replay
from clubrating.demo.simulate import simulate_club, simulate_history


def test_the_same_seed_gives_the_same_club_and_another_seed_another() -> None:
    assert simulate_club(3, seasons=2) == simulate_club(3, seasons=2)
    assert simulate_club(3, seasons=2).tournaments != simulate_club(4, seasons=2).tournaments


def test_a_club_has_one_bughouse_night_per_season_byes_forfeits_and_variants() -> None:
    club = simulate_club(11, seasons=3, members=40)
    kinds = Counter(r.kind for r in club.tournaments)
    assert kinds[TournamentKind.BUGHOUSE] == 3
    byes = Counter(b.kind for r in club.tournaments for b in r.byes)
    assert byes[ByeKind.PAIRING] > 0 and byes[ByeKind.HALF_POINT] > 0
    assert any(not p.played for r in club.tournaments for p in r.pairings)
    variants = {typed for typed, member in club.true_name.items() if typed != member}
    assert variants and all(
        club.true_name[typed] in {m.name for m in club.members} for typed in variants
    )
    typed_names = {p.name for r in club.tournaments for p in r.players}
    assert typed_names <= club.true_name.keys()
    assert any(m.joins > 0 for m in club.members) and any(m.leaves <= 3 for m in club.members)
    assert club.juniors


def test_every_evening_has_4_or_5_rounds_and_nobody_plays_twice_in_a_round() -> None:
    for record in simulate_club(5, seasons=1).tournaments:
        assert record.rounds in (4, 5)
        for rnd in range(1, record.rounds + 1):
            seated = [n for p in record.pairings if p.round == rnd for n in (p.white, p.black)]
            seated += [b.player for b in record.byes if b.round == rnd]
            assert sorted(seated) == sorted(p.number for p in record.players)


def test_the_correction_names_a_played_game_and_a_new_result() -> None:
    club = simulate_club(2)
    (correction,) = club.corrections
    record = club.tournaments[correction.tournament]
    number = {p.name: p.number for p in record.players}
    (game,) = [
        p
        for p in record.pairings
        if p.round == correction.round
        and (p.white, p.black) == (number[correction.white], number[correction.black])
    ]
    assert game.played and game.white_points != correction.white_points
    assert correction.white_points + correction.black_points == 2


def test_a_simulated_club_replays_with_names_linked_to_members() -> None:
    club = simulate_club(9, seasons=2)
    history = [
        tournament_input(r, key=lambda e: club.true_name[e.name], id=i)
        for i, r in enumerate(club.tournaments)
    ]
    result = replay(history, club_policy())
    assert set(result.final) <= {m.name for m in club.members}
    bughouse = [
        o for o, r in zip(result.outcomes, club.tournaments) if r.kind is TournamentKind.BUGHOUSE
    ]
    assert bughouse and all(o.changes == () for o in bughouse)


def test_a_federation_history_has_exactly_the_games_asked_for() -> None:
    history = simulate_history(1, games=5_003, players=300, tournaments=100)
    assert len(history) == 100
    assert sum(len(t.games) for t in history) == 5_003
    assert {p for t in history for g in t.games for p in (g.white, g.black)} <= set(range(300))
    assert simulate_history(1, games=5_003, players=300, tournaments=100) == history


@pytest.mark.parametrize("seed", range(8))
def test_a_one_season_club_of_eight_is_simulated(seed: int) -> None:
    club = simulate_club(seed, seasons=1, members=8)  # a late joiner who also leaves broke this
    assert club.tournaments and all(m.joins <= m.leaves for m in club.members)


def test_too_few_members_to_pair_an_evening_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="too few members"):
        simulate_club(1, seasons=1, members=2)
