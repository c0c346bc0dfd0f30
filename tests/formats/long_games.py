"""Long legal games for the tests of the length cap, written out by hand (not by clubrating).

Knights going out and back (Ng1-f3-g1, Ng8-f6-g8) make any number of legal half-moves, but the
75-move rule (FIDE Laws 9.6.2) ends such a game after 150 of them: every 136 half-moves a pair
of pawn moves (on files the knights never use) starts the count again, which gives a game of up
to 12 * 138 = 1,656 legal half-moves that no rule ends."""

from __future__ import annotations

KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8"]
PAWNS = [
    ("a3", "a6"),
    ("b3", "b6"),
    ("c3", "c6"),
    ("d3", "d6"),
    ("e3", "e6"),
    ("h3", "h6"),
    ("a4", "a5"),
    ("b4", "b5"),
    ("c4", "c5"),
    ("d4", "d5"),
    ("e4", "e5"),
    ("h4", "h5"),
]
LONGEST = len(PAWNS) * (34 * 4 + 2)


def long_game(plies: int) -> str:
    """``plies`` legal half-moves (at most :data:`LONGEST`), SAN without move numbers."""
    assert plies <= LONGEST, f"at most {LONGEST} half-moves this way"
    words: list[str] = []
    for white, black in PAWNS:
        words += KNIGHTS * 34 + [white, black]
    return " ".join(words[:plies])


def five_thousand() -> str:
    """5,000 half-moves as a hostile sender writes them: 1,656 legal, then knights going on
    (the cap refuses the text at its 1,201st half-move, before any rule would)."""
    return long_game(LONGEST) + " " + " ".join((KNIGHTS * 1_250)[: 5_000 - LONGEST])
