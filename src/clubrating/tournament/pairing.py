"""Pairing one round of tonight's Swiss by the FIDE Dutch system, pure.

Plain records in (who is seeded where, what was played, which byes were given), the boards of
the next round out: the evening's services (:mod:`clubrating.club.services.evening`) read the stored
rounds into a :class:`History`, ask :func:`pair_round` for the next one and store it.
``caissify-pairings`` pairs (the product's); ``pairing-core``'s ``dutch-2026`` kernel, an
independent implementation, checks it in the tests (``tests/tournament/pairing_2026.py``). The
history each engine needs is derived here as FIDE's endorsed programs derive it from a TRF file:
scores count byes and forfeits; colours and the no-rematch rule count only games played over the
board; a player who did not play a round floated down in it (C.04.3 A.4.b). Why these two, and
how they compare: ``docs/website.md``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from clubrating.errors import ClubratingError
from clubrating.formats.records import Bye, ByeKind, HalfPoints, Pairing
from clubrating.words import N_

PAB_POINTS: HalfPoints = 2
"""The pairing-allocated bye scores as a win (FIDE Handbook C.04.1.c: "as many points as
rewarded for a win, unless the regulations of the tournament rule otherwise")."""
UNRATED = 0
"""The rating an engine is given for an unrated player: below everyone (they are seeded last)."""


class PairingFailed(ClubratingError, ValueError):
    """No legal pairing of the round exists (everyone has met everyone) or the engine refused."""


class Float(enum.Enum):
    """Which way a player floated in a round (C.04.3 A.4)."""

    DOWN = "down"
    UP = "up"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player by pairing number (1 = the highest seed) and the rating the seed came from."""

    number: int
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class History:
    """The rounds so far of one tournament."""

    seats: tuple[Seat, ...]
    results: tuple[Pairing, ...] = ()  # finished pairings (formats.records, as an imported file's)
    rests: tuple[Bye, ...] = ()  # requested and pairing-allocated byes


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The boards of one round, white first, board 1 first, and who gets the pairing bye."""

    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None

    def pairs(self) -> frozenset[frozenset[int]]:
        """The boards without colours or order, to compare two engines."""
        return frozenset(frozenset(b) for b in self.boards)


@dataclass
class PlayerState:
    """What the Dutch system needs to know of one player before a round (C.04.3 A.1-A.6)."""

    number: int
    rating: int
    points: HalfPoints = 0
    colours: list[str] = field(default_factory=list)  # "W", "B" or "u" (unplayed) a round
    floats: list[Float] = field(default_factory=list)
    opponents: set[int] = field(default_factory=set)
    had_pab_or_forfeit_win: bool = False  # C.04.1.d: no second pairing-allocated bye
    byes: int = 0

    @property
    def score(self) -> float:
        return self.points / 2


def states_before(history: History, round_: int) -> dict[int, PlayerState]:
    """Each player's score, colours, floats and opponents before ``round_``."""
    states = {s.number: PlayerState(s.number, s.rating or UNRATED) for s in history.seats}
    for rnd in range(1, round_):
        before = {n: s.points for n, s in states.items()}
        for r in (r for r in history.results if r.round == rnd):
            _play(
                states[r.white], r.white_points, "W", before[r.white], before[r.black], r, r.black
            )
            _play(
                states[r.black], r.black_points, "B", before[r.black], before[r.white], r, r.white
            )
        for rest in (r for r in history.rests if r.round == rnd):
            state = states[rest.player]
            state.points += rest.points
            state.colours.append("u")
            state.floats.append(Float.DOWN)  # did not play the round: a downfloat (A.4.b)
            state.byes += 1
            state.had_pab_or_forfeit_win |= rest.kind in (ByeKind.PAIRING, ByeKind.FULL_POINT)
    return states


def _play(
    state: PlayerState,
    points: HalfPoints,
    colour: str,
    mine: int,
    theirs: int,
    result: Pairing,
    opponent: int,
) -> None:
    state.points += points
    if not result.played:
        state.colours.append("u")
        won = points > result.white_points + result.black_points - points
        state.floats.append(
            Float.DOWN if won else Float.NONE
        )  # bbpPairings' rule for unplayed games
        state.had_pab_or_forfeit_win |= won
        return
    state.colours.append(colour)
    state.opponents.add(opponent)
    state.floats.append(Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE)


def pair_round(
    history: History, round_: int, total_rounds: int, present: Iterable[int]
) -> RoundPlan:
    """The next round by caissify-pairings' Dutch engine, for the players ``present``."""
    # the pairing engines are imported when a round is paired, not at every command's start
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    states = states_before(history, round_)
    players = [_caissify_player(states[n]) for n in sorted(set(present))]
    if len(players) < 2:
        raise PairingFailed(
            N_("round %(round)s needs at least two players to pair, not %(players)s"),
            round=round_,
            players=len(players),
        )
    previous = {tuple(sorted((s.number, o))) for s in states.values() for o in s.opponents}
    try:
        rows = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=previous,
            round_number=round_,
            total_rounds=max(total_rounds, round_),
            bye_value=PAB_POINTS / 2,
            max_byes_per_player=1,
        )
    except (ValueError, RuntimeError) as error:
        raise PairingFailed(
            N_("round %(round)s cannot be paired: %(error)s"), round=round_, error=str(error)
        ) from None
    boards = tuple(
        (int(r["white_id"]), int(r["black_id"]))
        for r in sorted(rows, key=lambda r: r["table"])
        if not r.get("bye")
    )
    byes = [int(r["white_id"]) for r in rows if r.get("bye")]
    if len(byes) > 1:  # the engine's way of saying that the rest have all met
        raise PairingFailed(
            N_(
                "round %(round)s cannot be paired without a rematch: players %(players)s "
                "have nobody left to play"
            ),
            round=round_,
            players=", ".join(map(str, byes)),
        )
    return _checked(
        RoundPlan(round_, boards, byes[0] if byes else None), states, players_of(players)
    )


def players_of(rows: Sequence[dict[str, object]]) -> set[int]:
    return {int(str(r["id"])) for r in rows}


def _caissify_player(state: PlayerState) -> dict[str, object]:
    colour = {"W": "white", "B": "black"}
    return {
        "id": state.number,
        "name": str(state.number),
        "score": state.score,
        "rating": state.rating,
        "starting_number": state.number,
        "color_hist": [colour[c] for c in state.colours if c in colour],  # played games only
        "float_history": [f.value for f in state.floats],
        "bye_count": int(state.had_pab_or_forfeit_win),
        "forfeit_win_count": 0,
    }


def _checked(plan: RoundPlan, states: dict[int, PlayerState], present: set[int]) -> RoundPlan:
    """The engine's answer, checked against the rules it must keep (C.04.1.b, c, d): nobody twice,
    everybody present once, no rematch, at most one pairing bye and never a second one."""
    seen = [n for board in plan.boards for n in board] + (
        [plan.bye] if plan.bye is not None else []
    )
    if sorted(seen) != sorted(present):
        raise PairingFailed(
            N_("round %(round)s: the engine paired %(paired)s, not %(present)s"),
            round=plan.round,
            paired=sorted(seen),
            present=sorted(present),
        )
    for white, black in plan.boards:
        if black in states[white].opponents:
            raise PairingFailed(
                N_("round %(round)s: %(white)s and %(black)s have met already"),
                round=plan.round,
                white=white,
                black=black,
            )
    if plan.bye is not None and states[plan.bye].had_pab_or_forfeit_win:
        raise PairingFailed(
            N_("round %(round)s: %(player)s would get a second pairing bye"),
            round=plan.round,
            player=plan.bye,
        )

    return plan
