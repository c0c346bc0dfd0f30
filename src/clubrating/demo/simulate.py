"""Seeded simulations: a realistic club for the demo, a federation for the benchmark.

Pure: everything comes from ``random.Random(seed)``; nothing is read or written.
The same seed always gives the same club, byte for byte. The club's last
evenings may be played over the board by a function the caller gives (the
demo's engine self-play, :mod:`clubrating.demo.selfplay`); the simulator
only pairs the rounds and takes the results.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import statistics
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.formats.records import (
    Bye,
    ByeKind,
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.rating.types import RatedGame, TournamentInput

DRAW_BAND = 0.25  # share of draws between equal players (a round figure for clubs)
SEASON_START = dt.date(2021, 9, 7)  # a Tuesday: club night


def game_points(rng: random.Random, white_strength: float, black_strength: float) -> int:
    """White's half-points from hidden strengths: the R1 curve, with a band of draws."""
    p = 1.0 / (1.0 + math.pow(10.0, (black_strength - white_strength) / 400.0))
    u = rng.random()
    if u < p - DRAW_BAND / 2:
        return 2
    return 1 if u < p + DRAW_BAND / 2 else 0


# -- federation-sized histories (benchmark) ------------------------------------------------

CLUB_SIZE = 100  # players per club of the synthetic federation
OPEN_SHARE = 0.15  # tournaments open to a region of clubs instead of one club
REGION_CLUBS = 10
UNPLAYED_SHARE = 0.01  # forfeits (R8)
ROUNDS = 5


