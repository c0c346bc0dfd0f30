"""Addresses of the public pages that several pages link to, in one place.

:func:`game_href` is the one way a page links to a game (the crosstable's cells, the player's
games, the CPI ledger's rows, the coach's exercises).
"""

from __future__ import annotations


def game_href(
    base: str, game_id: int, tournament_id: int, *, has_moves: bool = True, ply: int | None = None
) -> str:
    """Where a link to a game points, under the viewer's ``base`` (``/c/<slug>/`` or an unlisted
    club's ``/u/<token>/``): the game viewer (at ``ply``, the half-moves played, when given) for
    a game with moves, as every analysed game has; the game's tournament page otherwise."""
    if not has_moves:
        return f"{base}t/{tournament_id}/"
    return f"{base}g/{game_id}/" + ("" if ply is None else f"?ply={ply}")
