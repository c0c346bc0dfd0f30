"""How alike two normalised names are, as a score out of 100 and reasons in words.

The score starts at 100 and loses a penalty per difference. The penalties are
ordered by how often the difference joins two spellings of one person rather
than two people (R12: a wrong merge is worse than a missed one): accents and
transliteration cost little, an initial or a missing middle name a little
more, typos in the surname more, a different first name most. Their values
were fitted by hand on seeded samples of ../shared/data/names/variants.tsv:
the first ones on the benchmark's own sample (benchmarks/bench_matching.py,
seed 3), those of the readings by words, the middle-name and second-surname
typos and the rare given names on 3,000 variants outside it (seed 11).

Pure: no I/O; rapidfuzz computes the edit distances.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA, Indel

from clubrating.identity.given_names import is_abbreviation, same_given_name
from clubrating.identity.normalize import NormalName, skeleton

# Reasons, in the words the arbiter reads.
SAME_NAME = "same name"
INITIAL = "initial for the first name"
MIDDLE_INITIAL = "initial for a middle name"
MIDDLE_MISSING = "middle name missing"
MIDDLE_ADDED = "middle name added"
FIRST_MISSING = "first name missing"
FIRST_ADDED = "first name added"
SHORT_FORM = "short form of the first name"
MIDDLE_SHORT_FORM = "short form of a middle name"
GIVEN_TYPO = "typo in a given name"
MIDDLE_TYPO = "typo in a middle name"
NICKNAME = "other form of the first name (nickname, short or foreign form)"
MIDDLE_NICKNAME = "other form of a middle name"
SIMILAR_FIRST = "similar first name"
OTHER_FIRST = "different first name"
OTHER_MIDDLE = "different middle name"
SURNAME_TYPO_1 = "one-letter typo in the surname"
SURNAME_TYPO_2 = "two-letter typo in the surname"
OTHER_SURNAME = "different surname"
LATER_SURNAME_TYPO = "typo in the second part of a double surname"
SWAPPED = "first and last name swapped"
PUNCTUATION = "accents, case or punctuation"
TRANSLITERATION = "transliteration"
DOUBLE_SURNAME = "hyphenated / double surname"
DOUBLE_SURNAME_LATER = "hyphenated / double surname, not its first part"
JOINED_SURNAME = "hyphenated / double surname written joined or apart"
PARTICLE = "particle (van, de ...) added, dropped or moved"
SURNAME_SHORTENED = "surname shortened (initial or abbreviation)"
SURNAME_ORDER = "double surname in the other order"
OTHER_SECOND_SURNAME = "same first surname, different second surname"
ALIAS = "known alias"
# Readings by words, whatever their places (see _word_sets).
SURNAME_NOT_TYPED = "surname not typed: the name typed is the given names"
WORDS_REORDERED = "same words in another order"
WORD_ADDED = "a word typed that the member's name lacks"
# Only the given names alike, and rare ones (the matcher counts them): a
# married or maiden name is the one change no spelling rule can see.
RARE_GIVEN_NAMES = "same rare given names, another surname (married or maiden name?)"
# Evidence beside the words: a namesake number, junior / senior, a federation.
OTHER_NUMBER = "another namesake's number"
OTHER_GENERATION = "junior / senior differ"
GENERATION_ONE_SIDE = "junior / senior on one side only"
OTHER_FEDERATION = "different federation"

# Penalties (points off 100), hand-fitted as said above.
PENALTY = {
    PUNCTUATION: 1.0, TRANSLITERATION: 3.0, PARTICLE: 2.0, SWAPPED: 3.0, DOUBLE_SURNAME: 6.0, JOINED_SURNAME: 2.0,
    DOUBLE_SURNAME_LATER: 8.0,
    INITIAL: 6.0, MIDDLE_INITIAL: 1.0, MIDDLE_MISSING: 3.0, MIDDLE_ADDED: 4.0,
    SHORT_FORM: 7.0, MIDDLE_SHORT_FORM: 2.0, GIVEN_TYPO: 8.0, MIDDLE_TYPO: 3.0, FIRST_MISSING: 15.0, FIRST_ADDED: 15.0,
    NICKNAME: 7.0, MIDDLE_NICKNAME: 2.0, SIMILAR_FIRST: 22.0,
    OTHER_MIDDLE: 12.0, OTHER_FIRST: 35.0,
    SURNAME_TYPO_1: 8.0, SURNAME_TYPO_2: 16.0, LATER_SURNAME_TYPO: 4.0, OTHER_SURNAME: 40.0,
    SURNAME_SHORTENED: 5.0, SURNAME_ORDER: 4.0, OTHER_SECOND_SURNAME: 22.0,
    SURNAME_NOT_TYPED: 20.0, WORDS_REORDERED: 6.0, WORD_ADDED: 12.0, RARE_GIVEN_NAMES: 40.0,
    OTHER_NUMBER: 10.0, OTHER_GENERATION: 10.0, GENERATION_ONE_SIDE: 2.0, OTHER_FEDERATION: 10.0,
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
    reasons: tuple[str, ...]


def _penalty(reasons: list[str]) -> float:
    return sum(PENALTY.get(reason, 0.0) for reason in reasons)


@lru_cache(maxsize=65536)
def compact_skeleton(words: tuple[str, ...]) -> str:
    return skeleton("".join(words))


@lru_cache(maxsize=65536)
def aligned_surname_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(surname_reasons(query, member))


def surname_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> list[str]:
    """Why two surnames (without particles) are alike; OTHER_SURNAME when they are not."""
    if query == member:
        return []
    if len(query) == len(member) >= 2 and query[0] == member[0]:
        # the second part typed with a typo is more alike than one left out
        # (DOUBLE_SURNAME): "Martinez Mataredonda" / "Martinez Matarredona"
        later = _one_surname(query[1:], member[1:])
        if later in ([SURNAME_TYPO_1], [SURNAME_TYPO_2]):
            return [LATER_SURNAME_TYPO]
    if len(query) < len(member) and member[:len(query)] == query and all(len(w) <= 2 for w in member[len(query):]):
        # the member's last surname written as its initial ("Garcia-Monteavaro
        # R."): shortened, not a one-letter typo of the joined words
        return [SURNAME_SHORTENED]
    reasons = _one_surname(query, member)
    if reasons == [OTHER_SURNAME] and len(query) != len(member):
        reasons = _part_of_double(*sorted((query, member), key=len))
    if reasons == [OTHER_SURNAME] and len(query) == len(member) >= 2:
        reasons = _double_surname_words(query, member)
    return reasons


def _double_surname_words(query: tuple[str, ...], member: tuple[str, ...]) -> list[str]:
    """Double surnames of as many words: shortened ("Monroy G."), reordered, second one other."""
    if sorted(query) == sorted(member):
        return [SURNAME_ORDER]
    pairs = [_surname_word(one, other) for one, other in zip(query, member)]
    if None not in pairs:
        found = [reason for reasons in pairs for reason in reasons or []]
        if SURNAME_SHORTENED in found:
            return list(dict.fromkeys(found))
    if pairs[0] is not None and SURNAME_SHORTENED not in pairs[0] and len(query) == 2:
        return [OTHER_SECOND_SURNAME] + pairs[0]
    return [OTHER_SURNAME]


def _surname_word(one: str, other: str) -> list[str] | None:
    """One word of a double surname against another: alike, shortened, or None."""
    shorter, longer = sorted((one, other), key=len)
    if shorter == longer:
        return []
    if longer.startswith(shorter) or is_abbreviation(shorter, longer):
        return [SURNAME_SHORTENED]
    reasons = _one_surname((one,), (other,))
    return None if reasons == [OTHER_SURNAME] else reasons


def _part_of_double(shorter: tuple[str, ...], longer: tuple[str, ...]) -> list[str]:
    """"Lopez" / "Lopez Gaviria": every word of the shorter surname in the longer one."""
    worst: list[str] = []
    first = True
    for index, word in enumerate(shorter):
        parts = [_one_surname((word,), (other,)) for other in longer]
        best = min(parts, key=_penalty)
        if best == [OTHER_SURNAME]:
            return [OTHER_SURNAME]
        first = first and parts[index] == best
        worst = max(worst, best, key=_penalty)
    return [DOUBLE_SURNAME if first else DOUBLE_SURNAME_LATER] + worst


def _one_surname(query: tuple[str, ...], member: tuple[str, ...]) -> list[str]:
    q_compact, m_compact = "".join(query), "".join(member)
    if q_compact == m_compact:
        return [] if query == member else [JOINED_SURNAME]
    if compact_skeleton(query) == compact_skeleton(member):
        return [TRANSLITERATION]
    distance = min(OSA.distance(q_compact, m_compact, score_cutoff=3),
                   OSA.distance(compact_skeleton(query), compact_skeleton(member), score_cutoff=3))
    shortest = min(len(q_compact), len(m_compact))
    if distance == 1 and shortest >= 3:
        return [SURNAME_TYPO_1]
    if distance == 2 and shortest >= 5:
        return [SURNAME_TYPO_2]
    return [OTHER_SURNAME]


def _pair(query: str, member: str, first: bool) -> list[str] | None:
    """Reasons two given names are one, or None when they are not."""
    if query == member:
        return []
    if len(query) == 1 or len(member) == 1:
        if query[0] == member[0]:
            return [INITIAL if first else MIDDLE_INITIAL]
        return None
    if skeleton(query) == skeleton(member):
        return [TRANSLITERATION]
    shorter, longer = sorted((query, member), key=len)
    if longer.startswith(shorter):  # "An." for "Anatoly": as good as an initial
        if len(shorter) < MIN_SHORT_FORM:
            return [INITIAL if first else MIDDLE_INITIAL]
        return [SHORT_FORM if first else MIDDLE_SHORT_FORM]
    if same_given_name(query, member) or is_abbreviation(shorter, longer):
        return [NICKNAME if first else MIDDLE_NICKNAME]
    if min(len(query), len(member)) >= 4 and (
            OSA.distance(query, member, score_cutoff=2) <= 1
            or OSA.distance(skeleton(query), skeleton(member), score_cutoff=2) <= 1):
        # a middle name typed with a typo is still one more word alike: it
        # must cost less than leaving it out and adding another (3 + 4)
        return [GIVEN_TYPO if first else MIDDLE_TYPO]
    if first and _similar(query, member):
        return [SIMILAR_FIRST]
    return None


def _similar(one: str, other: str) -> bool:
    if one[:SIMILAR_PREFIX] == other[:SIMILAR_PREFIX]:
        return True
    return Indel.normalized_similarity(skeleton(one), skeleton(other)) >= SIMILAR_RATIO


@lru_cache(maxsize=65536)
def aligned_given_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(given_reasons(query, member))


def given_reasons(query: tuple[str, ...], member: tuple[str, ...]) -> list[str]:
    """The cheapest order-keeping alignment of two lists of given names, as reasons.

    A small edit-distance over words (both lists hold at most a few words):
    keep a pair (free or with its reasons), skip a word (missing / added), or
    substitute (a different first or middle name).
    """
    rows, cols = len(query), len(member)
    best: list[list[tuple[float, list[str]]]] = [[(0.0, [])] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        for j in range(cols + 1):
            if i == 0 and j == 0:
                continue
            options: list[tuple[float, list[str]]] = []
            if i > 0:
                reason = FIRST_ADDED if i == 1 else MIDDLE_ADDED
                cost, reasons = best[i - 1][j]
                options.append((cost + PENALTY[reason], reasons + [reason]))
            if j > 0:
                reason = FIRST_MISSING if j == 1 else MIDDLE_MISSING
                cost, reasons = best[i][j - 1]
                options.append((cost + PENALTY[reason], reasons + [reason]))
            if i > 0 and j > 0:
                cost, reasons = best[i - 1][j - 1]
                first = i == 1 or j == 1
                pair = _pair(query[i - 1], member[j - 1], first)
                if pair is None:
                    pair = [OTHER_FIRST if first else OTHER_MIDDLE]
                options.append((cost + _penalty(pair), reasons + pair))
            best[i][j] = min(options, key=lambda option: option[0])
    reasons = best[rows][cols][1]
    if FIRST_ADDED in reasons and FIRST_MISSING in reasons:
        reasons = [OTHER_FIRST] + [r for r in reasons if r not in (FIRST_ADDED, FIRST_MISSING)]
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
    best: tuple[float, list[str], bool] | None = None
    parses = _query_parses(query)
    for other_order, (member_surname, member_given) in enumerate(_member_readings(member)):
        for index, (surname, given, swapped) in enumerate(parses):
            joined = index == 0 and not other_order and query.full_surname == member.full_surname
            if joined:  # "Al Amiri" / "Alamiri", "Lorenzi, Sebastien de" / "De Lorenzi, Sebastien"
                reasons = [] if surname == member_surname else [JOINED_SURNAME]
            else:
                reasons = list(aligned_surname_reasons(surname, member_surname))
            if OTHER_SURNAME in reasons:
                continue  # no reading of the query has this member's surname
            reasons += aligned_given_reasons(given, member_given)
            if swapped != bool(other_order):
                reasons.append(SWAPPED)
            cost = _penalty(reasons)
            if best is None or cost < best[0]:
                best = (cost, reasons, joined)
    if best is None or best[0] > PENALTY[WORDS_REORDERED]:
        by_words = _word_sets(query, member, alike=1 if best is None else 2)
        if by_words is not None and (best is None or _penalty(by_words) < best[0]):
            best = (_penalty(by_words), by_words, False)
    if best is None:
        return Likeness(0.0, (OTHER_SURNAME,))
    _, reasons, joined = best
    if not joined and sorted(query.particles) != sorted(member.particles):
        reasons.append(PARTICLE)
    return _finish(query, member, reasons + _evidence(query, member))


def _word_sets(query: NormalName, member: NormalName, alike: int) -> list[str] | None:
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
    shared = {skeleton(w) for w in typed if len(w) >= 3} & {skeleton(w) for w in known if len(w) >= 3}
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
    found: list[str] = []
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
    if places == sorted(places) and all((typed[i] in query.surname) == (known[j] in member.surname)
                                        for i, j in chosen.items()):
        return None  # every word in its place: the readings by surname and given names said it all
    surname = {j for j, word in enumerate(known) if word in member.surname}
    reasons = [WORD_ADDED] * left_typed
    if surname and surname <= set(left_known):
        reasons.append(SURNAME_NOT_TYPED)
        reasons += [MIDDLE_MISSING] * (len(left_known) - len(surname))
    else:
        reasons.append(WORDS_REORDERED)
        reasons += [MIDDLE_MISSING] * len(left_known)
    return reasons + found


def _evidence(query: NormalName, member: NormalName) -> list[str]:
    """What the namesake number, junior / senior and federation say, when both names give them."""
    reasons = []
    if query.number and member.number and query.number != member.number:
        reasons.append(OTHER_NUMBER)
    if query.generation != member.generation:
        both = query.generation and member.generation
        reasons.append(OTHER_GENERATION if both else GENERATION_ONE_SIDE)
    if query.federation and member.federation and query.federation != member.federation:
        reasons.append(OTHER_FEDERATION)
    return reasons


def _finish(query: NormalName, member: NormalName, reasons: list[str]) -> Likeness:
    """Say "same name" when only the script, accents, case or punctuation differ."""
    explicit = query.has_comma and member.has_comma
    if reasons == [SWAPPED] and not explicit and _plain_words(query) == _plain_words(member):
        reasons = []  # "Kasparov Garry" and "Kasparov, Garry": one name, two customary orders
    same = not reasons
    if query.other_script != member.other_script:
        reasons.append(TRANSLITERATION)
    elif same and _plain_words(query) != _plain_words(member):
        reasons.append(PUNCTUATION)
    if same:
        reasons.insert(0, SAME_NAME)
    unique = list(dict.fromkeys(reasons))
    return Likeness(max(0.0, 100.0 - _penalty(unique)), tuple(unique))
