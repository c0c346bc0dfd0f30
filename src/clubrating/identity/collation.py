"""Names in the order a reader of the page's language expects, and found as they would type them.

Unicode's code point order is already the alphabet's inside Armenian and inside Cyrillic
(except ё), so a short key does for the club's three languages what a collation library
would: case folded in every script, ё sorted and found as е, the Armenian ligature և as ե+վ
on an Armenian page, Latin accents set aside, and the page's own script before the others, as CLDR's
collations
for ru and hy reorder them. Names are sorted in Python because SQLite and PostgreSQL collate
differently; the order and its checks against ICU are in docs/website.md ("Names in order").

Pure: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import partial

from anyascii import anyascii

# The scripts in the order each page lists them: its own first, then CLDR's root order
# (Latin, Cyrillic, Armenian; Unicode DUCET allkeys.txt). Letters of other scripts follow
# these, by code point.
SCRIPT_ORDER = {
    "en": ("LATIN", "CYRILLIC", "ARMENIAN"),
    "ru": ("CYRILLIC", "LATIN", "ARMENIAN"),
    "hy": ("ARMENIAN", "LATIN", "CYRILLIC"),
}
DEFAULT_LANGUAGE = "en"

# Before NFKC, which splits "և" into "եւ" (as CLDR's root order sorts it, on the en and ru
# pages): CLDR's Armenian collation sorts the ligature as ե+վ, as the reformed spelling reads
# it ("Երևան" = "Yerevan"), and a search finds it so on every page; the classical "եւ"
# written in full stays apart, as ICU's hy collation keeps it.
LIGATURE, READ_AS = "\u0587", "\u0565\u057e"
_LIGATURE_AS_EV = frozenset({"hy"})
# ё is е for a Russian reader, in order and in a search (CLDR ru: a secondary difference).
YO, YE = "ё", "е"
# What a folded name is mostly made of, each character its own fold (a test checks it): a name
# with none but these skips the per-character table (str.translate costs about 0.2 µs a character).
PLAIN = " abcdefghijklmnopqrstuvwxyz0123456789\u0430-\u044f\u0561-\u0586,.'-"
_NOT_PLAIN = re.compile(f"[^{PLAIN}]")
# Cyrillic letters of Ukrainian and Belarusian names that CLDR's root order puts by a Russian
# letter rather than after я, where their code points are: (the letter, how many places after
# it; ї with і, ґ with г, ў with у: told apart only when the names are otherwise equal, as ё from
# е).
_CYRILLIC_AFTER = {"ґ": ("г", 0), "є": ("е", 1), "і": ("и", 1), "ї": ("и", 1), "ў": ("у", 0)}
TABLE_SIZE = 20_000  # characters: a few hundred make the club's names; a few MB at most
# Punctuation and symbols sort before digits and letters, in CLDR's root order among the
# ones names carry; others follow them by code point.
_PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


class _Table(dict[int, str]):
    """A ``str.translate`` table filled one character at a time, the first time it is met: a
    name is then translated in C, many times faster than a loop over its characters. It keeps
    at most ``TABLE_SIZE`` characters, so that searches typed with every character of Unicode
    cannot grow it without end."""

    def __init__(self, make: Callable[[str], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, code: int) -> str:
        made = self.make(chr(code))
        if len(self) < TABLE_SIZE:
            self[code] = made
        return made


def _folded(c: str) -> str:
    """One character of a case-folded NFKC text as :func:`fold` compares it."""
    category = unicodedata.category(c)
    if category in ("Mn", "Me", "Cf"):
        return ""
    if category[0] == "Z" or c.isspace():
        return " "
    if category[0] == "L" and unicodedata.name(c, "").startswith("LATIN"):
        return anyascii(c).lower()
    if category[0] in "PS" and ord(c) > 0x7F:
        return anyascii(c) or c  # "’" -> "'", "–" -> "-"
    return c.replace(YO, YE)


_FOLDED = _Table(_folded)


def fold(text: str, *, ligature_as_ev: bool = True) -> str:
    """``text`` as a search compares it: compatibility forms joined (NFKC), case folded, ё as
    е, և as եվ (as եւ without ``ligature_as_ev``), Latin letters without their accents
    ("Müller" -> "muller", "ß" -> "ss"), combining marks such as Russian stress marks dropped,
    runs of spaces as one space."""
    folded = unicodedata.normalize(
        "NFKC", text.replace(LIGATURE, READ_AS) if ligature_as_ev else text
    )
    folded = folded.casefold().replace(YO, YE)
    return " ".join((folded.translate(_FOLDED) if _NOT_PLAIN.search(folded) else folded).split())


def matches(query: str, name: str) -> bool:
    """Whether ``name`` contains ``query`` once both are folded (:func:`fold`): "семенов" finds
    "Семёнов", "ПЕТРОСЯН" finds "Петросян", "ԱՐՈՆՅԱՆ" finds "Արոնյան". An empty query
    matches every name."""
    return fold(query) in fold(name)


NameKey = tuple[str, str, str, str]


def sort_key(name: str, language: str) -> NameKey:
    """The key that puts names in the order of ``language`` ("en", "ru", "hy"; a region as in
    "ru-RU" is ignored; any other language sorts as English): first the folded letters
    (:func:`fold`; և as ե+վ on an Armenian page, as ե+ւ on the others) by the page's script
    order, then, for names equal so far, е before ё and accents after plain letters, and lower
    case before capitals, as ICU does."""
    code = language.lower().replace("_", "-").split("-")[0]
    weights = _WEIGHTS.get(code, _WEIGHTS[DEFAULT_LANGUAGE])
    primary = fold(name, ligature_as_ev=code in _LIGATURE_AS_EV).translate(weights)
    exact = unicodedata.normalize("NFC", name)
    return primary, exact.casefold(), exact.swapcase(), name


def _weight(c: str, order: tuple[str, ...]) -> str:
    """One folded character's place, as three characters compared in turn: its class
    (punctuation, other symbols, digits, then the scripts of ``order``, then every other
    letter), its code point (the Russian letter it follows, for ґ є і ї ў), its place after
    that letter."""
    if c in _PUNCTUATION:
        return chr(0) + chr(_PUNCTUATION.index(c)) + chr(0)
    if not c.isalpha():
        return chr(2 if c.isdigit() else 1) + c + chr(0)
    script = unicodedata.name(c, "").split(" ")[0]
    rank = order.index(script) if script in order else len(order)
    base, after = _CYRILLIC_AFTER.get(c, (c, 0))
    return chr(3 + rank) + base + chr(after)


_WEIGHTS = {code: _Table(partial(_weight, order=order)) for code, order in SCRIPT_ORDER.items()}
