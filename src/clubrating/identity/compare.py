"""How alike two normalised names are, as a score out of 100 and reasons in words.

The score starts at 100 and loses a penalty per difference. The penalties are
ordered by how often the difference joins two spellings of one person rather
than two people (R12: a wrong merge is worse than a missed one): accents and
transliteration cost little, an initial or a missing middle name a little
more, typos in the surname more, a different first name most. Their values
were fitted by hand on seeded samples of the acceptance data's names/variants.tsv:
the first ones on the benchmark's own sample (benchmarks/bench_matching.py,
seed 3), those of the readings by words, the middle-name and second-surname
typos and the rare given names on 3,000 variants outside it (seed 11).

Pure: no I/O; rapidfuzz computes the edit distances.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA, Indel

from clubrating.identity.given_names import is_abbreviation, same_given_name
from clubrating.identity.normalize import NormalName, skeleton
from clubrating.words import N_


class Reason(enum.Enum):
    """Why a typed name could be a member's; its words for the arbiter are :attr:`text`
    (kept apart, so that the matcher keys on the reason and a page may translate its words)."""

    SAME_NAME = enum.auto()
    INITIAL = enum.auto()
    MIDDLE_INITIAL = enum.auto()
    MIDDLE_MISSING = enum.auto()
    MIDDLE_ADDED = enum.auto()
    FIRST_MISSING = enum.auto()
    FIRST_ADDED = enum.auto()
    SHORT_FORM = enum.auto()
    MIDDLE_SHORT_FORM = enum.auto()
    GIVEN_TYPO = enum.auto()
    MIDDLE_TYPO = enum.auto()
    NICKNAME = enum.auto()
    MIDDLE_NICKNAME = enum.auto()
    SIMILAR_FIRST = enum.auto()
    OTHER_FIRST = enum.auto()
    OTHER_MIDDLE = enum.auto()
    SURNAME_TYPO_1 = enum.auto()
    SURNAME_TYPO_2 = enum.auto()
    OTHER_SURNAME = enum.auto()
    LATER_SURNAME_TYPO = enum.auto()
    SWAPPED = enum.auto()
    PUNCTUATION = enum.auto()
    TRANSLITERATION = enum.auto()
    DOUBLE_SURNAME = enum.auto()
    DOUBLE_SURNAME_LATER = enum.auto()
    JOINED_SURNAME = enum.auto()
    PARTICLE = enum.auto()
    SURNAME_SHORTENED = enum.auto()
    SURNAME_ORDER = enum.auto()
    OTHER_SECOND_SURNAME = enum.auto()
    ALIAS = enum.auto()
    SURNAME_NOT_TYPED = enum.auto()
    WORDS_REORDERED = enum.auto()
    WORD_ADDED = enum.auto()
    RARE_GIVEN_NAMES = enum.auto()
    OTHER_NUMBER = enum.auto()
    OTHER_GENERATION = enum.auto()
    GENERATION_ONE_SIDE = enum.auto()
    OTHER_FEDERATION = enum.auto()

    @property
    def text(self) -> str:
        return TEXT[self]

    def __str__(self) -> str:
        return TEXT[self]


def words(reasons: tuple[Reason, ...]) -> tuple[str, ...]:
    """The reasons in the words the arbiter reads (the JSON and the pages show these)."""
    return tuple(TEXT[reason] for reason in reasons)


# Reasons, in the words the arbiter reads (English; marked, the pages show them translated).
TEXT: dict[Reason, str] = {
    Reason.SAME_NAME: N_("same name"),
    Reason.INITIAL: N_("initial for the first name"),
    Reason.MIDDLE_INITIAL: N_("initial for a middle name"),
    Reason.MIDDLE_MISSING: N_("middle name missing"),
    Reason.MIDDLE_ADDED: N_("middle name added"),
    Reason.FIRST_MISSING: N_("first name missing"),
    Reason.FIRST_ADDED: N_("first name added"),
    Reason.SHORT_FORM: N_("short form of the first name"),
    Reason.MIDDLE_SHORT_FORM: N_("short form of a middle name"),
    Reason.GIVEN_TYPO: N_("typo in a given name"),
    Reason.MIDDLE_TYPO: N_("typo in a middle name"),
    Reason.NICKNAME: N_("other form of the first name (nickname, short or foreign form)"),
    Reason.MIDDLE_NICKNAME: N_("other form of a middle name"),
    Reason.SIMILAR_FIRST: N_("similar first name"),
    Reason.OTHER_FIRST: N_("different first name"),
    Reason.OTHER_MIDDLE: N_("different middle name"),
    Reason.SURNAME_TYPO_1: N_("one-letter typo in the surname"),
    Reason.SURNAME_TYPO_2: N_("two-letter typo in the surname"),
    Reason.OTHER_SURNAME: N_("different surname"),
    Reason.LATER_SURNAME_TYPO: N_("typo in the second part of a double surname"),
    Reason.SWAPPED: N_("first and last name swapped"),
    Reason.PUNCTUATION: N_("accents, case or punctuation"),
    Reason.TRANSLITERATION: N_("transliteration"),
    Reason.DOUBLE_SURNAME: N_("hyphenated / double surname"),
    Reason.DOUBLE_SURNAME_LATER: N_("hyphenated / double surname, not its first part"),
    Reason.JOINED_SURNAME: N_("hyphenated / double surname written joined or apart"),
    Reason.PARTICLE: N_("particle (van, de ...) added, dropped or moved"),
    Reason.SURNAME_SHORTENED: N_("surname shortened (initial or abbreviation)"),
    Reason.SURNAME_ORDER: N_("double surname in the other order"),
    Reason.OTHER_SECOND_SURNAME: N_("same first surname, different second surname"),
    Reason.ALIAS: N_("known alias"),
    # Readings by words, whatever their places (see _word_sets).
    Reason.SURNAME_NOT_TYPED: N_("surname not typed: the name typed is the given names"),
    Reason.WORDS_REORDERED: N_("same words in another order"),
    Reason.WORD_ADDED: N_("a word typed that the member's name lacks"),
    # Only the given names alike, and rare ones (the matcher counts them): a
    # married or maiden name is the one change no spelling rule can see.
    Reason.RARE_GIVEN_NAMES: N_("same rare given names, another surname (married or maiden name?)"),
    # Evidence beside the words: a namesake number, junior / senior, a federation.
    Reason.OTHER_NUMBER: N_("another namesake's number"),
    Reason.OTHER_GENERATION: N_("junior / senior differ"),
    Reason.GENERATION_ONE_SIDE: N_("junior / senior on one side only"),
    Reason.OTHER_FEDERATION: N_("different federation"),
}

# Penalties (points off 100), hand-fitted as said above.
PENALTY: dict[Reason, float] = {
    Reason.PUNCTUATION: 1.0,
    Reason.TRANSLITERATION: 3.0,
    Reason.PARTICLE: 2.0,
    Reason.SWAPPED: 3.0,
    Reason.DOUBLE_SURNAME: 6.0,
    Reason.JOINED_SURNAME: 2.0,
    Reason.DOUBLE_SURNAME_LATER: 8.0,
    Reason.INITIAL: 6.0,
    Reason.MIDDLE_INITIAL: 1.0,
    Reason.MIDDLE_MISSING: 3.0,
    Reason.MIDDLE_ADDED: 4.0,
    Reason.SHORT_FORM: 7.0,
    Reason.MIDDLE_SHORT_FORM: 2.0,
    Reason.GIVEN_TYPO: 8.0,
    Reason.MIDDLE_TYPO: 3.0,
    Reason.FIRST_MISSING: 15.0,
    Reason.FIRST_ADDED: 15.0,
    Reason.NICKNAME: 7.0,
    Reason.MIDDLE_NICKNAME: 2.0,
    Reason.SIMILAR_FIRST: 22.0,
    Reason.OTHER_MIDDLE: 12.0,
    Reason.OTHER_FIRST: 35.0,
    Reason.SURNAME_TYPO_1: 8.0,
    Reason.SURNAME_TYPO_2: 16.0,
    Reason.LATER_SURNAME_TYPO: 4.0,
    Reason.OTHER_SURNAME: 40.0,
    Reason.SURNAME_SHORTENED: 5.0,
    Reason.SURNAME_ORDER: 4.0,
    Reason.OTHER_SECOND_SURNAME: 22.0,
    Reason.SURNAME_NOT_TYPED: 20.0,
    Reason.WORDS_REORDERED: 6.0,
    Reason.WORD_ADDED: 12.0,
    Reason.RARE_GIVEN_NAMES: 40.0,
    Reason.OTHER_NUMBER: 10.0,
    Reason.OTHER_GENERATION: 10.0,
    Reason.GENERATION_ONE_SIDE: 2.0,
    Reason.OTHER_FEDERATION: 10.0,
}
# A given name written as its first three letters or more ("Alex" for
# "Alexander") counts as a short form; shorter prefixes are too common.
MIN_SHORT_FORM = 3
# Two first names that are not one name but share their first three letters
# or are this alike (rapidfuzz Indel similarity of their skeletons, 0-1) are
# "similar" ("Garrik" / "Garry"): fitted on variants outside the benchmark's
# sample (seed 11), where 0.7 keeps most such pairs without joining
# Maria / Mario-like pairs from other first letters.
SIMILAR_PREFIX = 3
SIMILAR_RATIO = 0.7


@dataclass(frozen=True)
class Likeness:
    score: float
    reasons: tuple[Reason, ...]


def _penalty(reasons: list[Reason]) -> float:
    return sum(PENALTY.get(reason, 0.0) for reason in reasons)


@lru_cache(maxsize=65536)
def compact_skeleton(words: tuple[str, ...]) -> str:
    return skeleton("".join(words))


@lru_cache(maxsize=65536)
def aligned_surname_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> tuple[Reason, ...]:
    return tuple(surname_reasons(query, member))


def surname_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> list[Reason]:
    """Why two surnames (without particles) are alike; Reason.OTHER_SURNAME when they are not."""
    if query == member:
        return []
    if len(query) == len(member) >= 2 and query[0] == member[0]:
        # the second part typed with a typo is more alike than one left out
        # (Reason.DOUBLE_SURNAME): "Martinez Mataredonda" / "Martinez Matarredona"
        later = _one_surname(query[1:], member[1:])
        if later in ([Reason.SURNAME_TYPO_1], [Reason.SURNAME_TYPO_2]):
            return [Reason.LATER_SURNAME_TYPO]
    if (
        len(query) < len(member)
        and member[: len(query)] == query
        and all(len(w) <= 2 for w in member[len(query) :])
    ):
        # the member's last surname written as its initial ("Garcia-Monteavaro
        # R."): shortened, not a one-letter typo of the joined words
        return [Reason.SURNAME_SHORTENED]
    reasons = _one_surname(query, member)
    if reasons == [Reason.OTHER_SURNAME] and len(query) != len(member):
        reasons = _part_of_double(*sorted((query, member), key=len))
    if reasons == [Reason.OTHER_SURNAME] and len(query) == len(member) >= 2:
        reasons = _double_surname_words(query, member)
    return reasons


def _double_surname_words(query: tuple[str, ...], member: tuple[str, ...]) -> list[Reason]:
    """Double surnames of as many words: shortened ("Monroy G."), reordered, second one other."""
    if sorted(query) == sorted(member):
        return [Reason.SURNAME_ORDER]
    pairs = [_surname_word(one, other) for one, other in zip(query, member)]
    if None not in pairs:
        found = [reason for reasons in pairs for reason in reasons or []]
        if Reason.SURNAME_SHORTENED in found:
            return list(dict.fromkeys(found))
    if pairs[0] is not None and Reason.SURNAME_SHORTENED not in pairs[0] and len(query) == 2:
        return [Reason.OTHER_SECOND_SURNAME] + pairs[0]
    return [Reason.OTHER_SURNAME]


def _surname_word(one: str, other: str) -> list[Reason] | None:
    """One word of a double surname against another: alike, shortened, or None."""
    shorter, longer = sorted((one, other), key=len)
    if shorter == longer:
        return []
    if longer.startswith(shorter) or is_abbreviation(shorter, longer):
        return [Reason.SURNAME_SHORTENED]
    reasons = _one_surname((one,), (other,))
    return None if reasons == [Reason.OTHER_SURNAME] else reasons


def _part_of_double(shorter: tuple[str, ...], longer: tuple[str, ...]) -> list[Reason]:
    """ "Lopez" / "Lopez Gaviria": every word of the shorter surname in the longer one."""
    worst: list[Reason] = []
    first = True
    for index, word in enumerate(shorter):
        parts = [_one_surname((word,), (other,)) for other in longer]
        best = min(parts, key=_penalty)
        if best == [Reason.OTHER_SURNAME]:
            return [Reason.OTHER_SURNAME]
        first = first and parts[index] == best
        worst = max(worst, best, key=_penalty)
    return [Reason.DOUBLE_SURNAME if first else Reason.DOUBLE_SURNAME_LATER] + worst


def _one_surname(query: tuple[str, ...], member: tuple[str, ...]) -> list[Reason]:
    q_compact, m_compact = "".join(query), "".join(member)
    if q_compact == m_compact:
        return [] if query == member else [Reason.JOINED_SURNAME]
    if compact_skeleton(query) == compact_skeleton(member):
        return [Reason.TRANSLITERATION]
    distance = min(
        OSA.distance(q_compact, m_compact, score_cutoff=3),
        OSA.distance(compact_skeleton(query), compact_skeleton(member), score_cutoff=3),
    )
    shortest = min(len(q_compact), len(m_compact))
    if distance == 1 and shortest >= 3:
        return [Reason.SURNAME_TYPO_1]
    if distance == 2 and shortest >= 5:
        return [Reason.SURNAME_TYPO_2]
    return [Reason.OTHER_SURNAME]


def _pair(query: str, member: str, first: bool) -> list[Reason] | None:
    """Reasons two given names are one, or None when they are not."""
    if query == member:
        return []
    if len(query) == 1 or len(member) == 1:
        if query[0] == member[0]:
            return [Reason.INITIAL if first else Reason.MIDDLE_INITIAL]
        return None
    if skeleton(query) == skeleton(member):
        return [Reason.TRANSLITERATION]
    shorter, longer = sorted((query, member), key=len)
    if longer.startswith(shorter):  # "An." for "Anatoly": as good as an initial
        if len(shorter) < MIN_SHORT_FORM:
            return [Reason.INITIAL if first else Reason.MIDDLE_INITIAL]
        return [Reason.SHORT_FORM if first else Reason.MIDDLE_SHORT_FORM]
    if same_given_name(query, member) or is_abbreviation(shorter, longer):
        return [Reason.NICKNAME if first else Reason.MIDDLE_NICKNAME]
    if min(len(query), len(member)) >= 4 and (
        OSA.distance(query, member, score_cutoff=2) <= 1
        or OSA.distance(skeleton(query), skeleton(member), score_cutoff=2) <= 1
    ):
        # a middle name typed with a typo is still one more word alike: it
        # must cost less than leaving it out and adding another (3 + 4)
        return [Reason.GIVEN_TYPO if first else Reason.MIDDLE_TYPO]
    if first and _similar(query, member):
        return [Reason.SIMILAR_FIRST]
    return None


def _similar(one: str, other: str) -> bool:
    if one[:SIMILAR_PREFIX] == other[:SIMILAR_PREFIX]:
        return True
    return Indel.normalized_similarity(skeleton(one), skeleton(other)) >= SIMILAR_RATIO


@lru_cache(maxsize=65536)
def aligned_given_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> tuple[Reason, ...]:
    return tuple(given_reasons(query, member))


def given_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> list[Reason]:
    """The cheapest order-keeping alignment of two lists of given names, as reasons.

    A small edit-distance over words (both lists hold at most a few words):
    keep a pair (free or with its reasons), skip a word (missing / added), or
    substitute (a different first or middle name).
    """
    rows, cols = len(query), len(member)
    best: list[list[tuple[float, list[Reason]]]] = [
        [(0.0, [])] * (cols + 1) for _ in range(rows + 1)
    ]
    for i in range(rows + 1):
        for j in range(cols + 1):
            if i == 0 and j == 0:
                continue
            options: list[tuple[float, list[Reason]]] = []
            if i > 0:
                reason = Reason.FIRST_ADDED if i == 1 else Reason.MIDDLE_ADDED
                cost, reasons = best[i - 1][j]
                options.append((cost + PENALTY[reason], reasons + [reason]))
            if j > 0:
                reason = Reason.FIRST_MISSING if j == 1 else Reason.MIDDLE_MISSING
                cost, reasons = best[i][j - 1]
                options.append((cost + PENALTY[reason], reasons + [reason]))
            if i > 0 and j > 0:
                cost, reasons = best[i - 1][j - 1]
                first = i == 1 or j == 1
                pair = _pair(query[i - 1], member[j - 1], first)
                if pair is None:
                    pair = [Reason.OTHER_FIRST if first else Reason.OTHER_MIDDLE]
                options.append((cost + _penalty(pair), reasons + pair))
            best[i][j] = min(options, key=lambda option: option[0])
    reasons = best[rows][cols][1]
    if Reason.FIRST_ADDED in reasons and Reason.FIRST_MISSING in reasons:
        reasons = [Reason.OTHER_FIRST] + [
            r for r in reasons if r not in (Reason.FIRST_ADDED, Reason.FIRST_MISSING)
        ]
    return reasons


def _query_parses(query: NormalName) -> list[tuple[tuple[str, ...], tuple[str, ...], bool]]:
    """(surname, given, swapped) readings of the query: as written, then swapped."""
    parses = [(query.surname, query.given, False)]
    if query.has_comma:
        if query.given:
            parses.append((query.given, query.surname, True))
        return parses
    words = tuple(w for w in query.words if w not in query.particles) or query.words
    if len(words) >= 2:
        parses.append((words[:1], words[1:], True))
    if len(words) >= 3:
        parses.append((words[-2:], words[:-2], False))
        parses.append((words[:2], words[2:], True))
    return parses


def _plain_words(name: NormalName) -> list[str]:
    return sorted(name.plain.replace(",", " ").split())


def _member_readings(member: NormalName) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(surname, given) readings of a member: as stored, and first word first when no comma said.

    Rosters hold names without a comma in either order ("Jithu Sajeevan",
    "MOHAMMED ABDULLAH SALEH MERZA"): the last word is only a guess.
    """
    readings = [(member.surname, member.given)]
    words = tuple(w for w in member.words if w not in member.particles)
    if not member.has_comma and len(words) >= 2 and words[:1] != member.surname:
        readings.append((words[:1], words[1:]))
    return readings


