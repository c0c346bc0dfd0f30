"""Keizer scores and ranking against the worked examples clubs publish (docs/keizer.md lists them
with their parameters), and the properties every season keeps."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.tournament.keizer import (
    Absence,
    Game,
    Rest,
    Rules,
    Season,
    StartOrder,
    ranking,
    scores_with,
    standings,
    start_order,
)
from clubrating.tournament.keizer_pairing import pair_evening

H = Fraction(1, 2)
RESULT = {"1-0": (2, 0), "0-1": (0, 2), "½-½": (1, 1)}


def games(round_: int, numbers: dict[str, int], text: str) -> tuple[Game, ...]:
    """Boards as a page prints them, one a line: ``White - Black result``."""
    out = []
    for line in text.strip().splitlines():
        pair, result = line.rsplit(" ", 1)
        white, black = (numbers[name.strip()] for name in pair.split(" - "))
        out.append(Game(round_, white, black, *RESULT[result]))
    return tuple(out)


# keizer.schlapp.name, "Beispielturnier" (the author of KeizerForClubs): six players, ranked by
# rating before round 1, values 7 down to 2; the table printed after round 1.
SCHLAPP = {"Botwinnik": 2885, "Lasker": 2878, "Capablanca": 2877, "Steinitz": 2826}
SCHLAPP |= {"Tal": 2786, "Keres": 2773}
SCHLAPP_ROUND_1 = """
Lasker - Botwinnik ½-½
Steinitz - Capablanca 0-1
Keres - Tal 1-0
"""
SCHLAPP_AFTER_1 = [
    ("Botwinnik", 10),
    ("Lasker", 9 + H),
    ("Capablanca", 9),
    ("Keres", 5),
    ("Steinitz", 4),
    ("Tal", 3),
]


def schlapp() -> tuple[dict[str, int], Season]:
    numbers = {name: index + 1 for index, name in enumerate(SCHLAPP)}
    order = start_order([(numbers[n], r) for n, r in SCHLAPP.items()], StartOrder.RATING)
    return numbers, Season(order, games(1, numbers, SCHLAPP_ROUND_1))


def test_the_default_top_value_for_six_players_is_seven_as_schlapp_and_tsg_print() -> None:
    assert Rules().values(6) == (7, 6, 5, 4, 3, 2)


def test_schlapp_round_1_is_paired_top_down_with_the_lower_ranked_player_white() -> None:
    numbers, season = schlapp()
    plan = pair_evening(Season(season.start), Rules(), season.start, set(season.start), 1)
    named = {v: k for k, v in numbers.items()}
    assert [(named[w], named[b]) for w, b in plan.boards] == [
        ("Lasker", "Botwinnik"),
        ("Steinitz", "Capablanca"),
        ("Keres", "Tal"),
    ]
    assert plan.bye is None


def test_schlapp_round_1_scored_with_the_values_before_it_gives_the_printed_table() -> None:
    numbers, season = schlapp()
    values = dict(zip(season.start, Rules().values(6), strict=True))
    scores = scores_with(season, values, Rules())
    printed = sorted(scores, key=lambda p: -scores[p])
    named = {v: k for k, v in numbers.items()}
    assert [(named[p], scores[p]) for p in printed] == SCHLAPP_AFTER_1


def test_schlapp_round_1_settled_scores_every_win_again_with_the_new_values() -> None:
    # Derived by hand from the rule: the order printed stands, so the values become 7..2 in
    # that order; Capablanca's win is now over Steinitz at 3, Keres's over Tal at 2.
    numbers, season = schlapp()
    rows = standings(season, Rules())
    named = {v: k for k, v in numbers.items()}
    assert [(named[r.player], r.value, r.score) for r in rows] == [
        ("Botwinnik", 7, 10),
        ("Lasker", 6, 9 + H),
        ("Capablanca", 5, 8),
        ("Keres", 4, 6),
        ("Steinitz", 3, 3),
        ("Tal", 2, 2),
    ]


# caissa-amsterdam.nl, "Het Keizer-systeem": ten players, values 50 down to 41, round 1 and the
# scores it prints (own value plus what each game earned with the values of ranking 0).
CAISSA = ["Jansen", "Pietersen", "Bakker", "Slager", "de Vries", "de Zeeuw", "de Jonge"]
CAISSA += ["de Oude", "de Wit", "de Bruin"]
CAISSA_ROUND_1 = """
Jansen - Pietersen 1-0
Bakker - Slager ½-½
de Vries - de Zeeuw 0-1
de Jonge - de Oude ½-½
de Wit - de Bruin 0-1
"""
CAISSA_PRINTED = {"Jansen": 99, "Pietersen": 49, "Bakker": 71 + H, "Slager": 71}
CAISSA_PRINTED |= {"de Vries": 46, "de Zeeuw": 91, "de Jonge": 65 + H, "de Oude": 65}
CAISSA_PRINTED |= {"de Wit": 42, "de Bruin": 83}


def caissa() -> tuple[dict[str, int], Season]:
    numbers = {name: index + 1 for index, name in enumerate(CAISSA)}
    return numbers, Season(tuple(numbers.values()), games(1, numbers, CAISSA_ROUND_1))


def test_caissa_round_1_scored_with_the_values_of_ranking_0_gives_the_printed_scores() -> None:
    numbers, season = caissa()
    rules = Rules(top=50)
    scores = scores_with(season, dict(zip(season.start, rules.values(10), strict=True)), rules)
    assert {name: scores[numbers[name]] for name in CAISSA} == CAISSA_PRINTED


def test_caissa_round_1_settled() -> None:
    # By hand: the printed scores order Jansen, de Zeeuw, de Bruin, Bakker, Slager, de Jonge,
    # de Oude, Pietersen, de Vries, de Wit; scored again with 50..41 in that order, it stands.
    numbers, season = caissa()
    rows = standings(season, Rules(top=50))
    named = {v: k for k, v in numbers.items()}
    assert [(named[r.player], r.score) for r in rows] == [
        ("Jansen", 93),
        ("de Zeeuw", 91),
        ("de Bruin", 89),
        ("Bakker", 70),
        ("Slager", 69 + H),
        ("de Jonge", 67),
        ("de Oude", 66 + H),
        ("Pietersen", 43),
        ("de Vries", 42),
        ("de Wit", 41),
    ]


# schaakclubharen.nl, "Eerste ronde interne competitie" 2016/17: sixteen players, top value 80,
# round 1 and the standings printed after it, already settled (each score is the own value
# plus the current value of the player beaten, or half of the one drawn with).
HAREN_ROUND_1 = """
Raoul Suurmeijer - Harm van der Mossel 1-0
Bart Romijn - Maarten Roorda 0-1
Andreas Tasma - Frans Hindriks 1-0
Remco Kieft - Harry Gielen ½-½
Jaap Tuinman - Carla Graafland 0-1
Ton Bontsema - Anton Guinée 1-0
Amjad Alshorman - Jibbe Blanksma 1-0
Emile Bouwman - Petra Raaijen 0-1
"""
HAREN_PRINTED = [
    ("Raoul Suurmeijer", 151, 80),
    ("Maarten Roorda", 149, 79),
    ("Andreas Tasma", 147, 78),
    ("Carla Graafland", 145, 77),
    ("Ton Bontsema", 143, 76),
    ("Amjad Alshorman", 141, 75),
    ("Petra Raaijen", 139, 74),
    ("Harry Gielen", 109, 73),
    ("Remco Kieft", 108 + H, 72),
    ("Harm van der Mossel", 71, 71),
    ("Bart Romijn", 70, 70),
    ("Frans Hindriks", 69, 69),
    ("Jaap Tuinman", 68, 68),
    ("Anton Guinée", 67, 67),
    ("Jibbe Blanksma", 66, 66),
    ("Emile Bouwman", 65, 65),
]
# The ranking before round 1 that the boards imply: board by board the higher-placed player,
# white on the odd boards and black on the even ones (the page does not print ranking 0).
HAREN_START = ["Raoul Suurmeijer", "Harm van der Mossel", "Maarten Roorda", "Bart Romijn"]
HAREN_START += ["Andreas Tasma", "Frans Hindriks", "Harry Gielen", "Remco Kieft"]
HAREN_START += ["Jaap Tuinman", "Carla Graafland", "Anton Guinée", "Ton Bontsema"]
HAREN_START += ["Amjad Alshorman", "Jibbe Blanksma", "Petra Raaijen", "Emile Bouwman"]


def test_haren_round_1_standings_are_the_printed_ones_score_value_and_place() -> None:
    numbers = {name: index + 1 for index, name in enumerate(HAREN_START)}
    season = Season(tuple(numbers.values()), games(1, numbers, HAREN_ROUND_1))
    named = {v: k for k, v in numbers.items()}
    rows = standings(season, Rules(top=80))
    assert [(named[r.player], r.score, r.value) for r in rows] == HAREN_PRINTED
    assert [r.rank for r in rows] == list(range(1, 17))


# schaakclubkijkuit.nl, "Het Keizercompetitiesysteem": a win over number 1 is worth 100, and
# its examples, one a row: places, the result, what each side scores.
@pytest.mark.parametrize(
    ("place", "opponent", "points", "expected"),
    [
        (16, 21, 2, 80),  # number 16 beats number 21: 100 - 21 + 1
        (21, 16, 0, 0),  # the loser scores nothing
        (16, 21, 1, 40),  # a draw: half of number 21's value
        (21, 16, 1, Fraction(85, 2)),  # and half of number 16's: 42 1/2
        (21, 16, 2, 85),  # had number 21 won
    ],
)
def test_kijk_uit_a_game_scores_the_opponents_value_or_half(
    place: int, opponent: int, points: int, expected: Fraction
) -> None:
    rules = Rules(top=100, own_value=False)
    values = rules.values(30)
    season = Season((place, opponent), (Game(1, place, opponent, points, 2 - points),))
    scores = scores_with(season, {place: values[place - 1], opponent: values[opponent - 1]}, rules)
    assert scores[place] == expected


def test_kijk_uit_apologies_at_place_12_score_a_third_of_89() -> None:
    rules = Rules(top=100, own_value=False)
    season = Season((12,), absences=(Absence(1, 12, Rest.APOLOGY),))
    score = scores_with(season, {12: rules.values(30)[11]}, rules)[12]
    assert score == Fraction(89, 3)
    assert round(float(score), 2) == 29.67  # as the page prints it


def test_bornse_apologies_count_a_sixth_of_the_own_value_eight_times_at_most() -> None:
    rules = Rules(top=70, own_value=False, apology=Fraction(1, 6), apology_cap=8)
    season = Season((1,), absences=tuple(Absence(r, 1, Rest.APOLOGY) for r in range(1, 10)))
    assert scores_with(season, {1: 60}, rules)[1] == 8 * 10


def test_the_bye_scores_two_thirds_and_an_absence_without_word_nothing() -> None:
    rules = Rules(top=70, own_value=False)
    season = Season((1, 2), absences=(Absence(1, 1, Rest.BYE), Absence(1, 2, Rest.ABSENT)))
    assert scores_with(season, {1: 60, 2: 30}, rules) == {1: 40, 2: 0}


def test_a_forfeit_win_scores_as_the_bye_and_is_no_game_played() -> None:
    season = Season((1, 2), (Game(1, 1, 2, 2, 0, forfeit=True),))
    rows = {r.player: r for r in standings(season, Rules(top=9, own_value=False))}
    assert rows[1].score == 6 and rows[2].score == 0
    assert rows[1].played == 0 and rows[1].points == 2


def test_a_top_value_too_small_for_the_season_keeps_the_last_places_at_one() -> None:
    assert Rules(top=3).values(5) == (3, 2, 1, 1, 1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"top": 0},
        {"top": 10**6},
        {"step": 0},
        {"apology": Fraction(3, 2)},
        {"bye": Fraction(-1, 3)},
        {"apology_cap": -1},
        {"rematch_gap": 100},
    ],
)
def test_rules_out_of_range_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_a_player_outside_the_competition_or_twice_in_a_round_is_refused() -> None:
    with pytest.raises(InputError, match="not in the competition"):
        ranking(Season((1, 2), (Game(1, 1, 3, 2, 0),)), Rules())
    with pytest.raises(InputError, match="twice"):
        ranking(Season((1, 2), (Game(1, 1, 2, 2, 0),), (Absence(1, 1, Rest.BYE),)), Rules())


def test_a_late_entrant_counts_from_the_round_they_joined_below_everyone_ranked() -> None:
    season = Season((1, 2, 3), (Game(1, 1, 2, 2, 0),), joined={3: 2})
    assert ranking(season, Rules(), before=1) == (1, 2)
    assert ranking(season, Rules(), before=2)[-1] == 3


def test_start_order_by_rating_puts_the_unrated_last_in_the_order_entered() -> None:
    ratings = [(1, None), (2, 1500), (3, 1800), (4, None), (5, 1500)]
    assert start_order(ratings, StartOrder.RATING) == (3, 2, 5, 1, 4)


def test_start_order_by_lot_is_a_reproducible_shuffle() -> None:
    ratings = [(n, 1500) for n in range(10, 20)]
    drawn = start_order(ratings, StartOrder.LOT, seed=482913)
    assert sorted(drawn) == list(range(10, 20))
    assert drawn == start_order(ratings, StartOrder.LOT, seed=482913)
    assert drawn != start_order(ratings, StartOrder.LOT, seed=482914)


def simulated(seed: int, players: int, rounds: int, rules: Rules) -> Season:
    """A season played evening by evening: random attendance, paired by :func:`pair_evening`,
    random results."""
    rng = random.Random(seed)
    season = Season(tuple(range(1, players + 1)))
    for round_ in range(1, rounds + 1):
        present = {p for p in season.start if rng.random() < 0.7}
        plan = pair_evening(season, rules, ranking(season, rules, before=round_), present, round_)
        played = tuple(
            Game(round_, w, b, *rng.choice(list(RESULT.values()))) for w, b in plan.boards
        )
        rests = [Absence(round_, plan.bye, Rest.BYE)] if plan.bye is not None else []
        rests += [
            Absence(round_, p, rng.choice([Rest.APOLOGY, Rest.ABSENT]))
            for p in season.start
            if p not in present
        ]
        season = Season(season.start, season.games + played, season.absences + tuple(rests))
    return season


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 12),
    rounds=st.integers(1, 8),
    shuffle=st.randoms(use_true_random=False),
)
def test_standings_do_not_depend_on_the_order_results_are_entered(
    seed: int, players: int, rounds: int, shuffle: random.Random
) -> None:
    rules = Rules(rematch_gap=2)
    season = simulated(seed, players, rounds, rules)
    entered = list(season.games)
    rested = list(season.absences)
    shuffle.shuffle(entered)
    shuffle.shuffle(rested)
    other = Season(season.start, tuple(entered), tuple(rested))
    assert standings(other, rules) == standings(season, rules)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 12), rounds=st.integers(1, 8))
def test_the_settled_ranking_is_ordered_by_score_or_on_a_cycle(
    seed: int, players: int, rounds: int
) -> None:
    """Ordered by score, unless the scoring goes round in a cycle (docs/keizer.md): then scoring
    each ranking with its own values and sorting by the scores comes back to the ranking shown,
    every ranking on the way out of order too (none stands still)."""
    rules = Rules()
    season = simulated(seed, players, rounds, rules)
    rows = standings(season, rules)
    assert [r.value for r in rows] == list(rules.values(players))
    if [r.score for r in rows] == sorted((r.score for r in rows), reverse=True):
        return
    shown = [r.player for r in rows]
    order = shown
    for _ in range(players * players):
        scores = scores_with(season, dict(zip(order, rules.values(players), strict=True)), rules)
        then = sorted(order, key=lambda p: (-scores[p], order.index(p)))
        assert then != order, "a ranking that stands still was passed by"
        order = then
        if order == shown:
            return
    raise AssertionError(f"{shown} is neither ordered by score nor on a cycle")
