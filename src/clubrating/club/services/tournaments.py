"""A tournament's life: imported as a draft, published, unpublished, deleted, its results
corrected and its date changed; each change rebuilds the history it touches."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from django.db.models import Count, F, Max, Q
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.club.derived.rebuild import order_key, rebuild_derived, rebuild_derived_if_published
from clubrating.club.store.locking import history_write
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.read.members import members_called, names_known, resolve_members
from clubrating.club.store.locking import reread
from clubrating.club.store.models import (
    Bye,
    Club,
    Entry,
    EveningBoard,
    Game,
    Tournament,
    TournamentStatus,
)
from clubrating.club.services.outcome import Outcome
from clubrating.club.store.signals import tournament_published
from clubrating.errors import InputError, NotFound, Refused, Text
from clubrating.formats.bounds import check_date
from clubrating.formats.records import TournamentRecord
from clubrating.formats.results import GameResult
from clubrating.identity.same import (
    DATE_TOLERANCE,
    Event,
    EventGame,
    event_of_record,
    is_exact,
    same_event,
)
from clubrating.words import Nn_


class SameTournament(Refused):
    """The file is a tournament already stored (:func:`clubrating.identity.same.same_event`)."""

    def __init__(self, twin: Tournament) -> None:
        self.twin = twin
        super().__init__(
            gettext_noop(
                "this looks like tournament %(id)s '%(name)s' of %(date)s, "
                "already stored: same players and results"
            ),
            id=twin.id,
            name=twin.name,
            date=twin.date.isoformat(),
        )


def import_tournament(
    club: Club,
    record: TournamentRecord,
    *,
    who: str,
    content_hash: str = "",
    date: dt.date | None = None,
    name: str | None = None,
    has_juniors: bool = False,
    today: dt.date | None = None,
    force: bool = False,
) -> Tournament:
    """Store a tournament file as a draft; nothing of it is stored if anything is wrong.

    The same file twice is refused; a tournament already stored under another format or
    spelling (:class:`SameTournament`) too, unless ``force`` (audited)."""
    when = date or record.date
    source = record.source or "<input>"
    if when is None:
        raise InputError(
            gettext_noop("the file gives no date: give one (--date YYYY-MM-DD)"), file=source
        )
    if when > (today or zones.today(club.time_zone)):
        raise InputError(
            gettext_noop("the tournament is dated %(when)s, in the future"),
            file=source,
            when=when.isoformat(),
        )
    check_date(when, file=source)
    if not record.players:
        raise InputError(gettext_noop("the file holds no players"), file=source)
    numbers = {p.number for p in record.players}
    for pairing in record.pairings:
        for number in (pairing.white, pairing.black):
            if number not in numbers:
                raise InputError(
                    gettext_noop("a game names player %(number)s, who is not in the tournament"),
                    file=source,
                    line=pairing.line,
                    number=number,
                )
        if (
            pairing.white_points + pairing.black_points > 2
            or min(pairing.white_points, pairing.black_points) < 0
        ):
            raise InputError(gettext_noop("an impossible result"), file=source, line=pairing.line)
    with history_write(club) as club:
        if content_hash:
            twin = Tournament.objects.filter(club=club, content_hash=content_hash).first()
            if twin is not None:
                raise Refused(
                    gettext_noop(
                        "%(source)s was imported already: tournament %(id)s '%(name)s' (%(date)s)"
                    ),
                    source=source,
                    id=twin.id,
                    name=twin.name,
                    date=twin.date,
                )
        twin = stored_twin(club, record, when)
        if twin is not None and not force:
            raise SameTournament(twin)
        sequence = (
            Tournament.objects.filter(club=club, date=when).aggregate(m=Max("sequence"))["m"] or 0
        ) + 1
        tournament = Tournament.objects.create(
            club=club,
            name=(name or record.name or source)[:200],
            date=when,
            sequence=sequence,
            time_control=record.time_control.value,
            kind=record.kind.value,
            has_juniors=has_juniors,
            rounds=record.rounds,
            source_name=source[-255:],
            source_format=record.format[:16],
            content_hash=content_hash,
            trf_headers=[[code, text[:255]] for code, text in record.headers],
            teams=[
                [team.name[:200], [n for n in team.members if n in numbers]]
                for team in record.teams
            ],
        )
        entries = {
            p.number: Entry(
                tournament=tournament,
                number=p.number,
                name=p.name[:200],
                points=p.points,
                rank=p.rank,
            )
            for p in record.players
        }
        Entry.objects.bulk_create(entries.values())
        entries = {e.number: e for e in Entry.objects.filter(tournament=tournament)}
        Game.objects.bulk_create(
            [
                Game(
                    tournament=tournament,
                    round=p.round,
                    board=p.board,
                    white=entries[p.white],
                    black=entries[p.black],
                    white_points=p.white_points,
                    black_points=p.black_points,
                    played=p.played,
                    unplayed=p.unplayed.value if p.unplayed else "",
                    colours_known=p.colours_known,
                    moves=p.moves or "",
                    headers=dict(p.headers),
                )
                for p in record.pairings
            ]
        )
        Bye.objects.bulk_create(
            [
                Bye(
                    tournament=tournament,
                    round=b.round,
                    entry=entries[b.player],
                    points=b.points,
                    kind=b.kind.value,
                )
                for b in record.byes
                if b.player in entries
            ]
        )
        audit.record(
            club,
            who,
            "import",
            f"tournament {tournament.id}",
            new={
                "name": tournament.name,
                "date": when.isoformat(),
                "file": source,
                "players": len(entries),
                "games": len(record.pairings),
                **({"forced": f"looks like tournament {twin.id}"} if twin is not None else {}),
            },
        )
    return tournament


def stored_twin(club: Club, record: TournamentRecord, when: dt.date) -> Tournament | None:
    """The club's tournament that ``record`` is again, dated ``when``, if any: dated within a day,
    the same players (by any name a linked member is known under) and the same played games."""
    incoming = event_of_record(record, when)
    near = Tournament.objects.filter(
        club=club, date__range=(when - DATE_TOLERANCE, when + DATE_TOLERANCE)
    )
    known: dict[int, set[str]] | None = None
    for tournament in near.annotate(played=Count("games", filter=Q(games__played=True))).order_by(
        "id"
    ):
        if cast(Any, tournament).played != len(incoming.games):
            continue
        if known is None:  # every name each member is known under, once the first candidate is near
            top, names = resolve_members(club), names_known(club)
            known = {member: names.get(active, set()) for member, active in top.items()}
        if same_event(_stored_event(tournament, known), incoming):
            return tournament
    return None


def _stored_event(tournament: Tournament, known: dict[int, set[str]]) -> Event:
    """A stored tournament as :func:`same_event` compares it; ``known``: member id -> its names."""
    names = {
        number: (name, *sorted(known.get(member, ())))
        for number, name, member in Entry.objects.filter(tournament=tournament).values_list(
            "number", "name", "member_id"
        )
    }
    games = tuple(
        EventGame(w, b, wp, bp)
        for w, b, wp, bp in Game.objects.filter(tournament=tournament, played=True).values_list(
            "white__number", "black__number", "white_points", "black_points"
        )
    )
    return Event(tournament.date, names, games)


# --- publish, unpublish, delete ------------------------------------------------------------


def publish(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id):
        reread(tournament)
        if tournament.is_published:
            raise Refused(gettext_noop("tournament %(id)s is already published"), id=tournament.id)
        unlinked = list(
            Entry.objects.filter(tournament=tournament, member=None).values_list("name", flat=True)
        )
        if unlinked:
            shown = ", ".join(repr(n) for n in unlinked[:5]) + (" ..." if len(unlinked) > 5 else "")
            raise Refused(
                Nn_(
                    "%(count)s name is not linked to members yet: %(shown)s "
                    "(link them, or make them new members)",
                    "%(count)s names are not linked to members yet: %(shown)s "
                    "(link them, or make them new members)",
                ),
                count=len(unlinked),
                shown=shown,
            )
        waiting = (
            EveningBoard.objects.filter(tournament=tournament, game=None)
            .order_by("round", "board")
            .first()
        )
        if waiting is not None:  # an evening paired here: every paired board needs its result
            raise Refused(
                gettext_noop(
                    "round %(round)s board %(board)s has no result yet: enter every "
                    "result of the evening before publishing it"
                ),
                round=waiting.round,
                board=waiting.board,
            )
        tournament.status = TournamentStatus.PUBLISHED
        tournament.published_at = timezone.now()
        tournament.save(update_fields=["status", "published_at"])
        report = rebuild_derived(
            tournament.club,
            reason=Text(gettext_noop("publish tournament %(id)s"), id=tournament.id),
            since=tournament,
        )
        tournament_published.send(
            sender=Tournament, tournament=tournament
        )  # analysis, after commit
        audit.record(
            tournament.club,
            who,
            "publish",
            f"tournament {tournament.id} '{tournament.name}'",
            old={"status": "draft"},
            new={"status": "published"},
            summary=report.text,
        )
    return Outcome(Text(gettext_noop("published '%(name)s'"), name=tournament.name), report)


def unpublish(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id):
        reread(tournament)
        if not tournament.is_published:
            raise Refused(gettext_noop("tournament %(id)s is not published"), id=tournament.id)
        tournament.status = TournamentStatus.DRAFT
        tournament.save(update_fields=["status"])
        report = rebuild_derived(
            tournament.club,
            reason=Text(gettext_noop("unpublish tournament %(id)s"), id=tournament.id),
            since=tournament,
        )
        audit.record(
            tournament.club,
            who,
            "unpublish",
            f"tournament {tournament.id} '{tournament.name}'",
            old={"status": "published"},
            new={"status": "draft"},
            summary=report.text,
        )
    return Outcome(Text(gettext_noop("unpublished '%(name)s'"), name=tournament.name), report)


def delete_tournament(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id) as club:
        reread(tournament)
        key, was_published = order_key(tournament), tournament.is_published
        old = {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "status": tournament.status,
            "games": tournament.games.count(),
            "file": tournament.source_name,
        }
        tournament.delete()
        report = (
            rebuild_derived(
                club, reason=Text(gettext_noop("delete tournament %(id)s"), id=key[2]), since=key
            )
            if was_published
            else None
        )
        audit.record(
            club,
            who,
            "delete",
            f"tournament {key[2]} '{old['name']}'",
            old=old,
            summary=report.text if report else "",
        )
    return Outcome(Text(gettext_noop("deleted '%(name)s'"), name=old["name"]), report)


# --- corrections ---------------------------------------------------------------------------


def parse_result(text: str) -> tuple[int, int, bool]:
    """A result as the arbiter types it -> (white half-points, black half-points, played)
    (:meth:`clubrating.formats.results.GameResult.parse`)."""
    result = GameResult.parse(text)
    return result.white_points, result.black_points, result.played


def correct_result(game: Game, result: str, *, who: str) -> Outcome:
    parsed = GameResult.parse(result)
    with history_write(game.tournament.club_id):
        reread(game)
        tournament = game.tournament
        old = game_result_text(game)
        unplayed = parsed.unplayed.value if parsed.unplayed else ""
        if (game.white_points, game.black_points, game.played, game.unplayed) == (
            *parsed.points,
            parsed.played,
            unplayed,
        ):
            raise Refused(
                gettext_noop(
                    "round %(round)s %(name)s - %(name2)s is %(old)s already: nothing to correct"
                ),
                round=game.round,
                name=game.white.name,
                name2=game.black.name,
                old=old,
            )
        _keep_written_points(game, parsed.points)
        (game.white_points, game.black_points), game.played = parsed.points, parsed.played
        game.unplayed = unplayed
        game.save(update_fields=["white_points", "black_points", "played", "unplayed"])
        new = game_result_text(game)
        report = rebuild_derived_if_published(
            tournament, Text(gettext_noop("correct game %(id)s"), id=game.id), corrected=game
        )
        audit.record(
            tournament.club,
            who,
            "correct-result",
            f"tournament {tournament.id} round {game.round}{_board(game)}: "
            f"{game.white.name} - {game.black.name}",
            old={"result": old},
            new={"result": new},
            summary=report.text if report else "",
        )
    return Outcome(
        Text(
            gettext_noop("round %(round)s %(white)s - %(black)s: %(old)s -> %(new)s"),
            round=game.round,
            white=game.white.name,
            black=game.black.name,
            old=old,
            new=new,
        ),
        report,
    )


def _keep_written_points(game: Game, points: tuple[int, int]) -> None:
    """A corrected result moves the points written in the file (the standings' points) by as
    much as it moves each player's score, so the standings follow the correction and keep the
    file's own difference from the results. A points column all zero (no result written,
    :func:`clubrating.tournament.file_points`) is left as it is."""
    if not Entry.objects.filter(tournament_id=game.tournament_id, points__gt=0).exists():
        return
    for entry_id, delta in (
        (game.white_id, points[0] - game.white_points),
        (game.black_id, points[1] - game.black_points),
    ):
        if delta:
            Entry.objects.filter(id=entry_id, points__isnull=False).update(
                points=Greatest(F("points") + delta, 0)
            )


def _board(game: Game) -> str:
    return "" if game.board is None else f" board {game.board}"


def change_date(
    tournament: Tournament, date: dt.date, *, who: str, today: dt.date | None = None
) -> Outcome:
    if date > (today or zones.today(tournament.club.time_zone)):
        raise InputError(gettext_noop("%(date)s is in the future"), date=date.isoformat())
    check_date(date)
    with history_write(tournament.club_id):
        reread(tournament)
        if date == tournament.date:  # a new sequence would move it after the day's other events
            raise Refused(
                gettext_noop("'%(name)s' is dated %(date)s already"),
                name=tournament.name,
                date=date.isoformat(),
            )
        old_key, old_date = order_key(tournament), tournament.date
        tournament.date = date
        tournament.sequence = (
            Tournament.objects.filter(club=tournament.club, date=date)
            .exclude(id=tournament.id)
            .aggregate(m=Max("sequence"))["m"]
            or 0
        ) + 1
        tournament.save(update_fields=["date", "sequence"])
        report = rebuild_derived_if_published(
            tournament,
            Text(gettext_noop("redate tournament %(id)s"), id=tournament.id),
            since=min(old_key, order_key(tournament)),
        )
        audit.record(
            tournament.club,
            who,
            "change-date",
            f"tournament {tournament.id} '{tournament.name}'",
            old={"date": old_date.isoformat()},
            new={"date": date.isoformat()},
            summary=report.text if report else "",
        )
    return Outcome(
        Text(
            gettext_noop("'%(name)s' is now dated %(date)s"),
            name=tournament.name,
            date=date.isoformat(),
        ),
        report,
    )


def find_game(tournament: Tournament, round_number: int, player: str) -> Game:
    """The game of ``round_number`` where a player is ``player``: the number or the name written
    in this tournament, or any name of the member linked to it (:func:`lookups.members_called`)."""
    games = list(
        Game.objects.filter(tournament=tournament, round=round_number).select_related(
            "white", "black"
        )
    )
    text = " ".join(player.split())
    for game in games:
        for entry in (game.white, game.black):
            if text == str(entry.number) or is_exact(text, entry.name):
                return game
    missing = NotFound(
        gettext_noop("no game of %(text)s in round %(round_number)s of tournament %(id)s"),
        text=repr(text),
        round_number=round_number,
        id=tournament.id,
    )
    if not text or text.isdigit():
        raise missing  # a number is a start number here, never a member's id
    top = resolve_members(tournament.club)
    wanted = {top.get(m.id, m.id) for m in members_called(tournament.club, text)}
    found = [
        g for g in games if wanted & {top.get(cast(int, e.member_id)) for e in (g.white, g.black)}
    ]
    if len(found) > 1:
        shown = ", ".join(
            f"{e.name} (number {e.number})"
            for g in found
            for e in (g.white, g.black)
            if top.get(cast(int, e.member_id)) in wanted
        )
        raise InputError(
            gettext_noop(
                "%(text)s could be %(shown)s in round %(round_number)s: give the player's number"
            ),
            text=repr(text),
            shown=shown,
            round_number=round_number,
        )
    if not found:
        raise missing
    return found[0]
