"""Rebuild the derived ratings from the stored history (spec R13, R14): derived data, below
:mod:`clubrating.club.derived.rebuild`, which calls this and then the CPI ledger's rebuild.

Derived rows are never patched: the published tournaments are replayed by the pure core,
starting from the club's initial list (:class:`InitialEntry`, linked rows only), and the
rating changes written anew. A rebuild says how many stored rows differed from what it
computed, so that a missed rebuild is made visible (R14). A rebuild may start at a tournament
(``since``), from the stored per-tournament snapshots; a test checks that this equals a full
replay. The history is read straight into the columns of the vectorised replay
(:class:`clubrating.rating.replay.HistoryColumns`) and written with ``executemany``: a
federation's million games are rebuilt in seconds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext_noop

from clubrating.club.store.audit_text import stored as stored_text
from clubrating.club.store.locking import history_write
from clubrating.club.read.members import resolve_members
from clubrating.club.store.models import (
    Club,
    CurrentRating,
    Entry,
    Game,
    InitialEntry,
    Member,
    RatingChange,
    RebuildLog,
    Tournament,
    TournamentStatus,
    rating_list_of,
)
from clubrating.club.read.policy import policy_for
from clubrating.rating.initial import InitialRating, initial_standings
from clubrating.rating.policy import Policy
from clubrating.rating.replay import HistoryColumns, ReplayColumns, replay_columns
from clubrating.rating.types import Standing
from clubrating.errors import Text
from clubrating.words import Nn_

OrderKey = tuple[dt.date, int, int]
RowKey = tuple[int, int]  # (tournament id, member id)
CHANGE_COLUMNS = (
    "tournament_id",
    "member_id",
    "rating_list",
    "rating_before",
    "rating_after",
    "k",
    "games_before",
    "games_rated",
    "score_rated",
    "expected",
    "provisional_before",
)
CURRENT_COLUMNS = ("member_id", "rating_list", "rating", "games", "provisional", "last_played")
PEAK_RATING = 2400.0  # FIDE 8.3.3: K 10 once a player has reached 2400
INSERT_ROWS = 2_000  # rows of one INSERT at most (within SQLite's 999 parameters, fewer there)


@dataclass(frozen=True)
class RebuildReport:
    """What a rebuild did, in the words the arbiter sees."""

    tournaments: int  # tournaments replayed
    changes_differing: int  # stored rating-change rows that were not what the replay gives
    ratings_changed: int  # members whose current rating (on some list) changed
    full: bool

    def __str__(self) -> str:
        return str(self.text)

    @property
    def text(self) -> Text:
        """The sentence to translate: "rebuilt 2 tournaments, 3 ratings changed"."""
        return Text(
            gettext_noop("rebuilt %(tournaments)s, %(ratings)s changed"),
            tournaments=Text(
                Nn_("%(count)s tournament", "%(count)s tournaments"), count=self.tournaments
            ),
            ratings=Text(Nn_("%(count)s rating", "%(count)s ratings"), count=self.ratings_changed),
        )

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "tournaments": self.tournaments,
            "changes_differing": self.changes_differing,
            "ratings_changed": self.ratings_changed,
            "full": self.full,
        }


@dataclass
class Snapshot:
    """Where members stand on one list before the first replayed tournament."""

    standings: dict[int, Standing]
    last_played: dict[int, dt.date]


def order_key(tournament: Tournament) -> OrderKey:
    return (tournament.date, tournament.sequence, tournament.id)


def _table(model: Any) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def _insert(model: Any, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Many rows a statement (``VALUES (...), (...)``): psycopg's ``executemany`` sends one
    statement a row, which cost a correction in a 50,000-game club 0.3 s for its 2,000
    members' current ratings (benchmarks/bench_federation.py). On PostgreSQL through ``COPY``
    (psycopg's ``Cursor.copy``): psycopg parses every placeholder of a VALUES statement in
    Python, and 2,000 rating changes are written about 5 times as fast (docs/benchmarks.md,
    "The CPI ledger")."""
    if not rows:
        return
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # Django's wrapper around psycopg's cursor
            with cursor.cursor.copy(f"COPY {_table(model)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    row_marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
    per_statement = min(
        INSERT_ROWS, (connection.features.max_query_params or INSERT_ROWS) // len(columns)
    )
    with connection.cursor() as cursor:
        for lo in range(0, len(rows), per_statement):
            chunk = rows[lo : lo + per_statement]
            cursor.execute(
                f"INSERT INTO {_table(model)} ({names}) "
                f"VALUES {', '.join([row_marks] * len(chunk))}",
                [value for row in chunk for value in row],
            )


def history_columns(club: Club, tournaments: list[Tournament]) -> HistoryColumns:
    """The played games of ``tournaments`` (in order) as the replay's columns, keyed by member."""
    ordinal_of = {t.id: i for i, t in enumerate(tournaments)}
    rated = [t.id for t in tournaments if t.is_rated]
    rows = (
        # from the first tournament's day on: a replay from a snapshot reads no earlier game
        _fetch(
            "SELECT g.tournament_id, we.member_id, be.member_id, g.white_points FROM "
            f"{_table(Game)} g JOIN {_table(Entry)} we ON we.id = g.white_id JOIN "
            f"{_table(Entry)} be ON be.id = g.black_id JOIN {_table(Tournament)} t ON t.id "
            "= g.tournament_id WHERE t.club_id = %s AND t.status = %s AND t.kind <> %s AND "
            "g.played AND t.date >= %s ORDER BY g.tournament_id, g.round, g.board, g.id",
            [club.id, TournamentStatus.PUBLISHED, "bughouse", tournaments[0].date],
        )
        if rated
        else []
    )
    wanted = set(rated)
    rows = [r for r in rows if r[0] in wanted]
    data = np.array(rows, dtype=np.int64).reshape(-1, 4)
    ordinals = np.fromiter((ordinal_of[t] for t in data[:, 0].tolist()), np.int64, len(data))
    order = np.argsort(ordinals, kind="stable")  # tournament order, games in (round, board, id)
    who = resolve_members(club)
    keys = np.array(sorted(set(who.values())), dtype=np.int64)
    index_of = np.zeros(int(max(who, default=0)) + 1, np.int64)
    index_of[list(who)] = np.searchsorted(keys, list(who.values()))
    white, black = index_of[data[order, 1]], index_of[data[order, 2]]
    juniors = {
        who[j] for j in Member.objects.filter(club=club, junior=True).values_list("id", flat=True)
    }
    junior_index = np.searchsorted(keys, sorted(juniors))
    game_t = ordinals[order]
    codes = np.concatenate([game_t * len(keys) + white, game_t * len(keys) + black])
    is_junior = np.isin(codes % max(len(keys), 1), junior_index)
    return HistoryColumns(
        tournament_ids=tuple(t.id for t in tournaments),
        keys=tuple(keys.tolist()),
        game_tournament=game_t,
        white=white,
        black=black,
        white_points=data[order, 3],
        junior_codes=np.unique(codes[is_junior]),
    )


def snapshot_before(club: Club, key: OrderKey | None) -> dict[str, Snapshot]:
    """Each member's standing just before the tournament with order ``key``, by list,
    from the stored rating changes of the earlier tournaments (the snapshots): the newest
    row of each member and list, and whether any row reached 2400, picked by the database
    (window functions, SQL:2003; SQLite 3.25 on) rather than every row read."""
    snapshots: dict[str, Snapshot] = {}
    if key is None:
        return snapshots
    member = "PARTITION BY c.rating_list, c.member_id"
    rows = _fetch(
        "SELECT rating_list, member_id, rating_after, games, day, top FROM (SELECT "
        "c.rating_list, c.member_id, c.rating_after, c.games_before + c.games_rated AS games, "
        f"t.date AS day, MAX(c.rating_after) OVER ({member}) AS top, ROW_NUMBER() OVER "
        f"({member} ORDER BY t.date DESC, t.sequence DESC, t.id DESC) AS newest FROM "
        f"{_table(RatingChange)} c JOIN {_table(Tournament)} t ON t.id = c.tournament_id WHERE "
        "t.club_id = %s AND (t.date < %s OR (t.date = %s AND (t.sequence < %s OR (t.sequence "
        "= %s AND t.id < %s))))) latest WHERE newest = 1 ORDER BY rating_list, member_id",
        [club.id, key[0], key[0], key[1], key[1], key[2]],
    )
    for lst, member_id, after, games, day, top in rows:
        snap = snapshots.setdefault(lst, Snapshot({}, {}))
        snap.standings[member_id] = Standing(after, games, top >= PEAK_RATING)
        snap.last_played[member_id] = (
            day if isinstance(day, dt.date) else dt.date.fromisoformat(day)
        )
    return snapshots


def _fresh_rows(lst: str, result: ReplayColumns) -> list[tuple[Any, ...]]:
    keep = result.games_rated > 0
    ids = np.asarray(result.columns.tournament_ids, np.int64)
    keys = np.asarray(result.columns.keys, np.int64)
    before = result.rating_before[keep]
    return list(
        zip(
            ids[result.slot_tournament[keep]].tolist(),
            keys[result.slot_player[keep]].tolist(),
            [lst] * int(keep.sum()),
            before.tolist(),
            (before + result.change[keep]).tolist(),
            result.k[keep].tolist(),
            result.games_before[keep].tolist(),
            result.games_rated[keep].tolist(),
            np.rint(result.score_rated[keep] * 2).astype(np.int64).tolist(),
            result.expected[keep].tolist(),
            result.provisional_before[keep].tolist(),
        )
    )


def _current_rows(
    policy: Policy, lst: str, snap: Snapshot, result: ReplayColumns, dates: Sequence[dt.date]
) -> list[tuple[Any, ...]]:
    """Current standings: the snapshot, overlaid by everybody who played a rated game since.
    Provisional as the replay counted it (R6): by the policy's threshold, FIDE's under
    ``policy=fide`` whatever number the club's settings still hold."""
    rating = {m: s.rating for m, s in snap.standings.items()}
    games = {m: s.games for m, s in snap.standings.items()}
    last = dict(snap.last_played)
    keys = result.columns.keys
    played = result.games_rated > 0
    for slot_t, p in zip(
        result.slot_tournament[played].tolist(), result.slot_player[played].tolist()
    ):
        last[keys[p]] = dates[slot_t]
    touched = np.zeros(result.final_rating.size, np.bool_)
    touched[result.slot_player[played]] = True
    for p in np.flatnonzero(touched).tolist():
        rating[keys[p]], games[keys[p]] = float(result.final_rating[p]), int(result.final_games[p])
    below = policy.provisional_below
    return [(m, lst, rating[m], games[m], games[m] < below, last.get(m)) for m in sorted(rating)]


def reached_from_initial(
    held: dict[int, Standing], initial: dict[int, Standing]
) -> dict[int, Standing]:
    """The stored rows' standings, each still having reached 2400 if its initial rating had
    (docs/ratings.md): the snapshot's peak is read from the rows' ratings after only."""
    return {
        m: s
        if s.peak_reached_2400 or not (m in initial and initial[m].peak_reached_2400)
        else Standing(s.rating, s.games, True)
        for m, s in held.items()
    }


def initial_list_standings(club: Club, policy: Policy) -> dict[int, Standing]:
    """The club's initial list as the replay's start, keyed by the active member of each
    linked row (unlinked rows do not count; of two rows of one person, the first counts)."""
    who = resolve_members(club)
    rows = (
        InitialEntry.objects.filter(club=club, member__isnull=False)
        .order_by("number")
        .values_list("member_id", "rating", "games")
    )
    return initial_standings(
        (InitialRating(who[m], rating, games) for m, rating, games in rows), policy
    )


def _stored(
    model: Any, columns: Sequence[str], where: str, params: list[Any]
) -> dict[RowKey, tuple[Any, ...]]:
    """Stored rows keyed by their first two columns. Booleans come back as 0/1 from
    some databases: fine, since ``True == 1`` and they hash alike."""
    sql = f"SELECT {', '.join('x.' + c for c in columns)} FROM {_table(model)} x {where}"
    return {(row[0], row[1]): tuple(row) for row in _fetch(sql, params)}


def _as_current(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A stored current row as the rebuild makes one (SQLite gives 0/1 and ISO dates)."""
    member, lst, rating, games, provisional, last = row
    last = dt.date.fromisoformat(last) if isinstance(last, str) else last
    return (member, lst, rating, games, bool(provisional), last)


def _write_current(stored: dict[RowKey, tuple[Any, ...]], current: list[tuple[Any, ...]]) -> None:
    """Delete and write again only the current rows that differ from ``current``: the table
    ends as if every row were rewritten, but a correction changes a few members' standings
    of the thousands a big club has (the CPI ledger is written the same way)."""
    fresh = {(r[0], r[1]): r for r in current}
    stale = sorted(k for k, r in stored.items() if fresh.get(k) != r)
    with connection.cursor() as cursor:
        for lst in sorted({k[1] for k in stale}):
            members = [k[0] for k in stale if k[1] == lst]
            for lo in range(0, len(members), INSERT_ROWS // 4):
                chunk = members[lo : lo + INSERT_ROWS // 4]
                cursor.execute(
                    f"DELETE FROM {_table(CurrentRating)} WHERE rating_list = %s AND member_id IN "
                    f"({', '.join(['%s'] * len(chunk))})",
                    [lst, *chunk],
                )
    _insert(CurrentRating, CURRENT_COLUMNS, [r for k, r in fresh.items() if stored.get(k) != r])


def published_from(club: Club, key: OrderKey | None) -> list[Tournament]:
    """The published tournaments in order, all of them or those from ``key`` on: the publish of
    a club's latest evening reads that evening, not the hundreds before it."""
    rows = Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
    if key is not None:
        day, sequence, tournament_id = key
        rows = rows.filter(
            Q(date__gt=day)
            | Q(date=day, sequence__gt=sequence)
            | Q(date=day, sequence=sequence, id__gte=tournament_id)
        )
    return list(rows.order_by("date", "sequence", "id"))


def history_lists(club: Club, history: list[Tournament] | None = None) -> set[str]:
    """The rating lists of the club's published rated history (:func:`rating_list_of`; a
    bughouse night opens none, R8), from ``history`` when the caller holds all of it, else
    asked of the database."""
    if history is not None:
        return {rating_list_of(club, t) for t in history if t.is_rated}
    rows = (
        Tournament.objects.filter(club=club, status=TournamentStatus.PUBLISHED)
        .exclude(kind="bughouse")
        .order_by()
    )
    if club.separate_lists:
        return set(rows.values_list("time_control", flat=True).distinct())
    return {"standard"} if rows.exists() else set()


def rebuild_ratings(
    club: Club,
    *,
    reason: str | Text,
    since: Tournament | OrderKey | None = None,
    expect_difference: bool = True,
) -> RebuildReport:
    """Replay the published history (all of it, or from ``since`` on) and store the ratings.

    Runs inside the transaction of the change that caused it (it opens one of
    its own, holding the club's lock, when called alone). The CPI ledger is not
    touched: :func:`clubrating.club.derived.rebuild.rebuild_derived` rebuilds both, in order.
    """
    with history_write(club):
        key = order_key(since) if isinstance(since, Tournament) else since
        published = published_from(club, key)
        snapshots = snapshot_before(club, key)
        policy = policy_for(club)
        fresh: list[tuple[Any, ...]] = []
        current: list[tuple[Any, ...]] = []
        initial = initial_list_standings(club, policy)
        # every list the history has, not only those replayed: a partial rebuild must leave
        # the same current rows (the initial list counts on each) as a full one
        lists = sorted(
            history_lists(club, published if key is None else None)
            | set(snapshots)
            | ({"standard"} if initial else set())
        )
        for lst in lists:
            tournaments = [t for t in published if rating_list_of(club, t) == lst]
            held = snapshots.get(lst, Snapshot({}, {}))
            snap = Snapshot(
                {**initial, **reached_from_initial(held.standings, initial)}, held.last_played
            )
            result = replay_columns(history_columns(club, tournaments), policy, snap.standings)
            fresh += _fresh_rows(lst, result)
            current += _current_rows(policy, lst, snap, result, [t.date for t in tournaments])
        replayed_ids = [t.id for t in published]
        scope = "JOIN {t} t ON t.id = x.tournament_id WHERE t.club_id = %s".format(
            t=_table(Tournament)
        )
        params: list[Any] = [club.id]
        if key is not None:
            scope += (
                " AND (t.status <> %s OR t.date > %s OR (t.date = %s AND (t.sequence > %s OR "
                "(t.sequence = %s AND t.id >= %s))))"
            )
            params += [TournamentStatus.PUBLISHED, key[0], key[0], key[1], key[1], key[2]]
        stored = _stored(RatingChange, CHANGE_COLUMNS, scope, params)
        replayed = {(r[0], r[1]): r for r in fresh}
        differing = sum(
            1 for k in stored.keys() | replayed.keys() if stored.get(k) != replayed.get(k)
        )
        member_scope = "JOIN {m} m ON m.id = x.member_id WHERE m.club_id = %s".format(
            m=_table(Member)
        )
        stored_current = {
            k: _as_current(r)
            for k, r in _stored(CurrentRating, CURRENT_COLUMNS, member_scope, [club.id]).items()
        }
        current_before = {k: r[2] for k, r in stored_current.items()}
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {_table(RatingChange)} WHERE id IN (SELECT x.id FROM "
                f"{_table(RatingChange)} x {scope})",
                params,
            )
        _insert(RatingChange, CHANGE_COLUMNS, fresh)
        _write_current(stored_current, current)
        current_after = {(r[0], r[1]): r[2] for r in current}
        changed = len(
            {
                k[0]
                for k in current_before.keys() | current_after.keys()
                if current_before.get(k) != current_after.get(k)
            }
        )
        report = RebuildReport(len(replayed_ids), differing, changed, key is None)
        RebuildLog.objects.create(
            club=club,
            reason=str(reason)[:200],
            reason_text=stored_text(reason),
            tournaments=report.tournaments,
            changes_differing=differing,
            ratings_changed=changed,
            expected_difference=expect_difference,
        )
        return report
