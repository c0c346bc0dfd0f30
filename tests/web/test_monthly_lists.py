"""Monthly lists: a list published as it stood on a month's first day equals what the independent
oracle (tests/oracle/ratings.py) computes from the history before that day, and stays so after a
correction moves the live list; the pages, CSV and command show it with the changes since the
month before, under the live list's privacy rules; a month is published once."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json

import pytest
from django.test import Client

from clubrating.cli import main
from clubrating.club.read import frozen_lists
from clubrating.club.services.monthly_lists import publish_month
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    FrozenList,
    FrozenRow,
    Game,
    Member,
    Tournament,
)
from clubrating.errors import Refused
from clubrating.formats.records import TimeControl
from clubrating.formats.typed import parse_typed
from tests.club.rating_oracle import club_facts
from tests.oracle import ratings as oracle

from .conftest import WHO, member, publish_typed
from clubrating.club.services.club_settings import (
    change_settings,
    current_settings,
    parse_settings,
)
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import leave, merge, set_member_flags
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import (
    change_date,
    correct_result,
    delete_tournament,
    import_tournament,
    publish,
)

OCTOBER = "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1/2-1/2"
NOVEMBER = (
    "1, Anna Smith, Carl Berg, 0-1\n1, Bob Jones, Eve Adams, 1-0\n2, Dana White, Eve Adams, 1-0"
)
DECEMBER = "1, Eve Adams, Anna Smith, 1-0\n1, Frank Hill, Bob Jones, 1-0"
LIST_DAY = dt.date(2026, 12, 1)


def season(club: Club) -> None:
    """October and November nights, a night on the list day itself (not in its list), and Carl,
    who left in November (off the list)."""
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    publish_typed(club, NOVEMBER, "November", dt.date(2026, 11, 10))
    publish_typed(club, DECEMBER, "December", LIST_DAY)
    leave(member(club, "Carl Berg"), dt.date(2026, 11, 20), who=WHO)


def oracle_list(club: Club, day: dt.date) -> dict[int, oracle.Current]:
    """The standard list on ``day`` by the oracle: the history before it, without the members
    who had left by then."""
    facts = club_facts(club)
    left_by = {m.id for m in Member.objects.filter(club=club, left__lt=day)}
    before = dataclasses.replace(
        facts, tournaments=[t for t in facts.tournaments if t.date < day], left=left_by
    )
    current = oracle.rate(before)[1]
    return {who: current[(who, "standard")] for who in oracle.listed(before, current, "standard")}


def stored(frozen: FrozenList) -> list[tuple[object, ...]]:
    return list(
        FrozenRow.objects.filter(frozen_list=frozen)
        .order_by("position")
        .values_list("member_id", "rating", "games", "provisional", "rank", "last_played")
    )


def test_a_frozen_list_is_the_oracles_list_of_its_day_and_stays_after_a_correction(
    club: Club,
) -> None:
    season(club)
    publish_month(club, LIST_DAY, who=WHO)
    frozen = FrozenList.objects.get(club=club, month=LIST_DAY)
    rows = stored(frozen)
    expected = oracle_list(club, LIST_DAY)
    assert {r[0] for r in rows} == set(expected)
    assert member(club, "Frank Hill").id not in expected  # he first played on the list day
    assert member(club, "Carl Berg").id not in expected  # he left before it
    for who, rating, games, provisional, rank, last in rows:
        want = expected[who]
        assert (rating, games, provisional, last) == pytest.approx(
            (want.rating, want.games, want.provisional, want.last_played)
        )
        ranked = [w for w in expected.values() if not w.provisional]
        if not provisional:
            higher = sum(1 for w in ranked if w.rating > rating)
            same = sum(1 for w in ranked if w.rating == rating)
            assert higher < rank <= higher + same
        else:
            assert rank is None
    page = Client().get("/c/riverside/lists/2026-12/").content.decode()
    assert 'id="live-differs"' not in page
    game = Game.objects.get(tournament__name="October", white__name="Anna Smith")
    correct_result(game, "0-1", who=WHO)
    moved = oracle_list(club, LIST_DAY)
    anna = member(club, "Anna Smith").id
    assert moved[anna].rating != expected[anna].rating  # the live list of that day moved
    assert stored(FrozenList.objects.get(pk=frozen.pk)) == rows  # the frozen one did not
    page = Client().get("/c/riverside/lists/2026-12/").content.decode()
    assert 'id="live-differs"' in page


def test_a_month_is_published_once_and_replace_is_audited(club: Club) -> None:
    season(club)
    publish_month(club, LIST_DAY, who=WHO)
    first = stored(FrozenList.objects.get(club=club))
    game = Game.objects.get(tournament__name="October", white__name="Anna Smith")
    correct_result(game, "0-1", who=WHO)
    with pytest.raises(Refused, match="published already"):
        publish_month(club, LIST_DAY, who=WHO)
    assert stored(FrozenList.objects.get(club=club)) == first
    publish_month(club, LIST_DAY, who=WHO, replace=True)
    again = stored(FrozenList.objects.get(club=club))
    assert again != first and {r[0] for r in again} == {r[0] for r in first}
    entries = AuditEntry.objects.filter(club=club, action__startswith="monthly-list")
    assert [e.action for e in entries.order_by("id")] == ["monthly-list", "monthly-list-replaced"]
    replaced = entries.get(action="monthly-list-replaced")
    assert replaced.old["standard"]["players"] == len(first)
    assert replaced.new == {
        "month": "2026-12",
        "day": "2026-12-01",
        "lists": {"standard": {"players": len(again)}},
    }


def test_nothing_is_stored_for_a_month_to_come_or_with_nothing_to_list(club: Club) -> None:
    with pytest.raises(Refused, match="nothing to freeze"):
        publish_month(club, dt.date(2026, 11, 1), who=WHO)
    with pytest.raises(Refused, match="has not come"):
        publish_month(club, dt.date(2999, 1, 1), who=WHO)
    season(club)
    with pytest.raises(Refused, match="no rapid list"):
        publish_month(club, LIST_DAY, who=WHO, rating_list="rapid")
    assert not FrozenList.objects.exists() and not FrozenRow.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="monthly-list").exists()


def test_the_page_shows_the_changes_since_the_month_before(club: Club) -> None:
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    publish_month(club, dt.date(2026, 11, 1), who=WHO)
    publish_typed(club, NOVEMBER, "November", dt.date(2026, 11, 10))
    leave(member(club, "Carl Berg"), dt.date(2026, 11, 20), who=WHO)
    publish_month(club, LIST_DAY, who=WHO)
    december = FrozenList.objects.get(club=club, month=LIST_DAY)
    changed = frozen_lists.changes(december, frozen_lists.rows(december))
    by_name = {r["name"]: r for r in changed["rows"]}
    november = {r.name: r for r in FrozenRow.objects.filter(frozen_list__month="2026-11-01")}
    assert changed["previous"] == "2026-11"
    assert by_name["Eve Adams"]["new"] and not by_name["Anna Smith"]["new"]
    assert by_name["Anna Smith"]["rating_change"] == pytest.approx(
        by_name["Anna Smith"]["rating"] - november["Anna Smith"].rating
    )
    assert [g["name"] for g in changed["gone"]] == ["Carl Berg"]
    page = Client().get("/c/riverside/lists/2026-12/").content.decode()
    assert "Changes since the list of 2026-11" in page and "Carl Berg" in page
    change = by_name["Dana White"]["rating"] - november["Dana White"].rating
    assert f"{change:+.0f}" in page
    index = Client().get("/c/riverside/lists/").content.decode()
    assert "/c/riverside/lists/2026-12/" in index and "/c/riverside/lists/2026-11/" in index
    first = Client().get("/c/riverside/lists/2026-11/").content.decode()
    assert "nothing to compare with" in first


def test_privacy_is_the_live_lists(club: Club) -> None:
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    set_member_flags(member(club, "Dana White"), junior=True, who=WHO)
    publish_month(club, dt.date(2026, 11, 1), who=WHO)
    web = Client()
    live = web.get("/c/riverside/").content.decode()
    page = web.get("/c/riverside/lists/2026-11/").content.decode()
    sheet = web.get("/c/riverside/lists/2026-11.csv").content.decode()
    for shown in (live, page, sheet):
        assert "Dana White" not in shown and "D. W." in shown
    assert "Anna Smith" in page
    table = list(csv.reader(io.StringIO(sheet)))
    assert table[0][:3] == ["Rank", "ID", "Name"] and len(table) == 5
    set_privacy(club, who=WHO, visibility="arbiter")
    for path in ("", "lists/", "lists/2026-11/", "lists/2026-11.csv"):
        assert web.get(f"/c/riverside/{path}").status_code == 404
    for path in ("lists/2026-13/", "lists/2025-01/", "lists/x/", "lists/2026-11/?list=<b>"):
        assert Client().get(f"/c/riverside/{path}").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_command(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    club = create_club("Riverside Chess Club", who=WHO, slug="riverside")
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    assert main(["monthly", "list"]) == 0
    assert "no monthly list published yet" in capsys.readouterr().out
    assert main(["monthly", "publish", "2026-11"]) == 0
    assert "the list of 2026-11 published (standard): 4 players" in capsys.readouterr().out
    assert main(["monthly", "publish", "2026-11"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "published already" in err
    assert main(["monthly", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["months"] == [
        {"month": "2026-11", "day": "2026-11-01", "lists": ["standard"]}
    ]
    assert main(["monthly", "show", "2026-11", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in shown["players"]][0] == "Anna Smith"
    assert shown["live_list_differs"] is False and shown["previous"] is None
    assert shown["moved"] == [] and shown["moved_by"] == []
    assert shown["day"] == "2026-11-01"  # the list day by default: the 1st
    game = Game.objects.get(tournament__name="October", white__name="Anna Smith")
    correct_result(game, "0-1", who=WHO)
    assert main(["monthly", "show", "2026-11", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["live_list_differs"] is True
    assert {m["name"] for m in shown["moved"]} >= {"Anna Smith", "Bob Jones"}
    anna = next(m for m in shown["moved"] if m["name"] == "Anna Smith")
    assert anna["rating_published"] > anna["rating_live"]  # her win became a loss
    assert [(c["action"], c["tournament_id"], c["date"]) for c in shown["moved_by"]] == [
        ("correct-result", game.tournament_id, "2026-10-06")
    ]
    assert main(["monthly", "show", "2026-11"]) == 0
    text = capsys.readouterr().out
    since = text[text.index("Since publication") :]  # the month page's section, as text
    for m in shown["moved"]:
        line = next(x for x in since.splitlines() if x.strip().startswith(m["name"]))
        assert f"{m['rating_published']:.1f} -> {m['rating_live']:.1f}" in line
        assert f"{m['rank_published'] or '-'} -> {m['rank_live'] or '-'}" in line
    assert "a result corrected - October (2026-10-06)" in since
    for bad in (["show", "November"], ["show"], ["show", "2026-10"], ["publish", "2026-00"]):
        assert main(["monthly", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("clubrating monthly: error: ") and err.count("\n") == 1


def test_the_arbiter_publishes_from_the_dashboard(club: Club, arbiter_client: Client) -> None:
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    form = arbiter_client.get("/c/riverside/arbiter/").content.decode()
    assert 'action="/c/riverside/arbiter/lists/publish/"' in form
    done = arbiter_client.post(
        "/c/riverside/arbiter/lists/publish/", {"month": "2026-11"}, follow=True
    )
    assert "the list of 2026-11 published (standard): 4 players" in done.content.decode()
    assert FrozenList.objects.get(club=club).published_by == "web:anna-arbiter"
    again = arbiter_client.post(
        "/c/riverside/arbiter/lists/publish/", {"month": "2026-11"}, follow=True
    )
    assert "published already" in again.content.decode()
    bad = arbiter_client.post(
        "/c/riverside/arbiter/lists/publish/", {"month": "2026-1"}, follow=True
    )
    assert bad.status_code == 200 and "is not a month" in bad.content.decode()
    assert (
        FrozenList.objects.count() == 1
        and AuditEntry.objects.filter(action="monthly-list").count() == 1
    )
    stranger = Client().post("/c/riverside/arbiter/lists/publish/", {"month": "2026-10"})
    assert stranger.status_code == 302 and FrozenList.objects.count() == 1


@pytest.mark.django_db
def test_separate_lists_are_frozen_each(db: None) -> None:
    """With a list per time control every list is frozen (or the one asked for), each equal to
    the oracle's list of that time control, and its page chosen by ``?list=``."""
    club = create_club("Riverside", who=WHO, slug="riverside", separate_lists=True)
    set_privacy(club, who=WHO, visibility="public")
    for day, control, text in ((6, TimeControl.RAPID, OCTOBER), (13, TimeControl.BLITZ, NOVEMBER)):
        record = dataclasses.replace(
            parse_typed(text, name=f"{control.value} night", date=dt.date(2026, 10, day)),
            time_control=control,
        )
        t = import_tournament(club, record, who=WHO, today=dt.date(2030, 1, 1))
        all_new_members(t, who=WHO)
        publish(t, who=WHO)
    publish_month(club, LIST_DAY, who=WHO, rating_list="blitz")
    assert [f.rating_list for f in FrozenList.objects.all()] == ["blitz"]
    with pytest.raises(Refused, match="blitz list of 2026-12 was published already"):
        publish_month(club, LIST_DAY, who=WHO)  # nothing of rapid is stored either
    assert FrozenList.objects.count() == 1
    outcome = publish_month(club, dt.date(2026, 11, 1), who=WHO)
    assert "(blitz, rapid)" in str(outcome)
    facts = club_facts(club)
    current = oracle.rate(facts)[1]
    for name in ("rapid", "blitz"):
        frozen = FrozenList.objects.get(month="2026-11-01", rating_list=name)
        assert {r[0]: r[1] for r in stored(frozen)} == pytest.approx(
            {who: c.rating for (who, lst), c in current.items() if lst == name}
        )
    page = Client().get("/c/riverside/lists/2026-11/?list=rapid").content.decode()
    assert "Dana White" in page and "Eve Adams" not in page  # Eve played blitz only
    index = Client().get("/c/riverside/lists/").content.decode()
    assert "/c/riverside/lists/2026-11/?list=blitz" in index


