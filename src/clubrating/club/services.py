"""Every write to a club's history: import, link, publish, correct, delete, merge.

Each service runs in one transaction together with the rebuild it causes
(spec R13) and leaves an audit entry (who, when, old -> new). Views and
commands call these; they never write through the ORM themselves.

Every write to a club's history holds the club's lock
(:func:`clubrating.club.locking.history_write`) and reads again, under the
lock, what it checks: two arbiters (or an arbiter and a command) writing at
once wait for each other, and the second one's checks see the first's change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any
from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, models, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from clubrating.club import audit
from clubrating.club.locking import history_write
from clubrating.club.models import (
    Bye,
    Club,
    Distinct,
    Entry,
    Game,
    Member,
    Merge,
    NameDisplay,
    Tournament,
    TournamentStatus,
)
from clubrating.club.rebuild import RebuildReport, order_key, rebuild
from clubrating.club.signals import tournament_published
from clubrating.errors import InputError, NotFound, Refused
from clubrating.formats.records import TournamentRecord
from clubrating.identity.compare import ALIAS, SAME_NAME
from clubrating.identity.match import Matcher

RESULTS = {(2, 0): "1-0", (0, 2): "0-1", (1, 1): "1/2-1/2"}


@dataclass(frozen=True)
class Outcome:
    """What a service did, for the arbiter: a sentence and, if history changed, the rebuild."""

    message: str
    rebuild: RebuildReport | None = None

    def __str__(self) -> str:
        return self.message if self.rebuild is None else f"{self.message}; {self.rebuild}"


# --- clubs ---------------------------------------------------------------------------------

def create_club(name: str, *, who: str, slug: str | None = None, policy: str = "club",
                separate_lists: bool = False) -> Club:
    name = name.strip()
    if not name:
        raise InputError("a club needs a name")
    if policy not in ("club", "fide"):
        raise InputError(f"unknown policy {policy!r}: expected 'club' or 'fide'")
    slug = slugify(slug or name)[:60] or "club"
    taken = Refused(f"a club with the short name {slug!r} exists already")
    if Club.objects.filter(slug=slug).exists():
        raise taken
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, policy=policy, separate_lists=separate_lists,
                                       names=NameDisplay.FULL)
            audit.record(club, who, "create-club", club.slug, new={"name": name, "policy": policy})
    except IntegrityError:
        if Club.objects.filter(slug=slug).exists():  # created meanwhile by another process
            raise taken from None
        raise
    return club


def find_club(slug: str | None = None) -> Club:
    """The club named by ``slug``, or the only club of the database."""
    if slug:
        try:
            return Club.objects.get(slug=slug)
        except Club.DoesNotExist:
            raise NotFound(f"no club {slug!r} in this database") from None
    clubs = list(Club.objects.all()[:2])
    if not clubs:
        raise NotFound("this database holds no club yet: run 'clubrating init NAME' first")
    if len(clubs) > 1:
        raise InputError("this database holds several clubs: say which with --club SLUG")
    return clubs[0]


# --- import --------------------------------------------------------------------------------

def import_tournament(club: Club, record: TournamentRecord, *, who: str, content_hash: str = "",
                      date: dt.date | None = None, name: str | None = None,
                      has_juniors: bool = False, today: dt.date | None = None) -> Tournament:
    """Store a tournament file as a draft; nothing of it is stored if anything is wrong."""
    when = date or record.date
    source = record.source or "<input>"
    if when is None:
        raise InputError("the file gives no date: give one (--date YYYY-MM-DD)", file=source)
    if when > (today or timezone.localdate()):
        raise InputError(f"the tournament is dated {when.isoformat()}, in the future", file=source)
    if not record.players:
        raise InputError("the file holds no players", file=source)
    numbers = {p.number for p in record.players}
    for pairing in record.pairings:
        for number in (pairing.white, pairing.black):
            if number not in numbers:
                raise InputError(f"a game names player {number}, who is not in the tournament",
                                 file=source, line=pairing.line)
        if pairing.white_points + pairing.black_points > 2 or min(pairing.white_points, pairing.black_points) < 0:
            raise InputError("an impossible result", file=source, line=pairing.line)
    with history_write(club) as club:
        if content_hash:
            twin = Tournament.objects.filter(club=club, content_hash=content_hash).first()
            if twin is not None:
                raise Refused(f"{source} was imported already: tournament {twin.id} '{twin.name}' ({twin.date})")
        sequence = (Tournament.objects.filter(club=club, date=when).aggregate(m=Max("sequence"))["m"] or 0) + 1
        tournament = Tournament.objects.create(
            club=club, name=(name or record.name or source)[:200], date=when, sequence=sequence,
            time_control=record.time_control.value, kind=record.kind.value,
            has_juniors=has_juniors, rounds=record.rounds, source_name=source[-255:],
            source_format=record.format[:16], content_hash=content_hash)
        entries = {p.number: Entry(tournament=tournament, number=p.number, name=p.name[:200], points=p.points)
                   for p in record.players}
        Entry.objects.bulk_create(entries.values())
        entries = {e.number: e for e in Entry.objects.filter(tournament=tournament)}
        Game.objects.bulk_create([
            Game(tournament=tournament, round=p.round, board=p.board, white=entries[p.white],
                 black=entries[p.black], white_points=p.white_points, black_points=p.black_points,
                 played=p.played, unplayed=p.unplayed.value if p.unplayed else "",
                 colours_known=p.colours_known, moves=p.moves or "", headers=dict(p.headers))
            for p in record.pairings])
        Bye.objects.bulk_create([
            Bye(tournament=tournament, round=b.round, entry=entries[b.player], points=b.points, kind=b.kind.value)
            for b in record.byes if b.player in entries])
        audit.record(club, who, "import", f"tournament {tournament.id}",
                     new={"name": tournament.name, "date": when.isoformat(), "file": source,
                          "players": len(entries), "games": len(record.pairings)})
    return tournament


MAX_ID = 2**63 - 1  # the largest id any of the databases stores (64-bit integers)


def parse_id(ref: int | str | None) -> int | None:
    """A row id written as a number, or None when it cannot be one (not a whole number, out of range)."""
    text = str(ref).strip() if ref is not None else ""
    if not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if 1 <= value <= MAX_ID else None


def get_tournament(club: Club, tournament_id: int | str) -> Tournament:
    number = parse_id(tournament_id)
    tournament = Tournament.objects.filter(club=club, id=number).first() if number is not None else None
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id} in {club.name}")
    return tournament


def get_member(club: Club, ref: int | str) -> Member:
    """A member by id or by exact name (case-insensitive)."""
    text = str(ref).strip()
    number = parse_id(text)
    if number is not None:
        member = Member.objects.filter(club=club, id=number).first()
        if member is not None:
            return member
    matches = list(Member.objects.filter(club=club, name__iexact=text)[:2])
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"several members are called {text!r}: give the member's number")
    raise NotFound(f"no member {text!r} in {club.name}")


def reread(*rows: models.Model) -> None:
    """Read these rows again, under the club's lock: a service checks what is stored now,
    not what the caller read before another writer committed."""
    for row in rows:
        try:
            row.refresh_from_db()
        except ObjectDoesNotExist:
            raise NotFound(f"{row._meta.verbose_name} {row.pk} no longer exists: "
                           "it was deleted meanwhile") from None


# --- names ---------------------------------------------------------------------------------

def _rebuild_if_published(tournament: Tournament, reason: str,
                          since: Tournament | tuple[Any, ...] | None = None) -> RebuildReport | None:
    if not tournament.is_published:
        return None
    return rebuild(tournament.club, reason=reason, since=since or tournament)


def link(entry: Entry, member: Member, *, who: str) -> Outcome:
    """The arbiter says: this name in this tournament is this member (R10)."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry, member)
        if member.club_id != club.id:
            raise Refused(f"member {member.id} belongs to another club")
        if member.merged_into_id is not None:
            raise Refused(f"{member.name} was merged into {member.active().name}: link to that member")
        clash = Entry.objects.filter(tournament=entry.tournament, member=member).exclude(id=entry.id).first()
        if clash is not None:
            raise Refused(f"{member.name} is already '{clash.name}' (number {clash.number}) in this tournament")
        old = entry.member.name if entry.member else None
        entry.member = member
        entry.save(update_fields=["member"])
        audit.record(club, who, "link", f"tournament {entry.tournament_id} #{entry.number} '{entry.name}'",
                     old={"member": old}, new={"member": member.name, "member_id": member.id})
        report = _rebuild_if_published(entry.tournament, f"link '{entry.name}'") if old != member.name else None
    return Outcome(f"'{entry.name}' is {member.name} (member {member.id})", report)