def compare(query: NormalName, member: NormalName) -> Likeness:
    """How likely ``member`` is the person typed as ``query``: best reading of both names."""
    best: tuple[float, list[Reason], bool] | None = None
    parses = _query_parses(query)
    for other_order, (member_surname, member_given) in enumerate(_member_readings(member)):
        for index, (surname, given, swapped) in enumerate(parses):
            joined = index == 0 and not other_order and query.full_surname == member.full_surname
            if joined:  # "Al Amiri" / "Alamiri", "Lorenzi, Sebastien de" / "De Lorenzi, Sebastien"
                reasons = [] if surname == member_surname else [Reason.JOINED_SURNAME]
            else:
                reasons = list(aligned_surname_reasons(surname, member_surname))
            if Reason.OTHER_SURNAME in reasons:
                continue  # no reading of the query has this member's surname
            reasons += aligned_given_reasons(given, member_given)
            if swapped != bool(other_order):
                reasons.append(Reason.SWAPPED)
            cost = _penalty(reasons)
            if best is None or cost < best[0]:
                best = (cost, reasons, joined)
    if best is None or best[0] > PENALTY[Reason.WORDS_REORDERED]:
        by_words = _word_sets(query, member, alike=1 if best is None else 2)
        if by_words is not None and (best is None or _penalty(by_words) < best[0]):
            best = (_penalty(by_words), by_words, False)
    if best is None:
        return Likeness(0.0, (Reason.OTHER_SURNAME,))
    _, reasons, joined = best
    if not joined and sorted(query.particles) != sorted(member.particles):
        reasons.append(Reason.PARTICLE)
    return _finish(query, member, reasons + _evidence(query, member))