def test_the_json_has_the_csvs_rows_and_its_privacy(club: Club) -> None:
    """The JSON of a frozen list holds the CSV's lines (an independent reading: the CSV's
    columns), a junior's initials only, and is as private as the club."""
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    set_member_flags(member(club, "Dana White"), junior=True, who=WHO)
    publish_month(club, dt.date(2026, 11, 1), who=WHO)
    web = Client()
    page = web.get("/c/riverside/lists/2026-11/").content.decode()
    assert 'href="/c/riverside/lists/2026-11.json?list=standard"' in page
    answer = web.get("/c/riverside/lists/2026-11.json")
    assert answer["Content-Type"].startswith("application/json")
    document = json.loads(answer.content)
    assert (document["month"], document["list"]) == ("2026-11", "standard")
    assert document["club"] == {"slug": "riverside", "name": club.name}
    sheet = list(csv.DictReader(io.StringIO(web.get("/c/riverside/lists/2026-11.csv").text)))
    players = document["players"]
    assert len(players) == len(sheet) == 4
    for p, line in zip(players, sheet):
        assert set(p) == {
            "rank", "member_id", "name", "rating", "games", "provisional", "inactive",
            "last_played",
        }  # fmt: skip
        assert str(p["rank"] or "") == line["Rank"] and str(p["member_id"]) == line["ID"]
        assert p["name"] == line["Name"] and f"{p['rating']:.1f}" == line["Rtg"]
        assert str(p["games"]) == line["Gms"] and (p["last_played"] or "") == line["Last played"]
        flags = ("p" if p["provisional"] else "") + ("i" if p["inactive"] else "")
        assert flags == line["Flag"]
    text = answer.content.decode()
    assert "Dana White" not in text and "D. W." in [p["name"] for p in players]
    for bad in ("2026-13.json", "2025-01.json", "x.json", "2026-11.json?list=<b>"):
        assert web.get(f"/c/riverside/lists/{bad}").status_code == 404
    set_privacy(club, who=WHO, visibility="arbiter")
    assert web.get("/c/riverside/lists/2026-11.json").status_code == 404


