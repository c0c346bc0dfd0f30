"""Players enter their own game: a moves link per player of a board, and what they submit
through it.

A link is a capability: whoever holds its token may submit that one game's moves, nothing
else. Each of a board's two players gets their own, so that a submission knows its side. The token (``secrets.token_urlsafe``, 128 random bits) is shown once, on the slips
printed when it is made; only its SHA-256 is stored, so the database alone opens no game.
A link expires after the club's ``moves_link_days`` and the arbiter may revoke it.

A submission is read by the arbiter's parser (:func:`clubrating.formats.movetext.read_typed_moves`)
and kept apart from the game. White's and Black's submissions whose moves agree are stored at
once through :func:`clubrating.club.services.moves.attach_typed_moves`, audited as entered by
the players; one side alone (however often it sends), two that differ, a link made before
links were per player (either side), or a game without its result yet wait for the arbiter,
who sees the first move where they differ and accepts one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club import audit
from clubrating.club.locking import history_write
from clubrating.club.lookups import reread
from clubrating.club.models import (Club, Evening, EveningBoard, Game, MovesAttempt, MovesLink, MovesSubmission,
                                    SubmissionReason, Tournament)
from clubrating.club.services.moves import (SUBMISSION_PENDING, SUBMISSION_SUPERSEDED, NeedsConfirmation,
                                            attach_typed_moves)
from clubrating.club.services.outcome import Outcome
from clubrating.errors import NotFound, Refused, Text
from clubrating.formats.movetext import read_typed_moves
from clubrating.words import Nn_, plural

TOKEN_BYTES = 16                 # 128 random bits, the least a capability URL needs against guessing
PLAYERS = "the players (moves link)"   # the audit's "who" of moves the players entered
PENDING, ACCEPTED, SET_ASIDE, SUPERSEDED = SUBMISSION_PENDING, "accepted", "set-aside", SUBMISSION_SUPERSEDED
WHITE, BLACK, EITHER = "white", "black", ""   # a link's and a submission's side; EITHER: a link without a player

# The throttle: submissions through one link, and from one client address, per window. A board
# needs two (one per player) and a retry or two after a typing mistake; a phone on the club's
# Wi-Fi shares its address with every other phone there, so the address allows a whole room.
THROTTLE_WINDOW = dt.timedelta(hours=1)
PER_LINK = 10
PER_ADDRESS = 60
INVALID_LINK = gettext_noop("this moves link does not work (mistyped, expired or revoked): ask the arbiter for the slip")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def link_path(token: str) -> str:
    """The link's path on the site: outside the club's pages, so it names no club."""
    return f"/m/{token}/"


@dataclass(frozen=True)
class IssuedLink:
    """A link just made: its token, shown once (on the slip), and what it is for: the board's
    players, and the one it was issued to (``link.player``, ``link.colour``)."""

    link: MovesLink
    token: str
    white: str
    black: str

    @property
    def player(self) -> str:
        return self.white if self.link.colour == WHITE else self.black

    @property
    def path(self) -> str:
        return link_path(self.token)


def _boards(tournament: Tournament, round_: int) -> list[tuple[EveningBoard | None, Game | None]]:
    """The round's boards: an evening's pairings (their games may come later), else the stored
    games of the round that have no moves yet and were played."""
    if Evening.objects.filter(tournament=tournament).exists():
        return [(b, b.game) for b in EveningBoard.objects.filter(tournament=tournament, round=round_)
                .select_related("white", "black", "game").order_by("board")]
    games = Game.objects.filter(tournament=tournament, round=round_, played=True, moves="").select_related(
        "white", "black").order_by("board", "id")
    return [(None, g) for g in games]


def issue_links(tournament: Tournament, round_: int, *, who: str,
                now: dt.datetime | None = None) -> list[IssuedLink]:
    """A new link for each player of every board of the round (the slips printed now), White's
    first; a board's earlier links are revoked, since only the newest slip is on the board."""
    now = now or timezone.now()
    with history_write(tournament.club_id) as club:
        reread(tournament)
        boards = _boards(tournament, round_)
        if not boards:
            raise Refused(gettext_noop("round %(round)s of '%(name)s' has no board waiting for its moves"),
                          round=round_, name=tournament.name)
        issued = []
        for board, game in boards:
            earlier = MovesLink.objects.filter(revoked=None).filter(
                Q(evening_board=board) if board is not None else Q(game=game))
            earlier.update(revoked=now)
            pairing = board or game
            assert pairing is not None
            for colour, player in ((WHITE, pairing.white), (BLACK, pairing.black)):
                token = secrets.token_urlsafe(TOKEN_BYTES)
                link = MovesLink.objects.create(
                    tournament=tournament, round=round_, board=pairing.board, evening_board=board,
                    game=game if board is None else None, token_hash=token_hash(token), created=now,
                    expires=now + dt.timedelta(days=club.moves_link_days), player=player, colour=colour)
                issued.append(IssuedLink(link, token, pairing.white.name, pairing.black.name))
        audit.record(club, who, "moves-links", f"tournament {tournament.id} round {round_}",
                     new={"links": len(issued), "days": club.moves_link_days},
                     summary=Text(gettext_noop("%(links)s (one per player), earlier ones of these boards revoked"),
                                  links=Text(Nn_("%(count)s moves link", "%(count)s moves links"), count=len(issued))))
    return issued


