"""A Keizer season run here (rules: :mod:`clubrating.tournament.keizer`, ``docs/keizer.md``).

A season is an evening paired here whose system is ``keizer``: its players are the season's
roster, each round is one club evening. Before an evening is paired the arbiter marks who sent
apologies and who stayed away without a word (everyone else on the roster plays); the round is
paired from the Keizer ranking of the rounds before, recomputed from the first round with the
current values; results are entered as at any evening.

How it is rated is the arbiter's choice when the season starts (``rated``):

- ``season``: the whole season is one tournament, published when it ends and rated against
  the ratings everyone had before its first evening (R5's frozen ratings, for the season);
- ``evening``: each evening is a tournament of its own, published that night and rated
  against the ratings before that evening; the next evening continues the season
  (:func:`continue_season`: the same roster and numbers, the ranking read over the chain).

The rules, the rating mode and the evening continued are stored on the evening's ``keizer``
field. Every write holds the club's lock, leaves an audit entry and stores all or nothing.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import (
    Bye,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Game,
    Tournament,
    TournamentStatus,
)
from clubrating.club.services.outcome import Outcome
from clubrating.club.store.locking import reread
from clubrating.errors import InputError, NotFound, Refused, Text
from clubrating.formats.bounds import whole_number
from clubrating.formats.records import ByeKind, Unplayed
from clubrating.tournament import keizer
from clubrating.tournament.keizer import Absence, Rest, Rules, Season
from clubrating.tournament.keizer_pairing import pair_evening, rematches
from clubrating.tournament.pairing import PairingFailed, RoundPlan
from clubrating.tournament.roundrobin import PairingSystem

REST_OF_BYE = {
    ByeKind.PAIRING.value: Rest.BYE,  # the odd one out
    ByeKind.ZERO_POINT.value: Rest.APOLOGY,  # apologies sent: no game, no game point
    ByeKind.ABSENT.value: Rest.ABSENT,  # away without a word
}
ON_THE_ROSTER = 0  # a continued evening's players: on the roster before its round 1 (not joining)
PAB = 2  # half-points: the Keizer bye counts a game point as a Swiss's does (C.04.1.c)


class Rated(enum.Enum):
    """Which tournament a season's games are rated in."""

    SEASON = "season"
    EVENING = "evening"


class Attendance(enum.Enum):
    """What the arbiter marks for a player of the roster before an evening is paired."""

    PRESENT = "present"
    APOLOGIES = "apologies"
    ABSENT = "absent"

    @property
    def label(self) -> str:
        """The mark in English (marked: the page shows it translated)."""
        return {
            Attendance.PRESENT: gettext_noop("present"),
            Attendance.APOLOGIES: gettext_noop("apologies"),
            Attendance.ABSENT: gettext_noop("absent"),
        }[self]

    @classmethod
    def parse(cls, text: str) -> Attendance:
        try:
            return cls(text.strip().casefold())
        except ValueError:
            raise InputError(
                gettext_noop("%(text)s: expected present, apologies or absent"), text=repr(text)
            ) from None


SETTINGS = ("top", "step", "own-value", "apology", "apology-cap", "bye", "rematch-gap", "rated")


def parse_settings(given: Mapping[str, str]) -> dict[str, Any]:
    """A season's settings from the words a form or a command gives (``top=70``, ``bye=2/3``,
    ``rated=evening``, ...), checked by :class:`Rules`; absent ones keep their defaults."""
    unknown = sorted(set(given) - set(SETTINGS))
    if unknown:
        raise InputError(
            gettext_noop("%(name)s is not a Keizer setting: expected %(names)s"),
            name=repr(unknown[0]),
            names=", ".join(SETTINGS),
        )
    rules: dict[str, Any] = {}
    for key, text in given.items():
        if key == "rated" or not text.strip():
            continue
        name = key.replace("-", "_")
        if key in ("apology", "bye"):
            rules[name] = str(_fraction(key, text))
        elif key == "own-value":
            rules[name] = _yes_no(key, text)
        elif key == "top" and text.strip().casefold() == "auto":
            rules[name] = None
        else:
            rules[name] = _whole(key, text)
    rules_of({"rules": rules})  # refused here if out of range
    rated = given.get("rated", "").strip() or Rated.SEASON.value
    try:
        Rated(rated)
    except ValueError:
        raise InputError(
            gettext_noop("rated=%(text)s: expected season or evening"), text=rated
        ) from None
    return {"rules": rules, "rated": rated}


