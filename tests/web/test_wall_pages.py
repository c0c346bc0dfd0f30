"""A running evening in public and the printable pages, in-process (SQLite and PostgreSQL): who
sees them, the names each viewer sees, the pairings by board and by name, a result on the next
request through the page cache. Printing them in Chromium is test_browser_print."""

from __future__ import annotations

import datetime as dt
import json
import re

from django.test import Client

from clubrating.club.services import evening
from clubrating.club.store.models import (
    Club,
    CurrentRating,
    EveningBoard,
    Member,
    RatingChange,
    Tournament,
)
from clubrating.formats.typed import parse_typed
from clubrating.web.access import CACHE_HEADER

from .conftest import WHO, make_arbiter, publish_typed
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.members import set_member_flags
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import import_tournament

TODAY = dt.date.today()
EARLIER = """
1, Anna Smith, Bob Jones, 1-0
1, Carl Berg, Dana White, 1-0
"""


def _running(club: Club, names: list[str], rounds: int = 3) -> Tournament:
    """An evening with every name registered as a member and round 1 paired."""
    t = evening.start_evening(club, "Tuesday Swiss", TODAY, rounds, who=WHO)
    for name in names:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evening.pair_next_round(t, who=WHO)
    return t


def _html(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def _rows(html: str, table_id: str) -> list[list[str]]:
    """The text of each body row's cells of the table with this id."""
    body = html.split(f'id="{table_id}"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_a_running_evening_is_public_marked_in_progress_with_no_rating_shown(club: Club) -> None:
    publish_typed(club, EARLIER, "January", dt.date(2024, 1, 9))
    ratings = sorted(
        CurrentRating.objects.filter(member__club=club).values_list("member_id", "rating")
    )
    t = _running(club, ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"])
    html = _html(Client(), f"/c/riverside/t/{t.id}/")
    assert "In progress, not rated yet: round 1 of 3 is being played (2 results to come)" in html
    boards = _rows(html, "boards-1")
    assert [row[0] for row in boards] == ["1", "2", ""] and boards[2][4] == "pairing bye"
    assert ">Rating</th>" not in html and "→" not in html  # no rating change shown while it runs
    assert "tournament.trf" not in html  # the exports stay the published tournaments'
    assert Client().get(f"/c/riverside/t/{t.id}/tournament.trf").status_code == 404
    club_html = _html(Client(), "/c/riverside/")
    assert (
        "Tuesday Swiss</a> (" in club_html
        and "in progress, not rated yet</span> round 1 of 3" in club_html
    )
    assert "in progress, not rated yet" in _html(Client(), "/c/riverside/t/")
    assert (
        sorted(CurrentRating.objects.filter(member__club=club).values_list("member_id", "rating"))
        == ratings
    )
    assert not RatingChange.objects.filter(tournament=t).exists()


def test_a_draft_is_still_404_unless_it_is_an_evening_being_played(club: Club) -> None:
    waiting = evening.start_evening(club, "Registering", TODAY, 3, who=WHO)
    evening.register(waiting, "Anna Smith", who=WHO)
    imported = import_tournament(
        club, parse_typed(EARLIER, name="Upload", date=dt.date(2024, 2, 1)), who=WHO, today=TODAY
    )
    for t in (waiting, imported):
        for page in ("", "print/pairings/", "print/names/", "print/wallchart/"):
            assert Client().get(f"/c/riverside/t/{t.id}/{page}").status_code == 404
    assert "Registering" not in _html(Client(), "/c/riverside/") and "Upload" not in _html(
        Client(), "/c/riverside/t/"
    )


def test_a_running_evening_follows_the_clubs_visibility(club: Club) -> None:
    t = _running(club, ["Anna Smith", "Bob Jones"])
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    assert Client().get(f"/c/riverside/t/{t.id}/").status_code == 404
    assert "In progress, not rated yet" in _html(Client(), f"/u/{club.token}/t/{t.id}/")
    set_privacy(club, who=WHO, visibility="arbiter")
    club.refresh_from_db()
    for base in ("/c/riverside/", f"/u/{club.token}/"):
        assert Client().get(f"{base}t/{t.id}/print/pairings/").status_code == 404


def test_a_result_entered_shows_on_the_next_request_through_the_page_cache(club: Club) -> None:
    t = _running(club, ["Anna Smith", "Bob Jones"])
    path = f"/c/riverside/t/{t.id}/"
    assert Client().get(path)[CACHE_HEADER] == "miss"
    cached = Client().get(path)
    assert cached[CACHE_HEADER] == "hit" and _rows(cached.content.decode(), "boards-1")[0][4] == "–"
    evening.enter_result(EveningBoard.objects.get(tournament=t), "0-1", who=WHO)
    html = _html(Client(), path)
    assert _rows(html, "boards-1")[0][4] == "0-1" and "every result is in" in html
    assert (
        _rows(_html(Client(), f"/c/riverside/t/{t.id}/print/pairings/"), "boards-1")[0][4] == "0-1"
    )


def test_initials_rules_apply_on_the_running_evening_and_its_printed_pages(club: Club) -> None:
    t = _running(club, ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White"])
    set_member_flags(Member.objects.get(club=club, name="Dana White"), who=WHO, junior=True)
    for page in ("", "print/pairings/", "print/names/", "print/wallchart/"):
        html = _html(Client(), f"/c/riverside/t/{t.id}/{page}")
        assert "Dana White" not in html and "D. W." in html and "Anna Smith" in html, page
    set_privacy(club, who=WHO, names="initials")
    html = _html(Client(), f"/c/riverside/t/{t.id}/print/names/")
    assert "Anna Smith" not in html and "A. S." in html


def test_pairings_by_name_list_each_player_once_alphabetically_with_board_and_colour(
    club: Club,
) -> None:
    names = ["Zoe Adams", "Bob Jones", "Anna Smith", "Carl Berg", "Eva Fox"]
    t = _running(club, names)
    rows = _rows(_html(Client(), f"/c/riverside/t/{t.id}/print/names/"), "names-1")
    assert [r[0] for r in rows] == sorted(names, key=str.casefold)
    boards = {
        b.board: b
        for b in EveningBoard.objects.filter(tournament=t).select_related("white", "black")
    }
    for name, number, points, board, colour, opponent in rows:
        if not board:
            assert (colour, opponent, points) == ("", "pairing bye", "0")
            continue
        b = boards[int(board)]
        me, other = (b.white, b.black) if colour == "White" else (b.black, b.white)
        assert (me.name, int(number), other.name) == (name, me.number, opponent)
    assert sum(1 for r in rows if r[3]) == 2 * len(boards)


def test_a_published_tournament_prints_any_round_by_its_boards(
    club: Club, evening: Tournament
) -> None:
    html = _html(Client(), f"/c/riverside/t/{evening.id}/print/pairings/?round=2")
    rows = _rows(html, "boards-2")
    assert [(r[2], r[4], r[7]) for r in rows] == [
        ("Anna Smith", "1-0", "Carl Berg"),
        ("Bob Jones", "+-", "D. W."),
    ]
    assert [(r[3], r[5]) for r in rows] == [("1", "½"), ("0", "½")]  # points before round 2
    assert "In progress" not in html and "not rated yet" not in html
    for bad in ("4", "0", "x", "99999"):
        assert (
            Client().get(f"/c/riverside/t/{evening.id}/print/pairings/?round={bad}").status_code
            == 404
        )
    wall = _rows(_html(Client(), f"/c/riverside/t/{evening.id}/print/wallchart/"), "wallchart")
    assert [r[2] for r in wall] == ["Anna Smith", "Carl Berg", "Bob Jones", "D. W."]


def test_a_round_robin_evening_being_played_shows_its_round_and_the_round_off(club: Club) -> None:
    t = evening.start_evening(club, "Spring Round Robin", TODAY, 1, who=WHO, system="round-robin")
    for name in ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evening.pair_next_round(t, who=WHO)
    html = _html(Client(), f"/c/riverside/t/{t.id}/")
    assert "In progress, not rated yet: round 1 of 5 is being played (2 results to come)" in html
    rows = _rows(html, "boards-1")
    assert (
        len(rows) == 3 and rows[2][4] == "sits out this round"
    )  # five players: not a "zero-point bye"
    assert "zero-point bye" not in html
    names = _rows(_html(Client(), f"/c/riverside/t/{t.id}/print/names/"), "names-1")
    assert len(names) == 5 and [r[4] for r in names].count("") == 1
    assert "sits out this round" in [cell for r in names for cell in r]


def test_the_api_lists_a_running_evenings_current_pairings_as_the_page_marked_in_progress(
    club: Club,
) -> None:
    t = evening.start_evening(club, "Spring Round Robin", TODAY, 1, who=WHO, system="round-robin")
    for name in ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    evening.pair_next_round(t, who=WHO)
    response = Client().get(f"/api/c/riverside/tournaments/{t.id}")
    assert response.status_code == 200
    doc = response.json()
    assert doc["in_progress"] is True and doc["status"] == "draft"
    page = _rows(_html(Client(), f"/c/riverside/t/{t.id}/"), "boards-1")
    shown = [
        [str(b["board"]), b["white"]["name"], b["black"]["name"]] for b in doc["pairings"]["boards"]
    ]
    assert len(shown) == 2 and all(
        name in " ".join(page[i]) for i, row in enumerate(shown) for name in row
    )
    assert [b["why"] for b in doc["pairings"]["byes"]] == ["sits out this round"]
    assert all(b["result"] is None for b in doc["pairings"]["boards"])


def test_the_apis_tournament_list_adds_the_running_evenings_and_leaves_published_rows_as_they_were(
    club: Club,
) -> None:
    publish_typed(club, EARLIER, "January", dt.date(2024, 1, 9))
    waiting = evening.start_evening(club, "Registering", TODAY, 3, who=WHO)
    evening.register(waiting, "Anna Smith", who=WHO)
    t = evening.start_evening(club, "Tuesday Swiss", TODAY, 3, who=WHO)
    for name in ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]:
        evening.register(t, name, who=WHO)
    all_new_members(t, who=WHO)
    before = Client().get("/api/c/riverside/tournaments").content
    evening.pair_next_round(t, who=WHO)
    after = Client().get("/api/c/riverside/tournaments")
    assert after.status_code == 200 and after.content.endswith(
        before[1:]
    )  # the published rows, byte for byte
    listed = after.json()
    assert [row["name"] for row in listed] == [
        "Tuesday Swiss",
        "January",
    ]  # not the evening still registering
    running = listed[0]
    assert (running["tournament_id"], running["status"], running["in_progress"]) == (
        t.id,
        "draft",
        True,
    )
    assert (running["rounds"], running["planned_rounds"], running["players"]) == (1, 3, 5)
    assert "in_progress" not in listed[1] and "planned_rounds" not in listed[1]
    assert (
        Client().get(f"/api/c/riverside/tournaments/{t.id}").json()["in_progress"] is True
    )  # as its own URL
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "alice"))
    shown = {row["name"]: row for row in arbiter.get("/api/c/riverside/tournaments").json()}
    assert (
        shown["Tuesday Swiss"]["in_progress"] is True and "in_progress" not in shown["Registering"]
    )


def test_the_apis_tournament_list_shows_a_running_evening_under_the_clubs_visibility(
    club: Club,
) -> None:
    t = _running(club, ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White"])
    dana = Member.objects.get(club=club, name="Dana White")
    set_member_flags(dana, who=WHO, junior=True)
    for board in EveningBoard.objects.filter(tournament=t).select_related("white", "black"):
        won = (
            "1-0"
            if board.white.member_id == dana.id
            else "0-1"
            if board.black.member_id == dana.id
            else "1/2-1/2"
        )
        evening.enter_result(board, won, who=WHO)
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    assert Client().get("/api/c/riverside/tournaments").status_code == 404
    listed = Client().get(f"/api/u/{club.token}/tournaments").json()
    assert [(row["tournament_id"], row["in_progress"]) for row in listed] == [(t.id, True)]
    assert listed[0]["winners"] == [
        {"name": "D. W.", "member_id": dana.id}
    ]  # the leader, named as the pages
    assert "Dana White" not in json.dumps(listed)
    set_privacy(club, who=WHO, visibility="arbiter")
    club.refresh_from_db()
    assert Client().get(f"/api/u/{club.token}/tournaments").status_code == 404
