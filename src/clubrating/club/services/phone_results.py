"""Results from the players' phones: a board's moves link also takes its result.

A result sent through a player's link (:class:`~clubrating.club.store.models.ResultSubmission`) is
kept apart from the board. White's and Black's that agree, vouched for as moves are (each
from its own link's device, the two from two devices: :func:`moves_links.vouched`), are
entered at once through the arbiter's own :func:`clubrating.club.services.evening.enter_result`,
audited as entered by the players (``moves_links.PLAYERS``); the arbiter corrects it as any
result. Anything else waits for the arbiter, whose pages show every answer beside its board
(:func:`answers_of_round`): one side alone, two that differ, both sides from one device, a
link used from a device other than its own. A result already entered, by the arbiter or by
the phones, is never changed from a phone; nor is a published evening's or a closed round's.

Only the three results of a game played over the board are taken (1-0, 0-1, ½-½): forfeits
and byes are the arbiter's. The throttles and the device rules are the moves' own
(docs/moves.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.services.evening import enter_result, evening_of
from clubrating.club.store.locking import history_write
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.store.locking import reread
from clubrating.club.store.models import (
    EveningBoard,
    Game,
    MovesLink,
    ResultSubmission,
    SubmissionReason,
    Tournament,
)
from clubrating.club.services import moves_links as ml
from clubrating.club.services.outcome import Outcome
from clubrating.errors import InputError, NotFound, Refused, Text
from clubrating.formats.results import GameResult

PHONE_RESULTS = (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)
"""What a phone may send: a game played over the board; forfeits are the arbiter's."""
NOTHING_SENT = gettext_noop("nothing was sent: type the moves, choose the result, or both")


def parse_phone_result(text: str) -> GameResult:
    """A result as a phone sends it; Refused for anything but 1-0, 0-1 and ½-½."""
    try:
        found = GameResult.parse(text)
    except InputError:
        found = None
    if found not in PHONE_RESULTS:
        raise Refused(
            gettext_noop(
                "a result sent from a phone is 1-0, 0-1 or 1/2-1/2: the arbiter enters forfeits"
            )
        )
    assert found is not None
    return found


def _open_board(link: MovesLink) -> EveningBoard:
    """The link's evening board, if its result may still come from a phone."""
    if link.revoked is not None:
        raise NotFound(ml.INVALID_LINK)
    board = link.evening_board
    if board is None:  # an imported tournament's game: its result came with the file
        raise Refused(gettext_noop("this game's result is entered already: thank you"))
    reread(board)
    evening = evening_of(board.tournament)  # Refused once the evening is published
    if board.game is not None:
        raise Refused(
            gettext_noop(
                "this game's result is entered already (%(result)s): only the arbiter changes it"
            ),
            result=game_result_text(board.game),
        )
    if board.round != evening.paired_rounds:
        raise Refused(gettext_noop("this round is closed: ask the arbiter"))
    return board


def submit_result(
    link: MovesLink, text: str, *, device: str, now: dt.datetime | None = None
) -> Outcome:
    """Keep a player's result sent from ``device``; White's and Black's that agree are entered."""
    result = parse_phone_result(text)
    now = now or timezone.now()
    with history_write(link.tournament.club_id) as club:
        reread(link)
        board = _open_board(link)
        key = ml.device_key(link, device)
        ml.claim(club, link, key)
        mine = ResultSubmission.objects.create(
            link=link, result=result.value, created=now, side=ml.side_of(link), device=key
        )
        audit.record(
            club,
            ml.PLAYERS,
            "phone-result",
            _target(board),
            new={"result": result.value, "side": mine.side or "either"},
        )
        others = [a for a in latest(pending_answers(board)) if a.id != mine.id]
        agreeing = next(
            (a for a in others if a.result == mine.result and ml.vouched(a, mine)), None
        )
        if agreeing is None:
            return Outcome(Text(_why_waiting(mine, others), result=result.value))
        ResultSubmission.objects.filter(id__in=(mine.id, agreeing.id)).update(
            state=ml.ACCEPTED, reason=SubmissionReason.RESULTS_AGREED
        )
        enter_result(board, result.value, who=ml.PLAYERS)
        moves = Game.objects.filter(evening_board=board).exclude(moves="").exists()
    return Outcome(
        Text(
            gettext_noop("%(result)s received and agreeing with your opponent's: entered")
            if not moves
            else gettext_noop(
                "%(result)s received and agreeing with your opponent's: entered, with the moves"
            ),
            result=result.value,
        )
    )


