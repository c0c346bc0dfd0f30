"""A tournament read for the CLI and the website: looked up by id,
its standings, round tables and written differences, and the club's list of
tournaments; plain dicts, a fixed number of queries."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.db.models.functions import Length
from django.utils.translation import gettext_noop

from clubrating.club.read.clubs import parse_id
from clubrating.club.read.members import merged_persons, persons_now
from clubrating.club.store.models import (
    Bye,
    Club,
    CurrentRating,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Game,
    RatingChange,
    Tournament,
    TournamentStatus,
    rating_list_of,
)
from clubrating.errors import NotFound
from clubrating.formats.records import Bye as ByeRecord
from clubrating.formats.records import ByeKind, Pairing, Unplayed
from clubrating.formats.results import result_text
from clubrating.tournament import (
    Rule,
    System,
    Table,
    file_points,
    points_differences,
    rank_table,
    system_of,
    tiebreak_standings,
)
from clubrating.tournament.roundrobin import PairingSystem
from clubrating.tournament.standings import DEFAULT_TIEBREAKS


def get_tournament(club: Club, tournament_id: int | str) -> Tournament:
    number = parse_id(tournament_id)
    tournament = (
        Tournament.objects.filter(club=club, id=number).first() if number is not None else None
    )
    if tournament is None:
        raise NotFound(
            gettext_noop("no tournament %(tournament_id)s in %(name)s"),
            tournament_id=tournament_id,
            name=club.name,
        )
    return tournament


def game_result_text(game: Game) -> str:
    """The stored game's result in the club's words: 1-0, 0-1, 1/2-1/2, +-, -+, --
    (:func:`clubrating.formats.results.result_text`)."""
    return result_text(game.white_points, game.black_points, game.played)


def standings(tournament: Tournament) -> dict[str, Any]:
    """Standings with every round's cell; byes, forfeits and bughouse marked as not rated.

    Ranked by :func:`rank_rounds` (the rule every page and export of the tournament uses): the
    points and ranks written in the file are the event's own result. Each tie-break's value, a
    line saying which rule ranked the table, each player's team (a team event) and where the
    written points differ from the results (``differences``, for the arbiter). Plain rows
    (``values_list``), a fixed number of queries whatever the size of the tournament."""
    entries = _entries_as_persons(tournament)
    cells, pairings, byes = _rounds(tournament, {e[0]: e[1] for e in entries})
    changes = {
        m: (before, after, n)
        for m, before, after, n in RatingChange.objects.filter(tournament=tournament).values_list(
            "member_id", "rating_before", "rating_after", "games_rated"
        )
    }
    written = {e[1]: e[6] for e in entries}
    table = rank_rounds(tournament, {e[1]: e[5] for e in entries}, pairings, byes, written)
    by_number = {e[1]: e for e in entries}
    team_of = {number: name for name, numbers in tournament.teams or [] for number in numbers}
    rows: list[dict[str, Any]] = []
    for row in table.rows:
        entry_id, entry_number, name, member_id, member_name, *_ = by_number[row.number]
        before, after, rated = (
            changes.get(member_id, (None, None, 0)) if member_id else (None, None, 0)
        )
        rows.append(
            {
                "place": row.place,
                "number": entry_number,
                "name": name,
                "member_id": member_id,
                "member": member_name,
                "points": row.points / 2,
                "tiebreaks": list(row.tiebreaks),
                "rounds": [cells[entry_id][r] for r in sorted(cells[entry_id])],
                "team": team_of.get(entry_number),
                "rating_before": before,
                "rating_after": after,
                "change": None if before is None or after is None else after - before,
                "games_rated": rated,
            }
        )
    why = table.why
    return {
        "tournament_id": tournament.id,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "status": tournament.status,
        "kind": tournament.kind,
        "time_control": tournament.time_control,
        "rated": tournament.is_rated,
        "rounds": tournament.rounds,
        "players": rows,
        "ranked_by": table.describe(),
        "ranking_note": table.note,
        "rule": table.rule.value,
        "system": table.system.value,
        "ranking_why": None
        if why is None
        else {"template": why.template, "values": dict(why.params)},
        "tiebreaks": [
            {"short": t.short, "name": t.name, "source": t.source} for t in table.tiebreaks
        ],
        "teams": team_table(tournament, {row.number: row.points for row in table.rows}, by_number),
        "differences": differences(written, pairings, byes, by_number),
    }


def written_differences(tournament: Tournament) -> list[dict[str, Any]]:
    """:func:`differences` of a stored tournament, for the arbiter's page (three queries)."""
    entries = {
        e[1]: e
        for e in Entry.objects.filter(tournament=tournament).values_list(
            "id", "number", "name", "points"
        )
    }
    _, pairings, byes = _rounds(tournament, {e[0]: n for n, e in entries.items()})
    return differences({n: e[3] for n, e in entries.items()}, pairings, byes, entries)


