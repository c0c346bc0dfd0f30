"""Players enter their own game: a moves link per player of a board, and what they submit
through it.

A link is a capability: whoever holds its token may submit that one game's moves, nothing
else. Each of a board's two players gets their own, so that a submission knows its side. The token
(``secrets.token_urlsafe``, 128 random bits) is shown once, on the slips
printed when it is made; only its SHA-256 is stored, so the database alone opens no game.
A link expires after the club's ``moves_link_days`` and the arbiter may revoke it.

A link belongs to the device that first opens it: a random id in the phone's cookie, kept as
a keyed hash per tournament (:func:`device_key`), never an address or a browser's name. A
submission keeps the device that sent it.

A submission is read by the arbiter's parser (:func:`clubrating.formats.movetext.read_typed_moves`)
and kept apart from the game. White's and Black's submissions whose moves agree, each sent from
its own link's device and the two from two devices, are stored at once through
:func:`clubrating.club.services.moves.attach_typed_moves`, audited as entered by the players.
Everything else waits for the arbiter, who sees the first move where they differ and why each
waits (:func:`waiting_reasons`), and accepts one: one side alone (however often it sends), two
that differ, both sides from one device, a link used from a device other than its own, a link
made before links were per player (either side), a game without its result yet.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.store.locking import history_write
from clubrating.club.store.locking import reread
from clubrating.club.store.models import (
    Club,
    Evening,
    EveningBoard,
    Game,
    MovesAttempt,
    MovesLink,
    MovesSubmission,
    ResultSubmission,
    SubmissionReason,
    Tournament,
)
from clubrating.club.services.moves import (
    SUBMISSION_PENDING,
    SUBMISSION_SUPERSEDED,
    NeedsConfirmation,
    attach_typed_moves,
)
from clubrating.club.services.outcome import Outcome
from clubrating.errors import NotFound, Refused, Text
from clubrating.formats.movetext import read_typed_moves
from clubrating.words import Nn_

TOKEN_BYTES = 16  # 128 random bits, the least a capability URL needs against guessing
DEVICE_BYTES = 16  # a device's random id (the phone page's cookie): 128 bits, as a token
PLAYERS = "the players (moves link)"  # the audit's "who" of moves the players entered
PENDING, ACCEPTED, SET_ASIDE, SUPERSEDED = (
    SUBMISSION_PENDING,
    "accepted",
    "set-aside",
    SUBMISSION_SUPERSEDED,
)
WHITE, BLACK, EITHER = (
    "white",
    "black",
    "",
)  # a link's and a submission's side; EITHER: a link without a player

# The throttles, per window, each spent only by whoever sends too much. A link's own device may
# send PER_LINK submissions (one is needed, a retry or two after a typing mistake), and every
# other device together as many again, so that an opponent holding the slip does not spend the
# player's own. A request to an unknown link counts against its client address (GUESSES), and
# only requests to unknown links are refused for it: the phones of a club's Wi-Fi share one
# address, and one guessing there must not stop the others' valid links. What stops guessing
# is the 128-bit token; the throttle bounds what a guesser costs the site.
THROTTLE_WINDOW = dt.timedelta(hours=1)
PER_LINK = 10
GUESSES = 30
INVALID_LINK = gettext_noop(
    "this moves link does not work (mistyped, expired or revoked): ask the arbiter for the slip"
)

# Why a waiting submission was not stored by agreement, where its device is the reason (the
# arbiter's game page).
ONE_DEVICE = gettext_noop("waits for the arbiter: both sides were sent from one device")
OTHER_DEVICE = gettext_noop(
    "waits for the arbiter: the link is in use on another device, and this was sent "
    "from a different one"
)
NO_DEVICE = gettext_noop("waits for the arbiter: sent before submissions kept their device")
Sent = MovesSubmission | ResultSubmission  # what a player sends through their link
RECEIVED = Nn_("%(count)s half-move received", "%(count)s half-moves received")


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
        return [
            (b, b.game)
            for b in EveningBoard.objects.filter(tournament=tournament, round=round_)
            .select_related("white", "black", "game")
            .order_by("board")
        ]
    games = (
        Game.objects.filter(tournament=tournament, round=round_, played=True, moves="")
        .select_related("white", "black")
        .order_by("board", "id")
    )
    return [(None, g) for g in games]


def issue_links(
    tournament: Tournament, round_: int, *, who: str, now: dt.datetime | None = None
) -> list[IssuedLink]:
    """A new link for each player of every board of the round (the slips printed now), White's
    first; a board's earlier links are revoked, since only the newest slip is on the board."""
    now = now or timezone.now()
    with history_write(tournament.club_id) as club:
        reread(tournament)
        boards = _boards(tournament, round_)
        if not boards:
            raise Refused(
                gettext_noop("round %(round)s of '%(name)s' has no board waiting for its moves"),
                round=round_,
                name=tournament.name,
            )
        issued = []
        for board, game in boards:
            earlier = MovesLink.objects.filter(revoked=None).filter(
                Q(evening_board=board) if board is not None else Q(game=game)
            )
            earlier.update(revoked=now)
            pairing = board or game
            assert pairing is not None
            for colour, player in ((WHITE, pairing.white), (BLACK, pairing.black)):
                token = secrets.token_urlsafe(TOKEN_BYTES)
                link = MovesLink.objects.create(
                    tournament=tournament,
                    round=round_,
                    board=pairing.board,
                    evening_board=board,
                    game=game if board is None else None,
                    token_hash=token_hash(token),
                    created=now,
                    expires=now + dt.timedelta(days=club.moves_link_days),
                    player=player,
                    colour=colour,
                )
                issued.append(IssuedLink(link, token, pairing.white.name, pairing.black.name))
        audit.record(
            club,
            who,
            "moves-links",
            f"tournament {tournament.id} round {round_}",
            new={"links": len(issued), "days": club.moves_link_days},
            summary=Text(
                gettext_noop("%(links)s (one per player), earlier ones of these boards revoked"),
                links=Text(Nn_("%(count)s moves link", "%(count)s moves links"), count=len(issued)),
            ),
        )
    return issued


