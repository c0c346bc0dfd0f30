"""Two spellings of one name, and two files of one tournament.

:func:`is_exact` is the matcher's exact rule (the same words whatever the case,
spacing or customary order, and :func:`~clubrating.identity.compare.compare`
calls them the same name), used wherever the arbiter types a member.

:func:`same_event` says whether a tournament file is one already stored, in
another format or spelling: dated within :data:`DATE_TOLERANCE`, the same
players (names compared through :func:`~clubrating.identity.normalize.normalize_name`,
or through every name a linked member is known under) and the same played games.

Pure: plain values in, a yes or no out.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.formats.records import TournamentRecord
from clubrating.identity.normalize import normalize_name

DATE_TOLERANCE = dt.timedelta(days=1)
"""Two files of one event may date it a day apart: a second export dates an evening that
ran past midnight by its last round, a PGN by its first game's Date tag."""

NameKey = tuple[str, ...]


def word_key(name: str) -> NameKey:
    """The words of a name, case folded and sorted: "Smith, Jane" = "JANE  smith"."""
    return tuple(sorted(name.casefold().replace(",", " ").split()))


def is_exact(typed: str, name: str) -> bool:
    """``typed`` is exactly ``name``: the same words in either customary order, whatever the
    case or spacing. Accents, punctuation, another script are not exact (the matcher
    proposes those for the arbiter to read). Both are compared case folded: "MIRZOEV Azer" is
    "Mirzoev, Azer" as "Mirzoev Azer" is."""
    if word_key(typed) != word_key(name) or not word_key(typed):
        return False
    if " ".join(typed.split()).casefold() == " ".join(name.split()).casefold():
        return True
    # the comparison (rapidfuzz) only for spellings that differ: not at a command's start
    from clubrating.identity.compare import Reason, compare

    try:
        likeness = compare(normalize_name(typed.casefold()), normalize_name(name.casefold()))
    except InputError:
        return False
    return likeness.reasons[:1] == (Reason.SAME_NAME,)


def name_key(name: str) -> NameKey:
    """A name as two files of one tournament may spell it: normalised words (script, accents,
    case, punctuation, titles and a federation code dropped), in any order."""
    try:
        normal = normalize_name(name)
    except InputError:
        return word_key(name)
    return tuple(sorted(normal.words))


@dataclass(frozen=True, slots=True)
class EventGame:
    """A played game between two players (their numbers in the event) and the half-points each
    got."""

    one: int
    other: int
    one_points: int
    other_points: int


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament as :func:`same_event` compares it: its date, every name each player is
    known under (number -> names; the name as written first) and its played games.
    Byes, forfeits and players without a played game are left out: a PGN holds none of them."""

    date: dt.date
    names: Mapping[int, Sequence[str]]
    games: tuple[EventGame, ...]


def event_of_record(record: TournamentRecord, date: dt.date | None = None) -> Event:
    """A file read, as :func:`same_event` compares it (``date``: the one the import gives it)."""
    when = date or record.date
    if when is None:
        raise InputError(N_("the file gives no date"), file=record.source or None)

    games = tuple(
        EventGame(p.white, p.black, p.white_points, p.black_points)
        for p in record.pairings
        if p.played
    )
    playing = {n for g in games for n in (g.one, g.other)}
    return Event(when, {p.number: (p.name,) for p in record.players if p.number in playing}, games)


def same_event(stored: Event, incoming: Event) -> bool:
    """``incoming`` is ``stored`` again: dated within a day, the same players and the same
    results."""
    if abs(stored.date - incoming.date) > DATE_TOLERANCE or not incoming.games:
        return False
    players = {n for g in stored.games for n in (g.one, g.other)}
    arriving = {n for g in incoming.games for n in (g.one, g.other)}
    if len(players) != len(arriving) or len(stored.games) != len(incoming.games):
        return False
    known = {n: {name_key(name) for name in stored.names.get(n, ())} for n in players}
    written = {n: _spelled(stored.names[n][0]) for n in players if stored.names.get(n)}
    pairing = _pair_players(
        known,
        {n: name_key(incoming.names[n][0]) for n in arriving if incoming.names.get(n)},
        lambda n, s: written.get(s) != _spelled(incoming.names[n][0]),
    )
    if pairing is None or len(pairing) != len(arriving):
        return False
    return _results(stored.games, lambda n: n) == _results(incoming.games, pairing.__getitem__)


def _spelled(name: str) -> str:
    return " ".join(name.split())


def _pair_players(
    known: Mapping[int, set[NameKey]],
    arriving: Mapping[int, NameKey],
    other_spelling: Callable[[int, int], bool],
) -> dict[int, int] | None:
    """Each arriving player -> a different stored player one of whose names it is (a perfect
    matching, Kuhn's augmenting paths: namesakes and shared aliases find their way), or None.
    A stored player written as the arriving one is tried first: "Anna Berg" and "Berg, Anna" in
    one file (or "CARA DUNN" and "Cara Dunn") are two entries with one key, and the file again
    must pair each with itself."""
    candidates = {
        n: sorted(
            (s for s, keys in known.items() if key in keys), key=lambda s: (other_spelling(n, s), s)
        )
        for n, key in arriving.items()
    }
    taken: dict[int, int] = {}  # stored -> arriving

    def place(number: int, seen: set[int]) -> bool:
        for stored in candidates[number]:
            if stored in seen:
                continue
            seen.add(stored)
            if stored not in taken or place(taken[stored], seen):
                taken[stored] = number
                return True
        return False

    for number in sorted(arriving, key=lambda n: len(candidates[n])):
        if not place(number, set()):
            return None
    return {arriving_number: stored for stored, arriving_number in taken.items()}


def _results(
    games: Iterable[EventGame], player: Callable[[int], int]
) -> Counter[tuple[tuple[int, int], ...]]:
    """The games as a multiset of (player, points) pairs, whatever the colours (a CSV may not know
    them)."""
    return Counter(
        tuple(sorted(((player(g.one), g.one_points), (player(g.other), g.other_points))))
        for g in games
    )