def team_table(
    tournament: Tournament, points: dict[int, int], entries: dict[int, tuple[Any, ...]]
) -> list[dict[str, Any]]:
    """A team event's teams in the file's order: each with its players by board (start number,
    name, the standings' points) and the sum of their points; [] for an individual event."""
    teams = []
    for name, numbers in tournament.teams or []:
        players = [
            {
                "number": n,
                "name": entries[n][2],
                "member_id": entries[n][3],
                "points": points[n] / 2,
            }
            for n in numbers
            if n in entries
        ]
        teams.append(
            {
                "name": name,
                "players": players,
                "points": sum(points[n] for n in numbers if n in points) / 2,
            }
        )
    return teams


UNPLAYED_CODES = {
    "forfeit": {2: "+", 0: "-"},
    "double-forfeit": {0: "-"},
    "no-moves": {2: "W", 1: "D", 0: "L"},
}
"""The TRF-16 code of a player's unplayed game, by the points it gave them."""


BYE_CODES = {
    ByeKind.HALF_POINT: "H",
    ByeKind.FULL_POINT: "F",
    ByeKind.PAIRING: "U",
    ByeKind.ZERO_POINT: "Z",
    ByeKind.UNFIELDED: "0000 - -",
    ByeKind.ABSENT: "0000 - -",
}
"""The TRF-16 code of a round without an opponent (a team event's player not fielded, or an absent
round, as ``0000 - -``)."""


def differences(
    written: dict[int, int | None],
    pairings: Sequence[Pairing],
    byes: Sequence[ByeRecord],
    entries: dict[int, tuple[Any, ...]],
) -> list[dict[str, Any]]:
    """Each player whose points written in the file differ from the points the results give: the
    written and computed points and the rounds that can explain it, the player's unplayed rounds
    with their TRF-16 code (``0000 - -``, ``+``, ``-``, ``H``, ``F``, ``U``, ``Z``, ``W D L``)."""
    computed = {n: 0 for n in entries}
    unplayed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for p in pairings:
        computed[p.white] += p.white_points
        computed[p.black] += p.black_points
        if not p.played:
            for me, mine in ((p.white, p.white_points), (p.black, p.black_points)):
                kind = (p.unplayed or Unplayed.FORFEIT).value
                unplayed[me].append(
                    {
                        "round": p.round,
                        "code": UNPLAYED_CODES[kind].get(mine, "-"),
                        "points": mine / 2,
                    }
                )
    for b in byes:
        computed[b.player] += b.points
        unplayed[b.player].append(
            {"round": b.round, "code": BYE_CODES[b.kind], "points": b.points / 2}
        )
    return [
        {
            "number": n,
            "name": entries[n][2],
            "written": w / 2,
            "computed": c / 2,
            "rounds": sorted(unplayed[n], key=lambda cell: cell["round"]),
        }
        for n, w, c in points_differences(written, computed)
    ]


