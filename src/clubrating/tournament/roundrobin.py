"""Round robins by the Berger tables (FIDE Handbook C.05, Annex 1), pure.

Every pairing of a round robin is known once the players have their numbers: :func:`schedule`
gives every round of one cycle or two, :func:`berger_round` one of them. The evening's services
(:mod:`clubrating.club.services.evening`) release them one round at a time.

The tables, as C.05 Annex 1 prints them for 3 to 16 players: with ``n`` players (an odd number
gets a dummy, number ``n + 1``, whose opponent has the round off), player ``n`` stays on board 1,
white in the odd rounds and black in the even ones; the others turn round a circle of ``n - 1``
places, ``n / 2`` places a round, and the lower place of each other board has white.

Who gets which number is the arbiter's (C.05 Annex 1 has them drawn by lot, or set so that, say,
two players of one family meet in the first round rather than the last): :class:`TableOrder`
names the ways, :func:`drawn_order` is the drawing of lots from a seed.
"""

from __future__ import annotations

import enum
import hashlib

from clubrating.errors import InputError
from clubrating.tournament.pairing import RoundPlan
from clubrating.words import N_

MIN_PLAYERS = 3  # C.05 Annex 1's first table: 3 or 4 players
MAX_PLAYERS = 16  # its last: 15 or 16 players
MAX_SEED = 999_999  # a drawing's seed: six digits at most, short enough to read out and write down


class Cycles(enum.IntEnum):
    """How often every two players meet: a round robin, or a double round robin."""

    SINGLE = 1
    DOUBLE = 2


def table_size(players: int) -> int:
    """The Berger table a number of players is paired by: an odd number takes the next one's."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(
            N_("%(players)s players: a round robin here takes from %(least)s to %(most)s"),
            players=players,
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
        )
    return players + players % 2


def rounds_of(players: int, cycles: Cycles = Cycles.SINGLE) -> int:
    """The number of rounds: every other player once a cycle (an odd number adds the round off)."""
    return (table_size(players) - 1) * cycles


def _table_round(players: int, round_: int) -> RoundPlan:
    """Round ``round_`` (1 to n - 1) of the first cycle, as the table prints it."""
    n = table_size(players)
    turn = (round_ - 1) * (n // 2)
    circle = [(place + turn) % (n - 1) + 1 for place in range(n - 1)]
    first = (circle[0], n) if round_ % 2 else (n, circle[0])
    pairs = [first] + [(circle[k], circle[n - 1 - k]) for k in range(1, n // 2)]
    dummy = n if n != players else None
    boards = tuple(p for p in pairs if dummy not in p)
    rest = next((w if b == dummy else b for w, b in pairs if dummy in (w, b)), None)
    return RoundPlan(round_, boards, rest)


def berger_round(players: int, round_: int, cycles: Cycles = Cycles.SINGLE) -> RoundPlan:
    """One round of the schedule: ``bye`` is the player the dummy would meet (no game).

    A double round robin plays the first cycle again with the colours reversed; in its first
    cycle the last two rounds change places, as C.05 Annex 1 recommends, so that nobody has the
    same colour three times running across the turn of the cycles."""
    per_cycle = rounds_of(players)
    if not 1 <= round_ <= per_cycle * cycles:
        raise InputError(
            N_("round %(round)s: a round robin of %(players)s players has %(rounds)s rounds"),
            round=round_,
            players=players,
            rounds=per_cycle * cycles,
        )
    cycle, index = divmod(round_ - 1, per_cycle)
    index += 1
    if cycles is Cycles.DOUBLE and cycle == 0 and per_cycle > 2 and index >= per_cycle - 1:
        index = 2 * per_cycle - 1 - index  # the first cycle's last two rounds change places
    plan = _table_round(players, index)
    boards = plan.boards if cycle == 0 else tuple((b, w) for w, b in plan.boards)
    return RoundPlan(round_, boards, plan.bye)


def schedule(players: int, cycles: Cycles = Cycles.SINGLE) -> tuple[RoundPlan, ...]:
    """Every round of the round robin of ``players`` (numbers 1 to ``players``), in order."""
    return tuple(berger_round(players, r, cycles) for r in range(1, rounds_of(players, cycles) + 1))


class PairingSystem(enum.Enum):
    """How an evening paired here is paired: a Swiss round by round, or a round robin's table."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    KEIZER = "keizer"  # a season of evenings, whoever comes plays (tournament.keizer)

    @property
    def cycles(self) -> Cycles | None:
        """How often every two players meet (None: a Swiss, paired from the scores)."""
        return {
            PairingSystem.ROUND_ROBIN: Cycles.SINGLE,
            PairingSystem.DOUBLE_ROUND_ROBIN: Cycles.DOUBLE,
        }.get(self)

    @property
    def label(self) -> str:
        """The system's name in English (marked: the pages show it translated)."""
        return {
            PairingSystem.SWISS: N_("Swiss (FIDE Dutch)"),
            PairingSystem.ROUND_ROBIN: N_("round robin"),
            PairingSystem.DOUBLE_ROUND_ROBIN: N_("double round robin"),
            PairingSystem.KEIZER: N_("Keizer"),
        }[self]

    @property
    def trf_kind(self) -> str:
        """The tournament's type as a TRF file's 092 line says it."""
        return {
            PairingSystem.SWISS: "Swiss-System",
            PairingSystem.ROUND_ROBIN: "Round Robin",
            PairingSystem.DOUBLE_ROUND_ROBIN: "Double Round Robin",
            PairingSystem.KEIZER: "Keizer System",
        }[self]

    @classmethod
    def parse(cls, text: str) -> PairingSystem:
        """The system as a form or a command gives it ("round robin", "double_round_robin", ...)."""
        key = "-".join(text.strip().casefold().replace("_", " ").replace("-", " ").split())
        try:
            return cls(key or "swiss")
        except ValueError:
            raise InputError(
                N_(
                    "%(text)s is not a pairing system: expected swiss, round-robin, "
                    "double-round-robin or keizer"
                ),
                text=repr(text),
            ) from None


class TableOrder(enum.Enum):
    """How a round robin's players get their table numbers when round 1 is paired."""

    RATING = "rating"  # by club rating, highest first, unrated last by name (as a Swiss seeds)
    LOT = "lot"  # a drawing of lots from a seed (:func:`drawn_order`)
    NUMBERS = "numbers"  # the start numbers the players were registered under
    HAND = "hand"  # the arbiter's list, table number 1 first


def drawn_order(players: int, seed: int) -> tuple[int, ...]:
    """The drawing of lots among ``players`` players given in the order of entry (1 to ``players``):
    the place in that order of the player drawn for table number 1, then 2, ...

    Place ``i`` draws the key SHA-256 of the text ``"SEED:i"`` (hexadecimal), and the lowest key
    takes number 1: a drawing is the same on any machine and in any version, and anyone can redo
    it from its seed (``printf '482913:3' | sha256sum`` is place 3's key for seed 482913)."""
    if not 0 <= seed <= MAX_SEED:
        raise InputError(
            N_("%(seed)s: a seed is a whole number from 0 to %(most)s"), seed=seed, most=MAX_SEED
        )

    return tuple(
        sorted(
            range(1, players + 1), key=lambda i: hashlib.sha256(f"{seed}:{i}".encode()).hexdigest()
        )
    )