def _whole(key: str, text: str) -> int:
    number = whole_number(text, 999_999)  # never int(): of "²" it raises
    if number is None:
        raise InputError(
            gettext_noop("%(key)s=%(text)s: expected a whole number"), key=key, text=text[:20]
        )
    return number


_FRACTION = re.compile(r"[0-9]{1,6}(?:/[0-9]{1,6}|\.[0-9]{1,6})?")


def _fraction(key: str, text: str) -> Fraction:
    # 1/3 or 0.5 only: Fraction() also reads "1e99999999", and computes ten to that power
    try:
        if not _FRACTION.fullmatch(text.strip()):
            raise ValueError(text)
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(
            gettext_noop("%(key)s=%(text)s: expected a fraction such as 1/3"), key=key, text=text
        ) from None
    if value.denominator > 1000:
        raise InputError(
            gettext_noop("%(key)s=%(text)s: expected a fraction such as 1/3"), key=key, text=text
        )
    return value


def _yes_no(key: str, text: str) -> bool:
    word = text.strip().casefold()
    if word not in ("yes", "no"):
        raise InputError(gettext_noop("%(key)s=%(text)s: expected yes or no"), key=key, text=text)
    return word == "yes"


def rules_of(settings: Mapping[str, Any]) -> Rules:
    """The stored settings as the pure rules."""
    stored = dict(settings.get("rules", {}))
    for name in ("apology", "bye"):
        if name in stored:
            stored[name] = Fraction(stored[name])
    return Rules(**stored)


def rated_of(evening: Evening) -> Rated:
    return Rated(evening.keizer.get("rated", Rated.SEASON.value))


def is_keizer(evening: Evening) -> bool:
    return evening.system == PairingSystem.KEIZER.value


def chain_of(tournament: Tournament) -> list[Tournament]:
    """The season's evenings up to ``tournament``, the first one first."""
    chain = [tournament]
    seen = {tournament.id}
    while True:
        previous = Evening.objects.filter(tournament=chain[-1]).first()
        earlier = None if previous is None else previous.keizer.get("previous")
        found = (
            None
            if earlier is None or earlier in seen
            else Tournament.objects.filter(pk=int(earlier)).first()
        )
        if found is None:  # the first evening, or an earlier one deleted since
            return list(reversed(chain))
        seen.add(found.id)
        chain.append(found)


def season_of(tournament: Tournament) -> tuple[Season, int]:
    """The season as the pure rules read it, over every evening up to ``tournament`` (rounds
    numbered through the season), and the season's round before ``tournament``'s round 1."""
    games: list[keizer.Game] = []
    absences: list[Absence] = []
    joined: dict[int, int] = {}
    offset = 0
    chain = chain_of(tournament)
    for link in chain:
        evening = Evening.objects.get(tournament=link)
        number = {e.id: e.number for e in Entry.objects.filter(tournament=link)}
        for player in EveningPlayer.objects.filter(entry__tournament=link):
            joined.setdefault(number[player.entry_id], offset + player.joined_round)
        for g in Game.objects.filter(tournament=link):
            forfeit = not g.played and g.unplayed in (
                Unplayed.FORFEIT.value,
                Unplayed.DOUBLE_FORFEIT.value,
            )
            games.append(
                keizer.Game(
                    offset + g.round,
                    number[g.white_id],
                    number[g.black_id],
                    g.white_points,
                    g.black_points,
                    forfeit,
                )
            )
        for b in Bye.objects.filter(tournament=link, round__lte=evening.paired_rounds):
            if b.kind in REST_OF_BYE:
                absences.append(Absence(offset + b.round, number[b.entry_id], REST_OF_BYE[b.kind]))
        if link.id != tournament.id:
            offset += evening.paired_rounds
    start = tuple(
        sorted(Entry.objects.filter(tournament=tournament).values_list("number", flat=True))
    )
    return Season(start, tuple(games), tuple(absences), joined), offset