def revoke_link(link: MovesLink, *, who: str, now: dt.datetime | None = None) -> Outcome:
    with history_write(link.tournament.club_id) as club:
        reread(link)
        if link.revoked is not None:
            raise Refused(gettext_noop("moves link %(id)s is revoked already"), id=link.id)
        link.revoked = now or timezone.now()
        link.save(update_fields=["revoked"])
        audit.record(club, who, "moves-link-revoke", _target(link))
    return Outcome(
        Text(
            gettext_noop("moves link %(id)s (%(game)s) revoked"), id=link.id, game=target_text(link)
        )
    )


def release_device(link: MovesLink, *, who: str) -> Outcome:
    """The arbiter frees a link from the device that opened it (a phone lost or flat, a chat
    app that opened it for a preview): the next device to open it is its own. What the former
    device sent stays, and no longer agrees with anything."""
    with history_write(link.tournament.club_id) as club:
        reread(link)
        if link.revoked is not None:
            raise Refused(gettext_noop("moves link %(id)s is revoked already"), id=link.id)
        if not link.device:
            raise Refused(
                gettext_noop("moves link %(id)s is not opened on any phone yet"), id=link.id
            )
        link.device = ""
        link.save(update_fields=["device"])
        audit.record(club, who, "moves-link-release", _target(link))
    return Outcome(
        Text(
            gettext_noop(
                "moves link %(id)s freed: the next phone that opens it is the one it belongs to"
            ),
            id=link.id,
        )
    )


# --- links follow their game through the arbiter's pairing changes (services/pairing_changes.py)


