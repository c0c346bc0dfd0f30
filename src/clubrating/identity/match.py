"""Propose which members a typed name could be, best first, with reasons (R10, R11).

A :class:`Matcher` is built once over a roster (the club's members, or a
federation list of 400,000 players) and answers :meth:`Matcher.propose` for
each name typed tonight. It only proposes: nothing here links or merges
anyone (R10); the arbiter confirms.

Speed comes from blocking: every surname word of the roster is indexed by
its spelling and its spelling skeleton, each also with one letter deleted
(the "symmetric delete" of SymSpell, Garbe 2012), so a typo, a
transliteration or a swapped order finds its candidates by dictionary
look-ups. Only those candidates are scored, rapidfuzz first narrowing a large
block, then :func:`~clubrating.identity.compare.compare` for the reasons.

Pure: no I/O.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from clubrating.errors import InputError
from clubrating.words import N_
from clubrating.identity import (
    MAX_PROPOSALS as MAX_PROPOSALS,
)  # its home: the package's (light) module
from clubrating.identity import compare as _compare
from clubrating.identity import normalize as _normalize
from clubrating.identity.compare import Reason, compare
from clubrating.identity.normalize import NormalName, normalize_name, skeleton

# A proposal scoring below this is not shown: below it the surnames differ
# or the first names differ and more (see the penalties in compare.py).
MIN_SCORE = 60.0
# Nor one this far below the best proposal: with a sure match in hand, the
# arbiter needs only the close alternatives (about 1.9 proposals shown on
# average). On 3,000 variants outside the benchmark's sample (seed 11), 16,
# 20, 25 and 30 give the same recall@3 (93.8 %) with 1.9 to 2.8 shown.
MAX_BEHIND_BEST = 16.0
# Blocks larger than this are first narrowed by rapidfuzz to this many
# candidates (a common surname: "Kumar", "Wang", "Smith"), and apart from
# them the forms found under a word spelled as typed and those found under
# two words typed or more, to SURE_SCORED each (see Matcher._sure). Fitted on
# the same 3,000 variants: 15 and 10 give 94.33 % at 3; 20 and 20 gave
# 94.27 % in a quarter more time; 20 and none, 94.10 %.
MAX_SCORED = 15
SURE_SCORED = 10
# A roster this small (a club) is looked up by its surname keys without the
# query's one-letter deletions (cheap); when that finds no proposal of
# SMALL_RESCUE or more, rapidfuzz narrows the whole roster to the SMALL_LIMIT
# names most alike by each scorer, if they score at least SMALL_CUTOFF.
# Fitted on 2,000 variants outside the benchmark's sample matched in clubs of
# 500 of their canonical names: 94.45 % at 3, as with the former rapidfuzz
# over the whole club at 15 a scorer, in a third of the time
# (benchmarks/bench_matching.py, the club line).
SMALL_ROSTER = 2000
SMALL_RESCUE = 90.0
SMALL_LIMIT = 3
SMALL_CUTOFF = 65.0
# ... by the first SMALL_SPELLINGS of the three spellings _narrow compares:
# on 2,000 variants outside the benchmark's sample, in clubs of their 500
# canonical names, two find 98.15 % at 3 against 98.20 % for three, in 16.0
# instead of 20.1 ms for 100 names mostly not members (benchmark's club line).
SMALL_SPELLINGS = 2
# On a large roster, when the keys find no proposal of LARGE_RESCUE or more,
# each word typed of MIN_RESCUED letters or more is looked up among the
# roster's spelled keys of about its length (LARGE_LENGTHS letters more or
# less) by rapidfuzz: the LARGE_LIMIT closest within LARGE_EDITS edits (OSA
# distance, as compare.Reason.SURNAME_TYPO_2). It finds the two-letter typos and
# transliterations no key joins ("Hadzidakis" / "Chatzidakis", "Bouasis" /
# "Bouaziz"). It costs about 15 ms a name against a 400,000-player roster,
# so only for the few names (7 in 100) whose best proposal is this weak:
# +0.17 % at 3 on 3,000 variants outside the benchmark's sample; from 80 or
# 90 instead of 70, none more found.
LARGE_RESCUE = 70.0
LARGE_EDITS = 2
LARGE_LIMIT = 10
LARGE_LENGTHS = 1
MIN_RESCUED = 5  # as compare.Reason.SURNAME_TYPO_2: two letters of a shorter word are too many
# Surname keys shorter than this get no one-letter-deleted keys: "li" and
# "lu" are different surnames, not typos of each other.
MIN_DELETE_KEY = 4
# Skeleton keys live in the same dictionary as spelled words, marked apart.
_SKELETON_MARK = "~"
# So do consonant keys: the skeleton without its vowels and "h", which joins
# two-letter vowel typos and transliterations ("Makaganov" / "Makogonov",
# "Goonatillake" / "Goonetilleke", "Dzhumadulaev" / "Jumadullayev"): seen on
# the variants outside the benchmark's sample. Only with at least
# MIN_CONSONANTS letters: "lgv" would join too many surnames.
_CONSONANT_MARK = "#"
_VOWELS = str.maketrans("", "", "aeiouh")
MIN_CONSONANTS = 4
# And so do pairs of given names, spelling skeletons in sorted order
# ("+siti zulaika"): a member whose surname was not typed is found by the
# given names typed as the whole name (compare.Reason.SURNAME_NOT_TYPED). Only
# words of MIN_PAIR_WORD letters or more: initials pair with too many.
_PAIR_MARK = "+"
MIN_PAIR_WORD = 3
# And the given names of each member, whole ("=siti zulaika"): a name typed
# with the same given names as at most RARE_GIVEN members, and with
# MIN_RARE_LETTERS letters or more, proposes them even under another surname
# (compare.Reason.RARE_GIVEN_NAMES): the same rare given names are evidence of
# their own, the way record linkage weighs a value by its rarity
# (Fellegi & Sunter 1969).
_GIVEN_MARK = "="
RARE_GIVEN = 3
MIN_RARE_LETTERS = 5


@dataclass(frozen=True)
class RosterEntry:
    """One member: a key the caller understands (a member id), a name, known aliases."""

    key: Hashable
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Proposal:
    """``member`` (the roster name, keyed ``key``) could be the typed name: the one proposal type
    of the matcher, the club's pages and commands (``key`` is then the member's id)."""

    key: Hashable
    member: str
    score: float
    reasons: tuple[Reason, ...]

    @property
    def reason_words(self) -> tuple[str, ...]:
        """The reasons in words, as the arbiter reads them beside the proposal."""
        return _compare.words(self.reasons)

    def as_dict(self) -> dict[str, Any]:
        """The proposal in a club's JSON (``entries``, ``seed-ratings``): the member's id."""
        return {
            "member_id": self.key,
            "member": self.member,
            "score": self.score,
            "reasons": list(self.reason_words),
        }


@dataclass(frozen=True)
class _Form:
    """One spelling of one member: the name itself or one alias."""

    entry: int
    name: NormalName
    is_alias: bool


def _deletes(key: str) -> list[str]:
    """The key with one letter deleted, each way (never the skeleton mark)."""
    start = 1 if key.startswith(_SKELETON_MARK) else 0
    if len(key) - start < MIN_DELETE_KEY:
        return []
    return [key[:i] + key[i + 1 :] for i in range(start, len(key))]


def _surname_words(name: NormalName) -> set[str]:
    """The words a member is found under: each surname word, the surname in one piece."""
    words = {word for word in name.surname if len(word) >= 2}
    if not name.has_comma:  # "Balaje.v", "Aryan Abhijeet Shah": the order is a guess
        words.update(word for word in name.words if len(word) >= 2 and word not in name.particles)
    words.add("".join(name.surname))
    words.add(name.full_surname)
    if all(len(word) < 2 for word in name.surname):  # "E., Vickneswaran": found by the given names
        words.update(word for word in name.given if len(word) >= 2)
    return words


def _query_words(name: NormalName) -> set[str]:
    """Every word of the query could be the surname (swapped orders); neighbours may be one."""
    words = [w for w in name.words if w not in name.particles] or list(name.words)
    found = {word for word in words if len(word) >= 2}
    found.update(a + b for a, b in zip(words, words[1:]))
    found.add("".join(name.surname))
    found.add(name.full_surname)
    return found


class Matcher:
    """An index over a roster, built once; :meth:`propose` is then fast (~ms a name)."""

    def __init__(self, members: Sequence[RosterEntry]) -> None:
        self._entries = tuple(members)
        self._forms: list[_Form] = []
        self._postings: dict[str, list[int]] = {}
        self._deleted: dict[str, list[str]] = {}
        unusable = []
        for index, entry in enumerate(self._entries):
            for spelling in (entry.name, *entry.aliases):
                name = _usable(spelling)
                if name is None:
                    unusable.append((entry.key, spelling))
                else:
                    self._add(_Form(index, name, spelling is not entry.name))
        # Spellings with nothing to match (empty, only punctuation): never proposed.
        self.unusable: tuple[tuple[Hashable, str], ...] = tuple(unusable)
        self._sorted = [_sorted_words(form.name) for form in self._forms]
        self._texts = [form.name.text for form in self._forms]
        self._heads = [_head(form.name) for form in self._forms]
        # spelled keys by length, and their lengths: made at the first rescue (_similar_surnames)
        self._by_length: tuple[list[str], list[int]] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def _add(self, form: _Form) -> None:
        form_id = len(self._forms)
        self._forms.append(form)
        for word in _surname_words(form.name):
            self._post(word, form_id, with_deletes=True)
            self._post(_SKELETON_MARK + skeleton(word), form_id, with_deletes=True)
            consonants = _consonants(word)
            if consonants:
                self._post(consonants, form_id, with_deletes=False)
        for key in _pair_keys(form.name.given):
            self._post(key, form_id, with_deletes=False)
        given = _given_key(form.name.given)
        if given:
            self._post(given, form_id, with_deletes=False)

    def _post(self, key: str, form_id: int, *, with_deletes: bool) -> None:
        posting = self._postings.get(key)
        if posting is None:
            self._postings[key] = [form_id]
            if with_deletes:
                for deleted in _deletes(key):
                    self._deleted.setdefault(deleted, []).append(key)
        elif posting[-1] != form_id:
            posting.append(form_id)

    def _block(self, query: NormalName, query_deletes: bool = True) -> set[int]:
        """Forms whose surname is one of the query's words, give or take one letter.

        Without ``query_deletes`` only a letter missing from the query is
        looked up (cheaper: the club's path, where rapidfuzz finds the rest).
        """
        postings, deleted = self._postings, self._deleted
        keys: set[str] = set()
        for word in _query_words(query):
            for key in (word, _SKELETON_MARK + skeleton(word)):
                keys.add(key)
                keys.update(deleted.get(key, ()))
                for shorter in _deletes(key) if query_deletes else ():
                    keys.add(shorter)
                    keys.update(deleted.get(shorter, ()))
            keys.add(_consonants(word))
        keys.update(_pair_keys(tuple(w for w in query.words if w not in query.particles)))
        block: set[int] = set()
        for key in keys & postings.keys():
            block.update(postings[key])
        return block

    def _sure(self, query: NormalName) -> tuple[set[int], set[int]]:
        """Forms under a word typed, spelled alike; and forms under two words typed or more.

        "Hoffman, A S" finds many more "Hoffmann" than "Hoffman" and
        "Abdullah, Mohammed" thousands of either word: those found by the
        spelling itself, and those found by more than one word, are narrowed
        apart from the rest of the block.
        """
        postings = self._postings
        spelled: set[int] = set()
        hits: Counter[int] = Counter()
        for word in {w for w in query.words if w not in query.particles and len(w) >= 2}:
            under = set(postings.get(word, ()))
            spelled |= under
            hits.update(under | set(postings.get(_SKELETON_MARK + skeleton(word), ())))
        return spelled, {form_id for form_id, count in hits.items() if count >= 2}

    def _similar_surnames(self, query: NormalName) -> set[int]:
        """Forms under a spelled key within LARGE_EDITS edits of a word typed (rapidfuzz, OSA)."""
        # for a large roster's rescue only: the match command's start does without (~100 ms)
        import numpy

        if self._by_length is None:
            marks = (_SKELETON_MARK, _CONSONANT_MARK, _PAIR_MARK, _GIVEN_MARK)
            spelled = sorted(
                (
                    key
                    for key in self._postings
                    if len(key) >= MIN_DELETE_KEY and not key.startswith(marks) and " " not in key
                ),
                key=len,
            )
            self._by_length = (spelled, [len(key) for key in spelled])
        spelled, lengths = self._by_length
        found: set[int] = set()
        surnames = set(query.surname) | set(query.given[:1])  # the given name first: swapped orders
        for word in {w for w in surnames if len(w) >= MIN_RESCUED}:
            near = spelled[
                bisect.bisect_left(lengths, len(word) - LARGE_LENGTHS) : bisect.bisect_right(
                    lengths, len(word) + LARGE_LENGTHS
                )
            ]
            distances = process.cdist(
                [word], near, scorer=OSA.distance, score_cutoff=LARGE_EDITS, dtype=numpy.uint8
            )[0]
            for column in numpy.argsort(distances, kind="stable")[:LARGE_LIMIT]:
                if distances[column] <= LARGE_EDITS:
                    found.update(self._postings[near[column]])
        return found

    def _narrow(
        self, query: NormalName, block: Sequence[int], limit: int, cutoff: float, spellings: int = 3
    ) -> list[int]:
        """The block's forms most like the query, by rapidfuzz ratio on three spellings of each
        name.

        Words sorted (token_sort_ratio, whatever the order typed), surname
        first (a changed first letter of a given name moves it in the sort),
        and only the first surname word and first given name (so that a
        namesake with the same short name is not pushed out by the many
        shorter names of a common surname: "Martins, George" for "Martins,
        George Evandro Barreto").
        The roster's spellings are made once in ``__init__``.
        """
        if len(block) <= limit:
            return list(block)
        chosen: set[int] = set()
        columns = (
            (self._sorted, _sorted_words(query)),
            (self._texts, query.text),
            (self._heads, _head(query)),
        )
        for column, typed in columns[:spellings]:
            texts = itemgetter(*block)(column) if isinstance(block, list) else column
            best = process.extract(
                typed, texts, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff
            )
            chosen.update(block[position] for _, _, position in best)
        return sorted(chosen)

    def propose(self, name: str, limit: int = MAX_PROPOSALS) -> tuple[Proposal, ...]:
        """The members ``name`` could be, best first (ties in roster-name order); never applied."""
        if not 1 <= limit <= MAX_PROPOSALS:
            raise InputError(
                N_("limit must be between 1 and %(most)s, not %(limit)s"),
                most=MAX_PROPOSALS,
                limit=limit,
            )

        query = normalize_name(name)
        best: dict[int, Proposal] = {}
        if len(self._forms) > SMALL_ROSTER:
            block = self._block(query)
            chosen = set(self._narrow(query, list(block), MAX_SCORED, 0.0))
            for group in self._sure(query):  # a large block may narrow out the surest forms
                chosen.update(self._narrow(query, list(group - chosen), SURE_SCORED, 0.0))
            self._score(query, chosen, best)
            if max((p.score for p in best.values()), default=0.0) < LARGE_RESCUE:
                more = self._similar_surnames(query) - block
                self._score(query, self._narrow(query, list(more), MAX_SCORED, 0.0), best)
        # a club: exact-ish keys first, rapidfuzz over all members when they find no sure match
        else:
            block = self._block(query, query_deletes=False)
            self._score(query, block, best)
            if max((p.score for p in best.values()), default=0.0) < SMALL_RESCUE:
                narrowed = self._narrow(
                    query, range(len(self._forms)), SMALL_LIMIT, SMALL_CUTOFF, SMALL_SPELLINGS
                )
                self._score(query, [form_id for form_id in narrowed if form_id not in block], best)
        self._rare_given(query, best)
        ranked = sorted(best.values(), key=lambda p: (-p.score, p.member, str(p.key)))
        if not ranked:
            return ()
        floor = ranked[0].score - MAX_BEHIND_BEST
        return tuple(p for p in ranked if p.score >= floor)[:limit]

    def _rare_given(self, query: NormalName, best: dict[int, Proposal]) -> None:
        """Propose the few members with the query's rare given names, whatever their surname."""
        readings = [query.given]
        if not query.has_comma and len(query.words) >= 2:
            readings.append(tuple(w for w in query.words[1:] if w not in query.particles))
        penalty = _compare.PENALTY[Reason.RARE_GIVEN_NAMES]
        for given in readings:
            forms = self._postings.get(_given_key(given), ())
            if len(forms) > RARE_GIVEN:
                continue
            for form_id in forms:
                form = self._forms[form_id]
                held = best.get(form.entry)
                if held is None or held.score < 100.0 - penalty:
                    entry = self._entries[form.entry]
                    reasons = (Reason.RARE_GIVEN_NAMES,) + (
                        (Reason.ALIAS,) if form.is_alias else ()
                    )
                    best[form.entry] = Proposal(entry.key, entry.name, 100.0 - penalty, reasons)

    def _score(self, query: NormalName, form_ids: Iterable[int], best: dict[int, Proposal]) -> None:
        """Compare the query with each form; keep each member's best proposal in ``best``."""
        for form_id in form_ids:
            form = self._forms[form_id]
            likeness = compare(query, form.name)
            if likeness.score < MIN_SCORE:
                continue
            entry = self._entries[form.entry]
            reasons = likeness.reasons + ((Reason.ALIAS,) if form.is_alias else ())
            proposal = Proposal(entry.key, entry.name, likeness.score, reasons)
            held = best.get(form.entry)
            if held is None or (proposal.score, not form.is_alias) > (
                held.score,
                Reason.ALIAS not in held.reasons,
            ):
                best[form.entry] = proposal


def clear_caches() -> None:
    """Forget the memoised spellings and given-name alignments (benchmarks time cold runs)."""
    _normalize.skeleton.cache_clear()
    _compare.compact_skeleton.cache_clear()
    _compare.aligned_given_reasons.cache_clear()
    _compare.aligned_surname_reasons.cache_clear()


def _consonants(word: str) -> str:
    """The consonant key of a surname word ("#mkgnv"), or "" when it is too short to tell."""
    letters = skeleton(word).translate(_VOWELS)
    return _CONSONANT_MARK + letters if len(letters) >= MIN_CONSONANTS else ""


def _pair_keys(words: tuple[str, ...]) -> list[str]:
    """The keys of every two words of ``words`` (given names), by their skeletons."""
    long = sorted({skeleton(word) for word in words if len(word) >= MIN_PAIR_WORD})
    return [f"{_PAIR_MARK}{one} {other}" for k, one in enumerate(long) for other in long[k + 1 :]]


def _given_key(given: tuple[str, ...]) -> str:
    """The key of a member's given names, whole; "" when they are too short to tell anyone apart."""
    if sum(len(word) for word in given if len(word) >= 2) < MIN_RARE_LETTERS:
        return ""
    return _GIVEN_MARK + " ".join(skeleton(word) for word in given)


def _head(name: NormalName) -> str:
    """The first surname word and the first given name: "Martins, George Evandro" as "martins
    george"."""
    return " ".join(name.surname[:1] + name.given[:1])


def _sorted_words(name: NormalName) -> str:
    return " ".join(sorted(name.surname + name.given))


def _usable(name: str) -> NormalName | None:
    try:
        return normalize_name(name)
    except InputError:
        return None