def plan(tournament: Tournament, evening: Evening, rnd: int, present: list[int]) -> RoundPlan:
    """Round ``rnd`` of a Keizer evening: the present players (by start number) paired from the
    ranking of the rounds before."""
    season, offset = season_of(tournament)
    rules = rules_of(evening.keizer)
    ranking = keizer.ranking(season, rules, before=offset + rnd)
    try:
        paired = pair_evening(season, rules, ranking, set(present), offset + rnd)
    except PairingFailed as error:
        raise Refused(error.text) from None
    return RoundPlan(rnd, paired.boards, paired.bye)


def rematches_of(tournament: Tournament, evening: Evening) -> list[tuple[int, int]]:
    """The boards of the round paired last whose players met within the rematch gap (a pairing
    that could not keep it), by start numbers."""
    if evening.paired_rounds == 0:
        return []
    season, offset = season_of(tournament)
    boards = tuple(
        (b.white.number, b.black.number)
        for b in EveningBoard.objects.filter(
            tournament=tournament, round=evening.paired_rounds
        ).select_related("white", "black")
    )
    plan = RoundPlan(offset + evening.paired_rounds, boards)
    return rematches(plan, season, rules_of(evening.keizer).rematch_gap)


def table(tournament: Tournament) -> list[tuple[keizer.Standing, Entry]]:
    """The season's Keizer ranking after every result entered so far, with each entry."""
    evening = Evening.objects.get(tournament=tournament)
    season, _ = season_of(tournament)
    entry = {
        e.number: e for e in Entry.objects.filter(tournament=tournament).select_related("member")
    }
    rows = keizer.standings(season, rules_of(evening.keizer))
    return [(row, entry[row.player]) for row in rows]


def mark(entry: Entry, attendance: Attendance, *, who: str) -> Outcome:
    """Before the next evening is paired: the player sent apologies, stays away without a word,
    or is present after all (the mark taken back)."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry)
        evening = _keizer_evening(entry.tournament)
        rnd = evening.paired_rounds + 1
        if rnd > evening.planned_rounds:
            raise Refused(
                gettext_noop("all %(planned_rounds)s rounds are paired: publish the evening"),
                planned_rounds=evening.planned_rounds,
            )
        player = EveningPlayer.objects.get(entry=entry)
        if player.withdrawn_from is not None and rnd >= player.withdrawn_from:
            raise Refused(gettext_noop("%(name)s withdrew: no bye to give"), name=entry.name)
        Bye.objects.filter(tournament=entry.tournament, entry=entry, round=rnd).delete()
        kind = {
            Attendance.APOLOGIES: ByeKind.ZERO_POINT,
            Attendance.ABSENT: ByeKind.ABSENT,
        }.get(attendance)
        if kind is not None:
            Bye.objects.create(
                tournament=entry.tournament, round=rnd, entry=entry, points=0, kind=kind.value
            )
        audit.record(
            club,
            who,
            "keizer-mark",
            f"tournament {entry.tournament_id} #{entry.number} '{entry.name}'",
            new={"round": rnd, "attendance": attendance.value},
        )
    return Outcome(
        Text(
            {
                Attendance.PRESENT: gettext_noop("%(name)s plays in round %(round)s"),
                Attendance.APOLOGIES: gettext_noop("%(name)s sent apologies for round %(round)s"),
                Attendance.ABSENT: gettext_noop("%(name)s is away in round %(round)s"),
            }[attendance],
            name=entry.name,
            round=rnd,
        )
    )


def attendance_of(tournament: Tournament, rnd: int) -> dict[int, Attendance]:
    """Each entry's mark for round ``rnd`` (by entry id): present unless marked."""
    marks = {b.entry_id: b.kind for b in Bye.objects.filter(tournament=tournament, round=rnd)}
    out = {}
    for entry_id in Entry.objects.filter(tournament=tournament).values_list("id", flat=True):
        kind = marks.get(entry_id)
        out[entry_id] = (
            Attendance.APOLOGIES
            if kind == ByeKind.ZERO_POINT.value
            else Attendance.ABSENT
            if kind == ByeKind.ABSENT.value
            else Attendance.PRESENT
        )
    return out


