"""Tonight's evening run by clubrating itself: register, pair, enter results, publish.

An evening is a draft :class:`~clubrating.club.store.models.Tournament` with an
:class:`~clubrating.club.store.models.Evening` row. Names are registered as entries
and linked to members only by the arbiter (R10): at registration when the name
typed is one member's, else through ``services.link`` and ``services.new_member``;
the first round seeds them by the club rating; each round is paired by the FIDE
Dutch system (:mod:`clubrating.tournament.pairing`), or, in a round robin, taken from
its Berger table (:mod:`clubrating.tournament.roundrobin`: the players are fixed at
round 1, the whole schedule with them; their table numbers by rating, by lot or by the
arbiter's hand, :class:`Numbering`), and stored as boards whose games are written
when the results come in. The evening is published through
``services.publish``: it then rates exactly like an imported TRF (byes and
forfeits never rated, R8).

Every write holds the club's lock (``history_write``), reads again under it
what it checks, leaves an audit entry, and stores all of its change or none.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.db.models import Max
from django.utils.translation import gettext_noop

from clubrating.formats.bounds import check_date, whole_number
from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.tournament.pairing import History, PairingFailed, RoundPlan, Seat, pair_round
from clubrating.tournament.roundrobin import (
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    Cycles,
    PairingSystem,
    TableOrder,
    berger_round,
    drawn_order,
    rounds_of,
)
from clubrating.club.store.locking import history_write
from clubrating.club.read.members import (
    find_member_by_name,
    get_member,
    members_called,
    merged_persons,
)
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.read.tournaments import table_of
from clubrating.club.store.models import (
    Bye,
    Club,
    CurrentRating,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Game,
    Member,
    Tournament,
    TournamentStatus,
    rating_list_of,
)
from clubrating.club.services.outcome import Outcome
from clubrating.club.services.tournaments import publish
from clubrating.club.store.locking import reread
from clubrating.club.services import keizer
from clubrating.club.services.moves_links import accept_agreeing, close_answers
from clubrating.errors import InputError, NotFound, Refused, Text
from clubrating.formats import records
from clubrating.formats.records import MAX_NAME_LENGTH, MAX_ROUNDS, ByeKind, TimeControl
from clubrating.formats.results import GameResult
from clubrating.tournament import Standing
from clubrating.words import Nn_

HALF_POINT_BYE = 1  # half-points: a requested bye scores a draw (TRF-16 'H', FIDE C.04.1 note)
PAB = 2  # half-points: the pairing-allocated bye scores a win (C.04.1.c)
ROUND_OFF = 0  # half-points: a round robin's round off (the dummy's opponent) scores nothing: each
#                      player of an odd number has one a cycle (C.05 Annex 1)
JOIN_LATE = (PairingSystem.SWISS, PairingSystem.KEIZER)  # a round robin's players are fixed
FORFEITS = {(False, True): "+-", (True, False): "-+", (True, True): "--"}
"""A round robin's game of a player who withdrew (white gone, black gone): lost by forfeit."""


def system_of(evening: Evening) -> PairingSystem:
    """How the evening is paired (stored as :class:`PairingSystem`'s value)."""
    return PairingSystem(evening.system)


def evening_of(tournament: Tournament) -> Evening:
    evening = Evening.objects.filter(tournament=tournament).first()
    if evening is None:
        raise NotFound(
            gettext_noop("tournament %(id)s is not an evening paired here"), id=tournament.id
        )
    if tournament.status != TournamentStatus.DRAFT:
        raise Refused(
            gettext_noop(
                "'%(name)s' is published: its rounds are closed (correct a result from the "
                "tournament's page)"
            ),
            name=tournament.name,
        )
    return evening


def _rounds_text(text: str | int) -> int:
    try:
        rounds = int(str(text).strip())
    except ValueError:
        raise InputError(
            gettext_noop(
                "%(text)s is not a number of rounds: expected "
                "a whole number from 1 to %(MAX_ROUNDS)s"
            ),
            text=repr(text),
            MAX_ROUNDS=MAX_ROUNDS,
        ) from None
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InputError(
            gettext_noop("%(rounds)s rounds: expected from 1 to %(MAX_ROUNDS)s"),
            rounds=rounds,
            MAX_ROUNDS=MAX_ROUNDS,
        )
    return rounds