def _word_sets(query: NormalName, member: NormalName, alike: int) -> list[Reason] | None:
    """The words of both names paired whatever their places, or None when too few pair.

    For what no reading by surname and given names finds: the surname left
    out and the given names typed as the whole name ("Siti, Zulaikha" for
    "Foudzi, Siti Zulaikha"), every word typed in another order ("Kim, Le
    Kieu Thien" for "Le, Kieu Thien Kim"), or a surname added ("Nielsen,
    Rogvi Egilstoft" for "Egilstoft, Rogvi"). Each word of the shorter name
    must pair with a word of the other (the cheapest pairs first), at least
    two of them full words (three letters or more), and no word may be left
    over on both sides at once. Words that all keep their places (surname
    for surname, given names in order) are left to those readings. Tried
    only when ``alike`` full words or more are spelled alike (the same
    skeleton) in both names: cheap to tell, and most members compared are
    not such.
    """
    typed = [w for w in query.words if w not in query.particles]
    known = [w for w in member.words if w not in member.particles]
    shared = {skeleton(w) for w in typed if len(w) >= 3} & {
        skeleton(w) for w in known if len(w) >= 3
    }
    if len(shared) < alike:
        return None
    pairs = []
    for i, one in enumerate(typed):
        for j, other in enumerate(known):
            reasons = _pair(one, other, first=False)
            if reasons is not None:
                pairs.append((_penalty(reasons), i, j, reasons))
    pairs.sort(key=lambda pair: pair[:3])
    chosen: dict[int, int] = {}
    found: list[Reason] = []
    for _, i, j, reasons in pairs:
        if i not in chosen and j not in chosen.values():
            chosen[i] = j
            found += reasons
    full = sum(1 for i, j in chosen.items() if min(len(typed[i]), len(known[j])) >= 3)
    left_typed = len(typed) - len(chosen)
    left_known = [j for j in range(len(known)) if j not in chosen.values()]
    if full < 2 or (left_typed and left_known):
        return None
    places = [j for _, j in sorted(chosen.items())]
    if places == sorted(places) and all(
        (typed[i] in query.surname) == (known[j] in member.surname) for i, j in chosen.items()
    ):
        return None  # every word in its place: the readings by surname and given names said it all
    surname = {j for j, word in enumerate(known) if word in member.surname}
    reasons = [Reason.WORD_ADDED] * left_typed
    if surname and surname <= set(left_known):
        reasons.append(Reason.SURNAME_NOT_TYPED)
        reasons += [Reason.MIDDLE_MISSING] * (len(left_known) - len(surname))
    else:
        reasons.append(Reason.WORDS_REORDERED)
        reasons += [Reason.MIDDLE_MISSING] * len(left_known)
    return reasons + found


