"""Names in the order a reader of the page's language expects, and found as they would type them.

Unicode's code point order is already the alphabet's inside Armenian and inside Cyrillic
(except ё), so a short key does for the club's three languages what a collation library
would: case folded in every script, ё sorted and found as е, the Armenian ligature և as ե+վ
on an Armenian page, Latin accents set aside, and the page's own script before the others, as CLDR's collations
for ru and hy reorder them. Names are sorted in Python because SQLite and PostgreSQL collate
differently; the order and its checks against ICU are in docs/website.md ("Names in order").

Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

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
_READ_AS_EV = str.maketrans({"\u0587": "\u0565\u057e"})
_LIGATURE_AS_EV = frozenset({"hy"})
# ё is е for a Russian reader, in order and in a search (CLDR ru: a secondary difference).
_SAME_LETTER = str.maketrans({"ё": "е"})
# Cyrillic letters of Ukrainian and Belarusian names that CLDR's root order puts after a
# Russian letter rather than after я, where their code points are: (the letter, how many
# places after it).
_CYRILLIC_AFTER = {"ґ": ("г", 1), "є": ("е", 1), "і": ("и", 1), "ї": ("и", 2), "ў": ("у", 1)}
# Punctuation and symbols sort before digits and letters, in CLDR's root order among the
# ones names carry; others follow them by code point.
_PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_SCRIPT_SHIFT = 23   # code points * 4 stay below 2**23


def fold(text: str, *, ligature_as_ev: bool = True) -> str:
    """``text`` as a search compares it: compatibility forms joined (NFKC), case folded, ё as
    е, և as եվ (as եւ without ``ligature_as_ev``), Latin letters without their accents
    ("Müller" -> "muller", "ß" -> "ss"), combining marks such as Russian stress marks dropped,
    runs of spaces as one space."""
    out = []
    text = text.translate(_READ_AS_EV) if ligature_as_ev else text
    for c in unicodedata.normalize("NFKC", text).casefold().translate(_SAME_LETTER):
        category = unicodedata.category(c)
        if category in ("Mn", "Me", "Cf"):
            continue
        if category[0] == "Z" or c.isspace():
            out.append(" ")
        elif category[0] == "L" and unicodedata.name(c, "").startswith("LATIN"):
            out.append(anyascii(c).lower())
        elif category[0] in "PS" and ord(c) > 0x7F:
            out.append(anyascii(c) or c)   # "’" -> "'", "–" -> "-"
        else:
            out.append(c)
    return " ".join("".join(out).split())


def matches(query: str, name: str) -> bool:
    """Whether ``name`` contains ``query`` once both are folded (:func:`fold`): "семенов" finds
    "Семёнов", "ПЕТРОСЯН" finds "Петросян", "ԱՐՈՆՅԱՆ" finds "Արոնյան". An empty query
    matches every name."""
    return fold(query) in fold(name)


NameKey = tuple[tuple[int, ...], str, str, str]


def sort_key(name: str, language: str) -> NameKey:
    """The key that puts names in the order of ``language`` ("en", "ru", "hy"; a region as in
    "ru-RU" is ignored; any other language sorts as English): first the folded letters
    (:func:`fold`; և as ե+վ on an Armenian page, as ե+ւ on the others) by the page's script
    order, then, for names equal so far, е before ё and
    accents after plain letters, and lower case before capitals, as ICU does."""
    code = language.lower().replace("_", "-").split("-")[0]
    order = SCRIPT_ORDER.get(code, SCRIPT_ORDER[DEFAULT_LANGUAGE])
    primary = tuple(_weight(c, order) for c in fold(name, ligature_as_ev=code in _LIGATURE_AS_EV))
    exact = unicodedata.normalize("NFC", name)
    return primary, exact.casefold(), exact.swapcase(), name


@lru_cache(maxsize=4096)
def _weight(c: str, order: tuple[str, ...]) -> int:
    """One folded character's place: punctuation, then digits, then the scripts of ``order``,
    then every other letter."""
    if c in _PUNCTUATION:
        return _PUNCTUATION.index(c)
    if not c.isalpha():
        return (1 << _SCRIPT_SHIFT if c.isdigit() else len(_PUNCTUATION)) + ord(c)
    script = unicodedata.name(c, "").split(" ")[0]
    rank = order.index(script) if script in order else len(order)
    base, after = _CYRILLIC_AFTER.get(c, (c, 0))
    return ((2 + rank) << _SCRIPT_SHIFT) + ord(base) * 4 + after