def start_evening(
    club: Club,
    name: str,
    date: dt.date,
    rounds: str | int,
    *,
    who: str,
    time_control: str = TimeControl.STANDARD.value,
    today: dt.date | None = None,
    system: str = "swiss",
    keizer_settings: dict[str, str] | None = None,
) -> Tournament:
    """A new evening: a draft tournament with its planned number of rounds, nobody registered yet.

    A round robin's rounds are its table's (one for each other player, twice in a double round
    robin): ``rounds`` is not read, the number is fixed when round 1 is paired."""
    paired_by = PairingSystem.parse(system)  # an InputError naming the systems
    cycles = paired_by.cycles
    planned = (
        _rounds_text(rounds) if cycles is None else rounds_of(MAX_PLAYERS, cycles)
    )  # fixed at round 1
    season: dict[str, object] = {}
    if paired_by is PairingSystem.KEIZER:
        season = keizer.parse_settings(keizer_settings or {})
        planned = 1 if season["rated"] == keizer.Rated.EVENING.value else planned
    elif keizer_settings:
        raise InputError(gettext_noop("Keizer settings are for an evening of the system keizer"))
    if not name.strip():
        raise InputError(gettext_noop("give the evening a name"))
    if date > (today or zones.today(club.time_zone)):
        raise InputError(
            gettext_noop("the evening is dated %(date)s, in the future"), date=date.isoformat()
        )
    check_date(date)
    if time_control not in {tc.value for tc in TimeControl}:
        raise InputError(
            gettext_noop(
                "%(time_control)s is not a time control: expected standard, rapid or blitz"
            ),
            time_control=repr(time_control),
        )
    with history_write(club) as club:
        sequence = (
            Tournament.objects.filter(club=club, date=date).aggregate(m=Max("sequence"))["m"] or 0
        ) + 1
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip()[:200],
            date=date,
            sequence=sequence,
            time_control=time_control,
            source_format="evening",
            source_name="paired here",
            trf_headers=[["092", f"Individual: {paired_by.trf_kind}"]],
        )
        Evening.objects.create(
            tournament=tournament, planned_rounds=planned, system=paired_by.value, keizer=season
        )
        audit.record(
            club,
            who,
            "evening-start",
            f"tournament {tournament.id}",
            new={
                "name": tournament.name,
                "date": date.isoformat(),
                "system": paired_by.value,
                **({"rounds": planned} if paired_by is PairingSystem.SWISS else {}),
                **({"keizer": season} if season else {}),
            },
        )
    return tournament


def register(tournament: Tournament, name: str, *, who: str) -> Entry:
    """A player of tonight: a name as the arbiter typed it, paired from the next round to be paired.

    A member's number, name or any name it is known under (:func:`lookups.members_called`)
    registers that member, linked at once; a name several members carry is refused with the
    candidates; any other name is registered unlinked, for the arbiter to link."""
    text = " ".join(name.split())
    if not text:
        raise InputError(gettext_noop("type the player's name"))
    if len(text) > MAX_NAME_LENGTH:
        raise InputError(
            gettext_noop("a name of %(count)s characters: at most %(MAX_NAME_LENGTH)s"),
            count=len(text),
            MAX_NAME_LENGTH=MAX_NAME_LENGTH,
        )
    with history_write(tournament.club_id) as club:
        reread(tournament)
        evening = evening_of(tournament)
        if evening.paired_rounds >= evening.planned_rounds:
            raise Refused(
                gettext_noop("all %(planned_rounds)s rounds are paired: no one can join now"),
                planned_rounds=evening.planned_rounds,
            )
        if evening.paired_rounds and system_of(evening) not in JOIN_LATE:
            raise Refused(
                gettext_noop(
                    "a round robin's players are fixed when round 1 is paired: no one can join now"
                )
            )
        member = _registered_member(club, text)
        text = member.name if member is not None and text.isdigit() else text
        entries = Entry.objects.filter(tournament=tournament)
        persons = merged_persons(club)  # a name linked to a member merged since is that person's
        clash = next(
            (
                e
                for e in entries
                if e.name.casefold() == text.casefold()
                or (
                    member is not None
                    and e.member_id is not None
                    and persons.get(e.member_id, e.member_id) == persons.get(member.id, member.id)
                )
            ),
            None,
        )
        if clash is not None:
            raise Refused(
                gettext_noop("'%(name)s' is registered already (number %(number)s)"),
                name=clash.name,
                number=clash.number,
            )
        number = (entries.aggregate(m=Max("number"))["m"] or 0) + 1
        entry = Entry.objects.create(tournament=tournament, number=number, name=text, member=member)
        EveningPlayer.objects.create(entry=entry, joined_round=evening.paired_rounds + 1)
        audit.record(
            club,
            who,
            "evening-register",
            f"tournament {tournament.id} #{number}",
            new={
                "name": text,
                "from_round": evening.paired_rounds + 1,
                **({"member": member.name, "member_id": member.id} if member else {}),
            },
        )
    return entry