def games_of_links(tournament: Tournament, rnd: int) -> dict[int, frozenset[int]]:
    """Every link of an evening round's boards (revoked ones too: their waiting submissions
    count for the board) and the two players of its board, read before a pairing change."""
    rows = (
        MovesLink.objects.filter(tournament=tournament, round=rnd)
        .exclude(evening_board=None)
        .values_list("id", "evening_board__white_id", "evening_board__black_id")
    )
    return {link: frozenset((white, black)) for link, white, black in rows}


def detach_links(before: dict[int, frozenset[int]]) -> None:
    """Before a round's boards are deleted to be paired again: the links are kept, not deleted
    with them (:func:`follow_pairings` finds their game again)."""
    MovesLink.objects.filter(id__in=before).update(evening_board=None)


def follow_pairings(
    club: Club,
    tournament: Tournament,
    rnd: int,
    before: dict[int, frozenset[int]],
    *,
    who: str,
    now: dt.datetime | None = None,
) -> Text | str:
    """After a pairing change (under its lock): a link follows its game, the same two players on
    whatever board and in whatever colours, and stays its player's; its waiting submissions take
    the side its player has now. A link whose two players no longer play each other is revoked,
    its waiting submissions set aside (SubmissionReason.PAIRING_CHANGED). A line for the change's
    message ("" when no link was made)."""
    now = now or timezone.now()
    boards = {
        frozenset((b.white_id, b.black_id)): b
        for b in EveningBoard.objects.filter(tournament=tournament, round=rnd)
    }
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
    audit.record(
        club,
        who,
        "moves-links-follow",
        f"tournament {tournament.id} round {rnd}",
        new={"kept": kept, "revoked": revoked},
    )
    if not revoked:
        return Text(gettext_noop("; the moves links follow their players"))
    return Text(
        gettext_noop(
            "; the moves links follow their players, %(links)s revoked (their players no longer "
            "play each other)"
        ),
        links=Text(Nn_("%(count)s moves link", "%(count)s moves links"), count=revoked),
    )


def _target(link: MovesLink) -> str:
    """The link's game as the audit stores it (English, read back by the audit's sentences)."""
    board = "" if link.board is None else f" board {link.board}"
    return f"tournament {link.tournament_id} round {link.round}{board}"


def target_text(link: MovesLink) -> Text:
    """The link's game for a person: tournament, round and board, to translate."""
    if link.board is None:
        return Text(
            gettext_noop("tournament %(id)s round %(round)s"),
            id=link.tournament_id,
            round=link.round,
        )
    return Text(
        gettext_noop("tournament %(id)s round %(round)s board %(board)s"),
        id=link.tournament_id,
        round=link.round,
        board=link.board,
    )


def open_link(token: str, *, now: dt.datetime | None = None) -> MovesLink:
    """The live link of this token, or NotFound (one message for unknown, expired and revoked)."""
    now = now or timezone.now()
    found = (
        MovesLink.objects.filter(token_hash=token_hash(token))
        .select_related(
            "tournament__club",
            "evening_board__white__member",
            "evening_board__black__member",
            "evening_board__game",
            "game__white__member",
            "game__black__member",
        )
        .first()
    )
    if found is None or found.revoked is not None or found.expires <= now:
        raise NotFound(INVALID_LINK)
    return found


def game_of(link: MovesLink) -> Game | None:
    """The link's stored game: an evening board has one once its result is entered."""
    game_id = link.game_id
    if game_id is None and link.evening_board_id is not None:
        game_id = (
            EveningBoard.objects.filter(id=link.evening_board_id)
            .values_list("game_id", flat=True)
            .first()
        )
    return (
        None
        if game_id is None
        else Game.objects.select_related("white", "black", "tournament").get(id=game_id)
    )


