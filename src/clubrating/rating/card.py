"""The player card: every game with the rating it was played against, and the figures
members look for (performance, peak, colours, head-to-head, streaks, best wins).

Pure: the club's reads hand in plain rows (:class:`CardGame`, :class:`CardBye`,
:class:`OwnChange`, the opponents' standings before each tournament) and the
rating policy; nothing here reads a database. A game's expected score and change
use the standings both players had before the tournament and the player's K of
that tournament (spec R1, R2, R5), so the changes of a tournament's rated games
add up to its stored change (before FIDE's rounding, 8.3.4).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from clubrating.rating.elo import counts_for
from clubrating.rating.performance import Performance, performance
from clubrating.rating.policy import Policy

BEST_WINS = 5  # as lichess's profile shows a handful of best wins


class Status(enum.Enum):
    """Whether a game moved the player's rating, and why not (R7, R8)."""

    RATED = "rated"
    PROVISIONAL_OPPONENT = "provisional opponent"  # R7: not rated for an established player
    FORFEIT = "forfeit"  # R8: unplayed
    BYE = "bye"  # R8
    BUGHOUSE = "bughouse"  # R8: an unrated event


@dataclass(frozen=True, slots=True)
class CardGame:
    """One game of the player as stored; ``opponent`` is the opponent's member now (merges
    followed)."""

    tournament_id: int
    date: dt.date
    round: int
    colour: str | None  # "white", "black", or None when the file did not say
    opponent: int
    points: int  # half-points the player scored
    played: bool
    rated_event: bool  # False for bughouse
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class CardBye:
    tournament_id: int
    date: dt.date
    round: int
    points: int  # half-points


@dataclass(frozen=True, slots=True)
class Before:
    """A player's standing just before a tournament."""

    rating: float
    provisional: bool


@dataclass(frozen=True, slots=True)
class OwnChange:
    """The player's stored change of one tournament (club.store.models.RatingChange)."""

    tournament_id: int
    date: dt.date
    rating_list: str
    rating_before: float
    rating_after: float
    k: float
    provisional_before: bool


@dataclass(frozen=True, slots=True)
class Line:
    """One row of the card: a game or a bye, with what it did to the rating."""

    tournament_id: int
    date: dt.date
    round: int
    colour: str | None
    opponent: int | None
    points: int
    status: Status
    opponent_rating: float | None
    expected: float | None
    change: float | None
    game_id: int | None

    @property
    def over_the_board(self) -> bool:
        """A chess game played at the board (not a forfeit, a bye or bughouse)."""
        return self.status in (Status.RATED, Status.PROVISIONAL_OPPONENT)


@dataclass(frozen=True, slots=True)
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: int) -> Tally:
        return Tally(
            self.wins + (points == 2), self.draws + (points == 1), self.losses + (points == 0)
        )

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: int
    tally: Tally
    last_date: dt.date
    last_tournament_id: int


@dataclass(frozen=True, slots=True)
class Streak:
    length: int = 0
    first: Line | None = None
    last: Line | None = None


@dataclass(frozen=True, slots=True)
class Peak:
    rating: float
    date: dt.date | None  # None: the club's initial list
    tournament_id: int | None


@dataclass(frozen=True)
class Card:
    lines: tuple[Line, ...]
    performances: Mapping[int, Performance] = field(default_factory=dict)  # tournament id ->
    peaks: Mapping[str, Peak] = field(default_factory=dict)  # rating list ->
    colours: Mapping[str, Tally] = field(default_factory=dict)  # "white", "black", "unknown"
    head_to_head: tuple[HeadToHead, ...] = ()
    winning: Streak = Streak()
    unbeaten: Streak = Streak()
    best_wins: tuple[Line, ...] = ()


StandingKey = tuple[int, int]  # (tournament id, member id)


def build_card(
    me: int,
    games: Sequence[CardGame],
    byes: Sequence[CardBye],
    changes: Sequence[OwnChange],
    before: Mapping[StandingKey, Before],
    policy: Policy,
    initial: float | None = None,
) -> Card:
    """The card of member ``me``: ``games`` and ``byes`` in any order (sorted here by the order of
    the tournaments in ``changes`` and ``games`` as given, then round); ``before`` holds the
    standing
    of ``me`` and of each opponent before each tournament with a played chess game."""
    order: dict[int, int] = {}
    for t in [g.tournament_id for g in games] + [b.tournament_id for b in byes]:
        order.setdefault(t, len(order))
    own = {c.tournament_id: c for c in changes}
    rows = [
        (
            order[g.tournament_id],
            g.round,
            0,
            i,
            game_line(me, g, own.get(g.tournament_id), before, policy),
        )
        for i, g in enumerate(games)
    ]
    rows += [(order[b.tournament_id], b.round, 1, i, bye_line(b)) for i, b in enumerate(byes)]
    lines = tuple(r[-1] for r in sorted(rows, key=lambda r: r[:4]))
    played = [line for line in lines if line.over_the_board]
    return Card(
        lines=lines,
        performances=performances(lines, policy),
        peaks=peaks(changes, initial),
        colours=colour_tallies(played),
        head_to_head=head_to_head(played),
        winning=longest(played, lambda p: p == 2),
        unbeaten=longest(played, lambda p: p >= 1),
        best_wins=best_wins(played),
    )


