"""FIDE Tournament Report File (TRF-16) reader and writer.

The format: FIDE Handbook C.04, Annex 2, "TRF16 Agreed General Data-Exchange
Format". Player lines (``001``) are read by column, never split on spaces:
names hold spaces and commas and any field can be blank. Round r of a player
line starts at column 92 + 10(r - 1): opponent (4 columns), colour (1), result
code (1), each separated by one space.

Pairings are built once from both players' cells, which must agree; the
points written in columns 81-84 are compared with the points computed from
the cells and a difference is only a warning: the written points are the
event's own result (some programs write zeros: then the computed ones count).
A team event's ``013`` lines name each team (columns 5-36) and its players'
start numbers in board order (column 37 on, four columns each, one apart).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from collections.abc import Mapping
from typing import TextIO

from clubrating.errors import InputError, Text
from clubrating.formats.bounds import MAX_NUMBER, whole_number
from clubrating.formats.common import (
    NumberedLines,
    check_bounds,
    parse_date,
    points_text,
    time_control_from_text,
)
from clubrating.formats.records import (
    MAX_ROUNDS,
    Bye,
    ByeKind,
    HalfPoints,
    Pairing,
    PlayerEntry,
    Team,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.words import N_

# Column layout of a 001 line, 0-based slices of TRF-16's 1-based columns.
NUMBER = slice(4, 8)  # columns 5-8: starting rank
NAME = slice(14, 47)  # columns 15-47
RATING = slice(48, 52)  # columns 49-52: the rating (written only on request, never read: R18)
POINTS = slice(80, 84)  # columns 81-84
RANK = slice(85, 89)  # columns 86-89: the place, as the pairing program ranked it
FIRST_ROUND = 91  # column 92: first round's opponent
TEAM_NAME = slice(4, 36)  # 013 line, columns 5-36: the team's name
TEAM_MEMBERS = 36  # 013 line, column 37 on: start numbers, 4 columns each, one apart
ROUND_WIDTH = 10  # TRF-16: each round takes 10 columns
NAME_WIDTH = NAME.stop - NAME.start

PLAYED_RESULTS = {"1": 2, "=": 1, "0": 0}
"""TRF-16 codes of games played over the board, with the half-points they give."""

UNPLAYED_RESULTS = {
    "+": (2, Unplayed.FORFEIT),
    "-": (0, Unplayed.FORFEIT),
    "W": (2, Unplayed.NO_MOVES),
    "D": (1, Unplayed.NO_MOVES),
    "L": (0, Unplayed.NO_MOVES),
}
"""TRF-16 forfeits (+ -) and results of games with no move played (W D L): never rated (R8)."""

PARTNER_CODES = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+-", "W": "L", "L": "W", "D": "D"}
"""The code the opponent's cell must carry; '-' against '-' is a double forfeit."""

BYE_RESULTS: dict[str, tuple[ByeKind, HalfPoints]] = {
    "H": (ByeKind.HALF_POINT, 1),
    "F": (ByeKind.FULL_POINT, 2),
    "U": (ByeKind.PAIRING, 2),
    "Z": (ByeKind.ZERO_POINT, 0),
    " ": (ByeKind.ABSENT, 0),
    # Older programs write byes as a forfeit against 0000 (TRF-16 before the H/F/U/Z codes):
    "+": (ByeKind.PAIRING, 2),
    "=": (ByeKind.HALF_POINT, 1),
    "-": (ByeKind.ABSENT, 0),
    "1": (ByeKind.FULL_POINT, 2),
    "0": (ByeKind.ZERO_POINT, 0),
}
"""Codes of a round without an opponent (opponent 0000 or blank), with the points."""

