"""An independent statement of the club's rating rules, to check the product against.

Written from docs/ratings.md and the specification's rules R1-R9 (our numbers), and for
``policy=fide`` from the FIDE Rating Regulations (1 March 2024, amended 1 October 2025):
table 8.1.2, the 400-point rule (8.3.1) and its exemption from 2650, K (8.3.3) and the
rounding of a tournament's change (8.3.4). It imports nothing of clubrating: it takes
plain facts (tournaments, games, members, the initial list, the settings) and returns the
rating changes and current ratings they must give. Slow and plain on purpose: one loop
over the tournaments, one over their games; exact fractions where FIDE rounds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

# FIDE table 8.1.2: the top of each band of the rating difference D and PD(H), the higher
# rated player's expected score, in hundredths: D 0-3 gives .50, 4-10 .51, ... 620-735 .99,
# above 735 1.00. The lower rated player's PD(L) is 1 - PD(H).
FIDE_TABLE_8_1_2 = (
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
)
FIDE_START = 1400.0  # docs/ratings.md: "start 1400"
FIDE_K_NEW_GAMES = 30  # 8.3.3: K 40 until 30 games are completed
FIDE_PROVISIONAL = 5  # R6/R7: the spec's threshold, FIDE's numbers leave it alone
STANDARD = "standard"  # the one list of a club without separate lists


@dataclass(frozen=True)
class Settings:
    policy: str = "club"
    start: float = 1200.0
    k_new: float = 40.0
    k_new_games: int = 20
    k_established: float = 20.0
    provisional_games: int = 5
    separate_lists: bool = False


@dataclass(frozen=True)
class Game:
    white: int | None  # member ids as linked (None: no member)
    black: int | None
    white_half_points: int  # 2, 1, 0
    played: bool = True  # False: a forfeit or a result without a game (R8)


@dataclass(frozen=True)
class Tournament:
    id: int
    date: dt.date
    sequence: int
    time_control: str
    published: bool
    bughouse: bool
    games: tuple[Game, ...]


@dataclass(frozen=True)
class InitialRow:
    member: int | None  # None: not linked, does not count
    rating: float
    games: int | None  # None: the list did not say


@dataclass(frozen=True)
class Change:
    rating_list: str
    rating_before: float
    rating_after: float
    k: float
    games_before: int
    games_rated: int
    half_points: int
    expected: float
    provisional_before: bool


@dataclass(frozen=True)
class Current:
    rating: float
    games: int
    provisional: bool
    last_played: dt.date | None


@dataclass
class Standing:
    rating: float
    games: int
    reached_2400: bool = False
    last_played: dt.date | None = None


@dataclass
class Facts:
    settings: Settings
    merged_into: dict[int, int | None]  # every member: the member it was merged into, or None
    juniors: set[int] = field(default_factory=set)
    initial: list[InitialRow] = field(default_factory=list)  # in the list's order
    tournaments: list[Tournament] = field(default_factory=list)
    left: set[int] = field(default_factory=set)  # members marked as having left the club


def person(merged_into: dict[int, int | None], member: int) -> int:
    """A member merged into another is that one: one person, one history."""
    while merged_into.get(member) is not None:
        member = merged_into[member]  # type: ignore[assignment]
    return member


def fide_expected_hundredths(own: float, opponent: float) -> int:
    """8.1.2 after 8.3.1: D beyond 400 counts as 400, unless one's own rating is 2650 or more."""
    difference = own - opponent
    if own < 2650:
        difference = max(-400.0, min(400.0, difference))
    higher = next((pd for top, pd in FIDE_TABLE_8_1_2 if abs(difference) <= top), 100)
    return higher if difference >= 0 else 100 - higher


