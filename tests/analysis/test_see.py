"""Static exchange evaluation, position by position."""

from __future__ import annotations

import chess
import pytest

from clubrating.analysis.see import exchange


@pytest.mark.parametrize(
    ("fen", "move", "balance"),
    [
        # a free pawn
        ("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100),
        # pawn defended by a pawn: the queen is lost for a pawn
        ("4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1", "d1d6", -800),
        # knight takes a pawn defended by a pawn: minus 200 (Legal's Nxe5 kind)
        ("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5", -200),
        # an even trade: bishop for knight, recaptured
        ("4k3/8/1p6/2n5/8/8/5B2/4K3 w - - 0 1", "f2c5", 0),
        # a quiet move into a pawn's attack gives the piece away
        ("4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1", "c3b5", -300),
        ("4k3/8/2p5/8/8/8/3N4/4K3 w - - 0 1", "d2b3", 0),  # a square nobody attacks
        ("4k3/8/2p5/8/8/8/8/1R2K3 w - - 0 1", "b1b5", -500),
        # a defended recapture sequence: R takes a defended rook, the second rook recaptures
        ("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0),
        # the defender is pinned to its king and cannot recapture
        ("4k3/8/4b3/3p4/8/8/8/3QR1K1 w - - 0 1", "d1d5", 100),
    ],
)
def test_static_exchange_balance(fen, move, balance) -> None:
    board = chess.Board(fen)
    assert exchange(board, chess.Move.from_uci(move)) == balance
    assert board.fen() == fen  # the board given is left untouched