BYE_CODES_WRITTEN = {
    ByeKind.HALF_POINT: "H",
    ByeKind.FULL_POINT: "F",
    ByeKind.PAIRING: "U",
    ByeKind.ZERO_POINT: "Z",
    ByeKind.UNFIELDED: "-",
    ByeKind.ABSENT: " ",
}
NO_OPPONENT = "0000"
HEADER_CODES = (
    "012",
    "022",
    "032",
    "042",
    "052",
    "062",
    "072",
    "082",
    "092",
    "102",
    "112",
    "122",
    "XXR",
)
"""The header lines about the event that are kept at import and written back (TRF-16: name, city,
federation, dates, counts of players, rated players and teams, type, arbiters, time control; XXR
the rounds announced, a JaVaFo extension that FIDE's pairing checker reads)."""
_COLOURS = "wb- "


@dataclass(frozen=True, slots=True)
class _Cell:
    round: int
    opponent: int | None  # None: 0000 or blank
    colour: str  # 'w', 'b', '-' or ' '
    code: str


@dataclass(frozen=True, slots=True)
class _Row:
    number: int
    name: str
    points: HalfPoints | None
    line: int
    cells: tuple[_Cell, ...]
    rank: str = ""  # columns 86-89 as written


@dataclass
class _Header:
    name: str = ""
    values: dict[str, tuple[str, int]] = dataclasses.field(default_factory=dict)


def read_trf(handle: TextIO, source: str = "<trf>") -> TournamentRecord:
    """Read a TRF-16 file from a text handle (lines in any order, LF or CRLF)."""
    header = _Header()
    rows: list[_Row] = []
    team_lines: list[tuple[int, str]] = []
    for number, text in NumberedLines(handle):
        code = text[:3]
        if code == "001":
            rows.append(_parse_player_line(text, number, source))
        elif code == "013":
            team_lines.append((number, text))
        elif code.strip() and code not in header.values:
            header.values[code] = (text[4:].strip(), number)
    if not rows:
        raise InputError(
            N_("no player line: expected lines starting with '001' (FIDE TRF-16)"), file=source
        )
    by_number = _index_rows(rows, source)
    rounds = max(
        (
            cell.round
            for row in rows
            for cell in row.cells
            if cell.opponent is not None or cell.code != " "
        ),
        default=0,
    )
    teams = _teams(team_lines, by_number, source)
    is_team = "team" in _value(header, "092").lower() or bool(teams)
    pairings = _pairings(rows, by_number, source)
    byes = _byes(rows, rounds, is_team)
    warnings: list[Text] = []
    record = _header_record(header, source, warnings)
    warnings += _points_warnings(rows, pairings, byes, source)
    declared = _value(header, "062")
    if (announced := whole_number(declared, MAX_NUMBER)) is not None and announced != len(rows):
        warnings.append(
            Text(
                N_(
                    "%(where)s: 062 announces %(declared)s players, the file has %(count)s player "
                    "lines"
                ),
                where=f"{source}:{header.values['062'][1]}",
                declared=declared,
                count=len(rows),
            )
        )
    declared = _value(header, "082")
    if teams and (count := whole_number(declared, MAX_NUMBER)) is not None and count != len(teams):
        warnings.append(
            Text(
                N_(
                    "%(where)s: 082 announces %(declared)s teams, the file has %(count)s team "
                    "lines (013)"
                ),
                where=f"{source}:{header.values['082'][1]}",
                declared=declared,
                count=len(teams),
            )
        )
    ranks = _ranks(rows, source, warnings)
    players = tuple(
        PlayerEntry(
            number=row.number,
            name=row.name,
            points=row.points,
            line=row.line,
            rank=ranks[row.number],
        )
        for row in sorted(rows, key=lambda row: row.number)
    )
    headers = tuple(
        (code, header.values[code][0]) for code in HEADER_CODES if code in header.values
    )
    record = dataclasses.replace(
        record,
        players=players,
        pairings=pairings,
        byes=byes,
        headers=headers,
        rounds=rounds,
        warnings=tuple(warnings),
        teams=teams,
    )
    check_bounds(record)
    return record


