"""From a tournament file's record to what the rating core rates.

The CLI keys players by name; the club services key them by member id. Either
way the conversion is this one pure function.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from clubrating.errors import InputError, Text
from clubrating.words import N_
from clubrating.formats.records import Pairing, PlayerEntry, TournamentKind, TournamentRecord
from clubrating.rating.types import PlayerKey, RatedGame, TournamentInput

PLAYED_RESULTS = {(2, 0), (1, 1), (0, 2)}  # a game played over the board: win, draw, loss


def by_name(entry: PlayerEntry) -> PlayerKey:
    return entry.name


def tournament_input(
    record: TournamentRecord,
    key: Callable[[PlayerEntry], PlayerKey] | Mapping[int, PlayerKey] = by_name,
    *,
    id: Hashable = None,
    sequence: int = 0,
    juniors: frozenset[PlayerKey] = frozenset(),
    date: dt.date | None = None,
) -> TournamentInput:
    """The rating core's view of a record: bughouse unrated (R8), unplayed pairings
    kept as ``played=False`` (R8), byes dropped (they are never rated).

    ``key`` gives each player's key: a function of the entry, or a mapping from
    start number to key. Two entries with one key, a pairing with an unknown
    start number or an impossible played result raise :class:`InputError`.
    """
    keys = _keys(record, key)
    games = tuple(_rated_game(record, pairing, keys) for pairing in record.pairings)
    when = date or record.date
    if when is None:
        raise InputError(
            N_("the tournament has no date: expected one to order it by"),
            file=record.source or None,
        )
    return TournamentInput(
        id=record.name if id is None else id,
        date=when,
        games=games,
        sequence=sequence,
        rated=record.kind is not TournamentKind.BUGHOUSE,
        juniors=frozenset(juniors),
    )


def _keys(
    record: TournamentRecord, key: Callable[[PlayerEntry], PlayerKey] | Mapping[int, PlayerKey]
) -> dict[int, PlayerKey]:
    keys: dict[int, PlayerKey] = {}
    seen: dict[Any, PlayerEntry] = {}
    for entry in record.players:
        if isinstance(key, Mapping):
            if entry.number not in key:
                raise _error(
                    record,
                    entry.line,
                    Text(
                        N_("player %(number)s (%(name)s) has no key"),
                        number=entry.number,
                        name=entry.name,
                    ),
                )
            player = key[entry.number]
        else:
            player = key(entry)
        if player in seen:
            raise _error(
                record,
                entry.line,
                Text(
                    N_("players %(one)s and %(other)s are both %(key)s: expected distinct players"),
                    one=seen[player].number,
                    other=entry.number,
                    key=repr(player),
                ),
            )
        seen[player] = entry
        keys[entry.number] = player
    return keys


def _rated_game(
    record: TournamentRecord, pairing: Pairing, keys: Mapping[int, PlayerKey]
) -> RatedGame:
    for number in (pairing.white, pairing.black):
        if number not in keys:
            raise _error(
                record,
                pairing.line,
                Text(
                    N_("round %(round)s: no player with start number %(number)s"),
                    round=pairing.round,
                    number=number,
                ),
            )
    if pairing.white == pairing.black:
        raise _error(
            record,
            pairing.line,
            Text(
                N_("round %(round)s: player %(number)s paired with themself"),
                round=pairing.round,
                number=pairing.white,
            ),
        )
    points = (pairing.white_points, pairing.black_points)
    if pairing.played and points not in PLAYED_RESULTS:
        raise _error(
            record,
            pairing.line,
            Text(
                N_("round %(round)s: impossible result %(result)s: expected 1-0, ½-½ or 0-1"),
                round=pairing.round,
                result=f"{points[0] / 2:g}-{points[1] / 2:g}",
            ),
        )
    white_points = min(2, max(0, pairing.white_points))  # unplayed: carried, never rated
    return RatedGame(keys[pairing.white], keys[pairing.black], white_points, pairing.played)


def _error(record: TournamentRecord, line: int | None, message: Text) -> InputError:

    return InputError(message, file=record.source or None, line=line)
