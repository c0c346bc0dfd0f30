"""Typed moves: the ways people write them, the clocks, the first bad move named with its
position."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.formats import movetext
from clubrating.formats.movetext import MAX_MOVETEXT, MAX_PLIES, MoveError, read_typed_moves
from tests.formats.long_games import five_thousand, long_game

RUY_LOPEZ = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O"


@pytest.mark.parametrize(
    "typed",
    [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O",
        "e4 e5 Nf3 Nc6 Bb5 a6 0-0",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.0-0",
        "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. O-O",
        "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. 0-0 *",
        "е4 е5 Кf3 Кс6 Сb5 а6 О-О",  # Russian letters, a Russian keyboard's е, с, а, О
        "e4 e5 Ձf3 Ձc6 Փb5 a6 0-0",  # Armenian initials
        "e4 e5 ♘f3 ♞c6 ♗b5 a6 0-0",  # figurines
        "1. e4! e5 2. Nf3 Nc6?! 3. Bb5!? a6 4. O-O 1-0",
    ],
)
def test_every_way_of_writing_the_same_moves_gives_the_same_movetext(typed: str) -> None:
    moves = read_typed_moves(typed)
    assert moves.movetext == RUY_LOPEZ
    assert moves.plies == 7


@pytest.mark.parametrize(
    "typed",
    [
        "1. e4 1:29:55 e5 1:29:40",
        "1. e4 {1:29:55} e5 {1:29:40}",
        "1. e4 [%clk 1:29:55] e5 [%clk 1:29:40]",
        "1. e4 (1:29:55) e5 (1:29:40)",
    ],
)
def test_clock_times_are_kept_as_pgn_clock_commands(typed: str) -> None:
    moves = read_typed_moves(typed)
    assert moves.movetext == "1. e4 { [%clk 1:29:55] } e5 { [%clk 1:29:40] }"
    game = chess.pgn.read_game(io.StringIO(moves.movetext))
    assert game is not None and [node.clock() for node in game.mainline()] == [5395.0, 5380.0]


def test_a_clock_of_minutes_and_seconds_is_written_with_hours() -> None:
    assert (
        read_typed_moves("e4 4:58 e5 4:57").movetext
        == "1. e4 { [%clk 0:04:58] } e5 { [%clk 0:04:57] }"
    )


def test_captures_with_a_colon_and_promotions_with_the_clubs_letter_are_read() -> None:
    moves = read_typed_moves("e4 d5 e:d5 Фxd5 Кc3 Фa5 d4 c6 Кf3 Сg4 h3 С:f3 Ф:f3")
    assert moves.movetext.endswith("6. h3 Bxf3 7. Qxf3")
    promoted = read_typed_moves("a4 b5 axb5 a6 bxa6 Bb7 axb7 h6 bxa8Ф")
    assert promoted.movetext.endswith("bxa8=Q")


def test_an_illegal_move_names_its_number_the_move_as_typed_and_the_position() -> None:
    with pytest.raises(MoveError) as raised:
        read_typed_moves("1. e4 e5 2. Nf3 Nc6 3. Ke3")
    error = raised.value
    assert (error.number, error.color, error.typed) == (3, chess.WHITE, "Ke3")
    assert error.fen == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert str(error).startswith(
        "move 3 (White) 'Ke3': illegal in this position; the position: r1bqkbnr/"
    )


def test_an_ambiguous_move_says_so() -> None:
    with pytest.raises(MoveError, match=r"move 5 \(White\) 'Nd4': ambiguous"):
        read_typed_moves("e4 e5 Nc3 Nf6 Nf3 d6 Nb5 a6 Nd4")


def test_a_black_move_that_is_not_a_move_names_black() -> None:
    with pytest.raises(MoveError, match=r"move 1 \(Black\) 'Zz9': not a move"):
        read_typed_moves("1. d4 Zz9")


@pytest.mark.parametrize(
    "typed, why",
    [
        ("", "no move found"),
        ("1. 2. 3.", "no move found"),
        ("1:29:55 e4", "follows no move"),
        ("e4 1:29:55 1:29:50", "follows no move"),
    ],
)
def test_text_without_moves_or_with_a_stray_clock_is_refused(typed: str, why: str) -> None:
    with pytest.raises(InputError, match=why):
        read_typed_moves(typed)


def test_text_longer_than_any_game_is_refused_in_one_line() -> None:
    with pytest.raises(InputError, match="at most"):
        read_typed_moves("e4 " * (MAX_MOVETEXT // 2))


@pytest.mark.parametrize(
    "result, contradicts",
    [
        ((0, 2), False),
        ((2, 0), True),
        ((1, 1), True),
    ],
)
def test_moves_ending_in_mate_contradict_a_result_that_is_not_the_mates(
    result: tuple[int, int], contradicts: bool
) -> None:
    moves = read_typed_moves("f3 e5 g4 Qh4#")
    assert (moves.ends_contradicting(*result) is not None) is contradicts


def test_a_stalemate_contradicts_a_win_and_not_a_draw() -> None:
    # Sam Loyd's ten-move stalemate
    moves = read_typed_moves(
        "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6"
    )
    assert moves.ends_contradicting(1, 1) is None
    assert "stalemate" in str(moves.ends_contradicting(2, 0) or "")


def random_game(rnd: object, plies: int) -> chess.Board:
    """A game of up to ``plies`` random legal moves (fewer when it ends sooner)."""
    board = chess.Board()
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rnd.choice(legal))  # type: ignore[attr-defined]
    return board


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=60))
def test_a_random_game_written_by_python_chess_reads_back_to_its_moves(
    rnd: object, plies: int
) -> None:
    board = random_game(rnd, plies)
    text = chess.Board().variation_san(board.move_stack)
    moves = read_typed_moves(text)
    assert moves.movetext == text and moves.final_fen == board.fen()


# --- check and mate signs, the length of a game -------------------------------------------

NOT_MATE = "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#"  # 4. Qxe5+ checks; Be7, Qe7 or dxe5 answer it


def test_a_mate_sign_on_a_move_that_does_not_mate_is_refused_with_its_number_and_position() -> None:
    with pytest.raises(MoveError) as raised:
        read_typed_moves(NOT_MATE)
    error = raised.value
    assert (error.number, error.color, error.typed) == (4, chess.WHITE, "Qxe5#")
    assert error.fen == "rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"
    assert str(error) == (
        "move 4 (White) 'Qxe5#': written as mate (#), but it only gives check; "
        "the position: rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4"
    )


@pytest.mark.parametrize(
    "typed, why",
    [
        ("1. e4+", "move 1 (White) 'e4+': written as check (+), but it gives no check"),
        (
            "1. e4 e5#",
            "move 1 (Black) 'e5#': written as mate (#), but it gives neither check nor mate",
        ),
        (
            "1. f3 e5 2. g4 Фh4+ 3. Kf2",
            "move 3 (White) 'Kf2': illegal",
        ),  # the mate was the game's end
        ("1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#?", "move 4 (White) 'Qxe5#?': written as mate"),
        (
            "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. d3+!",
            "move 4 (White) 'd3+!': written as check (+), but it gives no",
        ),
    ],
)
def test_a_sign_the_position_contradicts_is_refused_whatever_follows_it(
    typed: str, why: str
) -> None:
    with pytest.raises(MoveError) as raised:
        read_typed_moves(typed)
    assert str(raised.value).startswith(why)


@pytest.mark.parametrize(
    "typed, plies",
    [
        ("1. f3 e5 2. g4 Qh4#", 4),  # the mate written as mate
        ("1. f3 e5 2. g4 Qh4+", 4),  # a mate is a check too: "+" on it is not wrong
        ("1. f3 e5 2. g4 Qh4", 4),  # no sign: scoresheets often leave it out
        ("1. f3 e5 2. g4 Фh4#!!", 4),  # the club's letter, then glyphs after the sign
        ("1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5+ Be7", 8),
        ("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. Bc4+ d5 5. Bxd5+ Ke8 6. Bxc6+ bxc6", 12),
    ],
)
def test_a_right_or_missing_sign_is_read(typed: str, plies: int) -> None:
    assert read_typed_moves(typed).plies == plies


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=60))
def test_a_random_game_with_a_wrong_sign_is_refused_at_that_move(rnd: object, plies: int) -> None:
    board = random_game(rnd, plies)
    wrong = rnd.randrange(len(board.move_stack))  # type: ignore[attr-defined]
    replay, words = chess.Board(), []
    for index, move in enumerate(board.move_stack):
        san = replay.san(move)  # python-chess's own SAN: the right sign or none
        replay.push(move)
        if index == wrong:  # a sign this position contradicts
            san = san.rstrip("+#") + (
                "+" if not replay.is_check() else "#" if not replay.is_checkmate() else ""
            )
        words.append(san)
    if words[wrong].endswith(("+", "#")):
        with pytest.raises(MoveError) as raised:
            read_typed_moves(" ".join(words))
        assert (raised.value.number, raised.value.color) == (
            (wrong + 2) // 2,
            chess.WHITE if wrong % 2 == 0 else chess.BLACK,
        )
    else:  # the wrong move mates: no sign there is wrong
        assert read_typed_moves(" ".join(words)).plies == len(words)


def test_a_game_of_max_plies_is_read_and_one_more_half_move_is_refused_in_one_line() -> None:
    assert read_typed_moves(long_game(MAX_PLIES)).plies == MAX_PLIES == 1_200
    with pytest.raises(InputError) as raised:
        read_typed_moves(long_game(MAX_PLIES + 1))
    assert str(raised.value) == (
        "the game is longer than 1,200 half-moves; no game played under the rules is "
        "that long (the longest had 538)"
    )


def test_twenty_thousand_characters_of_five_thousand_half_moves_are_refused() -> None:
    text = five_thousand()
    assert len(text) <= MAX_MOVETEXT and len(text.split()) == 5_000
    with pytest.raises(InputError, match="longer than 1,200 half-moves"):
        read_typed_moves(text)


def test_a_move_after_the_75_move_rule_ended_the_game_is_refused_and_one_before_it_read() -> None:
    out_and_back = [
        "Nf3",
        "Nf6",
        "Ng1",
        "Ng8",
    ] * 38  # 152 half-moves without a capture or a pawn move
    assert read_typed_moves(" ".join(out_and_back[:150])).plies == 150
    with pytest.raises(MoveError) as raised:
        read_typed_moves(" ".join(out_and_back[:151]))
    assert (raised.value.number, raised.value.color, raised.value.typed) == (76, chess.WHITE, "Ng1")
    assert str(raised.value).startswith(
        "move 76 (White) 'Ng1': the game was over before it: 75 moves by each side "
        "without a capture or a pawn move end a game (FIDE Laws 9.6.2)"
    )
    assert (
        read_typed_moves(" ".join(out_and_back[:148] + ["e4", "e5"] + out_and_back[:100])).plies
        == 250
    )


# The moves shown in the reader's piece letters: the oracle is the letters written out here, not
# PIECE_LETTERS (a position with every kind of move: a piece's, a pawn's capture, a promotion with
# check, castling, the king's).
SHOWN = "4k3/1P6/8/8/8/8/8/R3K1N1 w Q - 0 1"


@pytest.mark.parametrize(
    ("san", "ru", "hy"),
    [
        ("Nf3", "Кf3", "Ձf3"),
        ("Kd2", "Крd2", "Աd2"),
        ("Rb1", "Лb1", "Նb1"),
        ("b8=Q+", "b8=Ф+", "b8=Թ+"),
        ("b8=N", "b8=К", "b8=Ձ"),
        ("O-O-O", "O-O-O", "O-O-O"),
    ],
)
def test_a_move_is_shown_in_russian_and_armenian_piece_letters(san: str, ru: str, hy: str) -> None:
    board = chess.Board(SHOWN)
    move = board.parse_san(san)
    assert movetext.san_in_letters(board, move, "ru") == ru
    assert movetext.san_in_letters(board, move, "hy") == hy
    assert movetext.san_in_letters(board, move, "en") == board.san(move)


def test_the_letters_shown_are_read_back_as_the_same_move() -> None:
    board = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Qd6", "Re1"]:
        move = board.parse_san(san)
        for language in ("ru", "hy"):
            shown = movetext.san_in_letters(board, move, language)
            assert board.parse_san(movetext.letters_to_english(shown)) == move, shown
        board.push(move)