def _teams(
    lines: list[tuple[int, str]], by_number: dict[int, _Row], source: str
) -> tuple[Team, ...]:
    """The 013 lines: a team's name (columns 5-36), then its players' start numbers in board
    order (column 37 on; 0000 is an empty board). Each player is in one team at most."""
    teams: list[Team] = []
    team_of: dict[int, tuple[str, int]] = {}
    for line, text in lines:
        name = " ".join(text[TEAM_NAME].split())
        if not name:
            raise InputError(
                N_("expected the team's name in columns 5-36 of a 013 line, found it blank"),
                file=source,
                line=line,
            )
        members: list[int] = []
        for word in text[TEAM_MEMBERS:].split():
            if not word.isdecimal() or len(word) > 4:
                raise InputError(
                    N_(
                        "expected the start numbers of the team's players from column 37 (four"
                        " columns each), got %(word)s"
                    ),
                    file=source,
                    line=line,
                    word=repr(word),
                )
            number = int(word)
            if number == 0:
                continue
            if number not in by_number:
                raise InputError(
                    N_("team %(team)s lists player %(number)s, who has no 001 line"),
                    file=source,
                    line=line,
                    team=repr(name),
                    number=number,
                )
            if number in team_of:
                other, other_line = team_of[number]
                raise InputError(
                    N_(
                        "player %(number)s is in team %(team)s and in team %(other)s (line"
                        " %(line_number)s); expected one team a player"
                    ),
                    file=source,
                    line=line,
                    number=number,
                    team=repr(name),
                    other=repr(other),
                    line_number=other_line,
                )
            team_of[number] = (name, line)
            members.append(number)
        teams.append(Team(name=name, members=tuple(members), line=line))
    return tuple(teams)


def _ranks(rows: list[_Row], source: str, warnings: list[Text]) -> dict[int, int | None]:
    """The places written in columns 86-89: blank or 0 (a withdrawn player) is no place."""
    ranks: dict[int, int | None] = {}
    for row in rows:
        text = row.rank.strip()
        if text and not text.isdecimal():
            warnings.append(
                Text(
                    N_("%(where)s: expected a rank in columns 86-89, got %(text)s; ignored"),
                    where=f"{source}:{row.line}",
                    text=repr(text),
                )
            )
        ranks[row.number] = (int(text) or None) if text.isdecimal() else None
    return ranks


def _value(header: _Header, code: str) -> str:
    return header.values.get(code, ("", 0))[0]


def _parse_player_line(text: str, line: int, source: str) -> _Row:
    number_text = text[NUMBER].strip()
    if not number_text.isdecimal() or int(number_text) == 0:
        raise InputError(
            N_("expected the player's start number in columns 5-8, got %(number_text)s"),
            file=source,
            line=line,
            number_text=repr(number_text),
        )
    name = text[NAME].strip()
    if not name:
        raise InputError(
            N_("expected the player's name in columns 15-47, found it blank"),
            file=source,
            line=line,
        )
    points_text_ = text[POINTS].strip().replace(",", ".")
    points: HalfPoints | None = None
    if points_text_:
        try:
            points = round(float(points_text_) * 2)
        except (ValueError, OverflowError):
            raise InputError(
                N_("expected the points in columns 81-84 (e.g. ' 4.5'), got %(points_text)s"),
                file=source,
                line=line,
                points_text=repr(points_text_),
            ) from None
    if text[FIRST_ROUND - 2 + ROUND_WIDTH * MAX_ROUNDS :].strip():
        raise InputError(
            N_(
                "a round beyond round %(rounds)s (column %(column)s on):"
                " expected at most %(rounds)s rounds"
            ),
            file=source,
            line=line,
            rounds=MAX_ROUNDS,
            column=FIRST_ROUND + ROUND_WIDTH * MAX_ROUNDS - 1,
        )
    cells = []
    round_ = 1
    while (start := FIRST_ROUND + ROUND_WIDTH * (round_ - 1)) < len(text):
        cells.append(_parse_cell(text[start - 2 : start + 8].ljust(10), round_, line, source))
        round_ += 1
    return _Row(int(number_text), name, points, line, tuple(cells), text[RANK])