def _entries_as_persons(tournament: Tournament) -> list[tuple[Any, ...]]:
    """The tournament's entries (id, number, name as written, member id, member name, rank, points
    written), each linked name as the member it stands for now: a name linked to a member merged
    away
    shows the member it was merged into, whose rating changes the replay stored
    (:func:`persons_now`)."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("id", "number", "name", "member_id", "member__name", "rank", "points")
    )
    now = persons_now(tournament.club, [e[3] for e in entries])
    return [
        (eid, n, name, now[m][0] if m else None, now[m][1] if m else None, rank, points)
        for eid, n, name, m, _, rank, points in entries
    ]


def _rounds(
    tournament: Tournament, number: dict[int, int]
) -> tuple[dict[int, dict[int, dict[str, Any]]], list[Pairing], list[ByeRecord]]:
    """Every entry's cells by round (entry id -> round -> cell), and the games and byes as records
    for the ranking (``number``: entry id -> start number). Two queries."""
    cells: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    pairings: list[Pairing] = []
    byes: list[ByeRecord] = []
    games = (
        Game.objects.filter(tournament=tournament)
        .annotate(has_moves=ExpressionWrapper(~Q(moves=""), output_field=BooleanField()))
        .values_list(
            "id",
            "round",
            "white_id",
            "black_id",
            "white_points",
            "black_points",
            "played",
            "unplayed",
            "colours_known",
            "has_moves",
        )
    )
    for gid, rnd, white, black, wp, bp, played, unplayed, colours_known, has_moves in games:
        result = result_text(wp, bp, played)
        pairings.append(
            Pairing(
                rnd,
                number[white],
                number[black],
                wp,
                bp,
                played,
                Unplayed(unplayed) if unplayed else None,
            )
        )
        for me, other, scored, colour in ((white, black, wp, "w"), (black, white, bp, "b")):
            cells[me][rnd] = {
                "round": rnd,
                "opponent": number[other],
                "colour": colour if colours_known else None,
                "score": scored / 2,
                "game_id": gid,
                "result": result,
                "has_moves": bool(has_moves),
                "rated": played and tournament.is_rated,
                "note": None if played else ("forfeit" if unplayed != "no-moves" else "not played"),
            }
    for rnd, entry_id, bye_points, kind in Bye.objects.filter(tournament=tournament).values_list(
        "round", "entry_id", "points", "kind"
    ):
        byes.append(ByeRecord(rnd, number[entry_id], bye_points, ByeKind(kind)))
        cells[entry_id][rnd] = {
            "round": rnd,
            "opponent": None,
            "colour": None,
            "score": bye_points / 2,
            "game_id": None,
            "result": "bye",
            "rated": False,
            "note": "bye",
            "has_moves": False,
        }
    return cells, pairings, byes


def table_of(tournament: Tournament) -> Table:
    """The tournament's ranked table, read from the database (:func:`rank_rounds`)."""
    numbers = list(
        Entry.objects.filter(tournament=tournament).values_list("id", "number", "rank", "points")
    )
    _, pairings, byes = _rounds(tournament, {entry_id: n for entry_id, n, _, _ in numbers})
    return rank_rounds(
        tournament,
        {n: rank for _, n, rank, _ in numbers},
        pairings,
        byes,
        {n: points for _, n, _, points in numbers},
    )


def rank_rounds(
    tournament: Tournament,
    ranks: dict[int, int | None],
    pairings: Sequence[Pairing],
    byes: Sequence[ByeRecord],
    written: dict[int, int | None] | None = None,
) -> Table:
    """The ranked table of a tournament's rounds (:func:`clubrating.tournament.rank_table`): an
    evening paired here by its own tie-breaks over the rounds finished; an imported file by the
    points (``written``: start number -> half-points) and ranks (``ranks``: start number -> rank)
    written in it, or by points and FIDE's default tie-breaks for its system."""
    evening = Evening.objects.filter(tournament=tournament).first()
    state = None
    if evening is not None:
        seeds = dict(
            EveningPlayer.objects.filter(entry__tournament=tournament).values_list(
                "entry__number", "seed_rating"
            )
        )
        playing = EveningBoard.objects.filter(
            tournament=tournament, round=evening.paired_rounds, game=None
        ).exists()
        state = EveningState(evening.paired_rounds, seeds, playing, PairingSystem(evening.system))
    return rank_with(tournament, ranks, pairings, byes, state, written)


@dataclass(frozen=True)
class EveningState:
    """What ranks an evening paired here: its rounds paired, seeds, and whether the last is still
    played."""

    paired_rounds: int
    seeds: dict[int, int | None]  # start number -> the club rating it was seeded by
    playing: bool
    system: PairingSystem = PairingSystem.SWISS

    @property
    def standings_system(self) -> System:
        """The tie-breaks' system: a round robin's (C.07: direct encounter, wins, ...) or a
        Swiss's."""
        return System.SWISS if self.system is PairingSystem.SWISS else System.ROUND_ROBIN


