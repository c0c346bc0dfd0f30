"""A tournament's standings, pure: its rounds in, ranked rows out, with the rule that ranked them.

One rule for every page and export of a tournament (:func:`rank_table`): the event's own result
first. The points written in the file (a TRF's 001 lines, columns 81-84) are the standings'
points, whatever the results compute (the arbiter is shown each difference,
:func:`points_differences`); the ranks written in it (columns 86-89) are its places whenever
they order those points. Otherwise (no ranks, or placeholder ranks that do not order the
points) points, then the tie-breaks FIDE recommends for the system (Handbook C.07), computed
by ``tiebreak-core`` under its ``fide-2026`` ruleset (C.07 in force from 1 March 2026).
Unplayed rounds are given their C.07 kind (a pairing-allocated bye, a requested bye, a forfeit,
an absence): C.07 Article 16 then decides how each counts.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clubrating.errors import Text
from clubrating.formats.records import Bye, ByeKind, HalfPoints, Pairing
from clubrating.words import N_

if TYPE_CHECKING:
    from tiebreak_core import GameRecord

RULESET = "fide-2026"
UNRATED = 0  # tiebreak-core's rating of an unrated player; no tie-break used here reads ratings
NO_OPPONENT = (
    -1
)  # tiebreak-core's opponent of a round without one (its models.VIRTUAL_KINDS); such a round
# still needs a colour in its GameRecord and gets "white", which no tie-break used here reads


class System(enum.Enum):
    """How a tournament was paired: it decides which tie-breaks FIDE recommends."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class Rule(enum.Enum):
    """What ranked a table."""

    WRITTEN = "written"  # the ranks written in the file
    TIEBREAKS = "tiebreaks"  # points, then the tie-breaks


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tie-break: tiebreak-core's id, the short name of the column, its name and C.07 section
    (the short name and the name in English, marked for the pages to translate)."""

    key: str
    short: str
    name: str
    source: str


BUCHHOLZ_CUT1 = Tiebreak("buchholz_cut1", N_("BH-C1"), N_("Buchholz Cut-1"), "C.07 14.1")
BUCHHOLZ = Tiebreak("buchholz", N_("BH"), N_("Buchholz"), "C.07 8.1")
SONNEBORN_BERGER = Tiebreak("sonneborn_berger", N_("SB"), N_("Sonneborn-Berger"), "C.07 9.1")
PROGRESSIVE = Tiebreak("progressive", N_("PS"), N_("progressive scores"), "C.07 7.5")
DIRECT_ENCOUNTER = Tiebreak("direct_encounter", N_("DE"), N_("direct encounter"), "C.07 6")
WINS = Tiebreak("wins", N_("WIN"), N_("number of wins"), "C.07 7.1")
KOYA = Tiebreak("koya", N_("KS"), N_("Koya system"), "C.07 9.2")

SWISS_TIEBREAKS: tuple[Tiebreak, ...] = (BUCHHOLZ_CUT1, BUCHHOLZ, SONNEBORN_BERGER, PROGRESSIVE)
"""An individual Swiss: C.07's recommendation (Buchholz Cut-1, then Buchholz), then Sonneborn-Berger
and the progressive score (tiebreak-core's DEFAULT_CRITERIA); the evening's order too."""
ROUND_ROBIN_TIEBREAKS: tuple[Tiebreak, ...] = (DIRECT_ENCOUNTER, WINS, SONNEBORN_BERGER, KOYA)
"""An individual round robin: C.07's recommendation (direct encounter, wins, Sonneborn-Berger,
Koya); Buchholz means nothing where everyone meets everyone (C.07 8, note)."""
DEFAULT_TIEBREAKS = {System.SWISS: SWISS_TIEBREAKS, System.ROUND_ROBIN: ROUND_ROBIN_TIEBREAKS}


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place (None: not ranked in the file), points and each tie-break's value
    (None where the tie-break ranks groups and has no value of its own, as direct encounter)."""

    place: int | None
    number: int
    points: HalfPoints
    tiebreaks: tuple[float | None, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """The ranked rows, the rule that ranked them and the tie-breaks of their columns."""

    rows: tuple[Standing, ...]
    rule: Rule
    system: System
    tiebreaks: tuple[Tiebreak, ...]
    why: Text | None = None  # why the ranks written in the file were not used, when they were not

    @property
    def note(self) -> str:
        """``why`` in English ("" when the ranks were used or there were none), as the API gives
        it."""
        return "" if self.why is None else str(self.why)

    def describe(self) -> str:
        """One line for the page: "Ranked as written in the file", "Ranked by points, then ..."."""
        if self.rule is Rule.WRITTEN:
            return RANKED_AS_WRITTEN
        names = ", ".join(t.name for t in self.tiebreaks)
        return RANKED_BY_POINTS % {"tiebreaks": names} + (f" ({self.note})" if self.note else "")


RANKED_AS_WRITTEN = N_("Ranked as written in the file")
RANKED_BY_POINTS = N_("Ranked by points, then %(tiebreaks)s")  # the web layer translates both


def _records(
    ratings: Mapping[int, int | None], pairings: Sequence[Pairing], byes: Sequence[Bye], rounds: int
) -> dict[int, list[GameRecord]]:
    # tiebreak-core is imported when standings are computed, not at every command's start
    from tiebreak_core import (
        ABSENT,
        FORFEIT_LOSS,
        FORFEIT_WIN,
        PAIRING_BYE,
        PLAYED,
        REQUESTED_BYE,
        GameRecord,
    )

    rating = {n: r or UNRATED for n, r in ratings.items()}
    records: dict[int, list[GameRecord]] = {n: [] for n in ratings}
    for r in (r for r in pairings if r.round <= rounds):
        for me, other, mine, theirs, colour in (
            (r.white, r.black, r.white_points, r.black_points, "white"),
            (r.black, r.white, r.black_points, r.white_points, "black"),
        ):
            kind = PLAYED if r.played else FORFEIT_WIN if mine > theirs else FORFEIT_LOSS
            records[me].append(
                GameRecord(
                    other,
                    rating[other],
                    mine / 2,
                    colour,
                    r.round,
                    kind=kind,
                    opponent_score=theirs / 2,
                )
            )
    for rest in (
        r for r in byes if r.round <= rounds and r.kind not in (ByeKind.ABSENT, ByeKind.UNFIELDED)
    ):
        kind = PAIRING_BYE if rest.kind in (ByeKind.PAIRING, ByeKind.FULL_POINT) else REQUESTED_BYE
        records[rest.player].append(
            GameRecord(NO_OPPONENT, 0, rest.points / 2, "white", rest.round, kind=kind)
        )
    for games in records.values():
        played = {g.round_number for g in games}
        games += [
            GameRecord(NO_OPPONENT, 0, 0.0, "white", rnd, kind=ABSENT)
            for rnd in range(1, rounds + 1)
            if rnd not in played
        ]  # not paired: absent, withdrawn
        games.sort(key=lambda g: g.round_number)
    return records


def tiebreak_standings(
    ratings: Mapping[int, int | None],
    pairings: Sequence[Pairing],
    byes: Sequence[Bye],
    rounds: int,
    tiebreaks: Sequence[Tiebreak] = SWISS_TIEBREAKS,
    system: System = System.SWISS,
) -> list[Standing]:
    """The players (start number -> rating) ranked by points, then ``tiebreaks``, after
    ``rounds``."""
    from tiebreak_core import (
        PlayerTiebreakData,
        TiebreakError,
        rank_standings_strict,
    )  # as _records

    if rounds == 0:
        return [
            Standing(i, n, 0, tuple(0.0 for _ in tiebreaks))
            for i, n in enumerate(sorted(ratings), 1)
        ]
    records = _records(ratings, pairings, byes, rounds)
    points = {n: round(sum(g.score for g in games) * 2) for n, games in records.items()}
    players = {
        n: PlayerTiebreakData(n, ratings[n] or UNRATED, points[n] / 2, games)
        for n, games in records.items()
    }
    criteria = [t.key for t in tiebreaks]
    try:
        ranked = rank_standings_strict(
            players,
            criteria,
            total_rounds=rounds,
            ruleset=RULESET,
            mode=system.value,
            pairing_numbers={n: n for n in players},
            deterministic_keys={n: n for n in players},
        )
    except TiebreakError as error:  # a history the services should never store
        raise ValueError(f"the standings cannot be computed: {error}") from None
    return [
        Standing(
            place,
            p.player_id,
            points[p.player_id],
            tuple(float(p.values[c]) if c in p.values else None for c in criteria),
        )
        for place, p in enumerate(ranked.players, 1)
    ]


def system_of(numbers: Sequence[int], pairings: Sequence[Pairing], hint: str = "") -> System:
    """What the file says (TRF 092 "Swiss-System", "Round Robin", "Berger"); when it says neither,
    a round robin if every two players met equally often, once or more, a Swiss otherwise."""
    text = hint.casefold()
    if "swiss" in text:
        return System.SWISS
    if "robin" in text or "berger" in text:
        return System.ROUND_ROBIN
    met = Counter(frozenset((p.white, p.black)) for p in pairings)
    pairs = len(numbers) * (len(numbers) - 1) // 2
    if len(numbers) > 2 and len(met) == pairs and len(set(met.values())) == 1:
        return System.ROUND_ROBIN
    return System.SWISS


def file_points(
    written: Mapping[int, HalfPoints | None], computed: Mapping[int, HalfPoints]
) -> dict[int, HalfPoints]:
    """The standings' points: the points written in the file (the event's own result) where it
    writes them, the computed points elsewhere. A points column all zero while the results
    give points is no result (some programs write zeros there): the computed points then."""
    given = {n: p for n, p in written.items() if p is not None and n in computed}
    if given and not any(given.values()) and any(computed.values()):
        given = {}
    return {n: given.get(n, points) for n, points in computed.items()}


def points_differences(
    written: Mapping[int, HalfPoints | None], computed: Mapping[int, HalfPoints]
) -> list[tuple[int, HalfPoints, HalfPoints]]:
    """(start number, written, computed) of each player whose points written in the file differ
    from the points the results give, by start number (none when the column is all zero)."""
    standing = file_points(written, computed)
    return [(n, standing[n], computed[n]) for n in sorted(computed) if standing[n] != computed[n]]


PUT_ABOVE = N_(
    "the file's ranks put player %(above)s above player %(below)s, who has more points,"
    " so they are not used"
)
SAME_RANK = N_(
    "the file gives players %(above)s and %(below)s the same rank with different points,"
    " so they are not used"
)


def written_ranks_problem(
    ranks: Mapping[int, int | None], points: Mapping[int, HalfPoints]
) -> Text | None:
    """Why the ranks written in a file cannot rank the table (None when they can): they must
    order the standings' points, a player ranked above another never with fewer points, two
    players of one rank with the same points (TRF allows ties). Ranks that do not are
    placeholders (a program writing start numbers, a file written mid-event)."""
    given = sorted((rank, number) for number, rank in ranks.items() if rank and number in points)
    for (rank_above, above), (rank_below, below) in zip(given, given[1:]):
        if rank_above == rank_below and points[above] != points[below]:
            return Text(SAME_RANK, above=above, below=below)
        if points[above] < points[below]:
            return Text(PUT_ABOVE, above=above, below=below)
    return None


def rank_table(
    ratings: Mapping[int, int | None],
    ranks: Mapping[int, int | None],
    pairings: Sequence[Pairing],
    byes: Sequence[Bye],
    rounds: int,
    system: System,
    written: Mapping[int, HalfPoints | None] | None = None,
) -> Table:
    """The standings of one tournament: the points written in its file (``written``, start
    number -> half-points; :func:`file_points`) and the ranks written in it when they order those
    points (:func:`written_ranks_problem`); else by points, then FIDE's default tie-breaks for
    ``system`` computed from the games. Players the file leaves unranked (rank 0 or blank:
    withdrawn) come last, without a place."""
    tiebreaks = DEFAULT_TIEBREAKS[system]
    computed = tiebreak_standings(ratings, pairings, byes, rounds, tiebreaks, system)
    points = file_points(written or {}, {row.number: row.points for row in computed})
    rows = [Standing(row.place, row.number, points[row.number], row.tiebreaks) for row in computed]
    problem = written_ranks_problem(ranks, points)
    if problem is not None or not any(ranks.values()):
        # by the file's points, then the tie-breaks' order (a stable sort keeps it in each score
        # group)
        by_points = sorted(rows, key=lambda row: -row.points)
        rows = [
            Standing(place, row.number, row.points, row.tiebreaks)
            for place, row in enumerate(by_points, 1)
        ]
        return Table(tuple(rows), Rule.TIEBREAKS, system, tiebreaks, problem)
    by_rank = sorted(
        rows, key=lambda row: (0, ranks[row.number] or 0) if ranks.get(row.number) else (1, 0)
    )
    return Table(
        tuple(
            Standing(ranks.get(row.number) or None, row.number, row.points, row.tiebreaks)
            for row in by_rank
        ),
        Rule.WRITTEN,
        system,
        tiebreaks,
    )