def _parse_cell(text: str, round_: int, line: int, source: str) -> _Cell:
    first = FIRST_ROUND + ROUND_WIDTH * (round_ - 1) + 1
    where = Text(
        N_("round %(round)s (columns %(first)s-%(last)s)"),
        round=round_,
        first=first,
        last=first + 7,
    )
    opponent_text, colour, code = text[2:6], text[7], text[9]
    if text[:2].strip() or text[6] != " " or text[8] != " ":
        raise InputError(
            N_(
                "%(where)s: expected 'nnnn c r' (opponent, colour, result) aligned on columns,"
                " got %(cell)s"
            ),
            file=source,
            line=line,
            where=where,
            cell=repr(text[2:].rstrip()),
        )
    if opponent_text.strip() and not opponent_text.strip().isdecimal():
        raise InputError(
            N_("%(where)s: expected an opponent's start number or 0000, got %(opponent_text)s"),
            file=source,
            line=line,
            where=where,
            opponent_text=repr(opponent_text),
        )
    if colour not in _COLOURS:
        raise InputError(
            N_("%(where)s: expected the colour w, b or -, got %(colour)s"),
            file=source,
            line=line,
            where=where,
            colour=repr(colour),
        )
    opponent = int(opponent_text) if opponent_text.strip() else 0
    if opponent == 0:
        if code not in BYE_RESULTS or colour in "wb" and code in "10":
            raise InputError(
                N_(
                    "%(where)s: without an opponent expected a bye code (H F U Z, or + = - for"
                    " 0000), got %(code)s"
                ),
                file=source,
                line=line,
                where=where,
                code=repr(code),
            )
        return _Cell(round_, None, colour, code)
    if code in PLAYED_RESULTS:
        if colour not in "wb":
            raise InputError(
                N_("%(where)s: a played result %(code)s needs the colour w or b, got %(colour)s"),
                file=source,
                line=line,
                where=where,
                code=repr(code),
                colour=repr(colour),
            )
    elif code in "HFUZ":
        raise InputError(
            N_("%(where)s: the bye code %(code)s goes with opponent 0000, not %(opponent)s"),
            file=source,
            line=line,
            where=where,
            code=repr(code),
            opponent=opponent,
        )
    elif code not in UNPLAYED_RESULTS:
        raise InputError(
            N_(
                "%(where)s: unknown result code %(code)s; expected one of TRF-16's 1 = 0 + - W D L"
                " (or a bye code H F U Z with opponent 0000)"
            ),
            file=source,
            line=line,
            where=where,
            code=repr(code),
        )
    return _Cell(round_, opponent, colour, code)


def _index_rows(rows: list[_Row], source: str) -> dict[int, _Row]:
    by_number: dict[int, _Row] = {}
    for row in rows:
        if row.number in by_number:
            raise InputError(
                N_(
                    "start number %(number)s is used twice (also line %(line_number)s);"
                    " expected one 001 line per player"
                ),
                file=source,
                line=row.line,
                number=row.number,
                line_number=by_number[row.number].line,
            )
        by_number[row.number] = row
    return by_number


def _pairings(rows: list[_Row], by_number: dict[int, _Row], source: str) -> tuple[Pairing, ...]:
    pairings = []
    for row in sorted(rows, key=lambda row: row.line):
        for cell in row.cells:
            if cell.opponent is None:
                continue
            other = _check_partner(row, cell, by_number, source)
            if row.number < other.number:
                pairings.append(_pairing(row, cell, other))
    return tuple(sorted(pairings, key=lambda p: (p.round, min(p.white, p.black))))


