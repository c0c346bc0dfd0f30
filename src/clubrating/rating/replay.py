"""The vectorised replay of a whole history (R13), same rules as :mod:`.elo`.

Players and tournaments become integer indices and every game two *sides*; each tournament
gets a dependency level (1 + the highest level among its players' previous tournaments), so
the tournaments of one level share no player and are rated in one numpy pass from the same
rating array, exactly as one after the other (R5 freezes each tournament's ratings anyway).
The outcomes become :class:`PlayerChange` values lazily, one tournament at a time, from the
result columns (:class:`ReplayColumns`). How each pass works: ``docs/architecture.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, cast, overload

import numpy as np
import numpy.typing as npt

from clubrating.rating import fide
from clubrating.rating.elo import check_game, in_order
from clubrating.rating.initial import InitialRating, initial_standings
from clubrating.rating.policy import ExpectedScore, Policy
from clubrating.rating.types import (
    PlayerChange,
    PlayerKey,
    RatingHistory,
    Standing,
    TournamentInput,
    TournamentOutcome,
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

_WHITE, _BLACK = attrgetter("white"), attrgetter("black")
_POINTS, _PLAYED = attrgetter("white_points"), attrgetter("played")
_FIDE_BOUNDS = np.asarray(fide.TABLE_8_1_2_UPPER_BOUNDS, dtype=np.float64)


class _Indexer(dict[Any, int]):
    """key -> 0, 1, 2 ... in order of first sight (a C-speed lookup for known keys)."""

    def __missing__(self, key: Any) -> int:
        index = self[key] = len(self)
        return index


@dataclass(frozen=True, slots=True)
class HistoryColumns:
    """A history as columns: the played games of rated tournaments, in order."""

    tournament_ids: tuple[Any, ...]  # every tournament, in order (unrated ones too)
    keys: tuple[PlayerKey, ...]  # player index -> key
    game_tournament: Ints  # tournament ordinal of each game, non-decreasing
    white: Ints  # player indices
    black: Ints
    white_points: Ints  # 2, 1, 0
    junior_codes: Ints  # tournament ordinal * len(keys) + player index


def columns_of(tournaments: Iterable[TournamentInput]) -> HistoryColumns:
    """Order a history (date, sequence, id) and turn it into columns."""
    ordered = in_order(tournaments)
    rated = [(ordinal, t) for ordinal, t in enumerate(ordered) if t.rated]
    games = list(chain.from_iterable(t.games for _, t in rated))
    count = len(games)
    indexer = _Indexer()
    white = np.fromiter(map(indexer.__getitem__, map(_WHITE, games)), np.int64, count)
    black = np.fromiter(map(indexer.__getitem__, map(_BLACK, games)), np.int64, count)
    points = np.fromiter(map(_POINTS, games), np.int64, count)
    played = np.fromiter(map(_PLAYED, games), np.bool_, count)
    ordinals = np.repeat(
        np.asarray([o for o, _ in rated], np.int64),
        np.asarray([len(t.games) for _, t in rated], np.int64),
    )
    _check_columns(white, black, points, ordinals, ordered)
    for unrated in (t for t in ordered if not t.rated):  # R8: never rated, still checked
        for game in unrated.games:
            check_game(game, unrated.id)
    players = len(indexer)
    juniors = [o * players + indexer[k] for o, t in rated for k in t.juniors if k in indexer]
    return HistoryColumns(
        tournament_ids=tuple(t.id for t in ordered),
        keys=tuple(indexer),
        game_tournament=ordinals[played],
        white=white[played],
        black=black[played],
        white_points=points[played],
        junior_codes=np.asarray(sorted(juniors), np.int64),
    )


def _check_columns(
    white: Ints, black: Ints, points: Ints, ordinals: Ints, ordered: Sequence[TournamentInput]
) -> None:
    bad = np.flatnonzero((points < 0) | (points > 2) | (white == black))
    if bad.size:
        t = ordered[int(ordinals[bad[0]])]
        raise ValueError(
            f"tournament {t.id!r}: a game needs two different players and white_points 0, 1 or 2"
        )


@dataclass(frozen=True, slots=True)
class _Slots:
    """Sides (two per game) and slots (one per tournament and player), t-major."""

    tournament: Ints  # slot -> tournament ordinal
    player: Ints  # slot -> player index
    side_slot: Ints  # side -> slot (sides interleaved: white, black, white ...)
    junior: Bools  # slot -> flagged junior


def _slots(columns: HistoryColumns) -> _Slots:
    players = max(len(columns.keys), 1)
    side_player = np.empty(2 * columns.white.size, np.int64)
    side_player[0::2], side_player[1::2] = columns.white, columns.black
    codes = np.repeat(columns.game_tournament, 2) * players + side_player
    if codes.size and int(codes.max()) < np.iinfo(np.int32).max:
        codes = codes.astype(np.int32)  # a faster sort, same order
    order = np.argsort(codes, kind="quicksort")
    ordered = codes[order]
    is_new = np.empty(ordered.size, np.bool_)
    is_new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=is_new[1:])
    starts = np.flatnonzero(is_new)
    first = (
        np.minimum.reduceat(order, starts) if starts.size else starts
    )  # first sight of each slot
    by_appearance = np.argsort(first, kind="quicksort")  # first sights are distinct
    rank = np.empty_like(by_appearance)
    rank[by_appearance] = np.arange(by_appearance.size)
    side_slot = np.empty(codes.size, np.int64)
    side_slot[order] = rank[np.cumsum(is_new) - 1]
    codes_in_order = ordered[starts][by_appearance].astype(np.int64)
    return _Slots(
        tournament=codes_in_order // players,
        player=codes_in_order % players,
        side_slot=side_slot,
        junior=np.isin(codes_in_order, columns.junior_codes),
    )


def _levels(slots: _Slots, tournaments: int) -> Ints:
    """Dependency level of each tournament: 1 + max level of its players' previous ones."""
    last: list[int] = [0] * (int(slots.player.max()) + 1 if slots.player.size else 0)
    levels = [0] * tournaments
    bounds = np.searchsorted(slots.tournament, np.arange(tournaments + 1)).tolist()
    players = slots.player.tolist()
    for t in range(tournaments):
        group = players[bounds[t] : bounds[t + 1]]
        if not group:
            continue
        level = max(map(last.__getitem__, group)) + 1
        for p in group:
            last[p] = level
        levels[t] = level
    return np.asarray(levels, np.int64)