def _registered_member(club: Club, text: str) -> Member | None:
    """The member the arbiter typed at registration (a number must be one), or None for a new
    name."""
    if text.isdigit():
        member: Member | None = get_member(club, text).active()
    else:
        found = members_called(club, text)
        if len(found) > 1:
            find_member_by_name(club, text)  # refused: the line that lists them
        member = found[0].active() if found else None
    if member is not None and member.left is not None:
        raise Refused(
            gettext_noop(
                "%(name)s (member %(id)s) left the club on %(date)s: mark them as a member "
                "again first (the members page, or clubrating member %(id)s --returned)"
            ),
            name=member.name,
            id=member.id,
            date=member.left.isoformat(),
        )
    return member


def withdraw(entry: Entry, *, who: str) -> Outcome:
    """The player leaves: paired no more from the next round on; the rounds played stay."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry)
        evening = evening_of(entry.tournament)
        player = EveningPlayer.objects.get(entry=entry)
        if player.withdrawn_from is not None:
            raise Refused(
                gettext_noop("%(name)s withdrew already (from round %(withdrawn_from)s)"),
                name=entry.name,
                withdrawn_from=player.withdrawn_from,
            )
        player.withdrawn_from = evening.paired_rounds + 1
        player.save(update_fields=["withdrawn_from"])
        Bye.objects.filter(
            tournament=entry.tournament, entry=entry, round__gt=evening.paired_rounds
        ).delete()
        audit.record(
            club,
            who,
            "evening-withdraw",
            f"tournament {entry.tournament_id} #{entry.number} '{entry.name}'",
            new={"withdrawn_from": player.withdrawn_from},
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s withdrew: not paired from round %(round)s on"),
            name=entry.name,
            round=player.withdrawn_from,
        )
    )


def request_bye(entry: Entry, round_text: str | int, *, who: str) -> Outcome:
    """A half-point bye the player asked for, in a round not paired yet."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry)
        evening = evening_of(entry.tournament)
        try:
            rnd = int(str(round_text).strip())
        except ValueError:
            raise InputError(
                gettext_noop("%(round_text)s is not a round: expected a number"),
                round_text=repr(round_text),
            ) from None
        if not evening.paired_rounds < rnd <= evening.planned_rounds:
            raise InputError(
                gettext_noop(
                    "round %(rnd)s: a bye is asked for a round not paired yet, "
                    "%(value)s to %(planned_rounds)s"
                ),
                rnd=rnd,
                value=evening.paired_rounds + 1,
                planned_rounds=evening.planned_rounds,
            )
        if system_of(evening) is not PairingSystem.SWISS:
            raise Refused(
                gettext_noop(
                    "a round robin has no byes to ask for: a "
                    "game not played is entered as a forfeit"
                )
            )
        player = EveningPlayer.objects.get(entry=entry)
        if player.withdrawn_from is not None and rnd >= player.withdrawn_from:
            raise Refused(gettext_noop("%(name)s withdrew: no bye to give"), name=entry.name)
        if Bye.objects.filter(tournament=entry.tournament, entry=entry, round=rnd).exists():
            raise Refused(
                gettext_noop("%(name)s has a bye in round %(rnd)s already"),
                name=entry.name,
                rnd=rnd,
            )
        Bye.objects.create(
            tournament=entry.tournament,
            round=rnd,
            entry=entry,
            points=HALF_POINT_BYE,
            kind=ByeKind.HALF_POINT.value,
        )
        audit.record(
            club,
            who,
            "evening-bye",
            f"tournament {entry.tournament_id} #{entry.number} '{entry.name}'",
            new={"round": rnd, "bye": "half-point"},
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s has a half-point bye in round %(round)s"),
            name=entry.name,
            round=rnd,
        )
    )


# --- a round robin's table numbers --------------------------------------------------------------