def _check_partner(row: _Row, cell: _Cell, by_number: dict[int, _Row], source: str) -> _Row:
    where = Text(N_("round %(round)s: player %(number)s"), round=cell.round, number=row.number)
    other = by_number.get(cell.opponent) if cell.opponent is not None else None
    if other is None:
        raise InputError(
            N_(
                "%(where)s is paired with %(opponent)s, who is not a player of this tournament"
                " (no 001 line with that start number)"
            ),
            file=source,
            line=row.line,
            where=where,
            opponent=cell.opponent,
        )
    if other.number == row.number:
        raise InputError(
            N_("%(where)s is paired with themself"), file=source, line=row.line, where=where
        )
    theirs = other.cells[cell.round - 1] if len(other.cells) >= cell.round else None
    if theirs is None or theirs.opponent != row.number:
        said = (
            Text(N_("nothing"))
            if theirs is None or theirs.opponent is None
            else Text(N_("opponent %(number)s"), number=theirs.opponent)
        )
        raise InputError(
            N_(
                "%(where)s is paired with %(number)s, but line %(line_number)s (player %(number)s)"
                " says %(said)s in that round; expected both cells to name each other"
            ),
            file=source,
            line=row.line,
            where=where,
            number=other.number,
            line_number=other.line,
            said=said,
        )
    colours_agree = {cell.colour, theirs.colour} == {"w", "b"} or (
        cell.colour in "- " and theirs.colour in "- "
    )
    if theirs.code not in PARTNER_CODES[cell.code] or not colours_agree:
        raise InputError(
            N_(
                "%(where)s has '%(colour)s %(code)s' against %(number)s, but line %(line_number)s"
                " has '%(colour2)s %(code2)s'; expected the opposite colour and"
                " result '%(partner)s'"
            ),
            file=source,
            line=row.line,
            where=where,
            colour=cell.colour,
            code=cell.code,
            number=other.number,
            line_number=other.line,
            colour2=theirs.colour,
            code2=theirs.code,
            partner=PARTNER_CODES[cell.code][0],
        )
    return other


def _pairing(row: _Row, cell: _Cell, other: _Row) -> Pairing:
    theirs = other.cells[cell.round - 1]
    colours_known = cell.colour in "wb"
    mine_white = cell.colour == "w" or not colours_known
    white, black = (row, other) if mine_white else (other, row)
    white_cell, black_cell = (cell, theirs) if mine_white else (theirs, cell)
    if white_cell.code in PLAYED_RESULTS:
        return Pairing(
            round=cell.round,
            white=white.number,
            black=black.number,
            white_points=PLAYED_RESULTS[white_cell.code],
            black_points=PLAYED_RESULTS[black_cell.code],
            line=white.line,
        )
    white_points, unplayed = UNPLAYED_RESULTS[white_cell.code]
    black_points = UNPLAYED_RESULTS[black_cell.code][0]
    if white_cell.code == black_cell.code == "-":
        unplayed = Unplayed.DOUBLE_FORFEIT
    return Pairing(
        round=cell.round,
        white=white.number,
        black=black.number,
        white_points=white_points,
        black_points=black_points,
        played=False,
        unplayed=unplayed,
        colours_known=colours_known,
        line=white.line,
    )


def _byes(rows: list[_Row], rounds: int, is_team: bool) -> tuple[Bye, ...]:
    byes = []
    for row in rows:
        for round_ in range(1, rounds + 1):
            cell = (
                row.cells[round_ - 1] if round_ <= len(row.cells) else _Cell(round_, None, " ", " ")
            )
            if cell.opponent is not None:
                continue
            kind, points = BYE_RESULTS[cell.code]
            if cell.code == "-" and is_team:
                kind = ByeKind.UNFIELDED  # team event: '0000 - -' is a player not fielded
            byes.append(
                Bye(round=round_, player=row.number, points=points, kind=kind, line=row.line)
            )
    return tuple(sorted(byes, key=lambda bye: (bye.round, bye.player)))