def revoke_link(link: MovesLink, *, who: str, now: dt.datetime | None = None) -> Outcome:
    with history_write(link.tournament.club_id) as club:
        reread(link)
        if link.revoked is not None:
            raise Refused(gettext_noop("moves link %(id)s is revoked already"), id=link.id)
        link.revoked = now or timezone.now()
        link.save(update_fields=["revoked"])
        audit.record(club, who, "moves-link-revoke", _target(link))
    return Outcome(f"moves link {link.id} ({_target(link)}) revoked")


# --- links follow their game through the arbiter's pairing changes (club/pairing_changes.py) -----

def games_of_links(tournament: Tournament, rnd: int) -> dict[int, frozenset[int]]:
    """Every link of an evening round's boards (revoked ones too: their waiting submissions
    count for the board) and the two players of its board, read before a pairing change."""
    rows = MovesLink.objects.filter(tournament=tournament, round=rnd).exclude(evening_board=None).values_list(
        "id", "evening_board__white_id", "evening_board__black_id")
    return {link: frozenset((white, black)) for link, white, black in rows}


def detach_links(before: dict[int, frozenset[int]]) -> None:
    """Before a round's boards are deleted to be paired again: the links are kept, not deleted
    with them (:func:`follow_pairings` finds their game again)."""
    MovesLink.objects.filter(id__in=before).update(evening_board=None)


def follow_pairings(club: Club, tournament: Tournament, rnd: int, before: dict[int, frozenset[int]], *, who: str,
                    now: dt.datetime | None = None) -> str:
    """After a pairing change (under its lock): a link follows its game, the same two players on
    whatever board and in whatever colours, and stays its player's; its waiting submissions take
    the side its player has now. A link whose two players no longer play each other is revoked,
    its waiting submissions set aside (SubmissionReason.PAIRING_CHANGED). A line for the change's
    message ("" when no link was made)."""
    now = now or timezone.now()
    boards = {frozenset((b.white_id, b.black_id)): b for b in EveningBoard.objects.filter(tournament=tournament,
                                                                                          round=rnd)}
    kept = revoked = 0
    for link in MovesLink.objects.filter(id__in=before):
        board = boards.get(before[link.id])
        waiting = MovesSubmission.objects.filter(link=link, state=PENDING)
        if board is None:
            waiting.update(state=SET_ASIDE, reason=SubmissionReason.PAIRING_CHANGED)
            revoked += link.revoked is None
            link.evening_board, link.revoked = None, link.revoked or now
            link.save(update_fields=["evening_board", "revoked"])
            continue
        kept += link.revoked is None
        link.evening_board, link.board = board, board.board
        link.save(update_fields=["evening_board", "board"])
        if link.player_id is not None:
            waiting.update(side=WHITE if board.white_id == link.player_id else BLACK)
    if not before:
        return ""
    audit.record(club, who, "moves-links-follow", f"tournament {tournament.id} round {rnd}",
                 new={"kept": kept, "revoked": revoked})
    gone = f", {plural(revoked, 'moves link')} revoked (their players no longer play each other)" if revoked else ""
    return f"; the moves links follow their players{gone}"


def _target(link: MovesLink) -> str:
    board = "" if link.board is None else f" board {link.board}"
    return f"tournament {link.tournament_id} round {link.round}{board}"