def continue_season(
    previous: Tournament, name: str, date: dt.date, *, who: str, today: dt.date | None = None
) -> Tournament:
    """The next evening of a season rated evening by evening: a new evening with the roster of
    ``previous`` (published: its evening is rated), the same start numbers and members."""
    with history_write(previous.club_id) as club:
        reread(previous)
        evening = Evening.objects.filter(tournament=previous).first()
        if evening is None or not is_keizer(evening):
            raise NotFound(
                gettext_noop("tournament %(id)s is not a Keizer evening"), id=previous.id
            )
        if previous.status != TournamentStatus.PUBLISHED:
            raise Refused(
                gettext_noop(
                    "publish '%(name)s' first: each evening of this season is rated on its own"
                ),
                name=previous.name,
            )
        if Evening.objects.filter(keizer__previous=previous.id).exists():
            raise Refused(gettext_noop("'%(name)s' is continued already"), name=previous.name)
        if not name.strip():
            raise InputError(gettext_noop("give the evening a name"))
        if date < previous.date or date > (today or zones.today(club.time_zone)):
            raise InputError(
                gettext_noop("%(date)s: expected a day from %(first)s to today"),
                date=date.isoformat(),
                first=previous.date.isoformat(),
            )
        sequence = (
            Tournament.objects.filter(club=club, date=date).aggregate(m=Max("sequence"))["m"] or 0
        ) + 1
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip()[:200],
            date=date,
            sequence=sequence,
            time_control=previous.time_control,
            source_format="evening",
            source_name="paired here",
            trf_headers=[["092", f"Individual: {PairingSystem.KEIZER.trf_kind}"]],
        )
        Evening.objects.create(
            tournament=tournament,
            planned_rounds=1,
            system=PairingSystem.KEIZER.value,
            keizer={**evening.keizer, "previous": previous.id},
        )
        for old in Entry.objects.filter(tournament=previous).order_by("number"):
            copy = Entry.objects.create(
                tournament=tournament, number=old.number, name=old.name, member=old.member
            )
            seeded = EveningPlayer.objects.filter(entry=old).values_list("seed_rating", flat=True)
            EveningPlayer.objects.create(
                entry=copy, joined_round=ON_THE_ROSTER, seed_rating=seeded.first()
            )
        audit.record(
            club,
            who,
            "keizer-continue",
            f"tournament {tournament.id}",
            new={"name": tournament.name, "date": date.isoformat(), "previous": previous.id},
        )
    return tournament


def _keizer_evening(tournament: Tournament) -> Evening:
    evening = Evening.objects.filter(tournament=tournament).first()
    if evening is None or not is_keizer(evening):
        raise NotFound(gettext_noop("tournament %(id)s is not a Keizer evening"), id=tournament.id)
    if tournament.status != TournamentStatus.DRAFT:
        raise Refused(
            gettext_noop(
                "'%(name)s' is published: its rounds are closed (correct a result from the "
                "tournament's page)"
            ),
            name=tournament.name,
        )
    return evening
