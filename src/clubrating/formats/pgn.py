"""PGN reader and writer: a file of games is one tournament.

Parsing is python-chess's (``chess.pgn.read_game``); its recoverable errors
are collected with the line being read when they happened, and an illegal
move refuses the file with that line. Players are numbered in order of first
appearance; the Round tag gives the round (``3``) and board (``3.2``); a file
without any Round tag takes each game as its own round, in file order.

A game with a result and no moves is a played game whose moves are unknown
(clubs often record results only); a game marked as a forfeit (Termination
"forfeit", "abandoned", ... or a comment saying so) where one side never moved
is unplayed (R8).

python-chess's reader checks every move's legality but skips the check and mate signs unread;
they are checked as typed moves' are (``formats.movetext.check_signs``), and a game is at most
``formats.movetext.MAX_PLIES`` half-moves long.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import TextIO, cast

import chess.pgn

from clubrating.errors import InputError, Text
from clubrating.formats.bounds import MAX_NUMBER, whole_number
from clubrating.formats.movetext import MAX_PLIES, MoveError, check_signs, too_long
from clubrating.formats.common import (
    PlayerNumbers,
    check_one_game_per_round,
    parse_date,
    parse_time_control,
    time_control_from_text,
)
from clubrating.formats.records import (
    Pairing,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)
from clubrating.formats.results import GameResult, pgn_result
from clubrating.words import N_, Nn_

RESULTS = {result.value: result.points for result in GameResult if result.played}
"""PGN standard 8.2.6: the three finished results (1-0, 0-1, 1/2-1/2), as half-points (white,
black)."""

FORFEIT_WORDS = re.compile(
    r"forfeit|abandon|no[ -]?show|unplayed|not played|did not start|nostart", re.I
)
"""Termination values and comments that mark a game not played over the board."""

PLIES_TO_HAVE_PLAYED = 2  # both sides made a move: the game was played (FIDE Laws 5.2.1 analogue)

SEVEN_TAG_ROSTER = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
)  # PGN standard 8.1.1
KEPT_TAGS = SEVEN_TAG_ROSTER + ("TimeControl", "Variant", "SetUp", "FEN")
"""The tags stored with a game (spec R18, collect less: names and results, not a birth date,
an e-mail, a FIDE id or a rating): the Seven Tag Roster; TimeControl, which gives the kept
clocks their meaning (the CPI's time factor reads its increment, cpi/factors.py); Variant,
SetUp and FEN, without which the moves of a Chess960 game or of a set-up position cannot
be replayed. Every other tag is dropped at import, and the record says which."""
CLOCK = re.compile(
    r"\[%clk\s+[0-9:.]+\s*\]"
)  # the clock command of PGN comments (lichess, chess.com, DGT)
_MOVETEXT_PART = re.compile(r"\{[^}]*\}?|;[^\n]*|^%[^\n]*|[^{;%]+|[;%]", re.MULTILINE)
_TAG_LINE = re.compile(r'\s*\[[A-Za-z0-9_]+\s+"')
_RESULT_TOKEN = re.compile(r"\s*(1-0|0-1|1/2-1/2|\*)\s*$")
_STANDARD_VARIANTS = {
    "",
    "standard",
    "chess",
    "chess960",
    "chess 960",
    "fischerandom",
    "from position",
}


class _Lines:
    """A handle that counts the lines python-chess reads and keeps those of the current game.

    Some exports (chess.com) start the next game's tags right after a result
    with no blank line; python-chess would then read those tags as movetext and
    merge two games. A tag line met inside movetext ends the game first.
    """

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle
        self._pending: str | None = None
        self._in_movetext = False
        self.number = 0
        self.game_lines: list[tuple[int, str]] = []

    def readline(self) -> str:
        if self._pending is not None:
            text, self._pending = self._pending, None
        else:
            text = self._handle.readline()
            if self._in_movetext and _TAG_LINE.match(text):
                self._pending, self._in_movetext = text, False
                return "\n"  # the blank line the file forgot
        if text:
            self.number += 1
            self.game_lines.append((self.number, text.rstrip("\r\n")))
        stripped = text.strip()
        if not stripped:
            self._in_movetext = False
        elif not stripped.startswith(("[", "%", ";")):
            self._in_movetext = True
        return text


class _Builder(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    """python-chess's game builder, keeping each error with the line it was read on."""

    def __init__(self, lines: _Lines) -> None:
        super().__init__()
        self._lines = lines
        self.located: list[tuple[str, int]] = []
        self.tags: list[
            tuple[str, str]
        ] = []  # as written (python-chess adds the roster's defaults)

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, tagvalue)
        self.tags.append((tagname, tagvalue))

    def handle_error(self, error: Exception) -> None:
        self.located.append((str(error), self._lines.number))

    def end_variation(self) -> None:
        # python-chess pops the game itself off its stack on a ")" that closes no "(", and
        # then fails with an IndexError on the next token ("a1)?", found by hypothesis;
        # python-chess pull request #1204 makes end_variation keep the root the same way)
        if len(self.variation_stack) > 1:
            super().end_variation()
        else:
            self.located.append(("')' closes no variation", self._lines.number))