def open_link(token: str, *, now: dt.datetime | None = None) -> MovesLink:
    """The live link of this token, or NotFound (one message for unknown, expired and revoked)."""
    now = now or timezone.now()
    found = MovesLink.objects.filter(token_hash=token_hash(token)).select_related(
        "tournament__club", "evening_board__white__member", "evening_board__black__member",
        "evening_board__game", "game__white__member", "game__black__member").first()
    if found is None or found.revoked is not None or found.expires <= now:
        raise NotFound(INVALID_LINK)
    return found


def game_of(link: MovesLink) -> Game | None:
    """The link's stored game: an evening board has one once its result is entered."""
    game_id = link.game_id
    if game_id is None and link.evening_board_id is not None:
        game_id = EveningBoard.objects.filter(id=link.evening_board_id).values_list("game_id", flat=True).first()
    return None if game_id is None else Game.objects.select_related("white", "black", "tournament").get(id=game_id)


def side_of(link: MovesLink) -> str:
    """The side the link's player plays now (colours may have been swapped since the slip was
    printed); EITHER for a link made before links were issued per player."""
    if link.player_id is None:
        return EITHER
    rows = (EveningBoard.objects if link.evening_board_id is not None else Game.objects).filter(moves_links=link.id)
    pairing = rows.values_list("white_id", "black_id").first()
    if pairing is None or link.player_id not in pairing:
        raise NotFound(INVALID_LINK)
    return WHITE if pairing[0] == link.player_id else BLACK


def _address_key(address: str | None) -> str:
    """A keyed hash of the client address (the secret key): the throttle counts it, and the
    address itself is never stored."""
    return "address:" + hmac.new(settings.SECRET_KEY.encode(), (address or "?").encode(), "sha256").hexdigest()[:48]


def throttled(link: MovesLink | None, address: str | None, *, now: dt.datetime | None = None) -> bool:
    """Whether this link or this address has used its submissions of the window (or, for a
    mistyped link, its attempts); counts this attempt otherwise."""
    now = now or timezone.now()
    since = now - THROTTLE_WINDOW
    MovesAttempt.objects.filter(when__lt=now - dt.timedelta(days=1)).delete()
    keys = [(_address_key(address), PER_ADDRESS)] + ([(f"link:{link.id}", PER_LINK)] if link else [])
    if any(MovesAttempt.objects.filter(key=key, when__gt=since).count() >= limit for key, limit in keys):
        return True
    MovesAttempt.objects.bulk_create([MovesAttempt(key=key, when=now) for key, _ in keys])
    return False


_COMMENT = re.compile(r"\{[^}]*\}")


def sans(movetext: str) -> list[str]:
    """The moves of a stored movetext, without numbers and clock comments: what two players'
    texts are compared by (each may write their own clock)."""
    return [w for w in _COMMENT.sub(" ", movetext).split() if not w[0].isdigit()]


def submit(link: MovesLink, text: str, *, now: dt.datetime | None = None) -> Outcome:
    """Keep a player's moves (MoveError for an illegal one, nothing kept); White's and Black's
    that agree are stored in the game at once. The same side twice is one player, not two who
    agree; a link of either side waits for the arbiter."""
    moves = read_typed_moves(text)
    now = now or timezone.now()
    with history_write(link.tournament.club_id):
        reread(link)
        game = game_of(link)
        if game is not None and game.moves.strip():
            raise Refused(gettext_noop("this game's moves are stored already: thank you"))
        if link.revoked is not None:
            raise NotFound(INVALID_LINK)
        mine = MovesSubmission.objects.create(link=link, text=text, moves=" ".join(sans(moves.movetext)),
                                              plies=moves.plies, created=now, side=side_of(link))
        agreeing = None if mine.side == EITHER else _pending(link).filter(
            moves=mine.moves, side=BLACK if mine.side == WHITE else WHITE).first()
        if agreeing is None or game is None:
            waiting = ("" if game is not None else " (its result is not entered yet)") + (
                " (through a link of either player, not of one side)" if mine.side == EITHER else "")
            return Outcome(f"{plural(moves.plies, 'half-move')} received; the arbiter checks them{waiting}")
        try:
            attach_typed_moves(game, agreeing.text, who=PLAYERS, from_players=True)
        except NeedsConfirmation:
            return Outcome(f"{plural(moves.plies, 'half-move')} received; they end against the result, "
                           "so the arbiter checks them")
        _settle(link, accepted=(agreeing.id, mine.id), reason=SubmissionReason.BOTH_SIDES)
    return Outcome(f"{plural(moves.plies, 'half-move')} received and agreeing with your opponent's: stored")


