"""Rebuild the derived ratings from the stored history (spec R13, R14).

Derived rows are never patched: the published tournaments are replayed by the
pure core (:func:`clubrating.rating.replay`) and the rating changes written
anew. A rebuild compares what it computed with what was stored and says how
many rows differed, so that a missed rebuild is a difference made visible, not
silence (R14).

A rebuild may start at a tournament (``since``): the players' standings just
before it are taken from the stored per-tournament changes (the snapshots),
and only that tournament and the later ones are replayed. A test checks that
this always equals a full replay.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction

from clubrating.rating.replay import replay
from clubrating.club.models import (
    Club,
    CurrentRating,
    Entry,
    Game,
    Member,
    RatingChange,
    RebuildLog,
    Tournament,
    TournamentStatus,
)
from clubrating.club.policy import policy_for
from clubrating.rating.types import RatedGame, Standing, TournamentInput

OrderKey = tuple[dt.date, int, int]
RowKey = tuple[int, int]  # (tournament id, member id)
RowValues = tuple[str, float, float, float, int, int, int, float, bool]
CurrentValues = tuple[float, int, bool, dt.date | None]


@dataclass(frozen=True)
class RebuildReport:
    """What a rebuild did, in the words the arbiter sees."""

    tournaments: int          # tournaments replayed
    changes_differing: int    # stored rating-change rows that were not what the replay gives
    ratings_changed: int      # members whose current rating (on some list) changed
    full: bool

    def __str__(self) -> str:
        return f"rebuilt {self.tournaments} tournaments, {self.ratings_changed} ratings changed"

    def as_dict(self) -> dict[str, int | bool]:
        return {"tournaments": self.tournaments, "changes_differing": self.changes_differing,
                "ratings_changed": self.ratings_changed, "full": self.full}


def order_key(tournament: Tournament) -> OrderKey:
    return (tournament.date, tournament.sequence, tournament.id)


def rating_list_of(club: Club, tournament: Tournament) -> str:
    """The list a tournament counts in: its time control, or one list for all."""
    return tournament.time_control if club.separate_lists else "standard"


def resolve_members(club: Club) -> dict[int, int]:
    """Member id -> the member it stands for now (following merges)."""
    parent = dict(Member.objects.filter(club=club).values_list("id", "merged_into_id"))
    resolved: dict[int, int] = {}
    for member_id in parent:
        seen = member_id
        while parent.get(seen) is not None:
            seen = parent[seen]  # type: ignore[assignment]
        resolved[member_id] = seen
    return resolved


def tournament_inputs(club: Club, tournaments: list[Tournament]) -> dict[str, list[TournamentInput]]:
    """The pure core's view of the published, rated tournaments, by rating list."""
    ids = [t.id for t in tournaments]
    who = resolve_members(club)
    entry_member = {
        entry_id: who[member_id]
        for entry_id, member_id in Entry.objects.filter(tournament_id__in=ids).values_list("id", "member_id")
        if member_id is not None
    }
    juniors = set(Member.objects.filter(club=club, junior=True).values_list("id", flat=True))
    games: dict[int, list[RatedGame]] = defaultdict(list)
    rows = Game.objects.filter(tournament_id__in=ids).order_by("tournament_id", "round", "board", "id")
    for tid, white, black, points, played in rows.values_list(
            "tournament_id", "white_id", "black_id", "white_points", "played"):
        games[tid].append(RatedGame(entry_member[white], entry_member[black], points, played))
    by_list: dict[str, list[TournamentInput]] = defaultdict(list)
    for t in tournaments:
        members = {g.white for g in games[t.id]} | {g.black for g in games[t.id]}
        by_list[rating_list_of(club, t)].append(TournamentInput(
            id=t.id, date=t.date, sequence=t.sequence, games=tuple(games[t.id]), rated=t.is_rated,
            juniors=frozenset(members & {who[j] for j in juniors}),
        ))
    return by_list


def snapshot_before(club: Club, key: OrderKey) -> dict[str, dict[int, Standing]]:
    """Each member's standing just before the tournament with order ``key``, by list,
    from the stored rating changes of the earlier tournaments."""
    date, sequence, tid = key
    earlier = RatingChange.objects.filter(tournament__club=club).exclude(
        tournament__date__gt=date).order_by(
        "tournament__date", "tournament__sequence", "tournament_id").values_list(
        "rating_list", "member_id", "rating_after", "games_before", "games_rated",
        "tournament__date", "tournament__sequence", "tournament_id")
    state: dict[str, dict[int, Standing]] = defaultdict(dict)
    peak: dict[tuple[str, int], bool] = {}
    for lst, member, after, before_games, rated, t_date, t_seq, t_id in earlier:
        if (t_date, t_seq, t_id) >= key:
            continue
        reached = peak.get((lst, member), False) or after >= 2400
        peak[(lst, member)] = reached
        state[lst][member] = Standing(after, before_games + rated, reached)
    return state