def side_of(link: MovesLink) -> str:
    """The side the link's player plays now (colours may have been swapped since the slip was
    printed); EITHER for a link made before links were issued per player."""
    if link.player_id is None:
        return EITHER
    rows = (EveningBoard.objects if link.evening_board_id is not None else Game.objects).filter(
        moves_links=link.id
    )
    pairing = rows.values_list("white_id", "black_id").first()
    if pairing is None or link.player_id not in pairing:
        raise NotFound(INVALID_LINK)
    return WHITE if pairing[0] == link.player_id else BLACK


def _keyed(text: str) -> str:
    """A keyed hash (HMAC-SHA-256 with the installation's secret key) of ``text``: what is
    stored of a client address or a device id, never the thing itself."""
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), "sha256").hexdigest()[:32]


def new_device() -> str:
    """A device's random id, for the phone page's cookie."""
    return secrets.token_urlsafe(DEVICE_BYTES)


def device_key(link: MovesLink, device: str) -> str:
    """What is stored of a device that opens ``link``: keyed per tournament, so that the stored
    keys do not follow one phone from one event to the next."""
    return _keyed(f"device:{link.tournament_id}:{device}")


def open_on(link: MovesLink, device: str) -> bool:
    """The link opened on ``device``: the first device to open it becomes its own (audited
    ``moves-link-device``); whether ``device`` is that one."""
    key = device_key(link, device)
    if not link.device:
        with history_write(link.tournament.club_id) as club:
            claim(club, link, key)
    return link.device == key


def claim(club: Club, link: MovesLink, key: str) -> None:
    """Under the club's lock: the link's device is ``key`` unless one opened it before."""
    reread(link)
    if not link.device:
        link.device = key
        link.save(update_fields=["device"])
        audit.record(
            club,
            PLAYERS,
            "moves-link-device",
            _target(link),
            new={"link": link.id},
            summary=Text(gettext_noop("a moves link opened on its first device")),
        )


def _spent(key: str, limit: int, now: dt.datetime) -> bool:
    """Whether ``key`` has had its ``limit`` of the window; counts this try otherwise."""
    MovesAttempt.objects.filter(when__lt=now - dt.timedelta(days=1)).delete()
    if MovesAttempt.objects.filter(key=key, when__gt=now - THROTTLE_WINDOW).count() >= limit:
        return True
    MovesAttempt.objects.create(key=key, when=now)
    return False


def submission_throttled(link: MovesLink, *, own: bool, now: dt.datetime | None = None) -> bool:
    """Whether this link has had its submissions of the window from its own device (``own``),
    or from all other devices together; counts this one otherwise."""
    return _spent(f"link:{link.id}:{'own' if own else 'other'}", PER_LINK, now or timezone.now())


def guess_throttled(address: str | None, *, now: dt.datetime | None = None) -> bool:
    """Whether this client address has had its requests to unknown links of the window; counts
    this one otherwise. The address is kept only as a keyed hash, for a day."""
    return _spent("guess:" + _keyed(f"address:{address or '?'}"), GUESSES, now or timezone.now())


_COMMENT = re.compile(r"\{[^}]*\}")


def sans(movetext: str) -> list[str]:
    """The moves of a stored movetext, without numbers and clock comments: what two players'
    texts are compared by (each may write their own clock)."""
    return [w for w in _COMMENT.sub(" ", movetext).split() if not w[0].isdigit()]


def vouched(one: Sent, other: Sent) -> bool:
    """Two players vouch for what they sent: White's and Black's, each sent from its own link's
    device, the two from two devices (a phone that sends both sides is one person)."""
    return (
        {one.side, other.side} == {WHITE, BLACK}
        and all(s.device and s.device == s.link.device for s in (one, other))
        and one.device != other.device
    )


def _agree(one: MovesSubmission, other: MovesSubmission) -> bool:
    """Two players vouch for the same moves."""
    return one.moves == other.moves and vouched(one, other)