def _evidence(query: NormalName, member: NormalName) -> list[Reason]:
    """What the namesake number, junior / senior and federation say, when both names give them."""
    reasons = []
    if query.number and member.number and query.number != member.number:
        reasons.append(Reason.OTHER_NUMBER)
    if query.generation != member.generation:
        both = query.generation and member.generation
        reasons.append(Reason.OTHER_GENERATION if both else Reason.GENERATION_ONE_SIDE)
    if query.federation and member.federation and query.federation != member.federation:
        reasons.append(Reason.OTHER_FEDERATION)
    return reasons


def _finish(query: NormalName, member: NormalName, reasons: list[Reason]) -> Likeness:
    """Say "same name" when only the script, accents, case or punctuation differ."""
    explicit = query.has_comma and member.has_comma
    if reasons == [Reason.SWAPPED] and not explicit and _plain_words(query) == _plain_words(member):
        reasons = []  # "Kasparov Garry" and "Kasparov, Garry": one name, two customary orders
    same = not reasons
    if query.other_script != member.other_script:
        reasons.append(Reason.TRANSLITERATION)
    elif same and _plain_words(query) != _plain_words(member):
        reasons.append(Reason.PUNCTUATION)
    if same:
        reasons.insert(0, Reason.SAME_NAME)
    unique = list(dict.fromkeys(reasons))
    return Likeness(max(0.0, 100.0 - _penalty(unique)), tuple(unique))