@dataclass(frozen=True, slots=True)
class _Game:
    line: int
    headers: tuple[tuple[str, str], ...]
    white: str
    black: str
    result: str
    round: int | None
    board: int | None
    moves: str | None
    played: bool
    bughouse: bool
    commented: bool = False  # the movetext had comments (other than clocks), dropped


def read_pgn(handle: TextIO, source: str = "<pgn>") -> TournamentRecord:
    """Read every game of a PGN file as one tournament."""
    games = list(_games(handle, source))
    if not games:
        raise InputError(
            N_('no game found: expected PGN tags such as [Event "..."] and a result'), file=source
        )
    if len({game.bughouse for game in games}) > 1:
        first = next(game for game in games if game.bughouse != games[0].bughouse)
        raise InputError(
            N_("bughouse and ordinary games in one file; expected one kind of tournament"),
            file=source,
            line=first.line,
        )
    numbered = all(game.round is None for game in games)
    players = PlayerNumbers(source)
    pairings = []
    kept, dropped = _kept_tags(games)
    for index, (game, headers) in enumerate(zip(games, kept), start=1):
        if game.round is None and not numbered:
            raise InputError(
                N_(
                    "this game has no Round tag while others have one; expected a round"
                    ' number (e.g. [Round "3"]) on every game'
                ),
                file=source,
                line=game.line,
            )
        white, black = players.number(game.white, game.line), players.number(game.black, game.line)
        white_points, black_points = RESULTS[game.result]
        pairings.append(
            Pairing(
                round=index if numbered else cast(int, game.round),
                board=game.board,
                white=white,
                black=black,
                white_points=white_points,
                black_points=black_points,
                played=game.played,
                unplayed=None if game.played else Unplayed.FORFEIT,
                moves=game.moves,
                headers=headers,
                line=game.line,
            )
        )
    entries = players.entries()
    try:
        check_one_game_per_round(
            pairings, (), {entry.number: entry.name for entry in entries}, source
        )
    except InputError as error:
        events = {dict(game.headers).get("Event", "?") for game in games}
        if len(events) > 1:
            raise InputError(
                N_(
                    "%(reason)s; the file holds games of %(count)s different events:"
                    " expected one tournament per file"
                ),
                file=source,
                line=error.line,
                reason=error.reason,
                count=len(events),
            ) from None
        raise
    name, date, control, warnings = _tournament_tags(games, source)
    commented = sum(game.commented for game in games)
    warnings += _dropped_warning(source, dropped, commented)
    return TournamentRecord(
        name=name,
        date=date,
        players=entries,
        pairings=tuple(pairings),
        rounds=max(pairing.round for pairing in pairings),
        time_control=control,
        kind=TournamentKind.BUGHOUSE if games[0].bughouse else TournamentKind.CHESS,
        source=source,
        format="pgn",
        warnings=tuple(warnings),
        dropped=tuple(dropped) + (("comments",) if commented else ()),
    )


