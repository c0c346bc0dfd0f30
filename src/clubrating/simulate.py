"""Seeded simulations: a realistic club for the demo, a federation for the benchmark.

Pure: everything comes from ``random.Random(seed)``; nothing is read or written.
The same seed always gives the same club, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from clubrating.errors import InputError
from clubrating.formats.records import (
    Bye, ByeKind, Pairing, PlayerEntry, TimeControl, TournamentKind, TournamentRecord, Unplayed,
)
from clubrating.rating.types import RatedGame, TournamentInput

DRAW_BAND = 0.25                   # share of draws between equal players (a round figure for clubs)
SEASON_START = dt.date(2021, 9, 7)  # a Tuesday: club night


def game_points(rng: random.Random, white_strength: float, black_strength: float) -> int:
    """White's half-points from hidden strengths: the R1 curve, with a band of draws."""
    p = 1.0 / (1.0 + math.pow(10.0, (black_strength - white_strength) / 400.0))
    u = rng.random()
    if u < p - DRAW_BAND / 2:
        return 2
    return 1 if u < p + DRAW_BAND / 2 else 0


# -- federation-sized histories (benchmark) ------------------------------------------------

CLUB_SIZE = 100          # players per club of the synthetic federation
OPEN_SHARE = 0.15        # tournaments open to a region of clubs instead of one club
REGION_CLUBS = 10
UNPLAYED_SHARE = 0.01    # forfeits (R8)
ROUNDS = 5