def rank_with(
    tournament: Tournament,
    ranks: dict[int, int | None],
    pairings: Sequence[Pairing],
    byes: Sequence[ByeRecord],
    evening: EveningState | None,
    written: dict[int, int | None] | None = None,
) -> Table:
    """:func:`rank_rounds` once the evening's state is read (no query)."""
    if evening is not None:
        finished = evening.paired_rounds - (
            1 if evening.playing else 0
        )  # a round still being played waits
        system = evening.standings_system
        rows = tiebreak_standings(
            {n: evening.seeds.get(n) for n in ranks},
            pairings,
            [b for b in byes if b.round <= evening.paired_rounds],
            finished,
            DEFAULT_TIEBREAKS[system],
            system,
        )
        return Table(tuple(rows), Rule.TIEBREAKS, system, DEFAULT_TIEBREAKS[system])
    rounds = max([tournament.rounds, *(p.round for p in pairings), *(b.round for b in byes)])
    system = system_of(list(ranks), pairings, dict(tournament.trf_headers or []).get("092", ""))
    return rank_table({n: None for n in ranks}, ranks, pairings, byes, rounds, system, written)


def tournament_summaries(
    club: Club, tournaments: Sequence[Tournament]
) -> dict[int, dict[str, Any]]:
    """Tournament id -> players, rounds, whether any game has moves, and the winners (the
    entries placed first by the event's own ranking, :func:`rank_rounds`): four to six
    queries for the whole list, whatever the number of tournaments. Rows straight from the
    cursor, records made only for a tournament whose winner the tie-breaks decide."""
    wanted = {t.id for t in tournaments}
    entries: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in _raw(
        Entry.objects.filter(tournament__club=club)
        .order_by("number")
        .values_list("tournament_id", "id", "number", "name", "member_id", "rank", "points")
    ):
        if row[0] in wanted:
            entries[row[0]].append(row[1:])
    number = {e[0]: e[1] for rows in entries.values() for e in rows}
    games: dict[int, list[tuple[int, int, int, int, int, bool]]] = defaultdict(list)
    moves: set[int] = set()
    for tid, rnd, white, black, wp, bp, played, length in _raw(
        Game.objects.filter(tournament__club=club)
        .annotate(moves_length=Length("moves"))
        .order_by()
        .values_list(
            "tournament_id",
            "round",
            "white_id",
            "black_id",
            "white_points",
            "black_points",
            "played",
            "moves_length",
        )
    ):
        if tid in wanted:
            games[tid].append((rnd, number[white], number[black], wp, bp, bool(played)))
            if length:
                moves.add(tid)
    byes: dict[int, list[ByeRecord]] = defaultdict(list)
    for tid, rnd, entry_id, pts, kind in _raw(
        Bye.objects.filter(tournament__club=club).values_list(
            "tournament_id", "round", "entry_id", "points", "kind"
        )
    ):
        if tid in wanted:
            byes[tid].append(ByeRecord(rnd, number[entry_id], pts, ByeKind(kind)))
    states = _evening_states(club)
    out = {}
    for t in tournaments:
        rows = entries.get(t.id, [])
        by_number = {e[1]: e for e in rows}
        first = _first_places(t, rows, games[t.id], byes[t.id], states.get(t.id))
        out[t.id] = {
            "players": len(rows),
            "has_moves": t.id in moves,
            "rounds": max([t.rounds, *(g[0] for g in games[t.id]), *(b.round for b in byes[t.id])]),
            "winners": [(by_number[n][2], by_number[n][3]) for n in first],
        }
    return out