def _games(handle: TextIO, source: str) -> list[_Game]:
    lines = _Lines(handle)
    builders: list[_Builder] = []

    def make() -> _Builder:
        builders.append(_Builder(lines))
        return builders[-1]

    games: list[_Game] = []
    while True:
        lines.game_lines = []
        game = chess.pgn.read_game(cast(TextIO, lines), Visitor=make)
        if game is None:
            return games
        games.append(_game(game, builders[-1], lines.game_lines, source))


def _game(
    game: chess.pgn.Game, builder: _Builder, text: list[tuple[int, str]], source: str
) -> _Game:
    content = [(number, line) for number, line in text if line.strip()]
    start = content[0][0] if content else (text[-1][0] if text else 0)
    tags = game.headers
    variant = tags.get("Variant", "").strip().lower()
    bughouse = "bughouse" in variant
    if not bughouse and variant not in _STANDARD_VARIANTS:
        raise InputError(
            N_(
                "variant %(Variant)s is not supported; expected standard chess,"
                " Chess960 or bughouse"
            ),
            file=source,
            line=start,
            Variant=repr(tags["Variant"]),
        )
    if builder.located and not bughouse:
        message, line = builder.located[0]
        raise InputError(
            N_("%(text)s; expected legal moves in SAN"), file=source, line=line, text=message
        )
    white, black = tags.get("White", "").strip(), tags.get("Black", "").strip()
    if white in ("", "?") or black in ("", "?"):
        raise InputError(
            N_('a game needs both player names: expected [White "..."] and [Black "..."]'),
            file=source,
            line=start,
        )
    result = tags.get("Result", "*").strip()
    if result not in RESULTS:
        raise InputError(
            N_(
                "%(white)s - %(black)s has the result %(result)s; expected a finished game"
                " (1-0, 0-1 or 1/2-1/2), '*' means unfinished"
            ),
            file=source,
            line=start,
            white=white,
            black=black,
            result=repr(result),
        )
    body = next(
        (i for i, (_, line) in enumerate(content) if not line.lstrip().startswith("[")),
        len(content),
    )
    movetext = "\n".join(line for _, line in content[body:]).strip()
    if not bughouse:
        _check_moves(game, movetext, [number for number, _ in content[body:]], source)
    movetext, commented = keep_moves(movetext)
    moves = _RESULT_TOKEN.sub("", movetext).strip()
    plies = len(moves.split()) if bughouse else sum(1 for _ in game.mainline_moves())
    forfeit = bool(
        FORFEIT_WORDS.search(tags.get("Termination", "")) or FORFEIT_WORDS.search(_comments(game))
    )
    round_, board = _round(tags.get("Round", ""), source, start)
    return _Game(
        line=start,
        headers=tuple(builder.tags),
        white=white,
        black=black,
        result=result,
        round=round_,
        board=board,
        moves=movetext if plies else None,
        played=not (forfeit and plies < PLIES_TO_HAVE_PLAYED),
        bughouse=bughouse,
        commented=commented,
    )


def _check_moves(game: chess.pgn.Game, movetext: str, numbers: list[int], source: str) -> None:
    """A legal game's length and its check and mate signs (``numbers``: the file's line of each
    line of ``movetext``); the error names the file and the move's line."""
    if sum(1 for _ in game.mainline_moves()) > MAX_PLIES:
        raise too_long(file=source, line=numbers[0] if numbers else None)
    try:
        check_signs(movetext, game.board(), game.mainline_moves())
    except MoveError as error:
        error.file, error.line = source, numbers[movetext.count("\n", 0, error.offset)]
        raise


