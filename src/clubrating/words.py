"""Words and columns for people: counts that agree with their nouns ("1 tournament", "2
tournaments") in every message, table cells measured as a terminal displays them, and the
marker of texts to translate in the packages that import no Django."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

IRREGULAR = {"entry": "entries", "person": "people"}


def N_(text: str) -> str:
    """Marks ``text`` for the translation catalogue and returns it unchanged: the pure packages
    import no Django, so their display texts are found by ``makemessages --keyword=N_`` and
    translated with ``gettext`` where the web layer shows them."""
    return text


def Nn_(singular: str, many: str) -> tuple[str, str]:
    """Marks a counted text's two English forms for the catalogue (``makemessages
    --keyword=Nn_:1,2``), translated by ``ngettext`` with its ``count`` where it is shown."""
    return singular, many


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``count`` and the noun that agrees with it: ``plural(1, "name")`` -> "1 name",
    ``plural(2, "rating change")`` -> "2 rating changes" (the last word takes the s)."""
    if count == 1:
        return f"{count} {singular}"
    if many is None:
        head, space, last = singular.rpartition(" ")
        many = head + space + IRREGULAR.get(last, last + "s")
    return f"{count} {many}"


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: combining marks none, East Asian wide two
    (Unicode UAX #11), everything else (Latin, Cyrillic, Armenian) one."""
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def widths(headings: Sequence[str], least: Sequence[int]) -> list[int]:
    """The widths of a text table's columns: each at least ``least``, and as wide as its heading
    (translated, it may be longer than the English one)."""
    return [max(low, display_width(heading)) for heading, low in zip(headings, least)]


def fit(text: str, width: int, align: str = "<") -> str:
    """``text`` in exactly ``width`` columns: cut with "…" when longer, padded when shorter."""
    if display_width(text) > width:
        kept, used = [], 0
        for c in text:
            w = display_width(c)
            if used + w > width - 1:
                break
            kept.append(c)
            used += w
        text = "".join(kept) + "…"
    pad = " " * max(0, width - display_width(text))
    return pad + text if align == ">" else text + pad
