"""Moves as people write them on a scoresheet, read into PGN movetext.

An arbiter types a game from a paper scoresheet: SAN with or without move
numbers (``1. e4 e5 2. Nf3`` or ``e4 e5 Nf3``), castling as ``0-0`` or
``O-O``, captures with ``x`` or ``:``, checks with ``+``, the piece letters of
the club's language (Russian Кр Ф Л С К, Armenian, figurines ♔♕♖♗♘), and
optionally each move's clock (``e4 1:29:55`` or ``e4 {1:29:55}`` or
``e4 [%clk 1:29:55]``). python-chess checks every move; the first that is
illegal or ambiguous, or whose check or mate sign the position contradicts
(:func:`sign_contradiction`), refuses the text with its move number, the move
as typed and the position (:class:`MoveError`). A game is at most
:data:`MAX_PLIES` half-moves long.

PGN files are read by python-chess, whose reader drops ``+`` and ``#`` unread:
:func:`check_signs` checks them in a PGN's movetext by the same rule.

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import chess

from clubrating.errors import InputError, Text
from clubrating.words import N_

PIECE_LETTERS: dict[str, dict[str, str]] = {
    # Russian notation (the Russian chess federation's scoresheets): Король, Ферзь, Ладья,
    # Слон, Конь; "Кр" before "К" (knight), longest first.
    "ru": {"Кр": "K", "Ф": "Q", "Л": "R", "С": "B", "К": "N"},
    # Armenian: the initials of Արքա, Թագուհի, Նավակ, Փիղ, Ձի (king, queen, rook, bishop,
    # knight). No published scoresheet standard was found; these initials are unambiguous.
    "hy": {"Ա": "K", "Թ": "Q", "Ն": "R", "Փ": "B", "Ձ": "N"},
    # Figurine algebraic notation (Unicode 2654-265F), both colours.
    "figurine": {
        "♔": "K",
        "♕": "Q",
        "♖": "R",
        "♗": "B",
        "♘": "N",
        "♚": "K",
        "♛": "Q",
        "♜": "R",
        "♝": "B",
        "♞": "N",
    },
}
"""Piece letters read besides the English K Q R B N, by language."""

# Cyrillic letters that look like the Latin files or castling's O, typed on a Russian keyboard
# layout ("е4", "Кс3", "о-о"), and the Cyrillic "х" for a capture.
_LOOKALIKES = str.maketrans({"а": "a", "с": "c", "е": "e", "х": "x", "о": "O", "О": "O"})
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-"})

MAX_MOVETEXT = 20_000
"""Characters of typed movetext read at most: the longest recorded game (269 moves, Nikolić -
Arsović 1989) takes about 3,000; a page of megabytes is refused in one line."""

MAX_PLIES = 1_200
"""Half-moves of one game at most, on every way in (typed, PGN, the players' phones): more than
twice the longest game played under the rules (Nikolić - Arsović, Belgrade 1989: 269 moves, 538
half-moves; the 50- and 75-move rules end any game long before this). Why this number, and what
a game over it would cost the engine: docs/moves.md."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "½-½", "*")
"""Result tokens skipped (the result is the stored game's, not the typed text's)."""
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_CLK_COMMAND = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")
_TOKEN = re.compile(r"\{[^}]*\}?|\([^)]*\)?|\[%clk[^\]]*\]?|[^\s{}()\[\]]+")
_MOVE_NUMBER = re.compile(r"^(\d+)\s*(\.+|…)$")
_NUMBERED_MOVE = re.compile(r"^(\d+)(\.+|…)(.+)$")
_GLYPHS = re.compile(r"(?:[!?]+|e\.?p\.?|\$\d+)$")
# PGN movetext's parts (PGN standard 8.2): comments, escape lines, NAGs, variations' brackets,
# words.
_PGN_PART = re.compile(r"\{[^}]*\}?|;[^\n]*|^%[^\n]*|\$\d+|[()]|[^\s{}();]+", re.MULTILINE)
_NUMBER_PREFIX = re.compile(r"^\d+\s*(?:\.+|…)")


class MoveError(InputError):
    """A typed move that python-chess does not accept where it stands."""

    def __init__(
        self, number: int, color: chess.Color, typed: str, fen: str, why: Text, offset: int = 0
    ) -> None:
        self.number, self.color, self.typed, self.fen, self.why = number, color, typed, fen, why
        self.offset = (
            offset  # where the move starts in the text read (a PGN reader turns it into a line)
        )
        template = (
            N_("move %(number)s (White) %(typed)s: %(why)s; the position: %(fen)s")
            if color == chess.WHITE
            else N_("move %(number)s (Black) %(typed)s: %(why)s; the position: %(fen)s")
        )
        super().__init__(template, number=number, typed=repr(typed), why=why, fen=fen)


@dataclass(frozen=True, slots=True)
class TypedMoves:
    """Typed moves, checked: the movetext as a PGN import stores it, and where it ends."""

    movetext: str  # PGN movetext with [%clk] comments, without a result
    plies: int
    final_fen: str
    has_clocks: bool

    def ends_contradicting(self, white_points: int, black_points: int) -> Text | None:
        """Why the final position contradicts the result (half-points), or None: a mate
        the result does not give to the mating side, a stalemate scored as a win
        (FIDE Laws 5.1.1, 5.2.1)."""
        return contradiction(chess.Board(self.final_fen), white_points, black_points)


def contradiction(board: chess.Board, white_points: int, black_points: int) -> Text | None:
    """Why ``board``, the game's last position, contradicts the result, or None."""
    if board.is_checkmate():
        if board.turn == chess.BLACK:  # Black is mated
            return (
                None
                if (white_points, black_points) == (2, 0)
                else Text(
                    N_("the moves end in mate by White, and the result is not a win for White")
                )
            )
        return (
            None
            if (white_points, black_points) == (0, 2)
            else Text(N_("the moves end in mate by Black, and the result is not a win for Black"))
        )
    if board.is_stalemate() and (white_points, black_points) != (1, 1):
        return Text(N_("the moves end in stalemate (a draw), and the result is not a draw"))
    return None


def sign_contradiction(after: chess.Board, written: str) -> Text | None:
    """Why the check or mate sign ending ``written`` (a move as read, glyphs dropped) contradicts
    ``after``, the position the move leads to, or None.

    A missing sign claims nothing and is fine (scoresheets often omit it); ``+`` on a mate is
    a check too and is fine; ``#`` on a move that does not mate, and ``+`` on a move that gives
    no check, are refused like an illegal move: the scoresheet was misread somewhere."""
    if written.endswith("#") and not after.is_checkmate():
        return Text(
            N_("written as mate (#), but it only gives check")
            if after.is_check()
            else N_("written as mate (#), but it gives neither check nor mate")
        )
    if written.endswith("+") and not after.is_check():
        return Text(N_("written as check (+), but it gives no check"))
    return None


SEVENTY_FIVE_MOVES = 150
"""Half-moves without a capture or a pawn move after which the game is drawn, without a claim
(FIDE Laws 9.6.2, the 75-move rule): a move made after them was never played. Refused, it also
bounds what the analysis walks back for repetitions (``analysis.cache.position_key``)."""


def after_the_end(board: chess.Board) -> Text | None:
    """Why no move can be made in ``board`` although it has legal moves, or None: the 75-move
    rule ended the game (a mate or stalemate has no legal move: python-chess refuses one)."""
    if board.halfmove_clock >= SEVENTY_FIVE_MOVES:
        return Text(
            N_(
                "the game was over before it: 75 moves by each side without a capture or a pawn "
                "move end a game (FIDE Laws 9.6.2)"
            )
        )
    return None


def too_long(file: str | None = None, line: int | None = None) -> InputError:
    """The one-line refusal of a game longer than :data:`MAX_PLIES` half-moves (a PGN's file and
    line)."""
    return InputError(
        N_(
            "the game is longer than %(MAX_PLIES)s half-moves; no game played under the "
            "rules is that long (the longest had 538)"
        ),
        MAX_PLIES=format(MAX_PLIES, ","),
        file=file,
        line=line,
    )


SHOWN_LETTERS = ("ru", "hy")
"""The languages whose readers see moves in their own piece letters (PIECE_LETTERS); the others
read SAN's English letters."""


def san_in_letters(board: chess.Board, move: chess.Move, language: str) -> str:
    """The SAN of ``move`` in ``board`` (python-chess's) with the piece letters of ``language``:
    the moving piece's letter and a promotion's, never a file's (``Кf3``, ``exd8=Ф``, ``O-O``);
    in a language not of SHOWN_LETTERS, SAN as it is."""
    san = board.san(move)
    if language not in SHOWN_LETTERS:
        return san
    letters = {english: own for own, english in PIECE_LETTERS[language].items()}
    piece = board.piece_type_at(move.from_square)
    if piece not in (None, chess.PAWN) and not board.is_castling(move):
        san = letters[san[0]] + san[1:]
    if move.promotion:
        head, _, tail = san.partition("=")
        san = f"{head}={letters[tail[0]]}{tail[1:]}"
    return san


def shown_move(fen: str, san: str, language: str) -> str:
    """A move given in SAN in the position ``fen`` (an exercise's), in ``language``'s letters."""
    board = chess.Board(fen)
    return san_in_letters(board, board.parse_san(san), language)


def letters_to_english(word: str) -> str:
    """A move as typed with the piece letters of any language of :data:`PIECE_LETTERS`, in SAN
    letters."""
    word = word.translate(_DASHES)
    for letters in PIECE_LETTERS.values():
        for letter in sorted(letters, key=len, reverse=True):
            if word.startswith(letter):
                word = letters[letter] + word[len(letter) :]
                break
            # a promotion written with the piece letter ("e8Ф", "e8=Ф")
            if len(letter) == 1 and word.endswith(letter) and len(word) > 2:
                word = word[:-1] + letters[letter]
                break
    return word.translate(_LOOKALIKES).replace(":", "x")


def _san(word: str) -> str:
    """The typed word as python-chess's SAN parser reads it: glyphs and "e.p." dropped,
    a capture marked ``x`` or ``:``, ``0-0`` and ``O-O`` both castling."""
    english = _strip_glyphs(letters_to_english(word))
    if english.upper().replace("0", "O") in ("O-O", "O-O-O", "O-O+", "O-O-O+", "O-O#", "O-O-O#"):
        english = english.upper().replace("0", "O")
    return english


def _strip_glyphs(word: str) -> str:
    """The move without its trailing glyphs (``!``, ``?!``, ``$1``, ``e.p.``), however many."""
    while True:
        stripped = _GLYPHS.sub("", word)
        if stripped == word:
            return word
        word = stripped


def _clock(token: str) -> str | None:
    """A clock time as typed (``1:29:55``, ``29:55``, ``{1:29:55}``, ``[%clk 1:29:55]``) as
    the PGN clock command's H:MM:SS, or None when the token is no clock."""
    text = token.strip("{}() ")
    command = _CLK_COMMAND.search(text)
    if command:
        text = command.group(1).split(".")[0]
    match = _CLOCK.match(text)
    if match is None:
        return None
    first, second, third = match.groups()
    hours, minutes, seconds = (
        (int(first), int(second), int(third)) if third else (0, int(first), int(second))
    )
    if minutes > 59 and third or seconds > 59:
        return None
    return f"{hours}:{minutes:02d}:{seconds:02d}"


def _words(text: str) -> list[str]:
    """The text's words: move numbers split from a move written onto them ("1.e4")."""
    words: list[str] = []
    for token in _TOKEN.findall(text):
        numbered = _NUMBERED_MOVE.match(token)
        if numbered and not _CLOCK.match(token):
            words.extend((numbered.group(1) + ".", numbered.group(3)))
        else:
            words.append(token)
    return words


def read_typed_moves(text: str, board: chess.Board | None = None) -> TypedMoves:
    """Check typed moves from the start (or ``board``) and write them as PGN movetext.

    Raises :class:`MoveError` at the first illegal, ambiguous or unreadable move, and
    :class:`InputError` for text with no move or a clock with no move before it."""
    if len(text) > MAX_MOVETEXT:
        raise InputError(
            N_("the moves are %(count)s characters long; at most %(MAX_MOVETEXT)s are read"),
            count=format(len(text), ","),
            MAX_MOVETEXT=format(MAX_MOVETEXT, ","),
        )
    board = (board or chess.Board()).copy()
    start = board.copy()
    clocks: list[str | None] = []
    for word in _words(text):
        if _MOVE_NUMBER.match(word) or word in RESULTS or _GLYPHS.fullmatch(word):
            continue
        if word.startswith("{") and _clock(word) is None:
            continue  # a comment: free text is not kept (R18)
        clock = _clock(word)
        if clock is not None:
            if not board.move_stack or clocks[-1] is not None:
                raise InputError(
                    N_("the clock time %(word)s follows no move; expected it right after its move"),
                    word=repr(word),
                )
            clocks[-1] = clock
            continue
        if len(board.move_stack) >= MAX_PLIES:
            raise too_long()
        _push(board, word)
        clocks.append(None)
    if not board.move_stack:
        raise InputError(N_("no move found: expected moves such as '1. e4 e5 2. Nf3 Nc6'"))
    return TypedMoves(
        _movetext(start, board, clocks),
        len(board.move_stack),
        board.fen(),
        any(c is not None for c in clocks),
    )


def _push(board: chess.Board, word: str) -> None:
    number, color = board.fullmove_number, board.turn
    over = after_the_end(board)
    if over is not None:
        raise MoveError(number, color, word, board.fen(), over)
    san = _san(word)
    try:
        move = board.parse_san(san)
    except chess.AmbiguousMoveError:
        raise MoveError(
            number, color, word, board.fen(), Text(N_("ambiguous: more than one piece can make it"))
        ) from None
    except chess.IllegalMoveError:
        raise MoveError(
            number, color, word, board.fen(), Text(N_("illegal in this position"))
        ) from None
    except ValueError:
        raise MoveError(
            number,
            color,
            word,
            board.fen(),
            Text(N_("not a move: expected SAN such as Nf3, exd5, 0-0")),
        ) from None
    board.push(move)
    why = sign_contradiction(board, san)
    if why is not None:
        board.pop()
        raise MoveError(number, color, word, board.fen(), why)


def check_signs(movetext: str, board: chess.Board, moves: Iterable[chess.Move]) -> None:
    """Check the ``+`` and ``#`` of PGN movetext's main line by :func:`sign_contradiction`, and
    that no move follows the 75-move rule's end (:func:`after_the_end`): python-chess's PGN
    reader read ``moves`` from ``movetext`` (from ``board``, the start), skipped the signs
    unread and plays on after that end. Raises :class:`MoveError` (its ``offset`` where the
    move stands in ``movetext``).

    Comments, NAGs, move numbers, results and variations are passed over; the moves are
    python-chess's, and the board follows them only up to a move to check (a sign, or a word
    count of moves without a capture or a pawn move reaching the rule's): most games need few
    pushes. Should a word not name its move's square, the words and the moves parted ways:
    the check ends there rather than refuse what python-chess read."""
    board, pending, clock = board.copy(), [], board.halfmove_clock
    for (offset, word), move in zip(_main_line(movetext), moves):
        san = _strip_glyphs(word)
        signed = san.endswith(("+", "#"))
        if not signed and clock < SEVENTY_FIVE_MOVES:
            clock = (
                0 if "x" in san or san[:1] in "abcdefgh" else clock + 1
            )  # a capture or a pawn move
            pending.append(move)
            continue
        for earlier in pending:
            board.push(earlier)
        pending.clear()
        number, color = board.fullmove_number, board.turn
        over = after_the_end(board)
        if over is not None:
            raise MoveError(number, color, word, board.fen(), over, offset=offset)
        if signed and not (board.is_castling(move) or chess.square_name(move.to_square) in san):
            return
        board.push(move)
        clock = board.halfmove_clock
        why = sign_contradiction(board, san) if signed else None
        if why is not None:
            board.pop()
            raise MoveError(number, color, word, board.fen(), why, offset=offset)


def _main_line(movetext: str) -> Iterator[tuple[int, str]]:
    """Where each main-line move's word of PGN movetext starts, and the word."""
    depth = 0
    for part in _PGN_PART.finditer(movetext):
        word = part.group(0)
        depth = max(0, depth + (word == "(") - (word == ")"))
        word = _NUMBER_PREFIX.sub("", word)
        if (
            depth
            or word in ("", ")")
            or word[0] in "{;%$"
            or word in RESULTS
            or _GLYPHS.fullmatch(word)
        ):
            continue
        yield part.start() + len(part.group(0)) - len(word), word


def _movetext(start: chess.Board, end: chess.Board, clocks: list[str | None]) -> str:
    """The moves as a PGN import stores them: numbered SAN, each clock as ``{ [%clk H:MM:SS] }``."""
    board, parts = start.copy(), []
    for move, clock in zip(end.move_stack, clocks):
        if board.turn == chess.WHITE:
            parts.append(f"{board.fullmove_number}.")
        elif not parts:
            parts.append(f"{board.fullmove_number}...")
        parts.append(board.san(move))
        board.push(move)
        if clock is not None:
            parts.append(f"{{ [%clk {clock}] }}")
    return " ".join(parts)