def unlink(entry: Entry, *, who: str) -> Outcome:
    with history_write(entry.tournament.club_id):
        reread(entry)
        if entry.tournament.is_published:
            raise Refused("a published tournament needs every name linked: link the name to another member "
                          "instead")
        old = entry.member.name if entry.member else None
        entry.member = None
        entry.save(update_fields=["member"])
        audit.record(entry.tournament.club, who, "unlink", f"tournament {entry.tournament_id} #{entry.number}",
                     old={"member": old}, new=None)
    return Outcome(f"'{entry.name}' is linked to no member")


def new_member(entry: Entry, *, who: str, name: str | None = None, junior: bool | None = None) -> Outcome:
    """Make the name a new member of the club and link it."""
    with history_write(entry.tournament.club_id) as club:
        reread(entry)
        member = Member.objects.create(club=club, name=(name or entry.name).strip()[:200],
                                       junior=entry.tournament.has_juniors if junior is None else junior)
        audit.record(club, who, "new-member", f"member {member.id}", new={"name": member.name})
        outcome = link(entry, member, who=who)
    return outcome


def exact_candidates(club: Club, name: str, matcher: Matcher | None = None) -> list[Member]:
    """Active members whose name is exactly this one: the same words, whatever the case,
    spacing or customary order ("Smith, Jane" / "Jane Smith" / "SMITH Jane").

    Accents, punctuation, another script or an alias are not exact: those
    stay proposals for the arbiter to read. ``matcher`` is the club's, when
    the caller already built it.
    """
    wanted = " ".join(name.split())
    found = {m.id: m for m in Member.objects.filter(club=club, merged_into=None, name__iexact=wanted)}
    if matcher is None:
        from clubrating.club.matching import roster_matcher

        matcher = roster_matcher(club)
    try:
        proposals = matcher.propose(name)
    except InputError:
        proposals = ()
    words = _folded_words(name)
    same = [p.key for p in proposals if p.reasons[0] == SAME_NAME and ALIAS not in p.reasons
            and _folded_words(p.member) == words]
    found.update((m.id, m) for m in Member.objects.filter(club=club, merged_into=None, id__in=same))
    return sorted(found.values(), key=lambda m: m.id)


