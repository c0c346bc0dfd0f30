"""The club's CSV format: one row per game or bye, typed by hand or exported
from a spreadsheet. Documented in docs/formats.md.

    # event: Tuesday Rapid
    # date: 2024-03-05
    # time-control: rapid
    round,board,white,black,result
    1,1,Anna Petrosyan,John Smith,1-0
    1,,Ann Lee,,bye 1/2

Header names are case-insensitive; ``,``, ``;`` or a tab separates the fields
(the header line decides); a UTF-8 byte-order mark is tolerated.
"""

from __future__ import annotations

import csv as _csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO, TypeVar

from clubrating.errors import InputError, Text
from clubrating.formats.bounds import MAX_NUMBER, whole_number
from clubrating.formats.common import (
    NumberedLines,
    PlayerNumbers,
    check_bounds,
    check_name,
    check_one_game_per_round,
    check_round,
    parse_date,
)
from clubrating.formats.records import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    Bye,
    ByeKind,
    HalfPoints,
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.formats.results import GameResult
from clubrating.words import N_

_T = TypeVar("_T")

REQUIRED = ("round", "white", "black", "result")
COLUMNS = ("round", "board", "white", "black", "result")

WRITTEN_FORFEITS = {
    GameResult.WHITE_WINS_BY_FORFEIT: "+:-",
    GameResult.BLACK_WINS_BY_FORFEIT: "-:+",
    GameResult.DOUBLE_FORFEIT: "-:-",
}
"""Forfeits as this format writes them, in TRF's + / - vocabulary (never rated, R8); a result is
read in any spelling of :class:`~clubrating.formats.results.GameResult`."""
NO_MOVES = " unplayed"
"""After a played result ('1-0 unplayed'): given without a move played (TRF's W / L / D), counted in
standings, never rated (R8)."""

BYES: dict[str, tuple[ByeKind, HalfPoints]] = {
    "bye": (ByeKind.PAIRING, 2),  # pairing-allocated bye: a win's point (FIDE C.04.1 d)
    "bye 1": (ByeKind.FULL_POINT, 2),
    "bye 1/2": (ByeKind.HALF_POINT, 1),
    "bye ½": (ByeKind.HALF_POINT, 1),
    "bye 0.5": (ByeKind.HALF_POINT, 1),
    "bye =": (ByeKind.HALF_POINT, 1),
    "bye 0": (ByeKind.ZERO_POINT, 0),
    "absent": (ByeKind.ABSENT, 0),
    "unfielded": (ByeKind.UNFIELDED, 0),
}
"""Rows with an empty black: the player had no opponent that round."""

CONTROLS = {control.value: control for control in TimeControl}
KINDS = {kind.value: kind for kind in TournamentKind}


@dataclass
class _State:
    source: str
    meta: dict[str, str] = field(default_factory=dict)
    warnings: list[Text] = field(default_factory=list)
    players: PlayerNumbers = field(init=False)
    pairings: list[Pairing] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = PlayerNumbers(self.source)


def read_csv(handle: TextIO, source: str = "<csv>") -> TournamentRecord:
    """Read the club's CSV format (see the module's docstring and docs/formats.md)."""
    state = _State(source)
    columns: dict[str, int] | None = None
    delimiter = ","
    for number, text in NumberedLines(handle):
        stripped = text.strip()
        if stripped.startswith("#"):
            _meta_line(stripped[1:], number, state)
        elif stripped and columns is None:
            delimiter = max(",;\t", key=stripped.count)
            columns = _header(_split(text, delimiter, number, state), number, state)
        elif stripped.strip(delimiter + " "):
            assert columns is not None
            _row(_split(text, delimiter, number, state), columns, number, state)
    if columns is None:
        raise InputError(
            N_("no header line: expected the columns %(value)s (board optional)"),
            file=source,
            value=",".join(COLUMNS),
        )
    if not state.pairings and not state.byes:
        raise InputError(
            N_("no game in the file: expected one row per game or bye under the header"),
            file=source,
        )
    entries = state.players.entries()
    check_one_game_per_round(
        state.pairings, state.byes, {e.number: e.name for e in entries}, source
    )
    record = _record(state, entries)
    check_bounds(record)
    return record


