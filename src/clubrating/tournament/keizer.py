"""Keizer competitions, pure: the values, the scores and the ranking of a season.

A Keizer competition runs over many club evenings with whoever comes: every place of the ranking
has a value (the top value at place 1, one step less a place below); a win scores the opponent's
value, a draw half of it, a loss nothing; an evening missed with apologies scores a fraction of
one's own value (a limited number of times), the bye another fraction. After every round the
whole season is scored again with the values of the new ranking, until the ranking no longer
changes (the "herberekening" of the Dutch clubs): a win over a player who later falls is worth
what that player is worth now.

The rules clubs vary are the fields of :class:`Rules`, with the defaults and the published
descriptions they come from in ``docs/keizer.md``. Pairing an evening: :mod:`.keizer_pairing`.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from clubrating.errors import InputError
from clubrating.formats.records import HalfPoints
from clubrating.tournament.roundrobin import drawn_order
from clubrating.words import N_

MAX_SETTLE = 100
"""How many times one round's ranking is scored again at most. A ranking nearly always settles
within a few passes; a ranking that goes round in a cycle stops at the first repeat instead."""
MAX_TOP = 10_000  # a top value past this is a typing error (published ones: 7 to 125)
MAX_GAP = 99  # KeizerForClubs: "99 ensures two players will meet only once"


class Rest(enum.Enum):
    """How a player of the competition spent a round without a game."""

    BYE = "bye"  # present, but the odd one out: a fraction of one's own value
    APOLOGY = "apology"  # sent apologies before the evening: a fraction of one's own value
    ABSENT = "absent"  # stayed away without a word: nothing


class StartOrder(enum.Enum):
    """How the ranking stands before the first round (everyone's score is then their value)."""

    RATING = "rating"  # the club rating, highest first, unrated last (as Schlapp's example)
    LOT = "lot"  # a drawing of lots from a seed (:func:`drawn_order`, reproducible)


@dataclass(frozen=True, slots=True)
class Rules:
    """The parameters of one Keizer competition (sources: ``docs/keizer.md``).

    ``top`` None takes Keizer's own advice as the clubs quote it: the value of place 1 about
    1.5 times the number of players, so that the last place is worth about a third of the first
    (KeizerForClubs' default ratio of 3)."""

    top: int | None = None
    step: int = 1
    own_value: bool = True  # the own value counted once in the score (Caissa, Haren, Schlapp)
    apology: Fraction = Fraction(1, 3)  # of the own value (Kijk Uit, SV Krimpen, De Schaakmaat)
    apology_cap: int | None = 8  # apologies credited a season (Bornse Damvereniging); None: all
    bye: Fraction = Fraction(2, 3)  # of the own value (SV Krimpen, Bornse Damvereniging)
    rematch_gap: int = 3  # rounds between two games of the same two players (chesspairing)

    def __post_init__(self) -> None:
        if self.top is not None and not 1 <= self.top <= MAX_TOP:
            raise InputError(
                N_("top value %(value)s: expected a whole number from 1 to %(most)s"),
                value=self.top,
                most=MAX_TOP,
            )
        if not 1 <= self.step <= MAX_TOP:
            raise InputError(N_("step %(value)s: expected a whole number from 1"), value=self.step)
        for fraction in (self.apology, self.bye):
            if not 0 <= fraction <= 1:
                raise InputError(
                    N_("%(value)s: a credit is a fraction of one's own value, from 0 to 1"),
                    value=str(fraction),
                )
        if self.apology_cap is not None and self.apology_cap < 0:
            raise InputError(
                N_("%(value)s: the apologies credited are a count, 0 or more"),
                value=self.apology_cap,
            )
        if not 0 <= self.rematch_gap <= MAX_GAP:
            raise InputError(
                N_("rematch gap %(value)s: expected a whole number from 0 to %(most)s"),
                value=self.rematch_gap,
                most=MAX_GAP,
            )

    def top_value(self, players: int) -> int:
        """The value of place 1 among ``players`` players."""
        if self.top is not None:
            return self.top
        return max(3 * (players - 1) * self.step // 2, players * self.step)

    def values(self, players: int) -> tuple[int, ...]:
        """The value of each place, place 1 first: one step less a place, never below 1 (a fixed
        top value too small for a season that grew keeps its last places at 1)."""
        top = self.top_value(players)
        return tuple(max(top - place * self.step, 1) for place in range(players))


@dataclass(frozen=True, slots=True)
class Game:
    """A board of a Keizer evening: points in half-points (2 a win), ``forfeit`` when the game was
    not played (the winner scores as the bye, the loser nothing)."""

    round: int
    white: int
    black: int
    white_points: HalfPoints
    black_points: HalfPoints
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Absence:
    """A round a player spent without a game: the bye, apologies, or an absence."""

    round: int
    player: int
    rest: Rest


@dataclass(frozen=True, slots=True)
class Season:
    """What a Keizer competition has played: ``start`` is the ranking before round 1, best first;
    ``joined`` the round a later entrant first counts from (absent from the map: round 1)."""

    start: tuple[int, ...]
    games: tuple[Game, ...] = ()
    absences: tuple[Absence, ...] = ()
    joined: Mapping[int, int] = field(default_factory=dict)

    def last_round(self) -> int:
        rounds = [g.round for g in self.games] + [a.round for a in self.absences]
        return max(rounds, default=0)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's row of the Keizer ranking."""

    rank: int
    player: int
    value: int  # what a win over this player is worth now
    score: Fraction  # the Keizer points
    played: int  # games played over the board
    points: HalfPoints  # the game points of those games and forfeits (2 a win)


def start_order(
    ratings: Sequence[tuple[int, int | None]], order: StartOrder, seed: int = 0
) -> tuple[int, ...]:
    """The ranking before round 1 of players given as (number, club rating or None) in the order
    they were entered: by rating (ties and the unrated by that order), or drawn by lot."""
    if order is StartOrder.LOT:
        return tuple(ratings[place - 1][0] for place in drawn_order(len(ratings), seed))
    entered = {number: index for index, (number, _) in enumerate(ratings)}
    rated = sorted(ratings, key=lambda r: (r[1] is None, -(r[1] or 0), entered[r[0]]))
    return tuple(number for number, _ in rated)


class _Ledger:
    """Each player's games and absences, by round, read once for every pass of the scoring."""

    def __init__(self, season: Season) -> None:
        self.events: dict[int, list[tuple[int, int | None, HalfPoints, Rest | None]]] = defaultdict(
            list
        )
        for g in sorted(season.games, key=lambda g: (g.round, g.white, g.black)):
            opponent_w = None if g.forfeit else g.black
            opponent_b = None if g.forfeit else g.white
            self.events[g.white].append((g.round, opponent_w, g.white_points, None))
            self.events[g.black].append((g.round, opponent_b, g.black_points, None))
        for a in sorted(season.absences, key=lambda a: (a.round, a.player)):
            self.events[a.player].append((a.round, None, 0, a.rest))
        for rows in self.events.values():
            rows.sort(key=lambda row: row[0])

    def score(self, player: int, values: Mapping[int, int], through: int, rules: Rules) -> Fraction:
        """The Keizer points of ``player`` over rounds 1 to ``through`` with these values."""
        own = values[player]
        total = Fraction(own if rules.own_value else 0)
        apologies = 0
        for round_, opponent, points, rest in self.events.get(player, ()):
            if round_ > through:
                break
            if rest is Rest.APOLOGY:
                apologies += 1
                credited = rules.apology_cap is None or apologies <= rules.apology_cap
                total += rules.apology * own if credited else 0
            elif rest is Rest.BYE or (rest is None and opponent is None and points):
                total += rules.bye * own  # the bye, or a game won by forfeit: scored alike
            elif rest is None and opponent is not None and opponent in values:
                total += Fraction(points, 2) * values[opponent]
        return total


def _settle(previous: Sequence[int], ledger: _Ledger, through: int, rules: Rules) -> list[int]:
    """The ranking that the scores over rounds 1 to ``through`` give when the values are those of
    that same ranking: scored again and again from ``previous`` until it stands still. Equal
    scores keep the order of ``previous``."""
    position = {player: index for index, player in enumerate(previous)}
    order = list(previous)
    seen: set[tuple[int, ...]] = {tuple(order)}
    for _ in range(MAX_SETTLE):
        values = dict(zip(order, rules.values(len(order)), strict=True))
        scores = {p: ledger.score(p, values, through, rules) for p in order}
        ranked = sorted(order, key=lambda p: (-scores[p], position[p]))
        if ranked == order or tuple(ranked) in seen:
            return ranked
        seen.add(tuple(ranked))
        order = ranked
    return order


def _entrants(season: Season, order: list[int], round_: int | None) -> list[int]:
    """``order`` with the players who count by ``round_`` (None: everyone entered) added below
    it, in the start order."""
    present = set(order)
    return order + [
        p
        for p in season.start
        if p not in present and (round_ is None or season.joined.get(p, 1) <= round_)
    ]


def ranking(season: Season, rules: Rules, *, before: int | None = None) -> tuple[int, ...]:
    """The Keizer ranking after every round played (``before`` None: everyone entered in it), or
    the one that pairs round ``before``: rounds 1 to ``before - 1`` scored, the players who count
    by ``before`` in it.

    Each round settles from the ranking the round before left (:func:`_settle`), so the ranking is
    a function of the results alone, never of the order they were typed in."""
    _check(season)
    last = season.last_round() if before is None else before - 1
    ledger = _Ledger(season)
    order: list[int] = []
    for round_ in range(1, last + 1):
        order = _settle(_entrants(season, order, round_), ledger, round_, rules)
    return tuple(_settle(_entrants(season, order, before), ledger, last, rules))


def standings(season: Season, rules: Rules, *, before: int | None = None) -> tuple[Standing, ...]:
    """The rows of :func:`ranking`, with each player's value, score and games."""
    order = ranking(season, rules, before=before)
    through = season.last_round() if before is None else before - 1
    values = dict(zip(order, rules.values(len(order)), strict=True))
    ledger = _Ledger(season)
    played: dict[int, int] = defaultdict(int)
    points: dict[int, int] = defaultdict(int)
    for g in season.games:
        if g.round > through:
            continue
        for player, got in ((g.white, g.white_points), (g.black, g.black_points)):
            played[player] += 0 if g.forfeit else 1
            points[player] += got
    return tuple(
        Standing(
            rank=index + 1,
            player=player,
            value=values[player],
            score=ledger.score(player, values, through, rules),
            played=played[player],
            points=points[player],
        )
        for index, player in enumerate(order)
    )


def scores_with(season: Season, values: Mapping[int, int], rules: Rules) -> dict[int, Fraction]:
    """Every player's score over the whole season with given values (one pass, not settled): what
    the published examples print for a round scored with the values before it."""
    ledger = _Ledger(season)
    return {p: ledger.score(p, values, season.last_round(), rules) for p in values}


def _check(season: Season) -> None:
    """Every player of a game or an absence is in the start order, once a round."""
    known = set(season.start)
    if len(known) != len(season.start):
        raise InputError(N_("a player is twice in the start order"))
    seen: set[tuple[int, int]] = set()
    for round_, player in _appearances(season.games, season.absences):
        if player not in known:
            raise InputError(
                N_("round %(round)s: player %(player)s is not in the competition"),
                round=round_,
                player=player,
            )
        if round_ < 1 or (round_, player) in seen:
            raise InputError(
                N_("round %(round)s: player %(player)s is there twice"),
                round=round_,
                player=player,
            )
        seen.add((round_, player))


def _appearances(games: Iterable[Game], absences: Iterable[Absence]) -> Iterable[tuple[int, int]]:
    for g in games:
        yield g.round, g.white
        yield g.round, g.black
    for a in absences:
        yield a.round, a.player