@dataclass(frozen=True)
class Numbering:
    """How round 1 of a round robin gives its players their table numbers (C.05 Annex 1: drawn by
    lot, or set by the arbiter): ``order``; the lot's ``seed`` (None: drawn when paired); the
    arbiter's ``listed`` players, start numbers or names as registered, comma-separated, table
    number 1 first."""

    order: TableOrder = TableOrder.RATING
    seed: int | None = None
    listed: str = ""


@dataclass(frozen=True)
class Numbered:
    """How round 1 of a round robin numbered its players: what its audit entry adds and what its
    message says (both empty when numbered by rating, as before there was a choice)."""

    audited: dict[str, object]
    said: str | Text = ""


def parse_numbering(order: str, seed: str = "") -> Numbering:
    """An order as a command or a form gives it: ``rating``, ``lot`` (``seed`` optional),
    ``numbers``, or a list of the players ("3,1,Bea Roth,2")."""
    word = order.strip().casefold()
    known = {o.value: o for o in TableOrder if o is not TableOrder.HAND}
    how = known.get(word or TableOrder.RATING.value, TableOrder.HAND)
    if seed.strip() and how is not TableOrder.LOT:
        raise InputError(
            gettext_noop("a seed is for a drawing of lots: give it with the order lot")
        )
    if how is TableOrder.HAND:
        return Numbering(how, listed=order)
    return Numbering(how, _seed_text(seed) if seed.strip() else None)


def _seed_text(text: str) -> int:
    seed = whole_number(text, MAX_SEED)
    if seed is None:
        raise InputError(
            gettext_noop("%(value)s is not a seed: expected a whole number from 0 to %(MAX_SEED)s"),
            value=repr(text.strip()[:40]),
            MAX_SEED=MAX_SEED,
        )
    return seed


def numbering_from_table(typed: list[tuple[Entry, str]]) -> Numbering:
    """The arbiter's order from a table number typed for each player (the evening page's form):
    the numbers 1 to n, each once."""
    count, given = len(typed), dict[int, Entry]()
    for entry, text in typed:
        if not text.strip():
            raise InputError(
                gettext_noop(
                    "%(name)s has no table number: give each player one from 1 to %(count)s"
                ),
                name=entry.name,
                count=count,
            )
        number = whole_number(text, count)
        if not number:
            raise InputError(
                gettext_noop("%(value)s for %(name)s: a table number is from 1 to %(count)s"),
                value=repr(text.strip()[:40]),
                name=entry.name,
                count=count,
            )
        if number in given:
            raise InputError(
                gettext_noop("table number %(text)s is given twice (%(name)s, %(name2)s)"),
                text=number,
                name=given[number].name,
                name2=entry.name,
            )
        given[number] = entry
    return Numbering(TableOrder.HAND, listed=",".join(str(given[n].number) for n in sorted(given)))


def _table_order(
    numbering: Numbering, players: list[EveningPlayer], gone: list[EveningPlayer]
) -> tuple[list[EveningPlayer], dict[str, object], str | Text]:
    """The players in table-number order, what the audit entry records of it, what the message
    says."""
    entered = sorted(players, key=lambda p: p.entry.number)
    how = numbering.order
    if how is TableOrder.RATING:
        return _by_rating(players), {}, ""
    seed = None
    if how is TableOrder.LOT:
        seed = secrets.randbelow(MAX_SEED + 1) if numbering.seed is None else numbering.seed
        order = [entered[place - 1] for place in drawn_order(len(entered), seed)]
        said = Text(
            gettext_noop("; table numbers drawn by lot with seed %(seed)s: %(table)s"), seed=seed
        )
    elif how is TableOrder.NUMBERS:
        order, said = (
            entered,
            Text(gettext_noop("; table numbers in the order of entry: %(table)s")),
        )
    else:
        order, said = (
            _listed(numbering.listed, entered, gone),
            Text(gettext_noop("; table numbers as the arbiter listed them: %(table)s")),
        )
    table = [p.entry.name for p in order]
    audited: dict[str, object] = {
        "order": how.value,
        **({"seed": seed} if seed is not None else {}),
        "table": table,
    }
    return (
        order,
        audited,
        Text(
            said.template,
            **said.params,
            table=", ".join(f"{n} {name}" for n, name in enumerate(table, 1)),
        ),
    )