def simulate_history(seed: int, games: int = 1_000_000, players: int = 50_000,
                     tournaments: int = 20_000, years: int = 10) -> list[TournamentInput]:
    """A federation's history: clubs of 100 players, club and regional Swiss events.

    Player keys are ints ``0 .. players-1``; exactly ``games`` pairings (about 1 %
    unplayed) spread evenly over ``tournaments`` tournaments of five rounds.
    """
    if min(games, players, tournaments) <= 0 or players < 2:
        raise ValueError("games, players and tournaments must be positive")
    rng = random.Random(seed)
    strength = [rng.gauss(1500.0, 300.0) for _ in range(players)]
    clubs = [list(range(lo, min(lo + CLUB_SIZE, players))) for lo in range(0, players, CLUB_SIZE)]
    history = []
    for index in range(tournaments):
        target = games // tournaments + (1 if index < games % tournaments else 0)
        pool = _pool(rng, clubs)
        boards = max(1, min(len(pool) // 2, math.ceil(target / ROUNDS)))
        entrants = rng.sample(pool, 2 * boards)
        pairings = _random_rounds(rng, entrants, target, strength)
        days = index * years * 365 // tournaments
        history.append(TournamentInput(
            id=index, date=dt.date(2010, 1, 1) + dt.timedelta(days=days), sequence=index,
            games=tuple(pairings),
            juniors=frozenset(p for p in entrants if p % 23 == 0),
        ))
    return history


def _pool(rng: random.Random, clubs: list[list[int]]) -> list[int]:
    first = rng.randrange(len(clubs))
    if rng.random() >= OPEN_SHARE:
        return clubs[first]
    region = range(first - first % REGION_CLUBS, min(len(clubs), first - first % REGION_CLUBS + REGION_CLUBS))
    return [p for c in region for p in clubs[c]]


def _random_rounds(rng: random.Random, entrants: list[int], target: int,
                   strength: list[float]) -> list[RatedGame]:
    pairings: list[RatedGame] = []
    while len(pairings) < target:
        rng.shuffle(entrants)
        for board in range(0, len(entrants) - 1, 2):
            if len(pairings) == target:
                break
            white, black = entrants[board], entrants[board + 1]
            played = rng.random() >= UNPLAYED_SHARE
            points = game_points(rng, strength[white], strength[black]) if played else rng.choice((0, 2))
            pairings.append(RatedGame(white, black, points, played))
    return pairings


# -- a realistic club (demo) ---------------------------------------------------------------

FIRST_NAMES = ("Anna", "Aram", "Ben", "Clara", "David", "Elena", "Felix", "Gayane", "Hugo", "Irina",
               "Jason", "Karen", "Lena", "Marco", "Nora", "Oscar", "Paula", "Quentin", "Rita", "Samuel",
               "Tigran", "Ursula", "Victor", "Wanda", "Xavier", "Yana", "Zara", "Lilit", "Narek", "Sofia")
SURNAMES = ("Petrosyan", "Smith", "Becher", "Novak", "Muller", "Rossi", "Garcia", "Ivanova", "Hakobyan",
            "Brown", "Dubois", "Kowalski", "Jensen", "Silva", "Sargsyan", "Weber", "Moreau", "Lindqvist",
            "Horvath", "Costa", "Kuznetsov", "Martirosyan", "Fischer", "Nielsen", "Romero", "Tanaka")
EVENINGS_PER_SEASON = 30   # weekly club nights, September to May
ATTENDANCE = 0.45          # chance that an active member comes on a given evening
HALF_BYE_REQUEST = 0.03    # per player and round
FORFEIT = 0.02             # per pairing: a no-show
MISSPELLING = 0.15         # chance a name is typed in a variant on a given evening
JUNIOR_SHARE = 0.15
JUNIOR_GROWTH = 60.0       # a junior's true strength grows this much per season


@dataclass(frozen=True, slots=True)
class SimulatedMember:
    name: str
    strength: float          # hidden true strength at the start
    junior: bool
    joins: int               # first season (0-based)
    leaves: int              # first season no longer active


@dataclass(frozen=True, slots=True)
class Correction:
    """A result corrected after publication: the arbiter's edit."""

    tournament: int          # index into SimulatedClub.tournaments
    round: int
    white: str               # names as typed that evening
    black: str
    white_points: int        # the new result, in half-points
    black_points: int


@dataclass(frozen=True, slots=True)
class SimulatedClub:
    members: tuple[SimulatedMember, ...]
    tournaments: tuple[TournamentRecord, ...]
    true_name: dict[str, str]            # every typed name -> the member behind it
    juniors: frozenset[str]              # member names flagged junior
    corrections: tuple[Correction, ...]


def simulate_club(seed: int, seasons: int = 3, members: int = 40,
                  evenings: int = EVENINGS_PER_SEASON) -> SimulatedClub:
    """A club's seasons of weekly Swiss evenings, as the arbiter would type them in."""
    rng = random.Random(seed)
    roster = _members(rng, members, seasons)
    typed = _Typist(rng, roster)
    records: list[TournamentRecord] = []
    for season in range(seasons):
        bughouse_night = rng.randrange(evenings)
        for week in range(evenings):
            date = SEASON_START + dt.timedelta(weeks=52 * season + week)
            present = [m for m in roster if m.joins <= season < m.leaves and rng.random() < ATTENDANCE]
            if len(present) < 4:
                continue
            kind = TournamentKind.BUGHOUSE if week == bughouse_night else TournamentKind.CHESS
            records.append(_evening(rng, present, season, date, kind, typed, len(records)))
    return SimulatedClub(members=roster, tournaments=tuple(records), true_name=dict(typed.member_of),
                         juniors=frozenset(m.name for m in roster if m.junior),
                         corrections=(_correction(rng, records),))


def _members(rng: random.Random, count: int, seasons: int) -> tuple[SimulatedMember, ...]:
    names = rng.sample([f"{f} {s}" for f in FIRST_NAMES for s in SURNAMES], count + count // 4)
    roster = []
    for i, name in enumerate(names):
        late = i >= count                                  # late joiners
        joins = rng.randrange(1, max(2, seasons)) if late else 0
        leaves = rng.randrange(joins + 1, seasons + 1) if joins < seasons and rng.random() < 0.15 else seasons + 1
        junior = rng.random() < JUNIOR_SHARE
        strength = rng.gauss(1150.0 if junior else 1450.0, 250.0)
        roster.append(SimulatedMember(name, strength, junior, joins, leaves))
    return tuple(roster)


class _Typist:
    """Names as the arbiter types them: mostly right, sometimes a variant (R11)."""

    def __init__(self, rng: random.Random, roster: tuple[SimulatedMember, ...]) -> None:
        self.rng = rng
        self.member_of: dict[str, str] = {m.name: m.name for m in roster}

    def name(self, member: SimulatedMember) -> str:
        if self.rng.random() >= MISSPELLING:
            return member.name
        first, last = member.name.split(" ", 1)
        variant = self.rng.choice((f"{first[0]}. {last}", f"{first} {_typo(self.rng, last)}",
                                   f"{last} {first}", f"{last}, {first}"))
        if self.member_of.setdefault(variant, member.name) != member.name:
            return member.name                             # the variant is somebody else's: type it right
        return variant


def _typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]         # swapped letters
    return word[:i] + rng.choice("aeiouy") + word[i + 1:]              # one letter wrong


def _evening(rng: random.Random, present: list[SimulatedMember], season: int, date: dt.date,
             kind: TournamentKind, typist: _Typist, index: int) -> TournamentRecord:
    """One club night: a 4-5 round Swiss paired by score, then strength."""
    def now(m: SimulatedMember) -> float:
        return m.strength + (JUNIOR_GROWTH * season if m.junior else 0.0)

    seeded = sorted(present, key=now, reverse=True)
    number = {m.name: i + 1 for i, m in enumerate(seeded)}
    score = {m.name: 0 for m in seeded}
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    rounds = rng.choice((4, 5))
    for rnd in range(1, rounds + 1):
        playing = []
        for m in seeded:
            if rng.random() < HALF_BYE_REQUEST:
                byes.append(Bye(rnd, number[m.name], 1, ByeKind.HALF_POINT))
                score[m.name] += 1
            else:
                playing.append(m)
        playing.sort(key=lambda m: (-score[m.name], -now(m)))
        if len(playing) % 2:                               # odd: the lowest without a bye sits out
            out = next((m for m in reversed(playing) if m.name not in had_bye), playing[-1])
            playing.remove(out)
            had_bye.add(out.name)
            byes.append(Bye(rnd, number[out.name], 2, ByeKind.PAIRING))
            score[out.name] += 2
        for white, black in _pair(playing, met):
            if rng.random() < 0.5:
                white, black = black, white
            pairing = _game(rng, rnd, number[white.name], number[black.name], now(white), now(black))
            score[white.name] += pairing.white_points
            score[black.name] += pairing.black_points
            pairings.append(pairing)
    players = tuple(PlayerEntry(number[m.name], typist.name(m), score[m.name]) for m in seeded)
    title = "Bughouse night" if kind is TournamentKind.BUGHOUSE else "Club night"
    return TournamentRecord(name=f"{title} {date.isoformat()}", date=date, players=players,
                            pairings=tuple(pairings), byes=tuple(byes), rounds=rounds,
                            time_control=TimeControl.RAPID, kind=kind, source=f"simulated-{index}",
                            format="simulated")


def _pair(playing: list[SimulatedMember],
          met: set[frozenset[str]]) -> list[tuple[SimulatedMember, SimulatedMember]]:
    """Top down: each player meets the next one not met yet tonight (else the next one)."""
    left = list(playing)
    pairs = []
    while left:
        first = left.pop(0)
        partner = next((m for m in left if frozenset((first.name, m.name)) not in met), left[0])
        left.remove(partner)
        met.add(frozenset((first.name, partner.name)))
        pairs.append((first, partner))
    return pairs


def _game(rng: random.Random, rnd: int, white: int, black: int,
          white_strength: float, black_strength: float) -> Pairing:
    if rng.random() < FORFEIT:                             # a no-show: never rated (R8)
        white_points = rng.choice((2, 0))
        return Pairing(rnd, white, black, white_points, 2 - white_points, played=False,
                       unplayed=Unplayed.FORFEIT)
    white_points = game_points(rng, white_strength, black_strength)
    return Pairing(rnd, white, black, white_points, 2 - white_points)


def _correction(rng: random.Random, records: list[TournamentRecord]) -> Correction:
    """One result typed wrong and corrected later, in a rated evening of the first half."""
    rated = [i for i, r in enumerate(records[: max(1, len(records) // 2)])
             if r.kind is TournamentKind.CHESS and any(p.played for p in r.pairings)]
    if not rated:
        raise InputError("too few members: no evening had four players to pair")
    index = rng.choice(rated)
    record = records[index]
    pairing = rng.choice([p for p in record.pairings if p.played])
    names = {p.number: p.name for p in record.players}
    new_points = rng.choice([points for points in (2, 1, 0) if points != pairing.white_points])
    return Correction(index, pairing.round, names[pairing.white], names[pairing.black],
                      new_points, 2 - new_points)