def _folded_words(name: str) -> list[str]:
    return sorted(name.casefold().replace(",", " ").split())


def accept_exact(tournament: Tournament, *, who: str) -> Outcome:
    """Link every unlinked name that matches exactly one member exactly (the arbiter's one click)."""
    from clubrating.club.matching import roster_matcher

    linked = 0
    with history_write(tournament.club_id):
        reread(tournament)
        matcher = roster_matcher(tournament.club)
        taken = set(Entry.objects.filter(tournament=tournament).exclude(member=None).values_list("member_id", flat=True))
        for entry in Entry.objects.filter(tournament=tournament, member=None).select_related("tournament__club"):
            found = exact_candidates(tournament.club, entry.name, matcher)
            if len(found) == 1 and found[0].id not in taken:
                link(entry, found[0], who=who)
                taken.add(found[0].id)
                linked += 1
    return Outcome(f"linked {linked} names that matched one member exactly")


def all_new_members(tournament: Tournament, *, who: str) -> Outcome:
    """Make every still-unlinked name a new member (after the arbiter reviewed the proposals)."""
    count = 0
    with history_write(tournament.club_id):
        reread(tournament)
        for entry in Entry.objects.filter(tournament=tournament, member=None).select_related("tournament__club"):
            new_member(entry, who=who)
            count += 1
    return Outcome(f"made {count} new members")


# --- publish, unpublish, delete ------------------------------------------------------------

