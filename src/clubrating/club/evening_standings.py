"""The evening's standings with FIDE tie-breaks (issue 12), pure: the rounds so far in, ranked rows out.

The tie-breaks are computed by ``tiebreak-core`` under its ``fide-2026`` ruleset (FIDE Handbook C.07,
edition in force from 1 March 2026), from the same :class:`~clubrating.club.evening_pairing.History`
the pairings come from. Unplayed rounds are given their C.07 kind (a pairing-allocated bye, a
requested bye, a forfeit, an absence after a withdrawal): Article 16 then decides how each counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from tiebreak_core import (ABSENT, FORFEIT_LOSS, FORFEIT_WIN, PAIRING_BYE, PLAYED, REQUESTED_BYE, GameRecord,
                           PlayerTiebreakData, TiebreakError, rank_standings_strict)

from clubrating.club.evening_pairing import UNRATED, History
from clubrating.formats.records import ByeKind, HalfPoints

RULESET = "fide-2026"
TIEBREAKS: tuple[tuple[str, str, str], ...] = (
    # (tiebreak-core id, short name on the page, FIDE Handbook C.07 section)
    ("buchholz_cut1", "BH-C1", "C.07 14.1 Buchholz Cut-1"),
    ("buchholz", "BH", "C.07 8.1 Buchholz"),
    ("sonneborn_berger", "SB", "C.07 9.1 Sonneborn-Berger"),
    ("progressive", "PS", "C.07 7.5 progressive scores"),
)
"""The order of the tie-breaks: C.07 13.16.1's recommendation for an individual Swiss (Buchholz
Cut-1 first), then the full Buchholz, Sonneborn-Berger and the progressive score."""
NO_OPPONENT = -1   # tiebreak-core's opponent of a round without one (its models.VIRTUAL_KINDS); such a round
# still needs a colour in its GameRecord and gets "white", which no tie-break used here reads


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place: points (half-points) and each tie-break's value, by TIEBREAKS' order."""

    place: int
    number: int
    points: HalfPoints
    tiebreaks: tuple[float, ...]


def _records(history: History, rounds: int) -> dict[int, list[GameRecord]]:
    rating = {s.number: s.rating or UNRATED for s in history.seats}
    records: dict[int, list[GameRecord]] = {s.number: [] for s in history.seats}
    for r in (r for r in history.results if r.round <= rounds):
        for me, other, mine, theirs, colour in ((r.white, r.black, r.white_points, r.black_points, "white"),
                                                 (r.black, r.white, r.black_points, r.white_points, "black")):
            kind = PLAYED if r.played else FORFEIT_WIN if mine > theirs else FORFEIT_LOSS
            records[me].append(GameRecord(other, rating[other], mine / 2, colour, r.round, kind=kind,
                                          opponent_score=theirs / 2))
    for rest in (r for r in history.rests if r.round <= rounds):
        kind = PAIRING_BYE if rest.kind in (ByeKind.PAIRING, ByeKind.FULL_POINT) else REQUESTED_BYE
        records[rest.player].append(GameRecord(NO_OPPONENT, 0, rest.points / 2, "white", rest.round, kind=kind))
    for number, games in records.items():
        played = {g.round_number for g in games}
        games += [GameRecord(NO_OPPONENT, 0, 0.0, "white", rnd, kind=ABSENT)
                  for rnd in range(1, rounds + 1) if rnd not in played]   # not paired: absent, withdrawn
        games.sort(key=lambda g: g.round_number)
    return records


def standings(history: History, rounds: int) -> list[Standing]:
    """The players ranked by points, then by :data:`TIEBREAKS` (C.07), after ``rounds`` rounds."""
    if rounds == 0:
        return [Standing(i, s.number, 0, tuple(0.0 for _ in TIEBREAKS))
                for i, s in enumerate(sorted(history.seats, key=lambda s: s.number), 1)]
    records = _records(history, rounds)
    rating = {s.number: s.rating or UNRATED for s in history.seats}
    points = {n: round(sum(g.score for g in games) * 2) for n, games in records.items()}
    players = {n: PlayerTiebreakData(n, rating[n], points[n] / 2, games) for n, games in records.items()}
    criteria = [t[0] for t in TIEBREAKS]
    try:
        ranked = rank_standings_strict(players, criteria, total_rounds=rounds, ruleset=RULESET,
                                       pairing_numbers={n: n for n in players},
                                       deterministic_keys={n: n for n in players})
    except TiebreakError as error:   # a history the services should never store
        raise ValueError(f"the standings cannot be computed: {error}") from None
    return [Standing(place, p.player_id, points[p.player_id], tuple(float(p.values[c]) for c in criteria))
            for place, p in enumerate(ranked.players, 1)]