def keep_moves(movetext: str) -> tuple[str, bool]:
    """The movetext without its free text (R18): a comment keeps only its clock
    (``{ [%clk 0:09:58] }``); ``;`` comments and ``%`` escape lines (PGN standard 8.2.5,
    6) go. Moves, variations and annotation glyphs stay. Returns the text and whether
    anything was dropped; text with nothing to drop comes back as written."""
    parts, dropped = [], False
    for match in _MOVETEXT_PART.finditer(movetext):
        part = match.group(0)
        if part.startswith("{"):
            clocks = CLOCK.findall(part)
            if CLOCK.sub("", part.strip("{}")).strip():
                dropped = True
                part = "{ " + " ".join(clocks) + " }" if clocks else ""
        elif part.startswith((";", "%")):
            dropped, part = True, ""
        parts.append(part)
    return (" ".join("".join(parts).split()) if dropped else movetext), dropped


def _kept_tags(games: list[_Game]) -> tuple[list[tuple[tuple[str, str], ...]], list[str]]:
    """Each game's tags that are kept (:data:`KEPT_TAGS`), and the names of those dropped."""
    kept = [
        tuple((tag, value) for tag, value in game.headers if tag in KEPT_TAGS) for game in games
    ]
    dropped = sorted({tag for game in games for tag, _ in game.headers if tag not in KEPT_TAGS})
    return kept, dropped


def _dropped_warning(source: str, tags: list[str], commented: int) -> list[Text]:
    said = ([Text(N_("the tags %(tags)s"), tags=", ".join(tags))] if tags else []) + (
        [
            Text(
                Nn_(
                    "the comments of %(count)s game (clock times kept)",
                    "the comments of %(count)s games (clock times kept)",
                ),
                count=commented,
            )
        ]
        if commented
        else []
    )
    if not said:
        return []
    what = said[0] if len(said) == 1 else Text("%(one)s; %(other)s", one=said[0], other=said[1])
    return [
        Text(
            N_("%(where)s: not stored (a club rating needs names and results only, R18): %(what)s"),
            where=source,
            what=what,
        )
    ]


def _comments(game: chess.pgn.Game) -> str:
    return " ".join(node.comment for node in [game, *game.mainline()])


def _round(text: str, source: str, line: int) -> tuple[int | None, int | None]:
    text = text.strip()
    if text in ("", "?", "-"):
        return None, None
    parts = [whole_number(part, MAX_NUMBER) for part in text.split(".")[:2]]  # never int()
    if None in parts or not parts[0]:
        raise InputError(
            N_(
                'Round %(text)s: expected a round number such as "3" or "3.2"'
                ' (round 3, board 2), or "?"'
            ),
            file=source,
            line=line,
            text=repr(text[:20]),
        )
    return parts[0], parts[1] if len(parts) > 1 else None


def _tournament_tags(
    games: list[_Game], source: str
) -> tuple[str, dt.date | None, TimeControl, list[Text]]:
    warnings: list[Text] = []
    first = dict(games[0].headers)
    name = "" if first.get("Event", "?") in ("?", "") else first["Event"].strip()
    if len({dict(game.headers).get("Event", "?") for game in games}) > 1:
        warnings.append(
            Text(
                N_(
                    "%(where)s: the games carry different Event tags; the first, %(name)s, names "
                    "the tournament"
                ),
                where=source,
                name=repr(name),
            )
        )
    event_dates = [
        d for game in games if (d := _pgn_date(dict(game.headers).get("EventDate", ""))) is not None
    ]
    game_dates = [
        d for game in games if (d := _pgn_date(dict(game.headers).get("Date", ""))) is not None
    ]
    date = event_dates[0] if event_dates else min(game_dates, default=None)
    controls = [parse_time_control(dict(game.headers).get("TimeControl", "")) for game in games]
    control = next((c for c in controls if c is not None), None) or time_control_from_text(name)
    return name, date, control or TimeControl.STANDARD, warnings