def simulate_history(
    seed: int,
    games: int = 1_000_000,
    players: int = 50_000,
    tournaments: int = 20_000,
    years: int = 10,
) -> list[TournamentInput]:
    """A federation's history: clubs of 100 players (the last one up to 149), club and
    regional Swiss events.

    Player keys are ints ``0 .. players-1``; exactly ``games`` pairings (about 1 %
    unplayed) spread evenly over ``tournaments`` tournaments of five rounds.
    """
    if min(games, players, tournaments) <= 0 or players < 2:
        raise ValueError("games, players and tournaments must be positive")
    rng = random.Random(seed)
    strength = [rng.gauss(1500.0, 300.0) for _ in range(players)]
    clubs = [list(range(lo, min(lo + CLUB_SIZE, players))) for lo in range(0, players, CLUB_SIZE)]
    if len(clubs) > 1 and len(clubs[-1]) < CLUB_SIZE // 2:  # a short last club joins the one before
        short = clubs.pop()
        clubs[-1] = clubs[-1] + short
    history = []
    for index in range(tournaments):
        target = games // tournaments + (1 if index < games % tournaments else 0)
        pool = _pool(rng, clubs)
        boards = max(1, min(len(pool) // 2, math.ceil(target / ROUNDS)))
        entrants = rng.sample(pool, 2 * boards)
        pairings = _random_rounds(rng, entrants, target, strength)
        days = index * years * 365 // tournaments
        history.append(
            TournamentInput(
                id=index,
                date=dt.date(2010, 1, 1) + dt.timedelta(days=days),
                sequence=index,
                games=tuple(pairings),
                juniors=frozenset(p for p in entrants if p % 23 == 0),
            )
        )
    return history


def _pool(rng: random.Random, clubs: list[list[int]]) -> list[int]:
    first = rng.randrange(len(clubs))
    if rng.random() >= OPEN_SHARE:
        return clubs[first]
    region = range(
        first - first % REGION_CLUBS, min(len(clubs), first - first % REGION_CLUBS + REGION_CLUBS)
    )
    return [p for c in region for p in clubs[c]]


def _random_rounds(
    rng: random.Random, entrants: list[int], target: int, strength: list[float]
) -> list[RatedGame]:
    pairings: list[RatedGame] = []
    while len(pairings) < target:
        rng.shuffle(entrants)
        for board in range(0, len(entrants) - 1, 2):
            if len(pairings) == target:
                break
            white, black = entrants[board], entrants[board + 1]
            played = rng.random() >= UNPLAYED_SHARE
            points = (
                game_points(rng, strength[white], strength[black]) if played else rng.choice((0, 2))
            )
            pairings.append(RatedGame(white, black, points, played))
    return pairings


# A federation of clubs of unequal sizes: a club's games follow a lognormal spread over the
# clubs (the spread chosen so that, at 1,000 clubs, the biggest has ten times the mean: 50,000
# of 5,000,000 games), its members in proportion to its games.
CLUB_SPREAD = 0.8  # sigma of the log of a club's games
EVENING_BOARDS = 12  # boards of a club's evening at most: 24 players
MIN_CLUB_MEMBERS = 4


@dataclass(frozen=True, slots=True)
class ClubShape:
    """One club of a simulated federation: its members, games and tournaments of five rounds."""

    members: int
    games: int
    tournaments: int


def federation_shapes(clubs: int, members: int, games: int) -> list[ClubShape]:
    """``clubs`` clubs holding exactly ``members`` members and ``games`` games, largest first.

    Club ``r`` (0-based) gets the lognormal quantile at ``1 - (r + 0.5) / clubs`` of the
    totals, rounded so that the sums are exact; every club has a few members and a game.
    """
    if clubs < 1 or members < MIN_CLUB_MEMBERS * clubs or games < clubs:
        raise ValueError("a federation needs a club, four members a club and a game a club")
    normal = statistics.NormalDist()
    weights = [math.exp(CLUB_SPREAD * normal.inv_cdf(1 - (r + 0.5) / clubs)) for r in range(clubs)]
    club_games = _shares(games, weights, 1)
    club_members = _shares(members, [float(g) for g in club_games], MIN_CLUB_MEMBERS)
    shapes = []
    for m, g in zip(club_members, club_games):
        per_evening = ROUNDS * min(EVENING_BOARDS, m // 2)
        shapes.append(ClubShape(m, g, max(1, math.ceil(g / per_evening))))
    return shapes


def _shares(total: int, weights: list[float], least: int) -> list[int]:
    """``total`` split in proportion to ``weights``, each share at least ``least``, the
    remainders going to the largest fractions (the shares add up to ``total`` exactly)."""
    spare = total - least * len(weights)
    exact = [spare * w / sum(weights) for w in weights]
    shares = [least + int(x) for x in exact]
    by_fraction = sorted(range(len(weights)), key=lambda i: int(exact[i]) - exact[i])
    for i in by_fraction[: total - sum(shares)]:
        shares[i] += 1
    return shares


# -- a realistic club (demo) ---------------------------------------------------------------

FIRST_NAMES = (
    "Anna",
    "Aram",
    "Ben",
    "Clara",
    "David",
    "Elena",
    "Felix",
    "Gayane",
    "Hugo",
    "Irina",
    "Jason",
    "Karen",
    "Lena",
    "Marco",
    "Nora",
    "Oscar",
    "Paula",
    "Quentin",
    "Rita",
    "Samuel",
    "Tigran",
    "Ursula",
    "Victor",
    "Wanda",
    "Xavier",
    "Yana",
    "Zara",
    "Lilit",
    "Narek",
    "Sofia",
)
SURNAMES = (
    "Petrosyan",
    "Smith",
    "Becher",
    "Novak",
    "Muller",
    "Rossi",
    "Garcia",
    "Ivanova",
    "Hakobyan",
    "Brown",
    "Dubois",
    "Kowalski",
    "Jensen",
    "Silva",
    "Sargsyan",
    "Weber",
    "Moreau",
    "Lindqvist",
    "Horvath",
    "Costa",
    "Kuznetsov",
    "Martirosyan",
    "Fischer",
    "Nielsen",
    "Romero",
    "Tanaka",
)
EVENINGS_PER_SEASON = 30  # weekly club nights, September to May
ATTENDANCE = 0.45  # chance that an active member comes on a given evening
HALF_BYE_REQUEST = 0.03  # per player and round
FORFEIT = 0.02  # per pairing: a no-show
MISSPELLING = 0.15  # chance a name is typed in a variant on a given evening
JUNIOR_SHARE = 0.15
JUNIOR_GROWTH = 60.0  # a junior's true strength grows this much per season


@dataclass(frozen=True, slots=True)
class SimulatedMember:
    name: str
    strength: float  # hidden true strength at the start
    junior: bool
    joins: int  # first season (0-based)
    leaves: int  # first season no longer active


@dataclass(frozen=True, slots=True)
class Correction:
    """A result corrected after publication: the arbiter's edit."""

    tournament: int  # index into SimulatedClub.tournaments
    round: int
    white: str  # names as typed that evening
    black: str
    white_points: int  # the new result, in half-points
    black_points: int


@dataclass(frozen=True, slots=True)
class SimulatedClub:
    members: tuple[SimulatedMember, ...]
    tournaments: tuple[TournamentRecord, ...]
    true_name: dict[str, str]  # every typed name -> the member behind it
    juniors: frozenset[str]  # member names flagged junior
    corrections: tuple[Correction, ...]


@dataclass(frozen=True, slots=True)
class Encounter:
    """A game the simulator wants played over the board (the demo has an engine play it)."""

    white: str  # member names
    black: str
    white_strength: float  # hidden true strengths on the evening
    black_strength: float
    seed: int  # makes the game reproducible


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What the board gave: White's half-points and the moves (PGN movetext, clocks and result)."""

    white_points: int
    moves: str
    headers: tuple[tuple[str, str], ...] = ()


PlayRound = Callable[[Sequence[Encounter]], Sequence[BoardResult]]
"""Plays a batch of encounters (one round of one or more evenings); results in the same order."""


@dataclass(frozen=True, slots=True)
class _Night:
    """A club night on the calendar, before it is played."""

    season: int
    date: dt.date
    present: tuple[SimulatedMember, ...]
    kind: TournamentKind
    seed: int  # the evening's own random stream: evenings are independent


def first_evening(seasons: int, evenings: int, last_evening: dt.date | None) -> dt.date:
    """The calendar's first club night: SEASON_START, or counted back from ``last_evening``
    so that the last night of the last season falls on it (never after: no date in the future)."""
    if last_evening is None:
        return SEASON_START
    return last_evening - dt.timedelta(weeks=52 * (seasons - 1) + evenings - 1)


def simulate_club(
    seed: int,
    seasons: int = 3,
    members: int = 40,
    evenings: int = EVENINGS_PER_SEASON,
    last_evening: dt.date | None = None,
    play: PlayRound | None = None,
    with_moves: int = 0,
) -> SimulatedClub:
    """A club's seasons of weekly Swiss evenings, as the arbiter would type them in.

    With ``play``, the games of the last ``with_moves`` chess evenings are played over the
    board by it, round by round (the evenings side by side): their results are the played
    games' results, and the Swiss pairs each round on them. The others have results only.
    """
    staged = stage_club(
        seed, seasons, members, evenings, last_evening, with_moves if play is not None else 0
    )
    return staged.finish(play)


class StagedClub:
    """A club simulated up to its first evening played over the board.

    ``early`` (the evenings before it, as typed) and ``early_names`` (every name typed in
    them -> the member) are final: a caller may store them while :meth:`finish` has the
    rest played (the demo does, from another thread). ``finish`` gives the whole club,
    the same as :func:`simulate_club` gives for the seed.
    """

    def __init__(
        self,
        rng: random.Random,
        roster: tuple[SimulatedMember, ...],
        nights: list[_Night],
        over_board: set[int],
    ) -> None:
        self._rng, self._roster, self._nights = rng, roster, nights
        self._done: dict[int, _Evening] = {}
        self._waiting: dict[int, tuple[EveningPlay, list[Encounter]]] = {}
        for index, night in enumerate(nights):
            _advance(index, _evening(night, index in over_board), None, self._done, self._waiting)
        self._typist = _Typist(rng, roster)  # types the evenings in date order, as before
        first = min(over_board, default=len(nights))
        self.early = tuple(_record(nights[i], self._done[i], self._typist, i) for i in range(first))
        self.early_names = dict(self._typist.member_of)
        self.juniors = frozenset(m.name for m in roster if m.junior)

    def finish(self, play: PlayRound | None) -> SimulatedClub:
        """The evenings played over the board (by ``play``), then the whole club."""
        _play_waiting(self._waiting, self._done, play)
        later = [
            _record(self._nights[i], self._done[i], self._typist, i)
            for i in range(len(self.early), len(self._nights))
        ]
        records = [*self.early, *later]
        return SimulatedClub(
            members=self._roster,
            tournaments=tuple(records),
            true_name=dict(self._typist.member_of),
            juniors=self.juniors,
            corrections=(_correction(self._rng, records),),
        )


def stage_club(
    seed: int,
    seasons: int = 3,
    members: int = 40,
    evenings: int = EVENINGS_PER_SEASON,
    last_evening: dt.date | None = None,
    with_moves: int = 0,
) -> StagedClub:
    """The club of :func:`simulate_club` up to its first evening played over the board
    (the last ``with_moves`` chess evenings; 0: none, every evening is early)."""
    rng = random.Random(seed)
    roster = _members(rng, members, seasons)
    nights = _calendar(
        rng, roster, seasons, evenings, first_evening(seasons, evenings, last_evening)
    )
    chess_nights = [i for i, night in enumerate(nights) if night.kind is TournamentKind.CHESS]
    over_board = set(chess_nights[len(chess_nights) - with_moves :]) if with_moves > 0 else set()
    return StagedClub(rng, roster, nights, over_board)


def _calendar(
    rng: random.Random,
    roster: tuple[SimulatedMember, ...],
    seasons: int,
    evenings: int,
    first: dt.date,
) -> list[_Night]:
    """Who comes on which club night; a night with fewer than four players is not held."""
    nights = []
    for season in range(seasons):
        bughouse_night = rng.randrange(evenings)
        for week in range(evenings):
            date = first + dt.timedelta(weeks=52 * season + week)
            present = tuple(
                m for m in roster if m.joins <= season < m.leaves and rng.random() < ATTENDANCE
            )
            night_seed = rng.getrandbits(64)
            if len(present) < 4:
                continue
            kind = TournamentKind.BUGHOUSE if week == bughouse_night else TournamentKind.CHESS
            nights.append(_Night(season, date, present, kind, night_seed))
    return nights


def _members(rng: random.Random, count: int, seasons: int) -> tuple[SimulatedMember, ...]:
    names = rng.sample([f"{f} {s}" for f in FIRST_NAMES for s in SURNAMES], count + count // 4)
    roster = []
    for i, name in enumerate(names):
        late = i >= count  # late joiners
        joins = rng.randrange(1, max(2, seasons)) if late else 0
        leaves = (
            rng.randrange(joins + 1, seasons + 1)
            if joins < seasons and rng.random() < 0.15
            else seasons + 1
        )
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
        variant = self.rng.choice(
            (
                f"{first[0]}. {last}",
                f"{first} {_typo(self.rng, last)}",
                f"{last} {first}",
                f"{last}, {first}",
            )
        )
        if self.member_of.setdefault(variant, member.name) != member.name:
            return member.name  # the variant is somebody else's: type it right
        return variant


def _typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]  # swapped letters
    return word[:i] + rng.choice("aeiouy") + word[i + 1 :]  # one letter wrong


@dataclass
class _Evening:
    """A club night being played: who has which number, scores, games and byes so far."""

    night: _Night
    seeded: list[SimulatedMember]
    number: dict[str, int]
    score: dict[str, int]
    rounds: int
    pairings: list[Pairing] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)


EveningPlay = Generator[list[Encounter], Sequence[BoardResult], _Evening]


def _now(member: SimulatedMember, season: int) -> float:
    """A member's true strength this season (juniors grow)."""
    return member.strength + (JUNIOR_GROWTH * season if member.junior else 0.0)


def _evening(night: _Night, over_board: bool) -> EveningPlay:
    """One club night: a 4-5 round Swiss paired by score, then strength.

    A generator: each round whose games are played over the board is yielded as
    encounters, and the results are sent back (never when ``over_board`` is False).
    """
    rng = random.Random(night.seed)
    seeded = sorted(night.present, key=lambda m: _now(m, night.season), reverse=True)
    evening = _Evening(
        night,
        seeded,
        {m.name: i + 1 for i, m in enumerate(seeded)},
        {m.name: 0 for m in seeded},
        rng.choice((4, 5)),
    )
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    for rnd in range(1, evening.rounds + 1):
        playing = _sit_out(rng, evening, rnd, had_bye)
        games: list[tuple[SimulatedMember, SimulatedMember, Pairing | Encounter]] = []
        for white, black in _pair(playing, met):
            if rng.random() < 0.5:
                white, black = black, white
            games.append((white, black, _game(rng, evening, rnd, white, black, over_board)))
        encounters = [game for _, _, game in games if isinstance(game, Encounter)]
        results = iter((yield encounters) if encounters else ())
        for white, black, game in games:
            pairing = (
                game
                if isinstance(game, Pairing)
                else _board_pairing(rnd, evening, white, black, next(results))
            )
            evening.score[white.name] += pairing.white_points
            evening.score[black.name] += pairing.black_points
            evening.pairings.append(pairing)
    return evening


def _sit_out(
    rng: random.Random, evening: _Evening, rnd: int, had_bye: set[str]
) -> list[SimulatedMember]:
    """Half-point byes asked for, then a pairing bye for the lowest without one if the count is odd;
    the others in pairing order (score, then strength)."""
    playing = []
    for m in evening.seeded:
        if rng.random() < HALF_BYE_REQUEST:
            evening.byes.append(Bye(rnd, evening.number[m.name], 1, ByeKind.HALF_POINT))
            evening.score[m.name] += 1
        else:
            playing.append(m)
    playing.sort(key=lambda m: (-evening.score[m.name], -_now(m, evening.night.season)))
    if len(playing) % 2:
        out = next((m for m in reversed(playing) if m.name not in had_bye), playing[-1])
        playing.remove(out)
        had_bye.add(out.name)
        evening.byes.append(Bye(rnd, evening.number[out.name], 2, ByeKind.PAIRING))
        evening.score[out.name] += 2
    return playing


def _record(night: _Night, evening: _Evening, typist: _Typist, index: int) -> TournamentRecord:
    """The evening as the arbiter types it in (names sometimes misspelled)."""
    players = tuple(
        PlayerEntry(evening.number[m.name], typist.name(m), evening.score[m.name])
        for m in evening.seeded
    )
    title = "Bughouse night" if night.kind is TournamentKind.BUGHOUSE else "Club night"
    return TournamentRecord(
        name=f"{title} {night.date.isoformat()}",
        date=night.date,
        players=players,
        pairings=tuple(evening.pairings),
        byes=tuple(evening.byes),
        rounds=evening.rounds,
        time_control=TimeControl.RAPID,
        kind=night.kind,
        source=f"simulated-{index}",
        format="simulated",
    )


def _play_waiting(
    waiting: dict[int, tuple[EveningPlay, list[Encounter]]],
    done: dict[int, _Evening],
    play: PlayRound | None,
) -> None:
    """The evenings still ``waiting`` for the board played side by side, one round of all of them at
    a time."""
    while waiting:
        if play is None:
            raise ValueError("an evening played over the board needs a player")
        batch = [
            (index, encounter)
            for index, (_, encounters) in sorted(waiting.items())
            for encounter in encounters
        ]
        results = list(play([encounter for _, encounter in batch]))
        if len(results) != len(batch):
            raise ValueError(
                f"{len(batch)} games were to be played, {len(results)} results came back"
            )
        for index, (evening, _) in sorted(waiting.items()):
            _advance(
                index,
                evening,
                [r for (i, _), r in zip(batch, results) if i == index],
                done,
                waiting,
            )


def _advance(
    index: int,
    evening: EveningPlay,
    results: Sequence[BoardResult] | None,
    done: dict[int, _Evening],
    waiting: dict[int, tuple[EveningPlay, list[Encounter]]],
) -> None:
    """Run an evening to its next round played over the board (or to its end)."""
    try:
        encounters = next(evening) if results is None else evening.send(results)
        waiting[index] = (evening, encounters)
    except StopIteration as finished:
        waiting.pop(index, None)
        done[index] = finished.value


def _pair(
    playing: list[SimulatedMember], met: set[frozenset[str]]
) -> list[tuple[SimulatedMember, SimulatedMember]]:
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


def _game(
    rng: random.Random,
    evening: _Evening,
    rnd: int,
    white: SimulatedMember,
    black: SimulatedMember,
    over_board: bool,
) -> Pairing | Encounter:
    """A forfeit (a no-show, never rated: R8), a game to play over the board, or a result drawn
    from the strengths."""
    white_number, black_number = evening.number[white.name], evening.number[black.name]
    if rng.random() < FORFEIT:
        white_points = rng.choice((2, 0))
        return Pairing(
            rnd,
            white_number,
            black_number,
            white_points,
            2 - white_points,
            played=False,
            unplayed=Unplayed.FORFEIT,
        )
    season = evening.night.season
    if over_board:
        return Encounter(
            white.name, black.name, _now(white, season), _now(black, season), rng.getrandbits(63)
        )
    white_points = game_points(rng, _now(white, season), _now(black, season))
    return Pairing(rnd, white_number, black_number, white_points, 2 - white_points)


def _board_pairing(
    rnd: int, evening: _Evening, white: SimulatedMember, black: SimulatedMember, result: BoardResult
) -> Pairing:
    if result.white_points not in (0, 1, 2):
        raise ValueError(f"a game gave White {result.white_points} half-points")
    return Pairing(
        rnd,
        evening.number[white.name],
        evening.number[black.name],
        result.white_points,
        2 - result.white_points,
        moves=result.moves,
        headers=result.headers,
    )


def _correction(rng: random.Random, records: list[TournamentRecord]) -> Correction:
    """One result typed wrong and corrected later, in a rated evening of the first half (or any
    evening with results only: a game with moves keeps the result its moves gave)."""
    rated = [
        i
        for i, r in enumerate(records)
        if r.kind is TournamentKind.CHESS and any(p.played for p in r.pairings)
    ]
    if not rated:
        raise InputError(N_("too few members: no evening had four players to pair"))
    results_only = [i for i in rated if not any(p.moves for p in records[i].pairings)]
    if not results_only:
        raise InputError(
            N_(
                "every evening has moves: leave at least one "
                "with results only (fewer evenings with moves)"
            )
        )
    first_half = [i for i in results_only if i < max(1, len(records) // 2)]
    index = rng.choice(first_half or results_only)
    record = records[index]
    pairing = rng.choice([p for p in record.pairings if p.played])
    names = {p.number: p.name for p in record.players}
    new_points = rng.choice([points for points in (2, 1, 0) if points != pairing.white_points])
    return Correction(
        index, pairing.round, names[pairing.white], names[pairing.black], new_points, 2 - new_points
    )
