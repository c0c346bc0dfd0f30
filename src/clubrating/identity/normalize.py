"""Player names to comparable tokens: script, accents, case, punctuation, order.

A name arrives as typed by an arbiter or a pairing program: "Smith, John",
"John Smith", "SMITH John", "Аронян, Левон", "van der Berg, J.", "Kopp, Bernd,
Dr.", "Babic, Miroslav SLO". :func:`normalize_name` turns it into a
:class:`NormalName`: lower-case ASCII tokens (anyascii transliterates every
script), split into a surname part and a given-name part, with titles and a
trailing federation code removed and name particles kept apart.

Pure: no I/O. Bad input raises :class:`~clubrating.errors.InputError`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

from clubrating.errors import InputError
from clubrating.words import N_

# Longest name accepted, in characters after trimming. The longest canonical
# name in the Scid spelling file (the acceptance data's names/roster.txt) has 60; FIDE
# TRF gives the name 33 columns. 200 leaves room for aliases typed in full.
MAX_NAME_LENGTH = 200

# Particles that belong to a surname but are written, dropped or moved freely
# ("Carbonnel, Heinz de" / "De Carbonnel, Heinz"): Dutch, German, Romance,
# Arabic; seen in the acceptance data's names/variants.tsv.
PARTICLES = frozenset(
    {
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "dela",
        "des",
        "di",
        "da",
        "dos",
        "das",
        "du",
        "la",
        "le",
        "ter",
        "ten",
        "zu",
        "al",
        "el",
        "bin",
        "ibn",
        "vd",
    }
)

# Titles and suffixes that are not part of the name (variants.tsv: "Kopp,
# Bernd, Dr.", "Banas, Ing Jan", "Ato del Avellanal, Jorge Dr").
TITLES = frozenset(
    {
        "dr",
        "prof",
        "ing",
        "dipl",
        "mr",
        "mrs",
        "ms",
        "mme",
        "mlle",
        "sir",
        "jr",
        "sr",
        "jun",
        "sen",
        "gm",
        "im",
        "fm",
        "cm",
        "wgm",
        "wim",
        "wfm",
        "wcm",
        "md",
        "phd",
    }
)
# Of those, the ones that tell a father from his son (variants.tsv: "Karolyi,
# T sr" / "Karolyi, Tibor Sr", "Baumann, Walter (Sen)"): kept as evidence.
GENERATIONS = {"jr": "jr", "jun": "jr", "sr": "sr", "sen": "sr"}

# FIDE federation codes seen after the given names in game databases
# ("Babic, Miroslav SLO", "Chilton, Alexis ENG"): the three-letter codes of
# the FIDE directory (ratings.fide.com), kept only when typed in capitals
# as the last word of a name with at least two other words.
FEDERATIONS = frozenset(
    """