def submit(link: MovesLink, text: str, *, device: str, now: dt.datetime | None = None) -> Outcome:
    """Keep a player's moves sent from ``device`` (MoveError for an illegal one, nothing kept);
    White's and Black's that agree (:func:`_agree`) are stored in the game at once."""
    moves = read_typed_moves(text)
    now = now or timezone.now()
    with history_write(link.tournament.club_id) as club:
        reread(link)
        game = game_of(link)
        if game is not None and game.moves.strip():
            raise Refused(gettext_noop("this game's moves are stored already: thank you"))
        if link.revoked is not None:
            raise NotFound(INVALID_LINK)
        claim(club, link, device_key(link, device))
        mine = MovesSubmission.objects.create(
            link=link,
            text=text,
            moves=" ".join(sans(moves.movetext)),
            plies=moves.plies,
            created=now,
            side=side_of(link),
            device=device_key(link, device),
        )
        received = Text(RECEIVED, count=moves.plies)
        others = list(_pending(link).exclude(id=mine.id).select_related("link"))
        agreeing = next((s for s in others if _agree(s, mine)), None)
        if agreeing is None or game is None:
            return Outcome(Text(_why_not_stored(mine, others, game), received=received))
        try:
            attach_typed_moves(game, agreeing.text, who=PLAYERS, from_players=True)
        except NeedsConfirmation:
            return Outcome(
                Text(
                    gettext_noop(
                        "%(received)s; they end against the result, so the arbiter checks them"
                    ),
                    received=received,
                )
            )
        _settle(link, accepted=(agreeing.id, mine.id), reason=SubmissionReason.BOTH_SIDES)
    return Outcome(
        Text(
            gettext_noop("%(received)s and agreeing with your opponent's: stored"),
            received=received,
        )
    )


def _why_not_stored(mine: MovesSubmission, others: list[MovesSubmission], game: Game | None) -> str:
    """The phone's answer to a submission that waits: the first reason that holds."""
    if mine.side == EITHER:
        return gettext_noop(
            "%(received)s; the arbiter checks them (through "
            "a link of either player, not of one side)"
        )
    if mine.device != mine.link.device:
        return gettext_noop(
            "%(received)s; the link is in use on another device, so the arbiter checks them"
        )
    if any(s.device == mine.device and s.side not in (mine.side, EITHER) for s in others):
        return gettext_noop(
            "%(received)s; they wait for the arbiter: both sides were sent from one device"
        )
    if game is None:
        return gettext_noop("%(received)s; the arbiter checks them (its result is not entered yet)")
    return gettext_noop("%(received)s; the arbiter checks them")


def waiting_reasons(pending: Sequence[Sent]) -> dict[int, str]:
    """Why each of a game's waiting submissions is not stored by agreement, where its device is
    the reason (untranslated; the arbiter's page translates them)."""
    reasons = {}
    for s in pending:
        if not s.device:
            reasons[s.id] = NO_DEVICE
        elif s.device != s.link.device:
            reasons[s.id] = OTHER_DEVICE
        elif any(
            o.device == s.device and EITHER not in (o.side, s.side) and o.side != s.side
            for o in pending
        ):
            reasons[s.id] = ONE_DEVICE
    return reasons


def accept_agreeing(game: Game) -> Text | str:
    """The board's result has just come in after its players' moves: White's and Black's waiting
    submissions that agree are stored now, as they would have been at submission. Moves ending
    against the result wait for the arbiter. A line for the result's message ("" when nothing
    waited)."""
    pending = pending_for(game)
    pair = next(
        ((a, b) for i, a in enumerate(pending) for b in pending[i + 1 :] if _agree(a, b)), None
    )
    if pair is None:
        return ""
    try:
        attach_typed_moves(game, pair[0].text, who=PLAYERS, from_players=True)
    except (NeedsConfirmation, Refused) as error:
        return Text(
            gettext_noop("; the players' agreeing moves wait for the arbiter: %(error)s"),
            error=error,
        )
    _settle(pair[0].link, accepted=(pair[0].id, pair[1].id), reason=SubmissionReason.WITH_RESULT)
    return Text(gettext_noop("; the players' agreeing moves stored"))