def _header_record(header: _Header, source: str, warnings: list[Text]) -> TournamentRecord:
    dates = []
    for code in ("042", "052"):
        text, line = header.values.get(code, ("", 0))
        try:
            dates.append(parse_date(text))
        except ValueError as error:
            warnings.append(
                Text(
                    N_("%(where)s: %(code)s date not understood (%(error)s); left unknown"),
                    where=f"{source}:{line}",
                    code=code,
                    error=error,
                )
            )
            dates.append(None)
    planned = None
    if "XXR" in header.values:
        text, line = header.values["XXR"]
        planned = whole_number(text, MAX_NUMBER)  # never int(): of 5,000 digits it raises
        if planned is None:
            warnings.append(
                Text(
                    N_("%(where)s: XXR expected a number of rounds, got %(text)s; ignored"),
                    where=f"{source}:{line}",
                    text=repr(text[:20]),
                )
            )
    kind_text = _value(header, "092")
    control = time_control_from_text(kind_text, _value(header, "122"), _value(header, "012"))
    return TournamentRecord(
        name=_value(header, "012"),
        date=dates[0],
        end_date=dates[1],
        players=(),
        pairings=(),
        time_control=control or TimeControl.STANDARD,
        planned_rounds=planned,
        source=source,
        format="trf",
        kind=TournamentKind.BUGHOUSE
        if re.search("bughouse", kind_text, re.I)
        else TournamentKind.CHESS,
    )


def _points_warnings(
    rows: list[_Row], pairings: tuple[Pairing, ...], byes: tuple[Bye, ...], source: str
) -> list[Text]:
    computed = {row.number: 0 for row in rows}
    for pairing in pairings:
        computed[pairing.white] += pairing.white_points
        computed[pairing.black] += pairing.black_points
    for bye in byes:
        computed[bye.player] += bye.points
    written = [row for row in rows if row.points is not None]
    if written and all(row.points == 0 for row in written) and any(computed.values()):
        return [
            Text(
                N_(
                    "%(where)s: the points column (81-84) is all zero; points computed from the "
                    "results instead"
                ),
                where=source,
            )
        ]
    return [
        Text(
            N_(
                "%(where)s: player %(number)s has %(written)s points written, %(computed)s "
                "computed from the results"
            ),
            where=f"{source}:{row.line}",
            number=row.number,
            written=points_text(row.points),
            computed=points_text(computed[row.number]),
        )
        for row in written
        if row.points is not None and row.points != computed[row.number]
    ]


def write_trf(
    record: TournamentRecord, handle: TextIO, ratings: Mapping[int, int] | None = None
) -> None:
    """Write a tournament as TRF-16 (LF line ends; names longer than 33 characters are cut).

    Points are ``PlayerEntry.points`` (the standings' points, the file's own where it wrote
    them), else computed from the pairings and byes; ranks are ``PlayerEntry.rank`` (0 for a
    player left unranked) when the record gives any, else by points and start number. The
    header lines kept from the imported file (``record.headers``) are written back, except
    where the record now says otherwise.
    ``ratings`` (start number -> rating) fills the rating column, for a pairing program to
    seed the next round; without it the column stays blank. Forfeits without known colours
    are written with colour '-'; an absent round is left blank. A team event's teams
    (``record.teams``) are written as 013 lines after the players.
    """
    if any(player.number > 9999 for player in record.players):
        raise InputError(
            N_("TRF-16 numbers players with at most 4 digits"), file=record.source or None
        )
    cells = _cells_by_player(record)
    rounds = max([record.rounds, *(round_ for _, round_ in cells)], default=0)
    points = {player.number: 0 for player in record.players}
    for pairing in record.pairings:
        points[pairing.white] += pairing.white_points
        points[pairing.black] += pairing.black_points
    for bye in record.byes:
        points[bye.player] += bye.points
    points |= {
        player.number: player.points for player in record.players if player.points is not None
    }
    ranks = {
        number: rank
        for rank, number in enumerate(
            sorted(points, key=lambda number: (-points[number], number)), start=1
        )
    }
    if any(player.rank for player in record.players):
        ranks = {player.number: player.rank or 0 for player in record.players}
    for line in _header_lines(record):
        handle.write(line + "\n")
    for player in sorted(record.players, key=lambda player: player.number):
        name = " ".join(player.name.split())[:NAME_WIDTH]
        rating = (ratings or {}).get(player.number)
        rating_text = (
            f"{rating:>4}" if rating and 0 < rating <= 9999 else ""
        )  # TRF-16: four columns
        prefix = (
            f"001 {player.number:>4}{'':6}{name:<{NAME_WIDTH}} {rating_text:<4}{'':28}"
            f"{points_text(points[player.number]):>4} {ranks[player.number]:>4}"
        )
        row = "".join(
            "  " + cells.get((player.number, round_), " " * 8) for round_ in range(1, rounds + 1)
        )
        handle.write(prefix + row + "\n")
    for team in record.teams:
        name = " ".join(team.name.split())[: TEAM_NAME.stop - TEAM_NAME.start]
        handle.write(
            f"013 {name:<{TEAM_NAME.stop - TEAM_NAME.start}}"
            + " ".join(f"{number:>4}" for number in team.members)
            + "\n"
        )