def _split(text: str, delimiter: str, line: int, state: _State) -> list[str]:
    try:
        return [cell.strip() for cell in next(_csv.reader([text], delimiter=delimiter))]
    except _csv.Error as error:  # "field larger than field limit (131072)": no name is that long
        raise InputError(
            N_(
                "unreadable fields (%(error)s): expected round, board, names of at most"
                " %(MAX_NAME_LENGTH)s characters and a result"
            ),
            file=state.source,
            line=line,
            error=error,
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        ) from None


def _meta_line(text: str, line: int, state: _State) -> None:
    key, colon, value = text.partition(":")
    key, value = key.strip().lower(), value.strip()
    if not colon or " " in key:
        return  # a free comment
    checks: dict[str, Mapping[str, object]] = {"time-control": CONTROLS, "kind": KINDS}
    if key in checks and value.lower() not in checks[key]:
        raise InputError(
            N_("# %(key)s: expected one of %(value)s, got %(value2)s"),
            file=state.source,
            line=line,
            key=key,
            value=", ".join(checks[key]),
            value2=repr(value),
        )
    if key in ("date", "end-date"):
        try:
            parse_date(value)
        except ValueError as error:
            raise InputError(
                N_("# %(key)s: %(error)s"), file=state.source, line=line, key=key, error=error
            ) from None
    elif key not in ("event", *checks):
        state.warnings.append(
            Text(
                N_(
                    "%(where)s: '# %(key)s:' is not a known setting (event, date, end-date, "
                    "time-control, kind); ignored"
                ),
                where=f"{state.source}:{line}",
                key=key,
            )
        )
        return
    state.meta[key] = value


def _header(cells: list[str], line: int, state: _State) -> dict[str, int]:
    names = [cell.lower() for cell in cells]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        raise InputError(
            N_(
                "the header lacks %(value)s: expected the columns %(value2)s"
                " (board optional), got %(value3)s"
            ),
            file=state.source,
            line=line,
            value=", ".join(missing),
            value2=",".join(COLUMNS),
            value3=",".join(cells),
        )
    unknown = [cell for cell in cells if cell and cell.lower() not in COLUMNS]
    if unknown:
        state.warnings.append(
            Text(
                N_("%(where)s: columns %(columns)s are not read"),
                where=f"{state.source}:{line}",
                columns=", ".join(unknown),
            )
        )
    return {name: index for index, name in reversed(list(enumerate(names))) if name in COLUMNS}


def _row(cells: list[str], columns: dict[str, int], line: int, state: _State) -> None:
    needed = max(columns.values()) + 1
    if len(cells) < needed:
        raise InputError(
            N_("expected %(needed)s fields (%(value)s), got %(count)s"),
            file=state.source,
            line=line,
            needed=needed,
            value=",".join(sorted(columns, key=columns.__getitem__)),
            count=len(cells),
        )
    value = {name: cells[index] for name, index in columns.items()}
    round_ = _positive(value["round"], "round", line, state)
    check_round(round_, state.source, line)
    board = _positive(value["board"], "board", line, state) if value.get("board") else None
    if board is not None and board > MAX_PLAYERS:
        raise InputError(
            N_("board %(board)s: expected a board number from 1 to %(MAX_PLAYERS)s"),
            file=state.source,
            line=line,
            board=board,
            MAX_PLAYERS=format(MAX_PLAYERS, ","),
        )
    white, black = " ".join(value["white"].split()), " ".join(value["black"].split())
    check_name(white, state.source, line)
    check_name(black, state.source, line)
    result = " ".join(value["result"].lower().split())
    if not white:
        raise InputError(
            N_("expected the white player's name (or the player having a bye)"),
            file=state.source,
            line=line,
        )
    if not black:
        if result not in BYES:
            raise InputError(
                N_("black is empty, so expected a bye result (%(value)s), got %(result)s"),
                file=state.source,
                line=line,
                value=", ".join(BYES),
                result=repr(result),
            )
        kind, points = BYES[result]
        state.byes.append(
            Bye(
                round=round_,
                player=state.players.number(white, line),
                points=points,
                kind=kind,
                line=line,
            )
        )
        return
    if white == black:
        raise InputError(
            N_("%(white)s cannot play themself"), file=state.source, line=line, white=white
        )
    state.pairings.append(_pairing(round_, board, white, black, result, line, state))