def _listed(
    text: str, players: list[EveningPlayer], gone: list[EveningPlayer]
) -> list[EveningPlayer]:
    """The players a list names, in its order: each by start number or name, every one once.

    A name holding a comma ("Smith, Jane") is read whole: the pieces between two commas join
    until they name a player."""
    named = {_key(p.entry.name): p for p in players + gone} | {
        str(p.entry.number): p for p in players + gone
    }
    pieces, start, order = text.split(","), 0, []
    while start < len(pieces):
        if not pieces[start].strip():  # an empty place between two commas
            start += 1
            continue
        end = next(
            (
                end
                for end in range(start + 1, len(pieces) + 1)
                if _key(",".join(pieces[start:end])) in named
            ),
            None,
        )
        if end is None:
            raise InputError(
                gettext_noop(
                    "%(value)s is not a player of this evening: list the players by start "
                    "number or name, table number 1 first"
                ),
                value=repr(pieces[start].strip()),
            )
        player = named[_key(",".join(pieces[start:end]))]
        if player in gone:
            raise Refused(
                gettext_noop("%(name)s withdrew: list only the players of round 1"),
                name=player.entry.name,
            )
        if player in order:
            raise InputError(
                gettext_noop("%(name)s is listed twice: list each player once"),
                name=player.entry.name,
            )
        order.append(player)
        start = end
    left = [p.entry.name for p in players if p not in order]
    if left:
        raise InputError(
            gettext_noop("the order leaves out %(value)s: list all %(count)s players, each once"),
            value=", ".join(map(repr, left)),
            count=len(players),
        )
    return order


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


# --- pairing -----------------------------------------------------------------------------------


def history_of(tournament: Tournament) -> History:
    """The stored rounds of the evening as the pairing and the standings read them."""
    players = EveningPlayer.objects.filter(entry__tournament=tournament).select_related("entry")
    seats = tuple(
        Seat(p.entry.number, p.seed_rating) for p in sorted(players, key=lambda p: p.entry.number)
    )
    number = {p.entry_id: p.entry.number for p in players}
    results = tuple(
        records.Pairing(
            g.round,
            number[g.white_id],
            number[g.black_id],
            g.white_points,
            g.black_points,
            g.played,
        )
        for g in Game.objects.filter(tournament=tournament)
    )
    paired = Evening.objects.get(tournament=tournament).paired_rounds
    rests = tuple(
        records.Bye(b.round, number[b.entry_id], b.points, ByeKind(b.kind))
        for b in Bye.objects.filter(tournament=tournament, round__lte=paired)
    )
    return History(seats, results, rests)


def _club_rating(tournament: Tournament, entry: Entry) -> int | None:
    """The member's current club rating on the evening's list, rounded: None for a new member."""
    if entry.member is None:
        raise Refused(
            gettext_noop(
                "'%(name)s' is not confirmed yet: say which member it is, or make it a new member"
            ),
            name=entry.name,
        )
    rating_list = rating_list_of(tournament.club, tournament)
    row = CurrentRating.objects.filter(
        member=entry.member.active(), rating_list=rating_list
    ).first()
    return None if row is None else round(row.rating)


def _seed(tournament: Tournament, players: list[EveningPlayer], first: int) -> None:
    """Pairing numbers from ``first`` on by club rating, highest first; unrated players last by name
    (FIDE C.04.2.B: the initial ranking list by rating; the club's unrated have no other key)."""
    _rate(tournament, players)
    _renumber(_by_rating(players), first)


def _rate(tournament: Tournament, players: list[EveningPlayer]) -> None:
    for p in players:
        p.seed_rating = _club_rating(tournament, p.entry)


def _by_rating(players: list[EveningPlayer]) -> list[EveningPlayer]:
    return sorted(
        players,
        key=lambda p: (p.seed_rating is None, -(p.seed_rating or 0), p.entry.name.casefold()),
    )


def _renumber(order: list[EveningPlayer], first: int) -> None:
    """Give the players of ``order`` the numbers from ``first`` on, in that order."""
    for p in order:  # out of the way of the unique (tournament, number) first
        Entry.objects.filter(pk=p.entry_id).update(number=p.entry.number + 100_000)
    for number, p in enumerate(order, first):
        Entry.objects.filter(pk=p.entry_id).update(number=number)
        p.entry.number = number
        p.save(update_fields=["seed_rating"])


@dataclass(frozen=True)
class Present:
    players: list[EveningPlayer]
    newcomers: list[EveningPlayer]


