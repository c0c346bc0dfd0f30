"""Words and columns for people: table cells measured as a terminal displays them, and the
marker of texts to translate in the packages that import no Django, and what a control
character is (the one definition every reader of input and the CLI's output use)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# A control character: Unicode's category Cc (C0 U+0000-U+001F, DEL U+007F, C1 U+0080-U+009F),
# which a terminal may obey (ESC [2J clears the screen, ESC ] retitles the window, BEL rings) and
# PostgreSQL refuses in text (NUL), and a lone surrogate (Cs, U+D800-U+DFFF): bytes that were
# not text (a command line in another encoding, decoded with surrogateescape), which no
# encoder writes. Layout, the tab, line feed and carriage return, is kept where an input has
# lines (docs/operations.md, "Control characters").
CONTROL_RANGES = (("\x00", "\x1f"), ("\x7f", "\x9f"), ("\ud800", "\udfff"))
LAYOUT = "\t\n\r"


def _control_pattern(allowed: str) -> re.Pattern[str]:
    ranges = "".join(f"{re.escape(low)}-{re.escape(high)}" for low, high in CONTROL_RANGES)
    return re.compile(f"[{ranges}]" if not allowed else f"(?![{re.escape(allowed)}])[{ranges}]")


_CONTROLS = {allowed: _control_pattern(allowed) for allowed in ("", LAYOUT, "\n\t")}


def is_control(character: str) -> bool:
    """Whether ``character`` is a control character (see :data:`CONTROL_RANGES`)."""
    return _CONTROLS[""].fullmatch(character) is not None


def find_control(text: str, allowed: str = "") -> int:
    """The index of the first control character of ``text`` that is not in ``allowed`` (one of
    "", :data:`LAYOUT` or "\\n\\t"), or -1 when there is none."""
    found = _CONTROLS[allowed].search(text)
    return -1 if found is None else found.start()


def control_name(character: str) -> str:
    """A control character as a person can read it: ``U+001B``."""
    return f"U+{ord(character):04X}"


def escape_controls(text: str, kept: str = "\n\t") -> str:
    """``text`` with every control character but ``kept`` written as a ``\\uXXXX`` escape, so that
    a terminal shows it instead of obeying it (and a JSON document stays valid: the escape is
    JSON's own)."""
    return _CONTROLS[kept].sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def without_controls(text: str, kept: str = LAYOUT) -> str:
    """``text`` with every control character but ``kept`` removed."""
    return _CONTROLS[kept].sub("", text)


def N_(text: str) -> str:
    """Marks ``text`` for the translation catalogue and returns it unchanged: the pure packages
    import no Django, so their display texts are found by ``makemessages --keyword=N_`` and
    translated with ``gettext`` where the web layer shows them."""
    return text


def Nn_(singular: str, many: str) -> tuple[str, str]:
    """Marks a counted text's two English forms for the catalogue (``makemessages
    --keyword=Nn_:1,2``), translated by ``ngettext`` with its ``count`` where it is shown."""
    return singular, many


# The words of a tournament's and a game's stored values, marked for the catalogue: the database,
# the JSON and the API keep the English value; a page (web/labels.py) and a command's text
# (commands/values.py) show it in the reader's language.
VALUE_WORDS = frozenset(
    {
        N_("standard"),
        N_("rapid"),
        N_("blitz"),  # Tournament.time_control
        N_("chess"),
        N_("bughouse"),  # Tournament.kind
        N_("draft"),
        N_("published"),  # TournamentStatus
        N_("white"),
        N_("black"),  # a game's colour
    }
)


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: combining marks none, East Asian wide two
    (Unicode UAX #11), everything else (Latin, Cyrillic, Armenian) one."""
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(c) in ("W", "F")
        else 1
        for c in text
    )


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