def test_the_page_names_who_moved_since_publication_and_the_correction_that_moved_them(
    club: Club,
) -> None:
    """Before any correction nothing moved; a result of October corrected after publication
    moves its two players on the live list of the list's day (the oracle's list of that day
    says how), and the page names them, from -> to, and that correction with its tournament;
    a correction of a tournament dated on the list's day moves nothing of it and is not
    named."""
    season(club)
    publish_month(club, LIST_DAY, who=WHO)
    web = Client()
    page = web.get("/c/riverside/lists/2026-12/").content.decode()
    assert 'id="nothing-moved"' in page and 'id="moved"' not in page
    december = Game.objects.get(tournament__name="December", white__name="Eve Adams")
    correct_result(december, "0-1", who=WHO)
    page = web.get("/c/riverside/lists/2026-12/").content.decode()
    assert 'id="nothing-moved"' in page and 'id="corrections"' not in page
    before = oracle_list(club, LIST_DAY)
    game = Game.objects.get(tournament__name="October", white__name="Anna Smith")
    correct_result(game, "0-1", who=WHO)
    after = oracle_list(club, LIST_DAY)
    moved = {
        who for who in before if abs(before[who].rating - after[who].rating) >= 0.05
    }  # the oracle's players whose rating of that day changed
    assert {member(club, n).id for n in ("Anna Smith", "Bob Jones")} <= moved
    page = web.get("/c/riverside/lists/2026-12/").content.decode()
    assert 'id="nothing-moved"' not in page
    table = page[page.index('id="moved"') : page.index("</table>", page.index('id="moved"'))]
    for who in moved:
        person = Member.objects.get(pk=who)
        assert f'href="/c/riverside/p/{who}/">{person.name}</a>' in table
        assert f"{before[who].rating:.1f} → {after[who].rating:.1f}" in table
    assert table.count("<tr>") == len(moved) + 1  # the head and the moved players only
    named = page[page.index('id="corrections"') :]
    named = named[: named.index("</ul>")]
    assert named.count("<li>") == 1 and "a result corrected" in named
    assert f'href="/c/riverside/t/{game.tournament_id}/">October</a> (2026-10-06)' in named
    assert f"t/{december.tournament_id}/" not in named
    assert stored(FrozenList.objects.get(club=club)) != []  # the frozen list still there