def _present(tournament: Tournament, rnd: int) -> Present:
    players = list(
        EveningPlayer.objects.filter(entry__tournament=tournament).select_related("entry__member")
    )
    resting = set(
        Bye.objects.filter(tournament=tournament, round=rnd).values_list("entry_id", flat=True)
    )
    playing = [
        p
        for p in players
        if p.joined_round <= rnd
        and (p.withdrawn_from is None or p.withdrawn_from > rnd)
        and p.entry_id not in resting
    ]
    return Present(playing, [p for p in players if p.joined_round == rnd])


def store_round(
    tournament: Tournament, evening: Evening, rnd: int, plan: RoundPlan
) -> dict[int, Entry]:
    """Store a planned round's boards and its bye (a Swiss's pairing bye, a round robin's round
    off); the tournament's entries by start number, for the caller's messages."""
    entry = {e.number: e for e in Entry.objects.filter(tournament=tournament)}
    EveningBoard.objects.bulk_create(
        [
            EveningBoard(
                tournament=tournament, round=rnd, board=board, white=entry[w], black=entry[b]
            )
            for board, (w, b) in enumerate(plan.boards, 1)
        ]
    )
    if plan.bye is not None:
        swiss = system_of(evening) in JOIN_LATE  # a Keizer bye counts a game point too
        Bye.objects.create(
            tournament=tournament,
            round=rnd,
            entry=entry[plan.bye],
            points=PAB if swiss else ROUND_OFF,
            kind=(ByeKind.PAIRING if swiss else ByeKind.ZERO_POINT).value,
        )
    return entry


def pair_next_round(
    tournament: Tournament, *, who: str, numbering: Numbering | None = None
) -> Outcome:
    """Pair the next round (FIDE Dutch); round 1 seeds everyone by club rating first, or, in a
    round robin, numbers the players for its table as ``numbering`` says (by rating if not
    given)."""
    numbering = numbering or Numbering()
    with history_write(tournament.club_id) as club:
        reread(tournament)
        evening = evening_of(tournament)
        rnd = evening.paired_rounds + 1
        if numbering.order is not TableOrder.RATING:
            _may_number(evening, rnd)
        if rnd > evening.planned_rounds:
            raise Refused(
                gettext_noop("all %(planned_rounds)s rounds are paired: publish the evening"),
                planned_rounds=evening.planned_rounds,
            )
        missing = EveningBoard.objects.filter(
            tournament=tournament, round=evening.paired_rounds, game=None
        ).count()
        if missing:
            raise Refused(_results_missing(missing, evening.paired_rounds))
        cycles = system_of(evening).cycles
        numbered = Numbered({})
        if rnd == 1 and cycles is not None:
            numbered = _start_round_robin(
                tournament, evening, _present(tournament, rnd), cycles, numbering
            )
        elif rnd == 1 and keizer.is_keizer(evening) and not evening.keizer.get("previous"):
            numbered = _start_keizer(tournament, numbering)
        plan = plan_round(tournament, evening, rnd)
        entry = store_round(tournament, evening, rnd, plan)
        _forfeit_withdrawn(tournament, rnd)
        evening.paired_rounds = rnd
        evening.save(update_fields=["paired_rounds"])
        tournament.rounds = rnd
        tournament.save(update_fields=["rounds"])
        rest = (
            gettext_noop(", pairing bye: %(name)s")
            if system_of(evening) in JOIN_LATE
            else gettext_noop(", no game: %(name)s")
        )
        bye = Text(rest, name=entry[plan.bye].name) if plan.bye is not None else ""
        audit.record(
            club,
            who,
            "evening-pair",
            f"tournament {tournament.id} round {rnd}",
            new={"boards": [[w, b] for w, b in plan.boards], "bye": plan.bye, **numbered.audited},
        )
    return Outcome(
        Text(
            Nn_(
                "round %(round)s paired: %(count)s board%(bye)s%(said)s",
                "round %(round)s paired: %(count)s boards%(bye)s%(said)s",
            ),
            round=rnd,
            count=len(plan.boards),
            bye=bye,
            said=numbered.said,
        )
    )


