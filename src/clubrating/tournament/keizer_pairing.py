"""Pairing one evening of a Keizer competition, pure.

Who is present plays. Down the current Keizer ranking (:func:`clubrating.tournament.keizer.
ranking`), the highest present player still free meets the nearest free player below whom they
have not met within the last ``rematch_gap`` rounds; when that leaves someone without a partner,
the search steps back and takes the next nearest (a pairing without a rematch is always found
when one exists). With an odd number present, the bye goes to the lowest-ranked of those who
have had the fewest byes. Only when no pairing keeps the gap does the gap shrink, a round at a
time. Colours: the player who has had white less often (net of black) gets it; between equals,
the colours of their last game are reversed, or else the lower-ranked player has white
(KeizerForClubs' rules; sources in ``docs/keizer.md``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from clubrating.tournament.keizer import Rest, Rules, Season
from clubrating.tournament.pairing import PairingFailed, RoundPlan
from clubrating.words import N_

SEARCH_BUDGET = 200_000
"""The most partner trials one gap's search makes before that gap counts as impossible and the
next smaller one is tried: the search is exponential in the worst case (a large gap late in a
long season), and an evening's pairing must come in a moment."""


class _OverBudget(Exception):
    """The search of one gap ran out of trials."""


@dataclass(frozen=True, slots=True)
class _Past:
    """What the pairing reads of the rounds before: games over the board, colours, byes."""

    met: dict[frozenset[int], list[tuple[int, int, int]]]  # pair -> [(round, white, black)]
    balance: Counter[int]  # whites minus blacks, games over the board
    byes: Counter[int]

    @classmethod
    def of(cls, season: Season, round_: int) -> _Past:
        met: dict[frozenset[int], list[tuple[int, int, int]]] = defaultdict(list)
        balance: Counter[int] = Counter()
        for g in sorted(season.games, key=lambda g: g.round):
            if g.round >= round_ or g.forfeit:
                continue
            met[frozenset((g.white, g.black))].append((g.round, g.white, g.black))
            balance[g.white] += 1
            balance[g.black] -= 1
        byes = Counter(a.player for a in season.absences if a.rest is Rest.BYE and a.round < round_)
        return cls(met, balance, byes)

    def blocked(self, round_: int, gap: int) -> set[frozenset[int]]:
        """The pairs who met within the last ``gap`` rounds before ``round_``."""
        return {
            pair for pair, games in self.met.items() if any(round_ - gap <= r for r, _, _ in games)
        }


def pair_evening(
    season: Season, rules: Rules, ranking: Sequence[int], present: Collection[int], round_: int
) -> RoundPlan:
    """The boards of round ``round_`` for the ``present`` players, ranked by ``ranking`` (best
    first: the ranking before the round), board 1 first, white first."""
    unknown = sorted(set(present) - set(ranking))
    if unknown:
        raise PairingFailed(
            N_("player %(player)s is present but not in the ranking"), player=unknown[0]
        )
    players = [p for p in ranking if p in present]
    past = _Past.of(season, round_)
    for gap in range(min(rules.rematch_gap, max(round_ - 1, 0)), -1, -1):
        blocked = past.blocked(round_, gap)
        for bye in _bye_candidates(players, past):
            rest = [p for p in players if p != bye]
            try:
                pairs = _match(rest, blocked, [SEARCH_BUDGET], set())
            except _OverBudget:
                break
            if pairs is not None:
                boards = tuple(_coloured(a, b, past) for a, b in pairs)
                return RoundPlan(round_, boards, bye)
    raise PairingFailed(N_("no pairing of the present players exists"))  # gap 0 always pairs


def _bye_candidates(players: list[int], past: _Past) -> list[int | None]:
    """Who may take the bye, in the order tried: none for an even number; else the fewest byes
    first, the lowest-ranked first among equals."""
    if len(players) % 2 == 0:
        return [None]
    from_bottom: list[int] = sorted(reversed(players), key=lambda p: past.byes[p])  # stable
    return list(from_bottom)


def _match(
    players: list[int],
    blocked: set[frozenset[int]],
    budget: list[int],
    failed: set[frozenset[int]],
) -> list[tuple[int, int]] | None:
    """Top-down: the first player with the nearest allowed partner below, the rest paired the
    same way; None when no pairing of ``players`` avoids ``blocked``. ``failed`` remembers the
    groups already found impossible, so that no group is searched twice."""
    if not players:
        return []
    key = frozenset(players)
    if key in failed:
        return None
    top, others = players[0], players[1:]
    for index, partner in enumerate(others):
        if frozenset((top, partner)) in blocked:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise _OverBudget
        rest = _match(others[:index] + others[index + 1 :], blocked, budget, failed)
        if rest is not None:
            return [(top, partner), *rest]
    failed.add(key)
    return None


def _coloured(higher: int, lower: int, past: _Past) -> tuple[int, int]:
    """(white, black) for two players, ``higher`` ranked above ``lower``."""
    if past.balance[higher] != past.balance[lower]:
        return (higher, lower) if past.balance[higher] < past.balance[lower] else (lower, higher)
    games = past.met.get(frozenset((higher, lower)))
    if games:
        _, white, black = max(games)
        return black, white
    return lower, higher


def rematches(plan: RoundPlan, season: Season, gap: int) -> list[tuple[int, int]]:
    """The boards of ``plan`` whose players met within the last ``gap`` rounds (for the page's
    warning when no pairing could keep the gap)."""
    blocked = _Past.of(season, plan.round).blocked(plan.round, gap)
    return [board for board in plan.boards if frozenset(board) in blocked]