def game_line(
    me: int,
    g: CardGame,
    change: OwnChange | None,
    before: Mapping[StandingKey, Before],
    policy: Policy,
) -> Line:
    """A game's row: its status, the opponent's rating then, the expected score and the change."""

    def line(
        status: Status,
        rating: float | None = None,
        expected: float | None = None,
        delta: float | None = None,
    ) -> Line:
        return Line(
            g.tournament_id,
            g.date,
            g.round,
            g.colour,
            g.opponent,
            g.points,
            status,
            rating,
            expected,
            delta,
            g.game_id,
        )

    if not g.rated_event:
        return line(Status.BUGHOUSE)
    if not g.played:
        return line(Status.FORFEIT)
    own, other = before[(g.tournament_id, me)], before[(g.tournament_id, g.opponent)]
    expected = policy.expected_score(own.rating, other.rating)
    if not counts_for(own.provisional, other.provisional) or change is None:
        return line(Status.PROVISIONAL_OPPONENT, other.rating)
    return line(Status.RATED, other.rating, expected, change.k * (g.points / 2 - expected))


def bye_line(b: CardBye) -> Line:
    return Line(
        b.tournament_id, b.date, b.round, None, None, b.points, Status.BYE, None, None, None, None
    )


def performances(lines: Iterable[Line], policy: Policy) -> dict[int, Performance]:
    """Tournament id -> the performance over the player's rated games in it."""
    by_tournament: dict[int, list[Line]] = {}
    for line in lines:
        if line.status is Status.RATED:
            by_tournament.setdefault(line.tournament_id, []).append(line)
    out = {}
    for tid, rated in by_tournament.items():
        result = performance(
            [r.opponent_rating or 0.0 for r in rated],
            [r.points / 2 for r in rated],
            policy.performance,
        )
        if result is not None:
            out[tid] = result
    return out


def peaks(changes: Iterable[OwnChange], initial: float | None = None) -> dict[str, Peak]:
    """Each list's highest rating after a tournament (the initial list's rating counts too);
    the earliest time it was held."""
    out: dict[str, Peak] = {}
    for c in changes:
        held = out.get(c.rating_list)
        if held is None and initial is not None:
            held = Peak(initial, None, None)
        if held is None or c.rating_after > held.rating:
            held = Peak(c.rating_after, c.date, c.tournament_id)
        out[c.rating_list] = held
    return out


def colour_tallies(played: Iterable[Line]) -> dict[str, Tally]:
    out = {"white": Tally(), "black": Tally()}
    for line in played:
        key = line.colour or "unknown"
        out[key] = out.get(key, Tally()).add(line.points)
    return out


def head_to_head(played: Iterable[Line]) -> tuple[HeadToHead, ...]:
    """One row per opponent met at the board: most games first, then the latest meeting."""
    rows: dict[int, HeadToHead] = {}
    latest: dict[int, int] = {}
    for i, line in enumerate(played):
        assert line.opponent is not None
        held = rows.get(line.opponent)
        tally = (held.tally if held else Tally()).add(line.points)
        rows[line.opponent] = HeadToHead(line.opponent, tally, line.date, line.tournament_id)
        latest[line.opponent] = i
    return tuple(sorted(rows.values(), key=lambda h: (-h.tally.games, -latest[h.opponent])))


def longest(played: Sequence[Line], keeps: Callable[[int], bool]) -> Streak:
    """The longest run of games whose points ``keeps``; of equal runs, the latest."""
    best, start = Streak(), None
    for i, line in enumerate(played):
        if not keeps(line.points):
            start = None
            continue
        start = i if start is None else start
        if i - start + 1 >= best.length:
            best = Streak(i - start + 1, played[start], line)
    return best


def best_wins(played: Iterable[Line], count: int = BEST_WINS) -> tuple[Line, ...]:
    """Wins against the highest-rated opponents (their rating then), earliest first on a tie."""
    wins = [line for line in played if line.points == 2 and line.opponent_rating is not None]
    return tuple(sorted(wins, key=lambda w: (-(w.opponent_rating or 0.0), w.date, w.round))[:count])