def publish(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id):
        reread(tournament)
        if tournament.is_published:
            raise Refused(f"tournament {tournament.id} is already published")
        unlinked = list(Entry.objects.filter(tournament=tournament, member=None).values_list("name", flat=True))
        if unlinked:
            shown = ", ".join(repr(n) for n in unlinked[:5]) + (" ..." if len(unlinked) > 5 else "")
            raise Refused(f"{len(unlinked)} names are not linked to members yet: {shown} "
                          "(link them, or make them new members)")
        tournament.status = TournamentStatus.PUBLISHED
        tournament.published_at = timezone.now()
        tournament.save(update_fields=["status", "published_at"])
        report = rebuild(tournament.club, reason=f"publish tournament {tournament.id}", since=tournament)
        tournament_published.send(sender=Tournament, tournament=tournament)  # analysis, after commit
        audit.record(tournament.club, who, "publish", f"tournament {tournament.id} '{tournament.name}'",
                     old={"status": "draft"}, new={"status": "published"}, summary=str(report))
    return Outcome(f"published '{tournament.name}'", report)


def unpublish(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id):
        reread(tournament)
        if not tournament.is_published:
            raise Refused(f"tournament {tournament.id} is not published")
        tournament.status = TournamentStatus.DRAFT
        tournament.save(update_fields=["status"])
        report = rebuild(tournament.club, reason=f"unpublish tournament {tournament.id}", since=tournament)
        audit.record(tournament.club, who, "unpublish", f"tournament {tournament.id} '{tournament.name}'",
                     old={"status": "published"}, new={"status": "draft"}, summary=str(report))
    return Outcome(f"unpublished '{tournament.name}'", report)


def delete_tournament(tournament: Tournament, *, who: str) -> Outcome:
    with history_write(tournament.club_id) as club:
        reread(tournament)
        key, was_published = order_key(tournament), tournament.is_published
        old = {"name": tournament.name, "date": tournament.date.isoformat(), "status": tournament.status,
               "games": tournament.games.count(), "file": tournament.source_name}
        tournament.delete()
        report = rebuild(club, reason=f"delete tournament {key[2]}", since=key) if was_published else None
        audit.record(club, who, "delete", f"tournament {key[2]} '{old['name']}'", old=old,
                     summary=str(report or ""))
    return Outcome(f"deleted '{old['name']}'", report)


# --- corrections ---------------------------------------------------------------------------

def parse_result(text: str) -> tuple[int, int, bool]:
    """A result as the arbiter types it -> (white half-points, black half-points, played)."""
    table = {"1-0": (2, 0, True), "0-1": (0, 2, True), "1/2-1/2": (1, 1, True), "½-½": (1, 1, True),
             "=": (1, 1, True), "+-": (2, 0, False), "-+": (0, 2, False), "--": (0, 0, False)}
    key = text.strip().replace(" ", "")
    if key not in table:
        raise InputError(f"unknown result {text!r}: expected one of 1-0, 0-1, 1/2-1/2, +- (white wins by "
                         "forfeit), -+ (black wins by forfeit), -- (double forfeit)")
    return table[key]


def game_result_text(game: Game) -> str:
    played = RESULTS.get((game.white_points, game.black_points), f"{game.white_points}-{game.black_points}")
    if game.played:
        return played
    return {(2, 0): "+-", (0, 2): "-+", (0, 0): "--"}.get((game.white_points, game.black_points), played)


def correct_result(game: Game, result: str, *, who: str) -> Outcome:
    white, black, played = parse_result(result)
    with history_write(game.tournament.club_id):
        reread(game)
        tournament = game.tournament
        old = game_result_text(game)
        game.white_points, game.black_points, game.played = white, black, played
        game.unplayed = "" if played else ("double-forfeit" if white == black == 0 else "forfeit")
        game.save(update_fields=["white_points", "black_points", "played", "unplayed"])
        new = game_result_text(game)
        report = _rebuild_if_published(tournament, f"correct game {game.id}")
        audit.record(tournament.club, who, "correct-result",
                     f"tournament {tournament.id} round {game.round}: {game.white.name} - {game.black.name}",
                     old={"result": old}, new={"result": new}, summary=str(report or ""))
    return Outcome(f"round {game.round} {game.white.name} - {game.black.name}: {old} -> {new}", report)


def change_date(tournament: Tournament, date: dt.date, *, who: str, today: dt.date | None = None) -> Outcome:
    if date > (today or timezone.localdate()):
        raise InputError(f"{date.isoformat()} is in the future")
    with history_write(tournament.club_id):
        reread(tournament)
        old_key, old_date = order_key(tournament), tournament.date
        tournament.date = date
        tournament.sequence = (Tournament.objects.filter(club=tournament.club, date=date)
                               .exclude(id=tournament.id).aggregate(m=Max("sequence"))["m"] or 0) + 1
        tournament.save(update_fields=["date", "sequence"])
        report = _rebuild_if_published(tournament, f"redate tournament {tournament.id}",
                                       since=min(old_key, order_key(tournament)))
        audit.record(tournament.club, who, "change-date", f"tournament {tournament.id} '{tournament.name}'",
                     old={"date": old_date.isoformat()}, new={"date": date.isoformat()}, summary=str(report or ""))
    return Outcome(f"'{tournament.name}' is now dated {date.isoformat()}", report)