def close_answers(board: EveningBoard) -> None:
    """The board's result has just been entered: the results its players' phones sent that still
    wait are closed (an agreeing pair was marked accepted before)."""
    ResultSubmission.objects.filter(link__evening_board=board, state=PENDING).update(
        state=SUPERSEDED, reason=SubmissionReason.RESULT_ENTERED
    )


def _pending(link: MovesLink) -> QuerySet[MovesSubmission]:
    """The pending submissions of the link's board, whichever of its links they came through."""
    if link.evening_board_id is None and link.game_id is None:  # revoked by a pairing change
        return MovesSubmission.objects.filter(link=link, state=PENDING)
    board = (
        Q(link__evening_board_id=link.evening_board_id)
        if link.evening_board_id
        else Q(link__game_id=link.game_id)
    )
    return MovesSubmission.objects.filter(board, state=PENDING)


def _settle(link: MovesLink, *, accepted: tuple[int, ...], reason: SubmissionReason) -> None:
    _pending(link).filter(id__in=accepted).update(state=ACCEPTED, reason=reason)
    _pending(link).update(state=SET_ASIDE, reason=SubmissionReason.OTHER_ACCEPTED)


@dataclass(frozen=True)
class Difference:
    """Where two submissions part: the first half-move that is not the same in both."""

    number: int
    side: str
    one: str  # "" when that text ends before
    other: str

    @property
    def text(self) -> Text:
        """Where they part, to translate: "move 12 (Black): Bd7 / Kh8"."""
        ends = gettext_noop("(ends here)")
        return Text(
            gettext_noop("move %(number)s (%(side)s): %(one)s / %(other)s"),
            number=self.number,
            side=Text(gettext_noop("White") if self.side == "White" else gettext_noop("Black")),
            one=self.one or Text(ends),
            other=self.other or Text(ends),
        )

    def __str__(self) -> str:
        return str(self.text)


def first_difference(one: str, other: str) -> Difference | None:
    a, b = one.split(), other.split()
    for ply in range(max(len(a), len(b))):
        left, right = (a[ply] if ply < len(a) else ""), (b[ply] if ply < len(b) else "")
        if left != right:
            return Difference(ply // 2 + 1, "White" if ply % 2 == 0 else "Black", left, right)
    return None


def pending_for(game: Game) -> list[MovesSubmission]:
    """The players' submissions of this game still waiting for the arbiter, oldest first."""
    return list(
        MovesSubmission.objects.filter(
            Q(link__game=game) | Q(link__evening_board__game=game), state=PENDING
        )
        .select_related("link__player")
        .order_by("created", "id")
    )


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
        outcome = attach_typed_moves(
            game, submission.text, who=who, confirm=confirm, from_players=True
        )
        _settle(link, accepted=(submission.id,), reason=SubmissionReason.ARBITER)
        audit.record(
            link.tournament.club,
            who,
            "moves-accept",
            _target(link),
            new={"submission": submission.id, "side": submission.side or "either"},
            summary=Text(gettext_noop("entered by the players, accepted by the arbiter")),
        )
    return outcome


def decided_for(game: Game) -> list[MovesSubmission]:
    """The players' submissions of this game no longer waiting (accepted, set aside,
    superseded), each with its reason, oldest first."""
    return list(
        MovesSubmission.objects.filter(Q(link__game=game) | Q(link__evening_board__game=game))
        .exclude(state=PENDING)
        .select_related("link__player")
        .order_by("created", "id")
    )


def links_of(tournament: Tournament) -> list[MovesLink]:
    return list(
        MovesLink.objects.filter(tournament=tournament)
        .select_related(
            "player", "evening_board__white", "evening_board__black", "game__white", "game__black"
        )
        .order_by("round", "board", "id")
    )