def logistic_expected(own: float, opponent: float) -> float:
    """R1."""
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def round_half_away(value: Fraction) -> int:
    """8.3.4: to the nearest whole number, a half away from zero."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


class Rules:
    """The numbers of one club: its own (R3, R4, R6) or FIDE's."""

    def __init__(self, settings: Settings) -> None:
        self.fide = settings.policy == "fide"
        self.start = FIDE_START if self.fide else settings.start
        self.k_new_games = FIDE_K_NEW_GAMES if self.fide else settings.k_new_games
        self.provisional_games = FIDE_PROVISIONAL if self.fide else settings.provisional_games
        self.settings = settings

    def provisional(self, standing: Standing) -> bool:
        return standing.games < self.provisional_games  # R6

    def k(self, standing: Standing, junior: bool, rated_games: int) -> float:
        if not self.fide:  # R4
            return (
                self.settings.k_new
                if standing.games < self.k_new_games
                else self.settings.k_established
            )
        if standing.games < self.k_new_games or (junior and standing.rating < 2300):
            k = 40
        elif standing.reached_2400:
            k = 10
        else:
            k = 20
        return float(min(k, 700 // rated_games))  # K x n <= 700

    def change(self, k: float, score: int, expected: list[float]) -> float:
        """R2 summed over the tournament; FIDE's rounded on the exact sum of table values."""
        if not self.fide:
            return k * (score / 2 - sum(expected))
        hundredths = 50 * score - sum(
            round(e * 100) for e in expected
        )  # table values: whole hundredths
        return float(round_half_away(Fraction(int(k) * hundredths, 100)))

    def expected(self, own: float, opponent: float) -> float:
        return (
            fide_expected_hundredths(own, opponent) / 100
            if self.fide
            else logistic_expected(own, opponent)
        )


def initial_standings(facts: Facts, rules: Rules) -> dict[int, Standing]:
    """The linked rows of the initial list, by person; the first row of a person counts.
    No games count: established, past both R4's new K and R6's provisional games."""
    standings: dict[int, Standing] = {}
    for row in facts.initial:
        if row.member is None:
            continue
        who = person(facts.merged_into, row.member)
        if who not in standings:
            games = (
                max(rules.k_new_games, rules.provisional_games) if row.games is None else row.games
            )
            standings[who] = Standing(row.rating, games, reached_2400=row.rating >= 2400)
    return standings


def rate(facts: Facts) -> tuple[dict[tuple[int, int], Change], dict[tuple[int, str], Current]]:
    """Every rating change (tournament, person) and current rating (person, list)."""
    rules = Rules(facts.settings)
    juniors = {person(facts.merged_into, m) for m in facts.juniors}
    rated = sorted(
        (t for t in facts.tournaments if t.published and not t.bughouse),  # R8
        key=lambda t: (t.date, t.sequence, t.id),
    )  # R13
    lists = {t.time_control if facts.settings.separate_lists else STANDARD for t in rated}
    initial = initial_standings(facts, rules)
    if initial:
        lists.add(STANDARD)
    changes: dict[tuple[int, int], Change] = {}
    current: dict[tuple[int, str], Current] = {}
    for rating_list in sorted(lists):
        standings = {who: Standing(s.rating, s.games, s.reached_2400) for who, s in initial.items()}
        for tournament in rated:
            if (
                tournament.time_control if facts.settings.separate_lists else STANDARD
            ) == rating_list:
                rate_tournament(
                    tournament, rating_list, standings, rules, juniors, facts.merged_into, changes
                )
        for who, standing in standings.items():
            current[(who, rating_list)] = Current(
                standing.rating, standing.games, rules.provisional(standing), standing.last_played
            )
    return changes, current


def rate_tournament(
    tournament: Tournament,
    rating_list: str,
    standings: dict[int, Standing],
    rules: Rules,
    juniors: set[int],
    merged_into: dict[int, int | None],
    changes: dict[tuple[int, int], Change],
) -> None:
    """R5: every game against the standings from before the tournament, applied at its end."""
    before: dict[int, Standing] = {}
    counted: dict[int, tuple[list[int], list[float]]] = {}
    for game in tournament.games:
        if not game.played or game.white is None or game.black is None:  # R8
            continue
        white, black = person(merged_into, game.white), person(merged_into, game.black)
        for who in (white, black):
            before.setdefault(who, standings.get(who) or Standing(rules.start, 0))  # R3
        for own, opponent, half in (
            (white, black, game.white_half_points),
            (black, white, 2 - game.white_half_points),
        ):
            if rules.provisional(before[opponent]) and not rules.provisional(before[own]):
                continue  # R7
            scores, expected = counted.setdefault(own, ([], []))
            scores.append(half)
            expected.append(rules.expected(before[own].rating, before[opponent].rating))
    for who, (scores, expected) in counted.items():
        old = before[who]
        k = rules.k(old, who in juniors, len(scores))
        after = old.rating + rules.change(k, sum(scores), expected)
        changes[(tournament.id, who)] = Change(
            rating_list,
            old.rating,
            after,
            k,
            old.games,
            len(scores),
            sum(scores),
            sum(expected),
            rules.provisional(old),
        )
        standings[who] = Standing(
            after,
            old.games + len(scores),
            old.reached_2400 or after >= 2400 or old.rating >= 2400,
            tournament.date,
        )


def listed(facts: Facts, current: dict[tuple[int, str], Current], rating_list: str) -> set[int]:
    """The persons on the current list (docs/ratings.md, "Members who leave"): everyone with a
    current rating on it, but a person marked as having left. The mark is the person's own (the
    member others were merged into); a member merged away carries none of its own. Leaving
    changes no rating: ``current`` is the same with or without it."""
    return {who for who, lst in current if lst == rating_list and who not in facts.left}