@dataclass(frozen=True, slots=True)
class ReplayColumns:
    """The result of a replay, one entry per slot (tournament-major, first-sight order)."""

    columns: HistoryColumns
    slot_tournament: Ints
    slot_player: Ints
    rating_before: Floats
    change: Floats
    k: Floats
    games_rated: Ints
    score_rated: Floats
    expected: Floats
    provisional_before: Bools
    games_before: Ints
    final_rating: Floats  # player index -> rating at the end
    final_games: Ints
    final_peak: Bools


def _expected(policy: Policy, own: Floats, opponent: Floats) -> Floats:
    """R1 or FIDE 8.1.2 + 8.3.1, per side (each side capped from its own view)."""
    if policy.expected is ExpectedScore.FIDE_TABLE:
        difference = own - opponent
        capped = np.clip(difference, -fide.DIFFERENCE_CAP, fide.DIFFERENCE_CAP)
        difference = np.where(own < fide.CAP_EXEMPT_FROM, capped, difference)
        pd_h = fide.TABLE_8_1_2_FIRST_PD_H + np.searchsorted(
            _FIDE_BOUNDS, np.abs(difference), "left"
        )
        result: Floats = np.where(difference >= 0, pd_h, 100 - pd_h) / 100
        return result
    return 1.0 / (1.0 + np.power(10.0, (opponent - own) / policy.logistic_scale))