def _stored_rows(club: Club, tournament_ids: Iterable[int]) -> dict[RowKey, RowValues]:
    rows = RatingChange.objects.filter(tournament_id__in=list(tournament_ids)).values_list(
        "tournament_id", "member_id", "rating_list", "rating_before", "rating_after", "k",
        "games_before", "games_rated", "score_rated", "expected", "provisional_before")
    return {(r[0], r[1]): tuple(r[2:]) for r in rows}  # type: ignore[misc]


def _replayed_rows(club: Club, inputs: Mapping[str, list[TournamentInput]],
                   start: Mapping[str, Mapping[int, Standing]]) -> dict[RowKey, RowValues]:
    policy = policy_for(club)
    rows: dict[RowKey, RowValues] = {}
    for lst, tournaments in inputs.items():
        history = replay(tournaments, policy, start=dict(start.get(lst, {})))
        for outcome in history.outcomes:
            for c in outcome.changes:
                rows[(outcome.id, c.player)] = (
                    lst, c.rating_before, c.rating_after, c.k, c.games_before, c.games_rated,
                    round(c.score_rated * 2), c.expected, c.provisional_before)
    return rows


def _current_ratings(club: Club) -> dict[tuple[int, str], CurrentValues]:
    rows = CurrentRating.objects.filter(member__club=club).values_list(
        "member_id", "rating_list", "rating", "games", "provisional", "last_played")
    return {(m, lst): (r, g, p, d) for m, lst, r, g, p, d in rows}


def _write_current(club: Club) -> dict[tuple[int, str], CurrentValues]:
    """Recompute every member's current standing from the rating changes."""
    provisional_games = club.provisional_games
    latest: dict[tuple[int, str], CurrentValues] = {}
    rows = RatingChange.objects.filter(tournament__club=club).order_by(
        "tournament__date", "tournament__sequence", "tournament_id").values_list(
        "member_id", "rating_list", "rating_after", "games_before", "games_rated", "tournament__date")
    for member, lst, after, before_games, rated, date in rows:
        games = before_games + rated
        latest[(member, lst)] = (after, games, games < provisional_games, date)
    CurrentRating.objects.filter(member__club=club).delete()
    CurrentRating.objects.bulk_create([
        CurrentRating(member_id=m, rating_list=lst, rating=r, games=g, provisional=p, last_played=d)
        for (m, lst), (r, g, p, d) in sorted(latest.items())
    ], batch_size=2000)
    return latest


def rebuild(club: Club, *, reason: str, since: Tournament | OrderKey | None = None,
            expect_difference: bool = True) -> RebuildReport:
    """Replay the published history (all of it, or from ``since`` on) and store the result.

    Must run inside the transaction of the change that caused it; it opens
    one of its own when called alone (``clubrating rebuild``).
    """
    with transaction.atomic():
        published = list(Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
                         .order_by("date", "sequence", "id"))
        key = order_key(since) if isinstance(since, Tournament) else since
        replayed = [t for t in published if key is None or order_key(t) >= key]
        start = snapshot_before(club, key) if key is not None else {}
        stored = _stored_rows(club, [t.id for t in replayed]) if key is not None else _stored_rows(
            club, RatingChange.objects.filter(tournament__club=club).values_list("tournament_id", flat=True))
        fresh = _replayed_rows(club, tournament_inputs(club, replayed), start)
        differing = sum(1 for k in stored.keys() | fresh.keys() if stored.get(k) != fresh.get(k))
        stale = RatingChange.objects.filter(tournament__club=club)
        if key is not None:
            stale = stale.filter(tournament_id__in=[t.id for t in replayed] +
                                 list(Tournament.objects.filter(club=club).exclude(
                                     status=TournamentStatus.PUBLISHED).values_list("id", flat=True)))
        before = _current_ratings(club)
        stale.delete()
        RatingChange.objects.bulk_create([
            RatingChange(tournament_id=t, member_id=m, rating_list=v[0], rating_before=v[1],
                         rating_after=v[2], k=v[3], games_before=v[4], games_rated=v[5],
                         score_rated=v[6], expected=v[7], provisional_before=v[8])
            for (t, m), v in sorted(fresh.items())
        ], batch_size=2000)
        after = _write_current(club)
        changed = sum(1 for k in before.keys() | after.keys()
                      if (before.get(k) or (None,))[0] != (after.get(k) or (None,))[0])
        report = RebuildReport(len(replayed), differing, changed, key is None)
        RebuildLog.objects.create(club=club, reason=reason[:200], tournaments=report.tournaments,
                                  changes_differing=differing, ratings_changed=changed,
                                  expected_difference=expect_difference)
        return report
