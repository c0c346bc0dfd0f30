"""The arbiter's hand on a round before its first result: exchange two players, swap colours,
pair a Swiss round again; each checked (no rematch unless confirmed, one bye at most, everyone
once), audited, and refused once a result is in, on the real database (SQLite and PostgreSQL)."""

from __future__ import annotations


import pytest

from clubrating.club.services import evening
from clubrating.club.services import pairing_changes
from clubrating.club.store.audit_text import sentence as audit_sentence
from clubrating.club.store.models import (
    AuditEntry,
    Bye,
    Club,
    Entry,
    EveningBoard,
    EveningPlayer,
    Tournament,
)
from clubrating.errors import InputError, Refused

from .conftest import ARBITER, EVENING_DAY, REGULARS, register_all
from clubrating.club.services.names import new_member

TODAY = EVENING_DAY


def _start(club: Club, names: list[str], system: str = "swiss") -> Tournament:
    t = evening.start_evening(club, "Tuesday", TODAY, 3, who=ARBITER, today=TODAY, system=system)
    register_all(t, names)
    evening.pair_next_round(t, who=ARBITER)
    return t


def _boards(t: Tournament, rnd: int = 1) -> list[tuple[str, str]]:
    return [
        (b.white.name, b.black.name)
        for b in EveningBoard.objects.filter(tournament=t, round=rnd).select_related(
            "white", "black"
        )
    ]


def _entry(t: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=t, name=name)


def _last_audit() -> AuditEntry:
    return AuditEntry.objects.order_by("-id")[0]


def sentence(entry: AuditEntry) -> str:
    return audit_sentence(entry.action, entry.target, entry.old, entry.new)


