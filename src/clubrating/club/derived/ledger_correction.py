"""A corrected result's CPI ledger: only its two players' rows rebuilt.

A member's CPI depends on the member's own games alone (docs/cpi.md, "The ledger's rebuild"):
a corrected result changes its game's score, so the rows of its two players from that game on,
and no other row's figures; every row keeps its ordinal (its place in the club's ledger) while
no row joins or leaves. This path reads the two players' stored rows from the corrected
tournament on (hundreds at most, not the thousands of every member's) and the corrected game's
analysis, scores that game again, and replays the two players' rows from their stored scores;
when the game's scores did not change (the fitted presets give a result no weight) it reads
and rewrites the game's own two rows alone, under their new scoring key.
When the game's rows would join or leave the ledger (a result to or from a forfeit, of a game
long enough to score) it writes nothing and says so: the caller rebuilds from the tournament on
(:func:`clubrating.club.derived.ledger.rebuild_cpi`). Like that rebuild, it trusts the stored
rows it does not replay (the state machine compares the store with a ledger rebuilt from
scratch after every step); the analysis job's own rebuild replays the whole ledger.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db.models import Count, Q

from clubrating.club.derived.ledger import (
    RESULTS,
    CpiReport,
    StoredRow,
    _current,
    _mark_unscored,
    _scored,
    _store,
    _stored_entries,
    club_weights,
    scoring_key,
)
from clubrating.club.read.members import merged_persons
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import Club, CpiEntry, Game, GameAnalysis
from clubrating.cpi.facts import Color, GameFacts
from clubrating.cpi.index import Weights, ledger_step

__all__ = ["rebuild_cpi_of_players"]

Row = tuple[int, str, float, float, float]  # ordinal, colour, CPI before, ΔCPI, CPI after
Scored = dict[Color, tuple[float | None, dict[str, Any]]]  # ledger._scored: score, factors shown


def rebuild_cpi_of_players(club: Club, game: Game) -> CpiReport | None:
    """Rebuild the ledger rows of ``game``'s two players after its result was corrected (the
    new result stored, in the caller's transaction); None, having written nothing, when the
    game's rows join or leave the ledger."""
    with history_write(club):
        who = merged_persons(club)
        white, black = game.white.member_id, game.black.member_id
        if white is None or black is None or who.get(white, white) == who.get(black, black):
            return None  # a published game has both names linked, and two people
        players = {who.get(white, white), who.get(black, black)}
        weights = club_weights(club)
        key = scoring_key(weights, RESULTS.get((game.white_points, game.black_points), "*"))
        scored, mark = _scored_anew(game, weights, key)
        fresh = {(game.id, color.value): score for color, (score, _) in scored.items()}
        t = game.tournament
        since = (t.date, t.sequence, t.id)
        own = _stored_entries(club, since, players, [game.id])
        if {k for k, score in fresh.items() if score is not None} != own.keys():
            return None  # a row joins or leaves: every later ordinal of the club moves
        # the game's scores unchanged (a fitted preset's result weights are 0): no later row
        # moves, the game's own rows take the new key
        same = all(row[8] == fresh[k] for k, row in own.items())
        stored = own if same else _stored_entries(club, since, players)
        if any(row[7] is None or row[8] is None for row in stored.values()):
            return None  # a row without its key or score: the full rebuild scores it again
        if scored and mark is not None:  # the mark of a game too short to score: its new key
            _mark_unscored({game.id: key}, fresh, {game.id: mark})
        replayed = _replay(stored, fresh, weights)
        before = {(row[1], game_id): row for (game_id, _), row in stored.items()}
        shown = {game.id: {color: document for color, (_, document) in scored.items()}}
        return _write(replayed, before, key, game.id, shown)


def _scored_anew(game: Game, weights: Weights, key: str) -> tuple[Scored, str | None]:
    """The corrected game's scores under its new result (empty when it is not in the ledger:
    not played, not analysed, a bughouse night) and its stored "too short" mark (None without
    an analysis)."""
    analysis = GameAnalysis.objects.filter(game=game).values_list("facts", "unscored_with")
    found = analysis.first()
    if found is None:
        return {}, None
    if not game.played or game.tournament.kind == "bughouse":
        return {}, found[1]
    result = RESULTS.get((game.white_points, game.black_points), "*")
    facts = dataclasses.replace(GameFacts.from_dict(found[0]), result=result)
    return _scored(facts, weights, key), found[1]


def _replay(
    stored: dict[tuple[int, str], StoredRow],
    fresh: dict[tuple[int, str], float | None],
    weights: Weights,
) -> dict[tuple[int, int], Row]:
    """(member, game) -> the row again: each player's stored rows in ledger order, from the CPI
    before the first (the CPI after the player's last earlier row) and the number of earlier
    rows, with the corrected game's new score in place of its stored one."""
    rows = sorted(stored.items(), key=lambda item: item[1][2])
    cpi: dict[int, float] = {}
    played = _rows_before(rows)
    replayed: dict[tuple[int, int], Row] = {}
    for (game_id, color), (_, member, ordinal, _, before, _, _, _, score) in rows:
        cpi.setdefault(member, before)
        now = fresh.get((game_id, color), score)
        assert now is not None  # a row's score is stored, a corrected game's checked
        delta, after = ledger_step(cpi[member], now, weights, played[member])
        replayed[member, game_id] = (ordinal, color, cpi[member], delta, after)
        cpi[member], played[member] = after, played[member] + 1
    return replayed


def _rows_before(rows: list[tuple[tuple[int, str], StoredRow]]) -> dict[int, int]:
    """Each player's rows before the player's first replayed row (what the fitted settings'
    gain counts): one query."""
    first: dict[int, int] = {}
    for _, (_, member, ordinal, *_) in rows:
        first.setdefault(member, ordinal)
    if not first:
        return {}
    earlier = Q()
    for member, ordinal in first.items():
        earlier |= Q(member_id=member, ordinal__lt=ordinal)
    counted = (
        CpiEntry.objects.filter(earlier)
        .order_by()
        .values("member_id")
        .annotate(rows=Count("id"))
        .values_list("member_id", "rows")
    )
    return {member: 0 for member in first} | dict(counted)


def _write(
    replayed: dict[tuple[int, int], Row],
    before: dict[tuple[int, int], StoredRow],
    key: str,
    game_id: int,
    shown: dict[int, dict[Color, dict[str, Any]]],
) -> CpiReport:
    """Rewrite the rows that differ, and the corrected game's under its new key (as
    :func:`~clubrating.club.derived.ledger.rebuild_cpi`)."""
    old = {k: (row[2], row[3], row[4], row[5], row[6]) for k, row in before.items()}
    differing = {k for k in old if old[k] != replayed[k]}
    restamped = {k for k, row in before.items() if k[1] == game_id and row[7] != key}
    now, then = _current(old), _current(replayed)
    _store(replayed, differing | restamped, before, shown)
    games = len({k[1] for k in replayed})
    changed = sum(1 for m in now if now[m] != then[m])
    return CpiReport(games, len(replayed), len(differing), changed)