def _may_number(evening: Evening, rnd: int) -> None:
    """A round robin's table numbers are set once, at round 1: refused in a Swiss, or later."""
    if system_of(evening) is PairingSystem.SWISS:
        raise Refused(
            gettext_noop(
                "a Swiss is seeded by club rating: an order of table numbers is for a round robin"
            )
        )
    if keizer.is_keizer(evening) and evening.keizer.get("previous"):
        raise Refused(
            gettext_noop("the season's first evening set its order: the ranking orders it now")
        )
    if rnd > 1:
        raise Refused(
            gettext_noop(
                "the table numbers were set when round 1 was paired: "
                "another order now would change every pairing"
            )
        )


# --- results -----------------------------------------------------------------------------------


def enter_result(board: EveningBoard, result: str, *, who: str) -> Outcome:
    """The result of a board of the current round; entered again, it corrects the first one."""
    parsed = GameResult.parse(result)
    (white_points, black_points), played = parsed.points, parsed.played
    with history_write(board.tournament.club_id) as club:
        reread(board)
        evening = evening_of(board.tournament)
        if board.round != evening.paired_rounds:
            raise Refused(
                gettext_noop(
                    "round %(round)s is closed: round %(paired_rounds)s is paired already"
                ),
                round=board.round,
                paired_rounds=evening.paired_rounds,
            )
        unplayed = parsed.unplayed.value if parsed.unplayed else ""
        game, old = board.game, None
        if game is None:
            game = Game.objects.create(
                tournament=board.tournament,
                round=board.round,
                board=board.board,
                white=board.white,
                black=board.black,
                white_points=white_points,
                black_points=black_points,
                played=played,
                unplayed=unplayed,
            )
            board.game = game
            board.save(update_fields=["game"])
        else:
            old = game_result_text(game)
            game.white_points, game.black_points, game.played, game.unplayed = (
                white_points,
                black_points,
                played,
                unplayed,
            )
            game.save(update_fields=["white_points", "black_points", "played", "unplayed"])
        new = parsed.value
        audit.record(
            club,
            who,
            "evening-result",
            f"tournament {board.tournament_id} round {board.round} board {board.board}",
            old=None if old is None else {"result": old},
            new={"result": new},
        )
        close_answers(board)  # results the players' phones sent: decided now
        players = (
            "" if game.moves.strip() else accept_agreeing(game)
        )  # moves the players sent before it
    return Outcome(
        Text(
            gettext_noop(
                "round %(round)s board %(board)s %(white)s - %(black)s: %(old)s -> %(new)s%(then)s"
            )
            if old is not None
            else gettext_noop(
                "round %(round)s board %(board)s %(white)s - %(black)s: %(new)s%(then)s"
            ),
            round=board.round,
            board=board.board,
            white=board.white.name,
            black=board.black.name,
            old=old,
            new=new,
            then=players,
        )
    )


def publish_evening(tournament: Tournament, *, who: str) -> Outcome:
    """Every round paired has its results: publish through ``services.publish`` (rated like a
    TRF)."""
    with history_write(tournament.club_id):
        reread(tournament)
        evening = evening_of(tournament)
        if evening.paired_rounds == 0:
            raise Refused(gettext_noop("no round is paired yet: nothing to publish"))
        missing = EveningBoard.objects.filter(tournament=tournament, game=None).count()
        if missing:
            raise Refused(_results_missing(missing, evening.paired_rounds))
        Bye.objects.filter(
            tournament=tournament, round__gt=evening.paired_rounds
        ).delete()  # rounds never paired
        Entry.objects.filter(
            tournament=tournament, evening__joined_round__gt=evening.paired_rounds
        ).delete()  # came too late
        tournament.rounds = evening.paired_rounds
        tournament.save(update_fields=["rounds"])
        return publish(tournament, who=who)


def standings_of(tournament: Tournament) -> list[tuple[Standing, Entry]]:
    """The evening's standings after the rounds paired so far (C.07 tie-breaks), with each entry."""
    entry = {
        e.number: e for e in Entry.objects.filter(tournament=tournament).select_related("member")
    }
    return [
        (row, entry[row.number]) for row in table_of(tournament).rows
    ]  # as the tournament's page ranks it