def test_a_redate_across_the_list_day_a_deletion_and_a_merge_are_named(club: Club) -> None:
    """A tournament re-dated from the list's day to before it, a deleted one (named, no link:
    it is gone) and a merge (its member linked) moved the live list of the day: the page names
    all three, oldest first; a leaving day after the list's day is not named."""
    season(club)
    publish_month(club, LIST_DAY, who=WHO)
    night = Tournament.objects.get(club=club, name="December")
    change_date(night, dt.date(2026, 11, 25), who=WHO)
    delete_tournament(Tournament.objects.get(club=club, name="October"), who=WHO)
    merge(member(club, "Frank Hill"), member(club, "Dana White"), who=WHO)
    leave(member(club, "Eve Adams"), dt.date(2026, 12, 2), who=WHO)
    page = Client().get("/c/riverside/lists/2026-12/").content.decode()
    named = page[page.index('id="corrections"') :]
    items = named[: named.index("</ul>")].split("<li>")[1:]
    assert len(items) == 3
    assert "a tournament&#x27;s date changed" in items[0]
    assert f'href="/c/riverside/t/{night.id}/">December</a> (2026-11-25)' in items[0]
    assert "a tournament deleted — October" in items[1] and "href" not in items[1]
    frank = member(club, "Frank Hill").id
    assert "two members merged" in items[2] and f'/p/{frank}/">Frank Hill</a>' in items[2]
    assert 'id="moved"' in page
    zone = parse_settings({"time-zone": "Asia/Yerevan"})
    change_settings(club, zone, who=WHO)  # no list depends on it: not named
    k = current_settings(club)["k-established"]
    change_settings(club, parse_settings({"k-established": str(k + 4)}), who=WHO)
    page = Client().get("/c/riverside/lists/2026-12/").content.decode()
    named = page[page.index('id="corrections"') :]
    items = named[: named.index("</ul>")].split("<li>")[1:]
    assert len(items) == 4 and "the list&#x27;s rules changed — k-established" in items[3]


