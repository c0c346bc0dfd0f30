"""A small tournament typed by the arbiter in a form, one line a game:

    round, white, black, result        e.g.  1, Anna Smith, Bob Jones, 1-0
    round, player, bye [points]        e.g.  2, Carl Berg, bye 1/2

Results in any spelling of :class:`clubrating.formats.results.GameResult` (1-0, 0-1,
1/2-1/2, =, +-, -+, -- and docs/formats.md's others); a bye is worth 1 point unless
written otherwise. Players are numbered in the order they first appear.

Pure: the web's arbiter form only hands the text over.
"""

from __future__ import annotations

import datetime as dt

from clubrating.errors import InputError
from clubrating.formats.common import (
    check_bounds,
    check_name,
    check_one_game_per_round,
    check_round,
    check_text,
)
from clubrating.formats.records import Bye, ByeKind, Pairing, PlayerEntry, TournamentRecord
from clubrating.formats.results import GameResult
from clubrating.words import N_

SOURCE = "typed"
BYE_POINTS = {"": 2, "1": 2, "1/2": 1, "½": 1, "0.5": 1, "0": 0}  # half-points
BYE_KIND = {2: ByeKind.FULL_POINT, 1: ByeKind.HALF_POINT, 0: ByeKind.ZERO_POINT}


def _fields(text: str) -> list[str]:
    sep = "\t" if "\t" in text else ","
    return [f.strip() for f in text.split(sep)]


def parse_typed(text: str, *, name: str, date: dt.date | None) -> TournamentRecord:
    """The typed lines as a tournament record; an InputError names the line at fault."""
    numbers: dict[str, int] = {}
    pairings: list[Pairing] = []
    byes: list[Bye] = []

    def number(player: str, line: int) -> int:
        if not player:
            raise InputError(N_("a player's name is missing"), file=SOURCE, line=line)
        check_name(player, SOURCE, line)
        key = " ".join(player.split()).casefold()
        if key not in numbers:
            numbers[key] = len(numbers) + 1
        return numbers[key]

    check_text(text, SOURCE)
    names: dict[int, str] = {}
    for line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = _fields(raw)
        if not (fields[0].isascii() and fields[0].isdigit()) or int(fields[0]) < 1:
            raise InputError(
                N_("expected a round number first, found %(value)s"),
                file=SOURCE,
                line=line,
                value=repr(fields[0]),
            )
        rnd = int(fields[0])
        check_round(rnd, SOURCE, line)
        if len(fields) == 3 and fields[2].casefold().startswith("bye"):
            points = fields[2][3:].strip()
            if points not in BYE_POINTS:
                raise InputError(
                    N_("a bye is worth 1, 1/2 or 0, not %(points)s"),
                    file=SOURCE,
                    line=line,
                    points=repr(points),
                )
            player = number(fields[1], line)
            names.setdefault(player, fields[1])
            byes.append(
                Bye(rnd, player, BYE_POINTS[points], BYE_KIND[BYE_POINTS[points]], line=line)
            )
            continue
        if len(fields) != 4:
            raise InputError(
                N_("expected 'round, white, black, result' or 'round, player, bye'"),
                file=SOURCE,
                line=line,
            )
        white, black = number(fields[1], line), number(fields[2], line)
        if white == black:
            raise InputError(N_("a player cannot play against themselves"), file=SOURCE, line=line)
        names.setdefault(white, fields[1])
        names.setdefault(black, fields[2])
        try:
            result = GameResult.parse(fields[3])
        except InputError as error:
            raise InputError(error.reason, file=SOURCE, line=line) from None
        pairings.append(
            Pairing(
                round=rnd,
                white=white,
                black=black,
                white_points=result.white_points,
                black_points=result.black_points,
                played=result.played,
                unplayed=result.unplayed,
                line=line,
            )
        )
    if not pairings:
        raise InputError(
            N_("no games typed: one line a game, 'round, white, black, result'"), file=SOURCE
        )
    rounds = max([p.round for p in pairings] + [b.round for b in byes])
    check_one_game_per_round(pairings, byes, names, SOURCE)
    players = tuple(PlayerEntry(n, " ".join(names[n].split())) for n in sorted(names))
    record = TournamentRecord(
        name=name.strip() or "Typed tournament",
        date=date,
        players=players,
        pairings=tuple(pairings),
        byes=tuple(byes),
        rounds=rounds,
        source=SOURCE,
        format="typed",
    )
    check_bounds(record)
    return record
