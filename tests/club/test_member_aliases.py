"""A member is found by any name it is known under, wherever a command or form takes one;
a correction that changes nothing is refused."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from clubrating.cli import main
from clubrating.club.services import evening
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    Entry,
    Game,
    Member,
    RatingChange,
    Tournament,
)
from clubrating.errors import InputError, NotFound, Refused

from .conftest import ARBITER, Publisher, make_record
from clubrating.club.read.members import get_member
from clubrating.club.services.members import merge
from clubrating.club.services.names import accept_exact, link
from clubrating.club.services.tournaments import correct_result, find_game, import_tournament
from clubrating.club.services import tournaments as tournament_services

D1, D2, D3 = dt.date(2024, 3, 5), dt.date(2024, 3, 12), dt.date(2024, 3, 19)
LATER = dt.date(2030, 1, 1)
FOUR = ["Mirzoev Azer", "Ben Cole", "Cara Dunn", "Dan Eng"]
ROUND_ROBIN = [
    (1, "Mirzoev Azer", "Ben Cole", "1-0"),
    (1, "Cara Dunn", "Dan Eng", "1-0"),
    (2, "Cara Dunn", "Mirzoev Azer", "0-1"),
    (2, "Dan Eng", "Ben Cole", "0-1"),
]


def _second_spelled_otherwise(club: Club, publish: Publisher) -> Tournament:
    """Member "Mirzoev Azer" from a first tournament; a second one spells him "Mirzoyev, A." and
    the arbiter linked that spelling to him."""
    publish("First", D1, FOUR, ROUND_ROBIN)
    typed = ["Mirzoyev, A.", "Ben Cole", "Cara Dunn", "Dan Eng"]
    games = [(1, "Dan Eng", "Mirzoyev, A.", "0-1"), (1, "Ben Cole", "Cara Dunn", "1-0")]
    second = import_tournament(
        club, make_record("Second", D2, typed, games), who=ARBITER, today=LATER
    )
    accept_exact(second, who=ARBITER)
    link(
        Entry.objects.get(tournament=second, name="Mirzoyev, A."),
        Member.objects.get(name="Mirzoev Azer"),
        who=ARBITER,
    )
    tournament_services.publish(second, who=ARBITER)
    return second


def test_a_game_is_found_by_the_member_s_name_when_the_tournament_spelled_it_otherwise(
    club, publish
):
    second = _second_spelled_otherwise(club, publish)
    game = find_game(second, 1, "Mirzoev Azer")
    assert game.black.name == "Mirzoyev, A."
    assert find_game(second, 1, "azer MIRZOEV") == game  # case and order
    assert find_game(second, 1, "Mirzoyev, A.") == game  # the spelling of the file
    with pytest.raises(NotFound, match="no game of 'Mirzoev Azer' in round 2"):
        find_game(second, 2, "Mirzoev Azer")


def test_a_member_is_found_by_a_spelling_of_a_tournament_and_by_a_merged_member_s_name(
    club, publish
):
    _second_spelled_otherwise(club, publish)
    azer = Member.objects.get(name="Mirzoev Azer")
    assert get_member(club, "Mirzoyev, A.") == azer
    assert get_member(club, "a. mirzoyev") == azer
    publish(
        "Third",
        D3,
        ["Azer Mirzoev-Junior", "Ben Cole"],
        [(1, "Azer Mirzoev-Junior", "Ben Cole", "1-0")],
    )
    other = Member.objects.get(name="Azer Mirzoev-Junior")
    merge(other, azer, who=ARBITER)
    assert get_member(club, "Mirzoev-Junior Azer") == other  # its own name: unmerge can find it
    assert get_member(club, str(azer.id)) == azer


def test_a_name_two_members_carry_lists_both_in_one_line(club, publish):
    publish("First", D1, FOUR, ROUND_ROBIN)
    tournament = import_tournament(
        club,
        make_record(
            "Twins", D2, ["Berg, Anna", "Ben Cole"], [(1, "Berg, Anna", "Ben Cole", "1-0")]
        ),
        who=ARBITER,
        today=LATER,
    )
    first = Member.objects.get(name="Cara Dunn")
    link(Entry.objects.get(tournament=tournament, name="Berg, Anna"), first, who=ARBITER)
    second = Member.objects.get(name="Dan Eng")
    later = import_tournament(
        club,
        make_record("More", D3, ["Anna Berg", "Ben Cole"], [(1, "Ben Cole", "Anna Berg", "0-1")]),
        who=ARBITER,
        today=LATER,
    )
    link(Entry.objects.get(tournament=later, name="Anna Berg"), second, who=ARBITER)
    with pytest.raises(InputError) as refused:
        get_member(club, "Anna Berg")
    assert str(refused.value) == (
        f"'Anna Berg' could be 2 members: Cara Dunn (member {first.id}), "
        f"Dan Eng (member {second.id}); give the member's number"
    )


def test_the_evening_registers_a_member_by_an_alias_and_refuses_him_twice(club, publish):
    _second_spelled_otherwise(club, publish)
    azer = Member.objects.get(name="Mirzoev Azer")
    t = evening.start_evening(club, "Tuesday Swiss", D3, 3, who=ARBITER, today=D3)
    entry = evening.register(t, "Mirzoyev, A.", who=ARBITER)
    assert entry.member == azer
    with pytest.raises(Refused, match="'Mirzoyev, A.' is registered already"):
        evening.register(t, "Mirzoev Azer", who=ARBITER)
    assert evening.register(t, "Zoe New", who=ARBITER).member is None


def test_a_correction_that_changes_nothing_is_refused_and_leaves_no_trace(club, publish):
    t = publish("First", D1, FOUR, ROUND_ROBIN)
    game = find_game(t, 1, "Ben Cole")
    audits, changes = (
        AuditEntry.objects.count(),
        list(RatingChange.objects.values_list("id", "rating_after")),
    )
    with pytest.raises(
        Refused, match=r"round 1 Mirzoev Azer - Ben Cole is 1-0 already: nothing to correct"
    ):
        correct_result(game, "1-0", who=ARBITER)
    assert AuditEntry.objects.count() == audits
    assert list(RatingChange.objects.values_list("id", "rating_after")) == changes
    assert Game.objects.get(id=game.id).white_points == 2


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_correct_and_player_take_the_member_s_name_from_the_terminal(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first.csv").write_text(
        "# event: First\n# date: 2024-03-05\nround,white,black,result\n"
        "1,Mirzoev Azer,Ben Cole,1-0\n",
        encoding="utf-8",
    )
    (tmp_path / "second.csv").write_text(
        "# event: Second\n# date: 2024-03-12\nround,white,black,result\n"
        '1,Ben Cole,"Mirzoyev, A.",0-1\n',
        encoding="utf-8",
    )
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    for command in (
        ["import", "first.csv"],
        ["link", "1", "--all-new"],
        ["publish", "1"],
        ["import", "second.csv", "--accept-exact"],
        ["link", "2", "2", "Mirzoev Azer"],
        ["publish", "2"],
    ):
        code, out, err = run(capsys, *command)
        assert code == 0, (command, out, err)
    code, out, err = run(capsys, "correct", "2", "1", "Mirzoev Azer", "1/2-1/2")
    assert code == 0 and "0-1 -> 1/2-1/2" in out, err
    code, out, err = run(capsys, "correct", "2", "1", "Mirzoev Azer", "1/2-1/2")
    assert code != 0 and out == "" and err.count("\n") == 1 and "nothing to correct" in err
    code, out, _ = run(capsys, "player", "mirzoyev, a.", "--json")
    assert code == 0 and json.loads(out)["name"] == "Mirzoev Azer"
    code, out, err = run(capsys, "member", "A. Mirzoyev", "--junior", "yes")
    assert code == 0 and Member.objects.get(name="Mirzoev Azer").junior, err
    code, out, err = run(
        capsys, "merge", "Cole Ben", "Mirzoyev, A."
    )  # both found: refused by the rule
    assert (code, out) == (2, "") and "Ben Cole and Mirzoev Azer both played in tournament" in err
    code, out, err = run(capsys, "player", "Nobody Here")
    assert (code, out, err) == (
        2,
        "",
        "clubrating player: error: no member 'Nobody Here' in Riverside Chess Club\n",
    )


def test_a_draft_s_name_is_found_in_either_customary_order_before_it_is_linked(club):
    draft = import_tournament(
        club, make_record("Draft", D1, FOUR, ROUND_ROBIN), who=ARBITER, today=LATER
    )
    assert Entry.objects.filter(tournament=draft, member=None).count() == 4
    game = find_game(draft, 2, "AZER mirzoev")
    assert (game.white.name, game.black.name) == ("Cara Dunn", "Mirzoev Azer")


def test_accept_exact_links_a_name_in_capitals_without_the_comma_the_member_s_name_has(
    club, publish
):
    publish("First", D1, ["Smith, Jane", "Ben Cole"], [(1, "Smith, Jane", "Ben Cole", "1-0")])
    later = import_tournament(
        club,
        make_record("Next", D2, ["SMITH Jane", "Ben Cole"], [(1, "Ben Cole", "SMITH Jane", "0-1")]),
        who=ARBITER,
        today=LATER,
    )
    accept_exact(later, who=ARBITER)
    assert Entry.objects.get(tournament=later, name="SMITH Jane").member == Member.objects.get(
        name="Smith, Jane"
    )