def test_a_list_day_of_15_counts_the_14th_not_the_15th_and_a_published_list_keeps_its_day(
    club: Club,
) -> None:
    """With list-day 15 November's list is the oracle's list at the start of the 15th: the game
    of the 14th is in it, the one of the 15th is not. Moving the list day later changes no list
    published already: its rows, its day and its "Since publication" (its own day's list)."""
    publish_typed(club, OCTOBER, "October", dt.date(2026, 10, 6))
    publish_typed(club, "1, Anna Smith, Eve Adams, 1-0", "The 14th", dt.date(2026, 11, 14))
    publish_typed(club, "1, Frank Hill, Bob Jones, 1-0", "The 15th", dt.date(2026, 11, 15))
    change_settings(club, parse_settings({"list-day": "15"}), who=WHO)
    publish_month(club, dt.date(2026, 11, 1), who=WHO)
    frozen = FrozenList.objects.get(club=club, month=dt.date(2026, 11, 1))
    day = dt.date(2026, 11, 15)
    assert frozen.day == day
    expected = oracle_list(club, day)
    rows = stored(frozen)
    assert {r[0] for r in rows} == set(expected)
    assert member(club, "Eve Adams").id in expected  # the 14th counts
    assert member(club, "Frank Hill").id not in expected  # the 15th does not
    for who, rating, games, _provisional, _rank, last in rows:
        assert (rating, games, last) == pytest.approx(
            (expected[who].rating, expected[who].games, expected[who].last_played)
        )
    web = Client()
    assert "as it stood at the start of 2026-11-15" in web.get("/c/riverside/lists/2026-11/").text
    assert web.get("/c/riverside/lists/2026-11.json").json()["day"] == "2026-11-15"
    sheet = list(csv.DictReader(io.StringIO(web.get("/c/riverside/lists/2026-11.csv").text)))
    assert {line["Day"] for line in sheet} == {"2026-11-15"}
    assert "2026-11-15" in web.get("/c/riverside/lists/").text
    with pytest.raises(Refused, match="2999-01-15"):  # a month whose list day is to come
        publish_month(club, dt.date(2999, 1, 1), who=WHO)

    change_settings(club, parse_settings({"list-day": "28"}), who=WHO)
    assert current_settings(Club.objects.get(pk=club.pk))["list-day"] == 28
    kept = FrozenList.objects.get(pk=frozen.pk)
    assert kept.day == day and stored(kept) == rows
    page = web.get("/c/riverside/lists/2026-11/").text
    assert "as it stood at the start of 2026-11-15" in page
    assert 'id="nothing-moved"' in page and 'id="live-differs"' not in page  # its own day's list
    assert frozen_lists.corrections_since(kept) == []  # the list day is no rule of a list