def _k_factors(
    policy: Policy, rating: Floats, games: Ints, peak: Bools, junior: Bools, games_rated: Ints
) -> Floats:
    """Policy.k_factor, vectorised (same order of tests)."""
    k = np.full(rating.shape, policy.k_established)
    if policy.k_high is not None:
        k = np.where(peak | (rating >= policy.k_high_from), policy.k_high, k)
    if policy.k_junior is not None:
        k = np.where(junior & (rating < policy.k_junior_below), policy.k_junior, k)
    k = np.where(games < policy.k_new_games, policy.k_new, k)
    if policy.k_games_cap is not None:
        over = (games_rated > 0) & (k * games_rated > policy.k_games_cap)
        k = np.where(over, policy.k_games_cap // np.maximum(games_rated, 1), k).astype(np.float64)
    return k


def _settle(policy: Policy, k: Floats, difference: Floats) -> Floats:
    """Policy.settle, vectorised."""
    if not policy.round_change:
        return k * difference
    if policy.expected is ExpectedScore.FIDE_TABLE:
        raw = k * np.rint(100 * difference) / 100
    else:
        raw = k * difference
    return np.sign(raw) * np.floor(np.abs(raw) + 0.5)


@dataclass(frozen=True, slots=True)
class _Schedule:
    """Slots and sides regrouped so that each dependency level is one contiguous range."""

    slot_order: Ints  # position -> slot
    slot_bounds: list[int]
    side_order: Ints  # position -> side
    side_bounds: list[int]


def _schedule(slots: _Slots, tournaments: int) -> _Schedule:
    levels = _levels(slots, tournaments)
    narrow = np.int16 if levels.size and levels.max() < np.iinfo(np.int16).max else np.int64
    slot_level = levels.astype(narrow)[slots.tournament]  # int16: numpy's radix sort
    side_level = slot_level[slots.side_slot]
    slot_order = np.argsort(slot_level, kind="stable")
    side_order = np.argsort(side_level, kind="stable")  # keeps each game's two sides adjacent
    top = int(levels.max()) if levels.size else 0
    edges = np.arange(1, top + 2)
    return _Schedule(
        slot_order=slot_order,
        slot_bounds=np.searchsorted(slot_level[slot_order], edges).tolist(),
        side_order=side_order,
        side_bounds=np.searchsorted(side_level[side_order], edges).tolist(),
    )


def replay_columns(
    columns: HistoryColumns, policy: Policy, start: Mapping[PlayerKey, Standing] | None = None
) -> ReplayColumns:
    """The numeric core of :func:`replay`: every slot's change, one numpy pass per level."""
    slots = _slots(columns)
    plan = _schedule(slots, len(columns.tournament_ids))
    rating, games, peak = _start_arrays(columns.keys, policy, start or {})
    n = slots.player.size
    out = {name: np.zeros(n) for name in ("rating_before", "change", "k", "score", "expected")}
    out_games, out_before = np.zeros(n, np.int64), np.zeros(n, np.int64)
    # Positions in level order; sides carry their own slot's position and the opponent's.
    position = np.empty(n, np.int64)
    position[plan.slot_order] = np.arange(n)
    side_position = position[slots.side_slot[plan.side_order]]
    pairs = side_position.reshape(-1, 2)
    opponent_position = pairs[:, ::-1].ravel()
    side_points = np.empty(side_position.size)
    side_points[0::2] = columns.white_points / 2
    side_points[1::2] = (2 - columns.white_points) / 2
    side_points = side_points[plan.side_order]
    slot_player = slots.player[plan.slot_order]
    slot_junior = slots.junior[plan.slot_order]
    for level in range(len(plan.slot_bounds) - 1):
        lo, hi = plan.slot_bounds[level], plan.slot_bounds[level + 1]
        side_lo, side_hi = plan.side_bounds[level], plan.side_bounds[level + 1]
        players = slot_player[lo:hi]
        r, g = rating[players], games[players]
        provisional = g < policy.provisional_below  # R6, as before (R5)
        own, opp = side_position[side_lo:side_hi] - lo, opponent_position[side_lo:side_hi] - lo
        counted = provisional[own] | ~provisional[opp]  # R7
        expected = _expected(policy, r[own], r[opp]) * counted
        size = hi - lo
        n_rated = np.bincount(own, weights=counted, minlength=size).astype(np.int64)
        # bincount with weights gives floats (numpy's stubs say intp)
        score = cast(
            Floats, np.bincount(own, weights=side_points[side_lo:side_hi] * counted, minlength=size)
        )
        expected_sum = np.bincount(own, weights=expected, minlength=size)
        k = _k_factors(policy, r, g, peak[players], slot_junior[lo:hi], n_rated)
        change = _settle(policy, k, score - expected_sum)
        after = r + change
        rating[players], games[players] = after, g + n_rated
        peak[players] |= (n_rated > 0) & ((r >= fide.K_HIGH_FROM) | (after >= fide.K_HIGH_FROM))
        slot_ids = plan.slot_order[lo:hi]
        for name, values in (
            ("rating_before", r),
            ("change", change),
            ("k", k),
            ("score", score),
            ("expected", expected_sum),
        ):
            out[name][slot_ids] = values
        out_games[slot_ids], out_before[slot_ids] = n_rated, g
    return ReplayColumns(
        columns=columns,
        slot_tournament=slots.tournament,
        slot_player=slots.player,
        rating_before=out["rating_before"],
        change=out["change"],
        k=out["k"],
        games_rated=out_games,
        score_rated=out["score"],
        expected=out["expected"],
        provisional_before=out_before < policy.provisional_below,
        games_before=out_before,
        final_rating=rating,
        final_games=games,
        final_peak=peak,
    )


def _start_arrays(
    keys: Sequence[PlayerKey], policy: Policy, start: Mapping[PlayerKey, Standing]
) -> tuple[Floats, Ints, Bools]:
    rating = np.full(len(keys), float(policy.start_rating))
    games = np.zeros(len(keys), np.int64)
    peak = np.zeros(len(keys), np.bool_)
    if start:
        for index, key in enumerate(keys):
            standing = start.get(key)
            if standing is not None:
                rating[index], games[index] = standing.rating, standing.games
                peak[index] = standing.peak_reached_2400
    return rating, games, peak


class Outcomes(Sequence[TournamentOutcome]):
    """Every tournament's outcome, built from :class:`ReplayColumns` when first read."""

    def __init__(self, result: ReplayColumns) -> None:
        self.result = result
        ids = result.columns.tournament_ids
        self._bounds = np.searchsorted(result.slot_tournament, np.arange(len(ids) + 1)).tolist()
        self._cache: dict[int, TournamentOutcome] = {}

    def __len__(self) -> int:
        return len(self.result.columns.tournament_ids)

    @overload
    def __getitem__(self, index: int) -> TournamentOutcome: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[TournamentOutcome, ...]: ...

    def __getitem__(self, index: int | slice) -> TournamentOutcome | tuple[TournamentOutcome, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index not in self._cache:
            self._cache[index] = self._build(index)
        return self._cache[index]

    def __iter__(self) -> Iterator[TournamentOutcome]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Outcomes({len(self)} tournaments)"

    def _build(self, index: int) -> TournamentOutcome:
        r = self.result
        lo, hi = self._bounds[index], self._bounds[index + 1]
        keys = r.columns.keys
        rows = zip(
            r.slot_player[lo:hi].tolist(),
            r.rating_before[lo:hi].tolist(),
            r.change[lo:hi].tolist(),
            r.k[lo:hi].tolist(),
            r.games_rated[lo:hi].tolist(),
            r.score_rated[lo:hi].tolist(),
            r.expected[lo:hi].tolist(),
            r.provisional_before[lo:hi].tolist(),
            r.games_before[lo:hi].tolist(),
        )
        changes = tuple(
            PlayerChange(
                player=keys[p],
                rating_before=before,
                rating_after=before + change,
                change=change,
                k=k,
                games_rated=n,
                score_rated=score,
                expected=expected,
                provisional_before=provisional,
                games_before=games_before,
            )
            for p, before, change, k, n, score, expected, provisional, games_before in rows
            if n > 0
        )
        return TournamentOutcome(r.columns.tournament_ids[index], changes)


def final_standings(
    result: ReplayColumns, start: Mapping[PlayerKey, Standing] | None = None
) -> dict[PlayerKey, Standing]:
    """Where everybody ends: ``start`` updated by every player who had a rated game."""
    final = dict(start or {})
    touched = np.zeros(result.final_rating.size, np.bool_)
    touched[result.slot_player[result.games_rated > 0]] = True
    keys = result.columns.keys
    for p, rating, games, peak in zip(
        np.flatnonzero(touched).tolist(),
        result.final_rating[touched].tolist(),
        result.final_games[touched].tolist(),
        result.final_peak[touched].tolist(),
    ):
        final[keys[p]] = Standing(rating=rating, games=games, peak_reached_2400=peak)
    return final


def replay(
    tournaments: Iterable[TournamentInput],
    policy: Policy,
    start: Mapping[PlayerKey, Standing] | None = None,
    initial: Iterable[InitialRating] = (),
) -> RatingHistory:
    """R13: replay a history in (date, sequence, id) order, from ``start`` or from nothing.

    Mutates nothing it is given; the same history gives identical results.
    ``start`` holds the standings before the first tournament given (a stored
    per-tournament snapshot), so a correction can replay only from there on.
    ``initial`` is the club's initial list (:mod:`.initial`): where its players
    stand before any tournament; ``start`` overrides it for the players it holds.
    """
    begin = {**initial_standings(initial, policy), **(start or {})}
    result = replay_columns(columns_of(tournaments), policy, begin)
    return RatingHistory(
        outcomes=Outcomes(result),  # type: ignore[arg-type]
        final=final_standings(result, begin),
    )