def _header_lines(record: TournamentRecord) -> list[str]:
    """The kept header lines in TRF-16's order, each replaced by the record's own value where
    the two disagree (a tournament renamed or redated since; the number of players)."""
    kept = dict(record.headers)
    ours = _own_headers(record)
    lines = []
    for code in HEADER_CODES:
        text = kept.get(code)
        if text is None or (code in ours and not _header_agrees(code, text, ours[code])):
            text = ours.get(code)
        if text is not None:
            lines.append(f"{code} {text}".rstrip())
    return lines


def _own_headers(record: TournamentRecord) -> dict[str, str]:
    control = {
        TimeControl.STANDARD: "Standard",
        TimeControl.RAPID: "Rapid",
        TimeControl.BLITZ: "Blitz",
    }
    team = any(bye.kind is ByeKind.UNFIELDED for bye in record.byes)
    kind = "Bughouse" if record.kind is TournamentKind.BUGHOUSE else control[record.time_control]
    lines = {
        "012": " ".join(record.name.split()),
        "062": str(len(record.players)),
        "092": f"{'Team' if team else 'Individual'}: Swiss-System ({kind})",
    }
    if record.date is not None:
        lines["042"] = f"{record.date:%Y/%m/%d}"
    if record.end_date is not None:
        lines["052"] = f"{record.end_date:%Y/%m/%d}"
    if record.planned_rounds is not None:
        lines["XXR"] = str(record.planned_rounds)
    return lines


def _header_agrees(code: str, kept: str, ours: str) -> bool:
    """Whether a kept header line still says what the record says (dates in any spelling;
    092 is the file's own description of the event, always kept)."""
    if code in ("042", "052"):
        try:
            return parse_date(kept) == parse_date(ours)
        except ValueError:
            return False
    return code == "092" or " ".join(kept.split()) == ours


def _cells_by_player(record: TournamentRecord) -> dict[tuple[int, int], str]:
    cells: dict[tuple[int, int], str] = {}
    played_code = {points: code for code, points in PLAYED_RESULTS.items()}
    unplayed_code = {(points, kind): code for code, (points, kind) in UNPLAYED_RESULTS.items()}
    for pairing in record.pairings:
        colours = ("w", "b") if pairing.colours_known else ("-", "-")
        sides = (
            (pairing.white, pairing.black, pairing.white_points, colours[0]),
            (pairing.black, pairing.white, pairing.black_points, colours[1]),
        )
        for player, opponent, points, colour in sides:
            if pairing.played:
                code = played_code[points]
            elif pairing.unplayed is Unplayed.NO_MOVES:
                code = unplayed_code[(points, Unplayed.NO_MOVES)]
            else:
                code = "+" if points else "-"
            cells[(player, pairing.round)] = f"{opponent:>4} {colour} {code}"
    for bye in record.byes:
        if bye.kind is not ByeKind.ABSENT:
            cells[(bye.player, bye.round)] = f"{NO_OPPONENT} - {BYE_CODES_WRITTEN[bye.kind]}"
    return cells