def test_swapping_colours_changes_one_board_and_is_audited(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    before = _boards(t)
    board = EveningBoard.objects.get(tournament=t, round=1, board=2)
    outcome = pairing_changes.swap_colours(board, who=ARBITER)
    assert _boards(t) == [before[0], before[1][::-1]]
    assert str(outcome) == f"round 1 board 2: {before[1][1]} now has white, {before[1][0]} black"
    entry = _last_audit()
    assert entry.action == "evening-colours" and entry.old["board"] == entry.new["board"][::-1]
    assert "colours swapped" in sentence(entry)


def test_exchanging_two_players_swaps_their_seats_and_checks_no_rematch(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox", "Finn Gray"])
    (w1, b1), (w2, b2), third = _boards(t)
    pairing_changes.exchange_players(t, _entry(t, b1), _entry(t, b2), who=ARBITER)
    assert _boards(t) == [(w1, b2), (w2, b1), third]
    assert _last_audit().action == "evening-exchange" and "changed places" in sentence(
        _last_audit()
    )
    for board in EveningBoard.objects.filter(tournament=t, round=1):
        evening.enter_result(board, "1-0", who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    (w1, b1), (w2, b2), _ = _boards(t, 2)
    met = {frozenset(p) for p in _boards(t, 1)}
    # give board 1's white board 2's black if they met in round 1, else find a pair that did
    pairs = [
        (x, y)
        for x in (w1, b1)
        for y in (w2, b2)
        if frozenset((next(z for z in (w1, b1) if z != x), y)) in met
    ]
    if pairs:
        x, y = pairs[0]
        audits = AuditEntry.objects.count()
        with pytest.raises(
            Refused, match="have met already: confirm the rematch to pair them again"
        ):
            pairing_changes.exchange_players(t, _entry(t, x), _entry(t, y), who=ARBITER)
        assert _boards(t, 2)[:2] == [(w1, b1), (w2, b2)] and AuditEntry.objects.count() == audits
        pairing_changes.exchange_players(
            t, _entry(t, x), _entry(t, y), who=ARBITER, confirm_rematch=True
        )
        assert "a rematch, confirmed" in sentence(_last_audit())


def test_a_rematch_is_refused_unless_confirmed(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    for board in EveningBoard.objects.filter(tournament=t, round=1):
        evening.enter_result(board, "1/2-1/2", who=ARBITER)
    evening.pair_next_round(t, who=ARBITER)
    first = _boards(t, 1)
    (w1, b1), (w2, b2) = _boards(t, 2)
    # moving b1 to board 2 and b2 to board 1 pairs w1-b2 and w2-b1: one of the three possible
    # exchanges gives back a round-1 pairing, find it
    for x, y in ((b1, b2), (b1, w2), (w1, w2), (w1, b2)):
        seats = {w1: 0, b1: 0, w2: 1, b2: 1}
        new = [{n for n in seats if seats[n] == i and n not in (x, y)} for i in (0, 1)]
        new[0].add(y), new[1].add(x)
        if any(frozenset(s) in {frozenset(p) for p in first} for s in new):
            break
    with pytest.raises(Refused, match="have met already"):
        pairing_changes.exchange_players(t, _entry(t, x), _entry(t, y), who=ARBITER)
    assert _boards(t, 2) == [(w1, b1), (w2, b2)]
    assert "changed places" in str(
        pairing_changes.exchange_players(
            t, _entry(t, x), _entry(t, y), who=ARBITER, confirm_rematch=True
        )
    )


def test_the_pairing_bye_changes_hands_in_an_exchange_and_stays_one(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox"])
    bye = Bye.objects.get(tournament=t, round=1, kind="U").entry
    (w1, b1), second = _boards(t)
    pairing_changes.exchange_players(t, bye, _entry(t, w1), who=ARBITER)
    assert _boards(t) == [(bye.name, b1), second]
    assert list(
        Bye.objects.filter(tournament=t, round=1).values_list("entry__name", flat=True)
    ) == [w1]


def test_every_change_is_refused_once_a_result_of_the_round_is_in(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    board = EveningBoard.objects.get(tournament=t, round=1, board=1)
    evening.enter_result(board, "1-0", who=ARBITER)
    before, audits = _boards(t), AuditEntry.objects.count()
    refused = "round 1 has a result already (board 1): its pairings are fixed"
    with pytest.raises(Refused, match=refused.replace("(", r"\(").replace(")", r"\)")):
        pairing_changes.swap_colours(
            EveningBoard.objects.get(tournament=t, round=1, board=2), who=ARBITER
        )
    (w1, _), (w2, _) = before
    with pytest.raises(Refused, match="has a result already"):
        pairing_changes.exchange_players(t, _entry(t, w1), _entry(t, w2), who=ARBITER)
    with pytest.raises(Refused, match="has a result already"):
        pairing_changes.repair_round(t, who=ARBITER)
    assert _boards(t) == before and AuditEntry.objects.count() == audits


def test_players_of_one_board_or_one_player_twice_are_refused_in_one_line(regulars: Club) -> None:
    t = _start(regulars, REGULARS)
    (w1, b1), _ = _boards(t)
    with pytest.raises(Refused, match="play each other: swap the board's colours instead"):
        pairing_changes.exchange_players(t, _entry(t, w1), _entry(t, b1), who=ARBITER)
    with pytest.raises(InputError, match="twice: name two different players"):
        pairing_changes.exchange_players(t, _entry(t, w1), _entry(t, w1), who=ARBITER)


def test_pairing_a_swiss_round_again_takes_in_a_late_entry_and_a_withdrawal(regulars: Club) -> None:
    t = _start(regulars, REGULARS + ["Eva Fox"])
    late = evening.register(t, "Gus Hale", who=ARBITER)
    new_member(late, who=ARBITER)
    evening.withdraw(_entry(t, "Dan Eng"), who=ARBITER)
    outcome = pairing_changes.repair_round(t, who=ARBITER)
    assert str(outcome) == "round 1 paired again: 2 boards"
    names = {n for pair in _boards(t) for n in pair} | set(
        Bye.objects.filter(tournament=t, round=1).values_list("entry__name", flat=True)
    )
    assert "Gus Hale" in names and "Dan Eng" not in names and len(names) == 5
    assert EveningPlayer.objects.get(entry__name="Dan Eng", entry__tournament=t).withdrawn_from == 1
    assert _last_audit().action == "evening-repair" and "paired again" in sentence(_last_audit())
    assert "the same boards" in str(pairing_changes.repair_round(t, who=ARBITER))


def test_a_round_robin_swaps_colours_but_neither_exchanges_nor_pairs_again(regulars: Club) -> None:
    t = _start(regulars, REGULARS, "round-robin")
    started = AuditEntry.objects.get(action="evening-start", target=f"tournament {t.id}")
    assert (
        sentence(started)
        == f"started the evening 'Tuesday' of 2024-03-05 (round robin) as tournament {t.id}"
    )
    (w1, _), (w2, _) = _boards(t)
    with pytest.raises(Refused, match="an exchange would break the schedule"):
        pairing_changes.exchange_players(t, _entry(t, w1), _entry(t, w2), who=ARBITER)
    with pytest.raises(Refused, match="there is nothing to pair again"):
        pairing_changes.repair_round(t, who=ARBITER)
    pairing_changes.swap_colours(
        EveningBoard.objects.get(tournament=t, round=1, board=1), who=ARBITER
    )
    assert _boards(t)[0] == (_boards(t)[0][0], w1)
