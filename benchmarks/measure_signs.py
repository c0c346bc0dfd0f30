"""The check and mate signs and the 75-move rule of real games, read as a PGN import reads
them: does the check refuse any real game, how long are real games, what does it cost?

    .venv/bin/python benchmarks/measure_signs.py [PGN ...]

Without arguments, every PGN of the acceptance data (``games/`` beside the project's shared
specification). Each standard game is read by python-chess, then its main line's signs are
checked (``formats.movetext.check_signs``) and its half-moves counted against ``MAX_PLIES``.
Prints the games read, those a sign check refuses (with the first five), those longer than
``MAX_PLIES``, the longest, and the check's time beside python-chess's own reading time. The
figures are in docs/moves.md ("Check and mate signs").
"""

from __future__ import annotations

import io
import re
import sys
import time
from pathlib import Path

import chess.pgn

from clubrating.formats.movetext import MAX_PLIES, MoveError, check_signs

GAMES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "games"
_GAME_START = re.compile(r"(?m)^(?=\[Event )")
_STANDARD = {"", "standard", "chess960", "from position"}


def games_of(path: Path) -> list[str]:
    """The file's games as written, one text a game."""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    return [chunk for chunk in _GAME_START.split(text) if chunk.strip()]


def main(paths: list[Path]) -> None:
    read = checked = 0.0
    total = refused = longer = longest = 0
    for path in paths:
        for text in games_of(path):
            started = time.perf_counter()
            game = chess.pgn.read_game(io.StringIO(text))
            read += time.perf_counter() - started
            if (
                game is None
                or game.errors
                or game.headers.get("Variant", "").lower() not in _STANDARD
            ):
                continue
            movetext = "\n".join(
                line for line in text.splitlines() if not line.lstrip().startswith("[")
            )
            total += 1
            plies = sum(1 for _ in game.mainline_moves())
            longest, longer = max(longest, plies), longer + (plies > MAX_PLIES)
            started = time.perf_counter()
            try:
                check_signs(movetext, game.board(), game.mainline_moves())
            except MoveError as error:
                refused += 1
                if refused <= 5:
                    print(f"{path.name}: {error}")
            checked += time.perf_counter() - started
    print(
        f"{total:,} games: {refused} refused by a sign or the 75-move rule, "
        f"{longer} longer than {MAX_PLIES:,} half-moves, the longest {longest} "
        f"half-moves; python-chess read them in {read:.1f} s, the signs were "
        f"checked in {checked:.1f} s (+{100 * checked / max(read, 1e-9):.0f} %)"
    )


if __name__ == "__main__":
    main([Path(arg) for arg in sys.argv[1:]] or sorted(GAMES.rglob("*.pgn")))
