"""Figures and moves as the page's reader writes them: the language's decimal separator (a comma
in Armenian and Russian, a point in English, by Django's formats) and its piece letters (Russian
Кр Ф Л С К, Armenian Ա Թ Ն Փ Ձ: formats.movetext.PIECE_LETTERS). For pages only: the files for
programs (CSV, JSON, PGN, the API) keep Python's point and SAN's English letters."""

from __future__ import annotations

from django.utils.formats import get_format
from django.utils.translation import get_language

from clubrating.formats.movetext import shown_move


def figure(value: float, spec: str) -> str:
    """``value`` as ``format(value, spec)`` writes it (".1f", "+.2f", "g"), with the page's
    decimal separator."""
    return format(value, spec).replace(".", str(get_format("DECIMAL_SEPARATOR")))


def score(text: str) -> str:
    """An engine score written ``+0.45`` (cpi.coach.score_text) with the page's separator."""
    return text.replace(".", str(get_format("DECIMAL_SEPARATOR")))


def shown_san(fen: str, san: str) -> str:
    """A move given in SAN in the position ``fen``, in the page language's piece letters."""
    return shown_move(fen, san, get_language() or "")