AFG AHO ALB ALG AND ANG ANT ARG ARM ARU AUS AUT AZE BAH BAN BAR BDI BEL BER BHU BIH BIZ BLR BOL
BOT BRA BRN BRU BUL BUR CAF CAM CAN CAY CHA CHI CHN CIV CMR COD COL COM CPV CRC CRO CUB CYP CZE
DEN DJI DMA DOM ECU EGY ENG ERI ESA ESP EST ETH FAI FID FIJ FIN FRA FSM GAB GAM GCI GEO GEQ GER
GHA GRE GRN GUA GUM GUY HAI HKG HON HUN INA IND IRI IRL IRQ ISL ISR ISV ITA IVB JAM JCI JOR JPN
KAZ KEN KGZ KOR KOS KSA KUW LAO LAT LBA LBN LBR LCA LES LIE LTU LUX MAC MAD MAR MAS MAW MDA MDV
MEX MGL MKD MLI MLT MNC MNE MOZ MRI MTN MYA NAM NCA NED NEP NGR NIG NOR NRU NZL OMA PAK PAN PAR
PER PHI PLE PLW PNG POL POR PUR QAT ROU RSA RUS RWA SCO SEN SEY SGP SKN SLE SLO SMR SOL SOM SRB
SRI SSD STP SUD SUI SUR SVK SWE SWZ SYR TAN THA TJK TKM TLS TOG TPE TTO TUN TUR UAE UGA UKR URU
USA UZB VAN VEN VIE VIN WLS YEM ZAM ZIM
""".split()
)

# Characters removed without a trace (they join the letters around them:
# "D'Elia" = "DElia" = "D`Elia", from variants.tsv).
_JOINERS = re.compile(r"['`´’‘\u02bc\u02bb\"]")
# Everything else that is not a letter separates words; digits too, as the
# numbers that tell namesakes apart in game databases ("Bochkarev, Alexander2").
_SEPARATORS = re.compile(r"[^a-z,]+")
# The number that tells namesakes apart in Scid's spelling file and the game
# databases built on it ("Bochkarev, Alexander2", "Kiss, Pe2", "Mathur, Sathya
# J2"): one or two digits at the very end. Longer numbers are years or ids.
_NAMESAKE_NUMBER = re.compile(r"(?<!\d)(\d{1,2})\W*$")


# NFKC splits the Armenian ligature "և" into "եւ", which transliterates as
# "ew"; it is read "ev" (reformed orthography: ե + վ), as anyascii renders it
# ("Լևոն" = "Levon").
_BEFORE_NFKC = str.maketrans({"\u0587": "\u0565\u057e"})


@dataclass(frozen=True)
class NormalName:
    """A name as comparable tokens.

    ``surname`` and ``given`` hold lower-case ASCII words without particles;
    ``particles`` the particles found anywhere; ``full_surname`` the surname
    in one piece with its particles in front ("delorenzi" for "Lorenzi,
    Sebastien de" and for "De Lorenzi, Sebastien"). ``has_comma`` says the order
    was explicit ("Surname, Given"); without a comma the last word (with the
    particles before it) is taken as the surname, as in "Given Surname".
    ``words`` is every word in the order typed. ``plain`` is the name
    as typed (spacing collapsed), to tell "same name" from "same name once
    accents, case and punctuation are ignored"; ``other_script`` says letters
    of another script than Latin were transliterated.
    """

    surname: tuple[str, ...]
    full_surname: str
    given: tuple[str, ...]
    particles: tuple[str, ...]
    has_comma: bool
    words: tuple[str, ...]
    plain: str
    other_script: bool
    number: str = ""
    generation: str = ""
    federation: str = ""

    @property
    def text(self) -> str:
        """Surname then given names, one space apart: the string rapidfuzz compares."""
        return " ".join(self.surname + self.given)


def clean_text(raw: str) -> str:
    """Unicode-normalise (NFKC), drop control characters, collapse spaces; check length."""
    if not isinstance(raw, str):
        raise InputError(N_("a name must be text, not %(kind)s"), kind=type(raw).__name__)
    text = unicodedata.normalize("NFKC", raw.translate(_BEFORE_NFKC))
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    text = " ".join(text.split())
    if not text:
        raise InputError(N_("empty name"))
    if len(text) > MAX_NAME_LENGTH:
        raise InputError(
            N_("name longer than %(most)s characters (%(length)s): %(start)s..."),
            most=MAX_NAME_LENGTH,
            length=len(text),
            start=text[:30],
        )
    return text


def has_other_script(text: str) -> bool:
    """True when a letter is not Latin (Cyrillic, Armenian, Greek, CJK ...)."""
    for ch in text:
        if ch.isalpha() and ord(ch) > 0x24F and "LATIN" not in unicodedata.name(ch, "LATIN"):
            return True
    return False


def _drop_federation(words: list[str]) -> tuple[list[str], str]:
    """The words without a trailing federation code ("SLO", "(SUI)"), and the code."""
    if len(words) >= 3 and words[-1].strip("()[]") in FEDERATIONS:
        return words[:-1], words[-1].strip("()[]")
    return words, ""


def _generation(parts: list[list[str]]) -> str:
    """ "jr" or "sr" when one of them follows the first word ("Sen, Amit" is a surname)."""
    found = {GENERATIONS[w] for w in [w for part in parts for w in part][1:] if w in GENERATIONS}
    return found.pop() if len(found) == 1 else ""


def _split_words(part: str) -> list[str]:
    return [w for w in _SEPARATORS.split(part.lower()) if w]


def _untitled(parts: list[list[str]]) -> list[list[str]]:
    """Titles removed; a surname that is all title ("Sen, Amit", "Dr, ...") is kept whole."""
    kept = [[w for w in part if w not in TITLES] for part in parts]
    untitled = [part for index, part in enumerate(kept) if part or index == 0]
    if not untitled[0]:
        untitled[0] = parts[0]
    return untitled


def normalize_name(raw: str) -> NormalName:
    """The comparable form of one name; :class:`InputError` when nothing is left of it."""
    text = clean_text(raw)
    ascii_text = anyascii(text)
    raw_words, federation = _drop_federation(ascii_text.replace(",", " , ").split())
    ascii_text = _JOINERS.sub("", " ".join(raw_words))
    number = _NAMESAKE_NUMBER.search(ascii_text)
    parts = [p for p in (_split_words(chunk) for chunk in ascii_text.split(",")) if p]
    if not parts:
        raise InputError(N_("no letters in name %(name)s"), name=repr(text))

    generation = _generation(parts)
    parts = _untitled(parts)
    has_comma = len(parts) >= 2
    if has_comma:
        surname_words, given_words = parts[0], [w for part in parts[1:] for w in part]
    else:
        surname_words, given_words = _split_given_surname(parts[0])
    words = tuple(w for part in parts for w in part)
    particles = tuple(w for w in surname_words + given_words if w in PARTICLES)
    surname = tuple(w for w in surname_words if w not in PARTICLES) or tuple(surname_words)
    given = tuple(w for w in given_words if w not in PARTICLES)
    moved = [w for w in given_words if w in PARTICLES]
    return NormalName(
        surname=surname,
        full_surname="".join(moved + surname_words),
        given=given,
        particles=particles,
        has_comma=has_comma,
        words=words,
        plain=text,
        other_script=has_other_script(text),
        number=number.group(1) if number else "",
        generation=generation,
        federation=federation,
    )


def _split_given_surname(words: list[str]) -> tuple[list[str], list[str]]:
    """ "Given [particles] Surname": the last word and the particles just before it."""
    start = len(words) - 1
    while start > 1 and words[start - 1] in PARTICLES:
        start -= 1
    return words[start:], words[:start]


# Spelling folds shared by the usual romanisations of Russian, Ukrainian and
# Armenian (BGN/PCGN "Aronyan", ISO/French/German "Aronian", "Aronjan"), of
# German umlauts written out ("Mueller") and of doubled letters ("Garry"/"Gary").
# Order matters: longer patterns first. Source: the BGN/PCGN, German (Duden)
# and French romanisation tables for Cyrillic, and the pairs in variants.tsv.
_SKELETON_RULES: tuple[tuple[str, str], ...] = (
    ("shch", "sh"),
    ("tsch", "ch"),
    ("sch", "sh"),
    ("dzh", "j"),
    ("dj", "j"),
    ("zh", "j"),
    ("kh", "h"),
    ("ph", "f"),
    ("ck", "k"),
    ("ks", "x"),
    ("ou", "u"),
    ("ue", "u"),
    ("oe", "o"),
    ("ae", "a"),
    ("w", "v"),
    ("q", "k"),
    ("y", "i"),
    ("j", "i"),
    ("tz", "c"),
    ("ts", "c"),
)
_DOUBLES = re.compile(r"(.)\1+")


@lru_cache(maxsize=262144)
def skeleton(word: str) -> str:
    """A coarse spelling key: two romanisations of one name share it (Sergey/Sergei)."""
    key = word
    for old, new in _SKELETON_RULES:
        if old in key:
            key = key.replace(old, new)
    return _DOUBLES.sub(r"\1", key)