def _why_waiting(mine: ResultSubmission, others: list[ResultSubmission]) -> str:
    """The phone's answer to a result that waits: the first reason that holds."""
    if mine.side == ml.EITHER:
        return gettext_noop(
            "%(result)s received; the arbiter checks it (a link of either player, not of one side)"
        )
    if mine.device != mine.link.device:
        return gettext_noop(
            "%(result)s received; the link is in use on another device, so the arbiter checks it"
        )
    if any(a.device == mine.device and a.side not in (mine.side, ml.EITHER) for a in others):
        return gettext_noop(
            "%(result)s received; it waits for the arbiter: both sides were sent from one device"
        )
    if any(a.side not in (mine.side, ml.EITHER) and a.result != mine.result for a in others):
        return gettext_noop(
            "%(result)s received; your opponent sent another result, so the arbiter decides"
        )
    return gettext_noop("%(result)s received; it is entered when your opponent sends the same")


def submit_from_phone(
    link: MovesLink, moves: str, result: str, *, device: str, now: dt.datetime | None = None
) -> Outcome:
    """What the phone page sends: the moves, the result, or both, kept together or not at all
    (an illegal move keeps no result either)."""
    if not moves.strip() and not result:
        raise Refused(NOTHING_SENT)
    with history_write(link.tournament.club_id):
        said = [ml.submit(link, moves, device=device, now=now)] if moves.strip() else []
        if result:
            said.append(submit_result(link, result, device=device, now=now))
    if len(said) == 1:
        return said[0]
    return Outcome(
        Text(gettext_noop("%(moves)s; %(result)s"), moves=_text(said[0]), result=_text(said[1]))
    )


def _text(outcome: Outcome) -> Text:
    message = outcome.message
    return message if isinstance(message, Text) else Text(message)


def _target(board: EveningBoard) -> str:
    return f"tournament {board.tournament_id} round {board.round} board {board.board}"


def pending_answers(board: EveningBoard) -> list[ResultSubmission]:
    """The results the board's phones sent that still wait, oldest first."""
    return list(
        ResultSubmission.objects.filter(link__evening_board=board, state=ml.PENDING)
        .select_related("link")
        .order_by("created", "id")
    )


def latest(answers: list[ResultSubmission]) -> list[ResultSubmission]:
    """Each sender's last word, oldest first: a player who sends again changed their mind, so
    only the newest answer of each side from each device counts (and is shown)."""
    last = {(a.side, a.device): a for a in answers}
    return [a for a in answers if last[a.side, a.device] is a]


@dataclass(frozen=True)
class Answer:
    """A result a phone sent, as the arbiter's pages show it beside its board."""

    side: str  # "white", "black", "" (a link of either player)
    result: str
    why: str  # untranslated: why it waits, where its device is the reason ("" otherwise)


def answers_of_round(tournament: Tournament, rnd: int) -> dict[int, list[Answer]]:
    """Board id -> the results its phones sent that still wait, for the boards of the round."""
    pending = list(
        ResultSubmission.objects.filter(
            link__evening_board__tournament=tournament,
            link__evening_board__round=rnd,
            state=ml.PENDING,
        )
        .select_related("link")
        .order_by("created", "id")
    )
    by_board: dict[int, list[ResultSubmission]] = {}
    for answer in pending:
        assert answer.link.evening_board_id is not None
        by_board.setdefault(answer.link.evening_board_id, []).append(answer)
    shown = {}
    for board, sent in by_board.items():
        answers = latest(sent)
        reasons = ml.waiting_reasons(answers)
        shown[board] = [Answer(a.side, a.result, reasons.get(a.id, "")) for a in answers]
    return shown
