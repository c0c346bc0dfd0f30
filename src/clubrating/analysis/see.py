"""Static exchange evaluation: python-chess has none, the brilliancy factor needs one.

``exchange(board, move)`` is the material balance, for the side making
``move``, after the best sequence of recaptures on the destination square
(each side may stop capturing when it would lose by going on). Recaptures are
legal moves only (pins and checks respected), least valuable attacker first.
"""

from __future__ import annotations

import chess

# Conventional piece values in centipawns (the 1/3/3/5/9 scale); the king is
# never captured by a legal move, its value only matters as a last attacker.
PIECE_CP = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 300,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}


def _captured_value(board: chess.Board, move: chess.Move) -> int:
    if board.is_en_passant(move):
        return PIECE_CP[chess.PAWN]
    piece = board.piece_at(move.to_square)
    return PIECE_CP[piece.piece_type] if piece else 0


def _promotion_gain(move: chess.Move) -> int:
    return PIECE_CP[move.promotion] - PIECE_CP[chess.PAWN] if move.promotion else 0


def _attacker_order(board: chess.Board, move: chess.Move) -> int:
    """Least valuable attacker first; the king only as the last one."""
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    return 10_000 if piece == chess.KING else PIECE_CP[piece]


def _best_recapture(board: chess.Board, square: chess.Square) -> int:
    """What the side to move gains by capturing on ``square`` (0 if it should not)."""
    captures = [move for move in board.legal_moves if move.to_square == square]
    if not captures:
        return 0
    least = min(captures, key=lambda m: (_attacker_order(board, m), -_promotion_gain(m)))
    gain = _captured_value(board, least) + _promotion_gain(least)
    board.push(least)
    try:
        return max(0, gain - _best_recapture(board, square))
    finally:
        board.pop()


def exchange(board: chess.Board, move: chess.Move) -> int:
    """Material won (> 0) or given up (< 0) by ``move`` after the best recaptures, in cp."""
    gain = _captured_value(board, move) + _promotion_gain(move)
    scratch = board.copy(stack=False)
    scratch.push(move)
    return gain - _best_recapture(scratch, move.to_square)