def find_game(tournament: Tournament, round_number: int, player: str) -> Game:
    """The game of ``round_number`` where an entry's number or name is ``player``."""
    games = Game.objects.filter(tournament=tournament, round=round_number).select_related("white", "black")
    text = player.strip()
    for game in games:
        for entry in (game.white, game.black):
            if text == str(entry.number) or text.casefold() == entry.name.casefold():
                return game
    raise NotFound(f"no game of {text!r} in round {round_number} of tournament {tournament.id}")


# --- merges --------------------------------------------------------------------------------

def _shared_tournaments(a: Member, b: Member) -> Sequence[int]:
    return list(Entry.objects.filter(member=a).filter(
        tournament__in=Entry.objects.filter(member=b).values("tournament")).values_list("tournament_id", flat=True))


def merge(absorbed: Member, into: Member, *, who: str) -> Outcome:
    """``absorbed`` and ``into`` are one person: ``into``'s history now holds both (R12).

    Both must be unmerged, checked under the club's lock: so no merge ever points
    at a merged member, and no chain of merges can come back to where it started.
    """
    if absorbed.club_id != into.club_id:
        raise Refused("members of two different clubs cannot be merged")
    if absorbed.id == into.id:
        raise Refused("a member cannot be merged into itself")
    with history_write(absorbed.club_id):
        reread(absorbed, into)
        if absorbed.merged_into_id is not None:
            raise Refused(f"{absorbed.name} was merged already (into {absorbed.active().name})")
        if into.merged_into_id is not None:
            raise Refused(f"{into.name} was merged into {into.active().name}: merge into that member")
        both = _shared_tournaments(absorbed, into)
        if both:
            raise Refused(f"{absorbed.name} and {into.name} both played in tournament {both[0]}: "
                          "they cannot be one person")
        absorbed.merged_into = into
        absorbed.save(update_fields=["merged_into"])
        Merge.objects.create(club=absorbed.club, absorbed=absorbed, into=into)
        report = rebuild(absorbed.club, reason=f"merge member {absorbed.id} into {into.id}")
        audit.record(absorbed.club, who, "merge", f"member {absorbed.id} '{absorbed.name}' into {into.id}",
                     old={"member": absorbed.id, "merged_into": None},
                     new={"member": absorbed.id, "merged_into": into.id}, summary=str(report))
    return Outcome(f"{absorbed.name} (member {absorbed.id}) merged into {into.name} (member {into.id})", report)


def unmerge(member: Member, *, who: str) -> Outcome:
    """Undo a merge: both members get back exactly their own names and histories."""
    with history_write(member.club_id):
        reread(member)
        if member.merged_into_id is None:
            raise Refused(f"{member.name} (member {member.id}) was never merged into another member")
        into = member.merged_into
        assert into is not None  # merged_into_id was checked above
        Merge.objects.filter(absorbed=member, undone=None).update(undone=timezone.now())
        member.merged_into = None
        member.save(update_fields=["merged_into"])
        report = rebuild(member.club, reason=f"unmerge member {member.id}")
        audit.record(member.club, who, "unmerge", f"member {member.id} '{member.name}' from {into.id}",
                     old={"member": member.id, "merged_into": into.id},
                     new={"member": member.id, "merged_into": None}, summary=str(report))
    return Outcome(f"{member.name} (member {member.id}) is separate from {into.name} again", report)


