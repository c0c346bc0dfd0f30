"""The arbiter's hand on a round's pairings, before its first result: exchange two players
between boards, swap the colours of a board, or pair the round again (a Swiss only).

Each change is checked as the pairing itself is (:func:`clubrating.tournament.pairing._checked`'s
rules): every player of the round on one board or the bye, one bye at most, and no two players who
have met over the board before unless the arbiter confirms it. Once any result of the round is in,
the pairings are fixed and every change is refused in one line. Every change holds the club's
lock, leaves an audit entry with the boards before and after, and stores all of itself or nothing.
The round's moves links follow their game (the same two players) and stay their players'; a link
whose players no longer play each other is revoked (club/services/moves_links.follow_pairings).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.club.services.evening import (
    evening_of,
    history_of,
    plan_round,
    store_round,
    system_of,
)
from clubrating.club.store.locking import history_write
from clubrating.club.store.models import (
    Bye,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Tournament,
)
from clubrating.club.services.outcome import Outcome
from clubrating.club.store.locking import reread
from clubrating.club.services.moves_links import detach_links, follow_pairings, games_of_links
from clubrating.errors import InputError, Refused, Text
from clubrating.formats.records import ByeKind
from clubrating.words import Nn_
from clubrating.tournament.pairing import states_before
from clubrating.tournament.roundrobin import PairingSystem


def _open_round(tournament: Tournament) -> tuple[Evening, int]:
    """The evening and its current round, refused once a result of that round is in (a round
    robin's forfeits of a player who withdrew are stored at pairing and do not count)."""
    evening = evening_of(tournament)
    rnd = evening.paired_rounds
    if rnd == 0:
        raise Refused(gettext_noop("no round is paired yet: nothing to change"))
    board = first_result(tournament, rnd)
    if board is not None:
        raise Refused(
            gettext_noop(
                "round %(rnd)s has a result already (board %(board)s): its pairings are fixed"
            ),
            rnd=rnd,
            board=board,
        )
    return evening, rnd


def first_result(tournament: Tournament, rnd: int) -> int | None:
    """The first board of round ``rnd`` with a result in, or None while its pairings can change (a
    round robin's forfeits of a player who withdrew are stored at pairing and do not count)."""
    gone = set(
        EveningPlayer.objects.filter(
            entry__tournament=tournament, withdrawn_from__lte=rnd
        ).values_list("entry_id", flat=True)
    )
    return next(
        (
            b.board
            for b in EveningBoard.objects.filter(tournament=tournament, round=rnd).exclude(
                game=None
            )
            if not {b.white_id, b.black_id} & gone
        ),
        None,
    )


def _boards_of(tournament: Tournament, rnd: int) -> list[list[int]]:
    """The round's boards as [white, black] start numbers, board 1 first, for the audit log."""
    return [
        [b.white.number, b.black.number]
        for b in EveningBoard.objects.filter(tournament=tournament, round=rnd).select_related(
            "white", "black"
        )
    ]


def _pairing_bye(tournament: Tournament, rnd: int) -> Bye | None:
    return (
        Bye.objects.filter(tournament=tournament, round=rnd, kind=ByeKind.PAIRING.value)
        .select_related("entry")
        .first()
    )


def swap_colours(board: EveningBoard, *, who: str) -> Outcome:
    """White and black of one board of the current round change places."""
    with history_write(board.tournament.club_id) as club:
        reread(board)
        _, rnd = _open_round(board.tournament)
        if board.round != rnd:
            raise Refused(
                gettext_noop(
                    "board %(board)s of round %(round)s: only the current round %(rnd)s can change"
                ),
                board=board.board,
                round=board.round,
                rnd=rnd,
            )
        old = [board.white.number, board.black.number]
        links = games_of_links(board.tournament, rnd)
        board.white, board.black = board.black, board.white
        board.save(update_fields=["white", "black"])
        audit.record(
            club,
            who,
            "evening-colours",
            f"tournament {board.tournament_id} round {rnd} board {board.board}",
            old={"board": old},
            new={"board": old[::-1]},
        )
        followed = follow_pairings(club, board.tournament, rnd, links, who=who)
    return Outcome(
        Text(
            gettext_noop(
                "round %(round)s board %(board)s: %(white)s now has white, %(black)s black"
                "%(followed)s"
            ),
            round=rnd,
            board=board.board,
            white=board.white.name,
            black=board.black.name,
            followed=followed,
        )
    )


def exchange_players(
    tournament: Tournament, one: Entry, other: Entry, *, who: str, confirm_rematch: bool = False
) -> Outcome:
    """Two players of the current round change places, each taking the other's board and colour
    (one of them may be the pairing bye: the bye changes hands). A Swiss only: a round robin's
    pairings are its table's, and an exchange would make a later round a rematch."""
    with history_write(tournament.club_id) as club:
        reread(tournament)
        evening, rnd = _open_round(tournament)
        if system_of(evening) is not PairingSystem.SWISS:
            raise Refused(
                gettext_noop(
                    "a round robin's pairings are its Berger table's: an exchange would break the "
                    "schedule (swap a board's colours instead)"
                )
            )
        if one.id == other.id:
            raise InputError(
                gettext_noop("%(name)s twice: name two different players to exchange"),
                name=one.name,
            )
        seats = _seats(tournament, rnd)
        for player in (one, other):
            if player.id not in seats:
                raise Refused(
                    gettext_noop(
                        "%(name)s is not paired in round %(rnd)s: only two paired players can "
                        "change places"
                    ),
                    name=player.name,
                    rnd=rnd,
                )
        if seats[one.id][0] == seats[other.id][0]:
            raise Refused(
                gettext_noop(
                    "%(name)s and %(name2)s play each other: swap the board's colours instead"
                ),
                name=one.name,
                name2=other.name,
            )
        before, links = _boards_of(tournament, rnd), games_of_links(tournament, rnd)
        _move(tournament, rnd, one, seats[other.id])
        _move(tournament, rnd, other, seats[one.id])
        _check_round(tournament, evening, rnd, confirm_rematch)
        bye = _pairing_bye(tournament, rnd)
        audit.record(
            club,
            who,
            "evening-exchange",
            f"tournament {tournament.id} round {rnd}",
            old={"boards": before},
            new={
                "boards": _boards_of(tournament, rnd),
                "players": [one.number, other.number],
                "bye": bye.entry.number if bye else None,
                **({"rematch": True} if confirm_rematch else {}),
            },
        )
        followed = follow_pairings(club, tournament, rnd, links, who=who)
    return Outcome(
        Text(
            gettext_noop("round %(round)s: %(one)s and %(other)s changed places%(followed)s"),
            round=rnd,
            one=one.name,
            other=other.name,
            followed=followed,
        )
    )


Seat = tuple[int | None, str]  # (board number, "white" / "black"), or (None, "bye")


def _seats(tournament: Tournament, rnd: int) -> dict[int, Seat]:
    """Entry id -> where it sits in round ``rnd``: a board and a colour, or the pairing bye."""
    seats: dict[int, Seat] = {}
    for b in EveningBoard.objects.filter(tournament=tournament, round=rnd):
        seats[b.white_id], seats[b.black_id] = (b.board, "white"), (b.board, "black")
    bye = _pairing_bye(tournament, rnd)
    if bye is not None:
        seats[bye.entry_id] = (None, "bye")
    return seats


def _move(tournament: Tournament, rnd: int, player: Entry, seat: Seat) -> None:
    board, side = seat
    if board is None:
        Bye.objects.filter(tournament=tournament, round=rnd, kind=ByeKind.PAIRING.value).update(
            entry=player
        )
    else:
        EveningBoard.objects.filter(tournament=tournament, round=rnd, board=board).update(
            **{side: player}
        )


def _check_round(tournament: Tournament, evening: Evening, rnd: int, confirm_rematch: bool) -> None:
    """The round after a change keeps the pairing's rules: everyone once, one bye at most, no
    rematch (C.04.1.b) unless confirmed, no second pairing bye (C.04.1.d) unless confirmed."""
    boards = EveningBoard.objects.filter(tournament=tournament, round=rnd).select_related(
        "white", "black"
    )
    seated = [n for b in boards for n in (b.white.number, b.black.number)]
    byes = list(
        Bye.objects.filter(
            tournament=tournament, round=rnd, kind=ByeKind.PAIRING.value
        ).select_related("entry")
    )
    if len(seated) != len(set(seated)) or len(byes) > 1:
        raise Refused(
            gettext_noop(
                "round %(rnd)s: a player would be on two boards, or the round would have two byes"
            ),
            rnd=rnd,
        )
    if confirm_rematch:
        return
    states = states_before(history_of(tournament), rnd)
    for b in boards:
        if b.black.number in states[b.white.number].opponents:
            raise Refused(
                gettext_noop(
                    "%(name)s and %(name2)s have met already: confirm the rematch to pair them "
                    "again"
                ),
                name=b.white.name,
                name2=b.black.name,
            )
    for bye in byes:
        if states[bye.entry.number].had_pab_or_forfeit_win:
            raise Refused(
                gettext_noop(
                    "%(name)s had a pairing bye or a forfeit win already: confirm to give a "
                    "second one"
                ),
                name=bye.entry.name,
            )


def repair_round(tournament: Tournament, *, who: str) -> Outcome:
    """Pair the current round of a Swiss again, from nothing: a player registered since it was
    paired plays it, one who withdrew since does not (both took effect from the next round)."""
    with history_write(tournament.club_id) as club:
        reread(tournament)
        evening, rnd = _open_round(tournament)
        if system_of(evening) is not PairingSystem.SWISS:
            raise Refused(
                gettext_noop(
                    "a round robin's rounds are its Berger table's: there is nothing to pair again"
                )
            )
        before = _boards_of(tournament, rnd)
        old_bye = _pairing_bye(tournament, rnd)
        links = games_of_links(tournament, rnd)
        detach_links(links)
        EveningBoard.objects.filter(tournament=tournament, round=rnd).delete()
        Bye.objects.filter(tournament=tournament, round=rnd, kind=ByeKind.PAIRING.value).delete()
        players = EveningPlayer.objects.filter(entry__tournament=tournament)
        players.filter(joined_round=rnd + 1).update(joined_round=rnd)
        players.filter(withdrawn_from=rnd + 1).update(withdrawn_from=rnd)
        plan = plan_round(tournament, evening, rnd)
        store_round(tournament, evening, rnd, plan)
        after = [[w, b] for w, b in plan.boards]
        audit.record(
            club,
            who,
            "evening-repair",
            f"tournament {tournament.id} round {rnd}",
            old={"boards": before, "bye": old_bye.entry.number if old_bye else None},
            new={"boards": after, "bye": plan.bye},
        )
        followed = follow_pairings(club, tournament, rnd, links, who=who)
    paired = (
        Nn_(
            "round %(round)s paired again: %(count)s board (the same)%(followed)s",
            "round %(round)s paired again: %(count)s boards (the same boards)%(followed)s",
        )
        if after == before
        else Nn_(
            "round %(round)s paired again: %(count)s board%(followed)s",
            "round %(round)s paired again: %(count)s boards%(followed)s",
        )
    )
    return Outcome(Text(paired, round=rnd, count=len(plan.boards), followed=followed))
