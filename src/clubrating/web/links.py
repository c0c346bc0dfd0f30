"""Addresses of a club's pages that several pages link to, in one place."""

from __future__ import annotations


def game_href(base: str, game_id: int, tournament_id: int, *, has_moves: bool, ply: int | None = None) -> str:
    """The game viewer of a game with moves (at ``ply``, a half-move number, when given); the
    page of its tournament otherwise. ``base`` is the club's prefix (``access.base``)."""
    if not has_moves:
        return f"{base}t/{tournament_id}/"
    return f"{base}g/{game_id}/" + ("" if ply is None else f"?ply={ply}")