def _pairing(
    round_: int, board: int | None, white: str, black: str, result: str, line: int, state: _State
) -> Pairing:
    no_moves = result.endswith(NO_MOVES)
    found = GameResult.find(result.removesuffix(NO_MOVES))
    if found is None or (no_moves and not found.played):
        raise InputError(
            N_(
                "result %(result)s not understood: expected 1-0, 0-1, 1/2-1/2 (or ½-½, =),"
                " a forfeit +:- -:+ -:-, a result without moves such as '1-0 unplayed',"
                " or with an empty black a bye"
            ),
            file=state.source,
            line=line,
            result=repr(result),
        )
    return Pairing(
        round=round_,
        board=board,
        white=state.players.number(white, line),
        black=state.players.number(black, line),
        white_points=found.white_points,
        black_points=found.black_points,
        played=found.played and not no_moves,
        unplayed=Unplayed.NO_MOVES if no_moves else found.unplayed,
        line=line,
    )


def _positive(text: str, what: str, line: int, state: _State) -> int:
    number = whole_number(text, MAX_NUMBER)  # never int(): of 5,000 digits it raises
    if not number:
        raise InputError(
            N_("expected the %(what)s as a number from 1, got %(text)s"),
            file=state.source,
            line=line,
            what=what,
            text=repr(text[:20]),
        )
    return number


def _record(state: _State, entries: tuple[PlayerEntry, ...]) -> TournamentRecord:
    meta = state.meta
    rounds = max([p.round for p in state.pairings] + [b.round for b in state.byes])
    return TournamentRecord(
        name=meta.get("event", ""),
        date=parse_date(meta.get("date", "")),
        end_date=parse_date(meta.get("end-date", "")),
        players=entries,
        pairings=tuple(state.pairings),
        byes=tuple(sorted(state.byes, key=lambda b: (b.round, b.player))),
        rounds=rounds,
        time_control=CONTROLS.get(meta.get("time-control", "").lower(), TimeControl.STANDARD),
        kind=KINDS.get(meta.get("kind", "").lower(), TournamentKind.CHESS),
        source=state.source,
        format="csv",
        warnings=tuple(state.warnings),
    )


def _written_result(pairing: Pairing) -> str:
    """A pairing's result as this format writes it: 1-0, +:-, '1-0 unplayed' ..."""
    no_moves = pairing.unplayed is Unplayed.NO_MOVES
    found = GameResult.of(pairing.white_points, pairing.black_points, pairing.played or no_moves)
    if found is None:
        raise ValueError(
            f"no result gives {pairing.white_points}-{pairing.black_points} half-points"
        )
    return found.value + NO_MOVES if no_moves else WRITTEN_FORFEITS.get(found, found.value)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def spreadsheet_cell(value: _T) -> _T | str:
    """A cell of an exported CSV that no spreadsheet runs as a formula: text starting with
    = + - @ tab or carriage return gets a single quote in front, as OWASP advises ("CSV
    Injection"); a plain number such as a rating change "-4.0" stays as it is."""
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def write_csv(record: TournamentRecord, handle: TextIO) -> None:
    """Write a tournament in the club's CSV format (comma-separated, with the # settings)."""
    names = {player.number: player.name for player in record.players}
    handle.write(f"# event: {record.name}\n")
    if record.date:
        handle.write(f"# date: {record.date:%Y-%m-%d}\n")
    if record.end_date:
        handle.write(f"# end-date: {record.end_date:%Y-%m-%d}\n")
    handle.write(f"# time-control: {record.time_control.value}\n# kind: {record.kind.value}\n")
    buffer = io.StringIO()
    writer = _csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    bye_text = {kind: text for text, (kind, _) in reversed(list(BYES.items()))}
    rows: list[tuple[int, int, list[object]]] = []
    for p in record.pairings:
        result = _written_result(p)
        rows.append((p.round, 0, [p.round, p.board or "", names[p.white], names[p.black], result]))
    for bye in record.byes:
        rows.append((bye.round, 1, [bye.round, "", names[bye.player], "", bye_text[bye.kind]]))
    for _, _, row in sorted(rows, key=lambda item: (item[0], item[1])):
        writer.writerow(row)
    handle.write(buffer.getvalue())