def accept_agreeing(game: Game) -> str:
    """The board's result has just come in after its players' moves: White's and Black's waiting
    submissions that agree are stored now, as they would have been at submission. Moves ending
    against the result wait for the arbiter. A line for the result's message ("" when nothing
    waited)."""
    pending = pending_for(game)
    pair = next(((a, b) for i, a in enumerate(pending) for b in pending[i + 1:]
                 if b.moves == a.moves and {a.side, b.side} == {WHITE, BLACK}), None)
    if pair is None:
        return ""
    try:
        attach_typed_moves(game, pair[0].text, who=PLAYERS, from_players=True)
    except (NeedsConfirmation, Refused) as error:
        return f"; the players' agreeing moves wait for the arbiter: {error}"
    _settle(pair[0].link, accepted=(pair[0].id, pair[1].id), reason=SubmissionReason.WITH_RESULT)
    return "; the players' agreeing moves stored"


def _pending(link: MovesLink) -> Any:
    """The pending submissions of the link's board, whichever of its links they came through."""
    if link.evening_board_id is None and link.game_id is None:   # revoked by a pairing change
        return MovesSubmission.objects.filter(link=link, state=PENDING)
    board = Q(link__evening_board_id=link.evening_board_id) if link.evening_board_id else Q(link__game_id=link.game_id)
    return MovesSubmission.objects.filter(board, state=PENDING)


def _settle(link: MovesLink, *, accepted: tuple[int, ...], reason: SubmissionReason) -> None:
    _pending(link).filter(id__in=accepted).update(state=ACCEPTED, reason=reason)
    _pending(link).update(state=SET_ASIDE, reason=SubmissionReason.OTHER_ACCEPTED)


@dataclass(frozen=True)
class Difference:
    """Where two submissions part: the first half-move that is not the same in both."""

    number: int
    side: str
    one: str     # "" when that text ends before
    other: str

    def __str__(self) -> str:
        return (f"move {self.number} ({self.side}): {self.one or '(ends here)'} / "
                f"{self.other or '(ends here)'}")


def first_difference(one: str, other: str) -> Difference | None:
    a, b = one.split(), other.split()
    for ply in range(max(len(a), len(b))):
        left, right = (a[ply] if ply < len(a) else ""), (b[ply] if ply < len(b) else "")
        if left != right:
            return Difference(ply // 2 + 1, "White" if ply % 2 == 0 else "Black", left, right)
    return None


def pending_for(game: Game) -> list[MovesSubmission]:
    """The players' submissions of this game still waiting for the arbiter, oldest first."""
    return list(MovesSubmission.objects.filter(Q(link__game=game) | Q(link__evening_board__game=game),
                                               state=PENDING).select_related("link__player").order_by("created", "id"))


def accept_submission(submission: MovesSubmission, *, who: str, confirm: bool = False) -> Outcome:
    """The arbiter picks this submission: its moves are stored in the game (the others of the
    board are set aside)."""
    link = submission.link
    game = game_of(link)
    if game is None:
        raise Refused(gettext_noop("enter the game's result first: its moves are stored with it"))
    if submission.state != PENDING:
        raise Refused(gettext_noop("this submission is decided already"))
    with history_write(link.tournament.club_id):
        outcome = attach_typed_moves(game, submission.text, who=who, confirm=confirm, from_players=True)
        _settle(link, accepted=(submission.id,), reason=SubmissionReason.ARBITER)
        audit.record(link.tournament.club, who, "moves-accept", _target(link),
                     new={"submission": submission.id, "side": submission.side or "either"},
                     summary=Text(gettext_noop("entered by the players, accepted by the arbiter")))
    return outcome


def decided_for(game: Game) -> list[MovesSubmission]:
    """The players' submissions of this game no longer waiting (accepted, set aside,
    superseded), each with its reason, oldest first."""
    return list(MovesSubmission.objects.filter(Q(link__game=game) | Q(link__evening_board__game=game)).exclude(
        state=PENDING).select_related("link__player").order_by("created", "id"))


def links_of(tournament: Tournament) -> list[MovesLink]:
    return list(MovesLink.objects.filter(tournament=tournament).select_related(
        "player", "evening_board__white", "evening_board__black", "game__white", "game__black").order_by(
        "round", "board", "id"))