def _pgn_date(text: str) -> dt.date | None:
    """A PGN date ``YYYY.MM.DD``; None when any part is unknown (``??``) or unreadable."""
    if "?" in text or not text.strip():
        return None
    try:
        return parse_date(text)
    except ValueError:
        return None


def write_pgn(record: TournamentRecord, handle: TextIO, *, results_only: bool = False) -> None:
    """Write the games of a tournament as PGN: those with moves, or every played
    game with ``results_only`` (a result and no moves). Tags kept from the import
    are written again; Round, White, Black and Result always come from the pairing."""
    names = {player.number: player.name for player in record.players}
    for pairing in sorted(record.pairings, key=lambda p: (p.round, p.board or 0, p.white)):
        if pairing.moves is None and not (results_only and pairing.played):
            continue
        for tag, value in _tags(record, pairing, names):
            handle.write(f'[{tag} "{_escape(value)}"]\n')
        result = _result(pairing)
        moves = _RESULT_TOKEN.sub("", pairing.moves or "").strip()
        handle.write(f"\n{moves} {result}\n\n" if moves else f"\n{result}\n\n")


def _tags(
    record: TournamentRecord, pairing: Pairing, names: dict[int, str]
) -> list[tuple[str, str]]:
    kept = dict(pairing.headers)
    kept.update(
        {
            "Round": f"{pairing.round}.{pairing.board}" if pairing.board else str(pairing.round),
            "White": names[pairing.white],
            "Black": names[pairing.black],
            "Result": _result(pairing),
        }
    )
    kept.setdefault("Event", record.name or "?")
    kept.setdefault("Site", "?")
    kept.setdefault("Date", f"{record.date:%Y.%m.%d}" if record.date else "????.??.??")
    if record.kind is TournamentKind.BUGHOUSE:
        kept.setdefault("Variant", "Bughouse")
    if not pairing.played:
        kept.setdefault("Termination", "forfeit")
    roster = [(tag, kept[tag]) for tag in SEVEN_TAG_ROSTER]
    return roster + [(tag, value) for tag, value in kept.items() if tag not in SEVEN_TAG_ROSTER]


def _result(pairing: Pairing) -> str:
    """The game's PGN result: "*" for points PGN has no result for (both players lost by
    forfeit after moves were typed, or a 0-0 read from a file), as PGN writes an unknown
    result; an unplayed game also gets Termination "forfeit" (_tags), so none is shown as
    won or drawn, and the download never fails on a stored game."""
    return pgn_result(pairing.white_points, pairing.black_points)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# --- the live broadcast ----------------------------------------------------------------------


@dataclass(frozen=True)
class BroadcastGame:
    """One board of a broadcast: names as the public may see them, the result so far (``*``
    while it is played), and the moves entered so far ("" for none)."""

    event: str
    site: str
    date: dt.date | None
    round: int
    board: int | None
    white: str
    black: str
    result: str
    moves: str = ""


def write_broadcast(games: list[BroadcastGame], handle: TextIO) -> None:
    """The boards as one PGN for a broadcast's poller (lichess broadcasts read a round's games
    from a URL): the seven tags of the PGN standard 8.1.1, Round as ``round.board`` (lichess
    takes the round from the digits before the dot), the moves without a result token of
    their own, and the Result's token after them."""
    for game in games:
        tags = {
            "Event": game.event or "?",
            "Site": game.site or "?",
            "Date": f"{game.date:%Y.%m.%d}" if game.date else "????.??.??",
            "Round": f"{game.round}.{game.board}" if game.board else str(game.round),
            "White": game.white,
            "Black": game.black,
            "Result": game.result,
        }
        for tag, value in tags.items():
            handle.write(f'[{tag} "{_escape(value)}"]\n')
        moves = _RESULT_TOKEN.sub("", game.moves).strip()
        handle.write(f"\n{moves} {game.result}\n\n" if moves else f"\n{game.result}\n\n")