def mark_distinct(one: Member, other: Member, *, who: str, undo: bool = False) -> Outcome:
    """The arbiter says two members are two people (R12): they are no longer listed as possibly
    one person. ``undo`` takes that back. Nothing else changes: no rating depends on it."""
    if one.club_id != other.club_id:
        raise Refused("members of two different clubs are two people already")
    if one.id == other.id:
        raise Refused("a member is one person")
    low, high = sorted((one, other), key=lambda m: m.id)
    with history_write(low.club_id):
        reread(low, high)
        pair = f"{low.name} (member {low.id}) and {high.name} (member {high.id})"
        held = Distinct.objects.filter(one=low, other=high)
        if undo:
            if not held.exists():
                raise Refused(f"{pair} were not marked as two people")
            held.delete()
            audit.record(low.club, who, "undistinct", f"members {low.id} and {high.id}",
                         old={"distinct": True}, new={"distinct": False})
            return Outcome(f"{pair} may be listed as possibly one person again")
        if held.exists():
            raise Refused(f"{pair} are marked as two people already")
        Distinct.objects.create(club=low.club, one=low, other=high)
        audit.record(low.club, who, "distinct", f"members {low.id} and {high.id}",
                     old={"distinct": False}, new={"distinct": True})
    return Outcome(f"{pair} are two people: no longer listed as possibly one")


def set_privacy(club: Club, *, who: str, visibility: str | None = None, names: str | None = None,
                rotate_token: bool = False) -> Outcome:
    from clubrating.club.models import Visibility, new_token

    if visibility is not None and visibility not in Visibility.values:
        raise InputError(f"unknown visibility {visibility!r}: expected one of {', '.join(Visibility.values)}")
    if names is not None and names not in NameDisplay.values:
        raise InputError(f"unknown name display {names!r}: expected one of {', '.join(NameDisplay.values)}")
    with history_write(club):
        reread(club)
        old = {"visibility": club.visibility, "names": club.names}
        club.visibility = visibility or club.visibility
        club.names = names or club.names
        if rotate_token:
            club.token = new_token()
        club.save(update_fields=["visibility", "names", "token"])
        audit.record(club, who, "privacy", club.slug, old=old,
                     new={"visibility": club.visibility, "names": club.names, "token_rotated": rotate_token})
    return Outcome(f"{club.name}: visible to {club.get_visibility_display().lower()}, {club.get_names_display().lower()}")


def set_member_flags(member: Member, *, who: str, junior: bool | None = None,
                     consent: bool | None = None) -> Outcome:
    with history_write(member.club_id):
        reread(member)
        old = {"junior": member.junior, "full_name_consent": member.full_name_consent}
        if junior is not None:
            member.junior = junior
        if consent is not None:
            member.full_name_consent = consent
        member.save(update_fields=["junior", "full_name_consent"])
        audit.record(member.club, who, "member-flags", f"member {member.id} '{member.name}'", old=old,
                     new={"junior": member.junior, "full_name_consent": member.full_name_consent})
        report = rebuild(member.club, reason="junior flag") if (
            junior is not None and junior != old["junior"] and member.club.policy == "fide") else None
    return Outcome(f"{member.name}: junior {member.junior}, full-name consent {member.full_name_consent}", report)


def rename_member(member: Member, name: str, *, who: str) -> Outcome:
    """Correct a member's name (a typo made when the member was created, a new surname).

    The names typed in tournaments stay as they were written, so the old
    spelling is still matched to this member (a known alias). No rating
    depends on a name; the pages show the new one.
    """
    from clubrating.identity.normalize import clean_text, normalize_name

    new = clean_text(name)  # control characters and runs of spaces out; at most 200 characters
    normalize_name(new)  # letters in it: or an InputError that says why
    with history_write(member.club_id):
        reread(member)
        if member.merged_into_id is not None:
            raise Refused(f"{member.name} was merged into {member.active().name}: rename that member")
        if new == member.name:
            raise Refused(f"member {member.id} is called {new!r} already")
        old = member.name
        member.name = new
        member.save(update_fields=["name"])
        audit.record(member.club, who, "rename", f"member {member.id}", old={"name": old}, new={"name": new})
    return Outcome(f"member {member.id} renamed: {old!r} -> {new!r}")


def check_history(club: Club, *, who: str) -> RebuildReport:
    """The manual rebuild (R14): replay everything, store it, and record whether the
    stored ratings matched the replay (a difference is a missed rebuild made visible)."""
    with history_write(club) as club:
        report = rebuild(club, reason=f"manual rebuild by {who}", expect_difference=False)
        audit.record(club, who, "rebuild", club.slug, new={"matched": report.changes_differing == 0,
                                                           "changes_differing": report.changes_differing},
                     summary=str(report))
    return report