def _raw(qs: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """A ``values_list`` query's rows from the cursor, without Django's per-value converters."""
    sql, params = qs.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _first_places(
    t: Tournament,
    rows: list[tuple[Any, ...]],
    games: list[tuple[int, int, int, int, int, bool]],
    byes: list[ByeRecord],
    evening: EveningState | None,
) -> list[int]:
    """The start numbers :func:`rank_with` places first. Without written ranks and outside an
    evening, points (the file's where it wrote them) rank first, so a sole top scorer is the
    winner without the tie-breaks."""
    if evening is None and all(e[4] is None for e in rows):
        computed = {e[1]: 0 for e in rows}
        for _, white, black, wp, bp, _ in games:
            computed[white] += wp
            computed[black] += bp
        for b in byes:
            computed[b.player] += b.points
        points = file_points({e[1]: e[5] for e in rows}, computed)
        top = max(points.values(), default=0)
        leaders = [n for n, v in points.items() if v == top]
        if len(leaders) == 1:
            return leaders
    ranks = {e[1]: e[4] for e in rows}
    written = {e[1]: e[5] for e in rows}
    key = hashlib.blake2b(
        repr(
            (
                t.rounds,
                dict(t.trf_headers or []).get("092", ""),
                sorted(ranks.items()),
                sorted(written.items()),
                games,
                byes,
                evening,
            )
        ).encode(),
        digest_size=16,
    ).digest()
    first = _FIRST_PLACES.get(key)
    if first is None:
        pairings = [
            Pairing(rnd, white, black, wp, bp, played)
            for rnd, white, black, wp, bp, played in games
        ]
        first = [
            r.number
            for r in rank_with(t, ranks, pairings, byes, evening, written).rows
            if r.place == 1
        ]
        _FIRST_PLACES[key] = first
        while len(_FIRST_PLACES) > FIRST_PLACES_KEPT:
            _FIRST_PLACES.pop(next(iter(_FIRST_PLACES)))
    return first


# The first places of tournaments with a tie at the top, by everything their ranking reads: the
# tie-breaks cost about 5 ms a tournament, and a club's list reads them all at every change.
FIRST_PLACES_KEPT = 20_000


_FIRST_PLACES: dict[bytes, list[int]] = {}


def _evening_states(club: Club) -> dict[int, EveningState]:
    """Every evening of the club paired here, as :func:`rank_with` ranks it: one query, three with
    evenings."""
    rows = list(
        Evening.objects.filter(tournament__club=club).values_list(
            "tournament_id", "paired_rounds", "system"
        )
    )
    paired = {tid: rounds for tid, rounds, _ in rows}
    system = {tid: PairingSystem(value) for tid, _, value in rows}
    if not paired:
        return {}
    seeds: dict[int, dict[int, int | None]] = defaultdict(dict)
    for tid, n, seed in EveningPlayer.objects.filter(entry__tournament__club=club).values_list(
        "entry__tournament_id", "entry__number", "seed_rating"
    ):
        seeds[tid][n] = seed
    playing = set(
        EveningBoard.objects.filter(tournament__club=club, game=None).values_list(
            "tournament_id", "round"
        )
    )
    return {
        tid: EveningState(rounds, seeds[tid], (tid, rounds) in playing, system[tid])
        for tid, rounds in paired.items()
    }


def club_ratings(tournament: Tournament) -> dict[int, int]:
    """Each start number's club rating, rounded, for a pairing program to seed by: an evening's
    seed rating; else the rating before the tournament (published), else the member's current
    rating on the tournament's list. Names not linked and new members have none."""
    if Evening.objects.filter(tournament=tournament).exists():
        seeds = EveningPlayer.objects.filter(entry__tournament=tournament).values_list(
            "entry__number", "seed_rating"
        )
        return {number: rating for number, rating in seeds if rating}
    members = dict(
        Entry.objects.filter(tournament=tournament)
        .exclude(member=None)
        .values_list("member_id", "number")
    )
    roots = merged_persons(tournament.club)
    top = {
        m: roots.get(m, m) for m in members
    }  # the rows are stored for the member a name stands for now
    before = dict(
        RatingChange.objects.filter(tournament=tournament).values_list("member_id", "rating_before")
    )
    rating_list = rating_list_of(tournament.club, tournament)
    now = dict(
        CurrentRating.objects.filter(
            member_id__in=set(top.values()), rating_list=rating_list
        ).values_list("member_id", "rating")
    )
    ratings = {
        number: before.get(top[member], now.get(top[member])) for member, number in members.items()
    }
    return {number: round(rating) for number, rating in ratings.items() if rating and rating >= 1}


def tournaments(club: Club, *, published_only: bool = False) -> list[dict[str, Any]]:
    qs = Tournament.objects.filter(club=club).order_by("-date", "-sequence", "-id")
    if published_only:
        qs = qs.filter(status=TournamentStatus.PUBLISHED)
    return [
        {
            "tournament_id": t.id,
            "name": t.name,
            "date": t.date.isoformat(),
            "status": t.status,
            "kind": t.kind,
            "time_control": t.time_control,
            "rounds": t.rounds,
        }
        for t in qs
    ]