def plan_round(tournament: Tournament, evening: Evening, rnd: int) -> RoundPlan:
    """The boards of round ``rnd``: the Dutch system's for a Swiss, the Berger table's for a round
    robin (its players numbered at round 1 by :func:`_start_round_robin`)."""
    cycles = system_of(evening).cycles
    if cycles is not None:
        return berger_round(Entry.objects.filter(tournament=tournament).count(), rnd, cycles)
    present = _present(tournament, rnd)
    if keizer.is_keizer(evening):
        return _plan_keizer(tournament, evening, rnd, present)
    if present.newcomers:
        before = (
            Entry.objects.filter(tournament=tournament)
            .exclude(id__in=[p.entry_id for p in present.newcomers])
            .count()
        )
        _seed(tournament, present.newcomers, before + 1)  # late entries take the next numbers
    try:
        return pair_round(
            history_of(tournament),
            rnd,
            evening.planned_rounds,
            [Entry.objects.get(pk=p.entry_id).number for p in present.players],
        )
    except PairingFailed as error:  # nothing stored: the transaction rolls back
        raise Refused(error.text) from None


def _start_keizer(tournament: Tournament, numbering: Numbering) -> Numbered:
    """The first evening of a Keizer season: the roster's start order (the ranking before round
    1) by club rating, or drawn by lot, or as the arbiter listed it."""
    players = list(
        EveningPlayer.objects.filter(entry__tournament=tournament).select_related("entry__member")
    )
    _rate(tournament, players)
    order, audited, said = _table_order(numbering, players, [])
    _renumber(order, 1)
    return Numbered(audited, said)


def _plan_keizer(tournament: Tournament, evening: Evening, rnd: int, present: Present) -> RoundPlan:
    """A Keizer round: the players who join this round numbered below the others by rating (the
    season's first round is numbered already), then paired from the Keizer ranking."""
    joining = [
        p
        for p in EveningPlayer.objects.filter(
            entry__tournament=tournament, joined_round=rnd
        ).select_related("entry__member")
    ]
    if joining and (rnd > 1 or evening.keizer.get("previous")):
        before = Entry.objects.filter(tournament=tournament).exclude(
            id__in=[p.entry_id for p in joining]
        )
        first = (before.aggregate(m=Max("number"))["m"] or 0) + 1
        _seed(tournament, joining, first)
    numbers = list(
        Entry.objects.filter(id__in=[p.entry_id for p in present.players]).values_list(
            "number", flat=True
        )
    )
    return keizer.plan(tournament, evening, rnd, numbers)


def _start_round_robin(
    tournament: Tournament, evening: Evening, present: Present, cycles: Cycles, numbering: Numbering
) -> Numbered:
    """Round 1 of a round robin: its players are the ones present, numbered 1 to n (the table's
    numbers) as ``numbering`` says, and its rounds are the table's."""
    count = len(present.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise Refused(
            Nn_(
                "%(count)s player present: a round robin takes from %(low)s to %(high)s",
                "%(count)s players present: a round robin takes from %(low)s to %(high)s",
            ),
            count=count,
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    gone = [p for p in present.newcomers if p not in present.players]  # withdrew before the start
    _rate(tournament, present.players)
    order, audited, said = _table_order(numbering, present.players, gone)
    Entry.objects.filter(id__in=[p.entry_id for p in gone]).delete()
    _renumber(order, 1)
    evening.planned_rounds = rounds_of(count, cycles)
    evening.save(update_fields=["planned_rounds"])
    return Numbered(audited, said)


def _forfeit_withdrawn(tournament: Tournament, rnd: int) -> None:
    """A round robin's boards of a player who withdrew: the game is lost by forfeit, stored at
    once."""
    gone = set(
        EveningPlayer.objects.filter(
            entry__tournament=tournament, withdrawn_from__lte=rnd
        ).values_list("entry_id", flat=True)
    )
    for board in EveningBoard.objects.filter(tournament=tournament, round=rnd).select_related(
        "white", "black"
    ):
        if board.white_id in gone or board.black_id in gone:
            forfeit = FORFEITS[(board.white_id in gone, board.black_id in gone)]
            parsed = GameResult.parse(forfeit)
            (white_points, black_points), unplayed = parsed.points, parsed.unplayed
            board.game = Game.objects.create(
                tournament=tournament,
                round=rnd,
                board=board.board,
                white=board.white,
                black=board.black,
                white_points=white_points,
                black_points=black_points,
                played=False,
                unplayed=unplayed.value if unplayed else "",
            )
            board.save(update_fields=["game"])


def _results_missing(count: int, rnd: int) -> Text:
    return Text(
        Nn_(
            "%(count)s result of round %(round)s is not entered yet",
            "%(count)s results of round %(round)s are not entered yet",
        ),
        count=count,
        round=rnd,
    )
