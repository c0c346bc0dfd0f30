"""The event's own result is the standings: the points and ranks an imported file writes are its
places and points on every page and export, whatever the results compute; ranks that do not order
those points are placeholders, set aside with a note in the reader's language; the arbiter's page
and ``clubrating tournament N`` list each difference with the unplayed rounds that can explain
it; a team Swiss shows its teams and exports its 013 lines. The rating still rates only the games
played (R8). The fixture tests/formats/data/team_swiss.trf is written from TRF-16's Team Section."""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from clubrating.club.store.models import Club, RatingChange, Tournament
from clubrating.files import read_tournament_file
from clubrating.formats.trf import read_trf

from .conftest import TODAY, WHO
from .rendered import flat
from .test_standings_everywhere import HEADERS, trf_line
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import correct_result, import_tournament, publish

TEAM_SWISS = Path(__file__).resolve().parents[1] / "formats" / "data" / "team_swiss.trf"
# The fixture's own columns, read here without the reader: start number -> (points written, rank)
WRITTEN = {
    int(line[4:8]): (float(line[80:84]), int(line[85:89]))
    for line in TEAM_SWISS.read_text().splitlines()
    if line.startswith("001")
}


def _import(club: Club, path: Path) -> Tournament:
    t = import_tournament(club, read_tournament_file(str(path)), who=WHO, today=TODAY)
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    publish(t, who=WHO)
    return t


def _crosstable(html: str) -> list[tuple[int, int, str, str]]:
    """(place, start number, team, points) of each row of the page's crosstable."""
    body = html.split('<table id="crosstable">', 1)[1].split("</tbody>", 1)[0]
    return [
        (int(place), int(number), team, points)
        for place, number, team, points in re.findall(
            r'<tr><td class="num">(\d+)</td><td class="num">(\d+)</td><td>.*?</td><td>([^<]*)</td>'
            r'<td class="num">([^<]*)</td>',
            body,
        )
    ]


def test_the_team_swiss_file_s_points_and_ranks_are_the_standings_everywhere(club: Club) -> None:
    t = _import(club, TEAM_SWISS)
    client = Client()
    rows = _crosstable(client.get(f"/c/riverside/t/{t.id}/").content.decode())
    assert [(place, number) for place, number, _, _ in rows] == sorted(
        ((rank, number) for number, (_, rank) in WRITTEN.items())
    )
    assert (
        rows[0][1] == 2 and rows[0][3] == "2½"
    )  # the file's winner: 2.5 written, 1.5 from the results
    doc = client.get(f"/api/c/riverside/tournaments/{t.id}").json()
    assert doc["rule"] == "written"
    assert {p["number"]: (p["points"], p["place"]) for p in doc["players"]} == WRITTEN
    assert doc["players"][0]["team"] == "Yerevan Lions"
    export = client.get(f"/c/riverside/t/{t.id}/tournament.trf").content.decode()
    assert {
        int(line[4:8]): (float(line[80:84]), int(line[85:89]))
        for line in export.splitlines()
        if line.startswith("001")
    } == WRITTEN
    standings = list(
        csv.DictReader(
            io.StringIO(client.get(f"/c/riverside/t/{t.id}/standings.csv").content.decode())
        )
    )
    assert [(int(r["Place"]), int(r["No."]), r["Team"]) for r in standings][:2] == [
        (1, 2, "Yerevan Lions"),
        (2, 1, "Yerevan Lions"),
    ]


def test_the_rating_rates_only_the_games_played_whatever_the_file_s_points(club: Club) -> None:
    t = _import(club, TEAM_SWISS)
    rated = {
        c.member.name: c.games_rated
        for c in RatingChange.objects.filter(tournament=t).select_related("member")
    }
    # Lilit Sargsyan played rounds 1 and 3 (not fielded in 2); Armen Vardanyan only round 2
    assert (
        rated["Sargsyan, Lilit"] == 2
        and rated["Vardanyan, Armen"] == 1
        and rated["Hakobyan, Aram"] == 3
    )


def test_the_team_table_and_each_player_s_team_are_shown_and_exported(club: Club) -> None:
    t = _import(club, TEAM_SWISS)
    client = Client()
    html = client.get(f"/c/riverside/t/{t.id}/").content.decode()
    assert {number: team for _, number, team, _ in _crosstable(html)} == {
        1: "Yerevan Lions",
        2: "Yerevan Lions",
        9: "Yerevan Lions",
        3: "Gyumri Eagles",
        4: "Gyumri Eagles",
        5: "Vanadzor Knights",
        6: "Vanadzor Knights",
        7: "Dilijan Rooks",
        8: "Dilijan Rooks",
    }
    teams = flat(html).split('<table id="team-table">', 1)[1].split("</table>", 1)[0]
    # the file's order; the players by board with their points; the team's sum of the file's points
    assert re.findall(
        r'<tr><td class="num">(\d+)</td><td>([^<]+)</td><td>[^<]*</td><td class="num">([^<]+)</td>',
        teams,
    ) == [
        ("1", "Yerevan Lions", "6"),
        ("2", "Gyumri Eagles", "2½"),
        ("3", "Vanadzor Knights", "3"),
        ("4", "Dilijan Rooks", "1½"),
    ]
    assert "1. Hakobyan, Aram (2½); 2. Sargsyan, Lilit (2½); 3. Vardanyan, Armen (1)" in teams
    export = client.get(f"/c/riverside/t/{t.id}/tournament.trf").content.decode()
    assert [line for line in export.splitlines() if line.startswith("013")] == [
        line for line in TEAM_SWISS.read_text().splitlines() if line.startswith("013")
    ]
    again = read_trf(io.StringIO(export), "export.trf")
    assert [(team.name, team.members) for team in again.teams] == [
        ("Yerevan Lions", (1, 2, 9)),
        ("Gyumri Eagles", (3, 4)),
        ("Vanadzor Knights", (5, 6)),
        ("Dilijan Rooks", (7, 8)),
    ]


def test_the_arbiter_s_page_lists_each_difference_with_the_rounds_that_explain_it(
    club: Club, arbiter_client: Client
) -> None:
    t = _import(club, TEAM_SWISS)
    html = flat(arbiter_client.get(f"/c/riverside/arbiter/t/{t.id}/").content.decode())
    table = html.split('<table id="differences">', 1)[1].split("</table>", 1)[0]
    assert re.findall(
        r'<tr><td class="num">(\d+)</td><td>([^<]+)</td><td class="num">([^<]+)</td>'
        r'<td class="num">([^<]+)</td><td>([^<]+)</td></tr>',
        table,
    ) == [("2", "Sargsyan, Lilit", "2½", "1½", "R2 0000 - -")]
    ru = arbiter_client.get(
        f"/c/riverside/arbiter/t/{t.id}/", headers={"accept-language": "ru"}
    ).content.decode()
    assert (
        "The standings show the points and ranks written in the file" not in ru
        and 'id="differences"' in ru
    )


# Start numbers written as ranks over points that say otherwise: placeholders (player 1, 1 point,
# ranked above player 2, 1.5 points).
PLACEHOLDERS = (
    "\n".join(
        [
            *HEADERS,
            trf_line(1, "Berg, Anna", "1.0", "1", ["   3 w 0", "   4 w 1"]),
            trf_line(2, "Cole, Ben", "1.5", "2", ["   4 b 1", "   3 b ="]),
            trf_line(3, "Dunn, Cara", "1.5", "3", ["   1 b 1", "   2 w ="]),
            trf_line(4, "Eng, Dan", "0.0", "4", ["   2 w 0", "   1 b 0"]),
        ]
    )
    + "\n"
)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "the file's ranks put player 1 above player "
            "2, who has more points, so they are not used",
        ),
        (
            "hy",
            "ֆայլի տեղերը 1 խաղացողին դնում են 2 խաղացողից վեր, որն "
            "ավելի շատ միավոր ունի, ուստի դրանք չեն օգտագործվում",
        ),
        (
            "ru",
            "места в файле ставят игрока 1 выше игрока 2, у "
            "которого больше очков, поэтому они не используются",
        ),
    ],
)
def test_placeholder_ranks_are_set_aside_and_the_page_says_so_in_its_language(
    club: Club, tmp_path: Path, language: str, words: str
) -> None:
    (path := tmp_path / "placeholders.trf").write_text(PLACEHOLDERS, encoding="utf-8")
    t = _import(club, path)
    html = (
        Client()
        .get(f"/c/riverside/t/{t.id}/", headers={"accept-language": language})
        .content.decode()
    )
    ranked_by = unescape(html.split('<p id="ranked-by">', 1)[1].split("</p>", 1)[0])
    assert words in ranked_by
    if language != "en":
        assert "so they are not used" not in ranked_by
    assert [
        int(number)
        for _, number in re.findall(
            r'<tr><td class="num">(\d+)</td><td class="num">(\d+)</td>', html.split("<tbody>", 1)[1]
        )
    ][:4] == [3, 2, 1, 4]


def test_a_player_s_history_shows_the_standings_points_of_the_file(club: Club) -> None:
    from clubrating.club.read import players
    from clubrating.club.store.models import Member

    from . import reference_reads

    t = _import(club, TEAM_SWISS)
    lilit = Member.objects.get(club=club, name="Sargsyan, Lilit")
    history = players.player_history(lilit)
    assert [
        (row["tournament_id"], row["score"], row["games_rated"]) for row in history["tournaments"]
    ] == [(t.id, 2.5, 2)]
    assert history == reference_reads.player_history(lilit)


def test_a_corrected_result_moves_the_file_s_points_by_as_much(club: Club) -> None:
    from clubrating.club.store.models import Game
    from clubrating.club.read.tournaments import standings

    t = _import(club, TEAM_SWISS)
    game = Game.objects.get(tournament=t, round=1, white__number=4)  # Grigoryan - Sargsyan, drawn
    correct_result(game, "1-0", who=WHO)
    table = standings(t)
    points = {p["number"]: p["points"] for p in table["players"]}
    assert (points[2], points[4]) == (
        2.0,
        1.5,
    )  # 2.5 - 0.5 and 1.0 + 0.5: the file's difference kept
    assert table["differences"] == [
        {
            "number": 2,
            "name": "Sargsyan, Lilit",
            "written": 2.0,
            "computed": 1.0,
            "rounds": [{"round": 2, "code": "0000 - -", "points": 0.0}],
        }
    ]
    # the file's ranks put Lilit (now 2) above Aram (2.5): set aside, ranked by the points
    assert table["rule"] == "tiebreaks" and table["players"][0]["number"] == 1


# No ranks, and points written that the results do not give: Dan Eng's 3 points are the file's own.
UNRANKED = (
    "\n".join(
        [
            *HEADERS,
            trf_line(1, "Berg, Anna", "1.0", "", ["   3 w 0", "   4 w 1"]),
            trf_line(2, "Cole, Ben", "1.5", "", ["   4 b 1", "   3 b ="]),
            trf_line(3, "Dunn, Cara", "1.5", "", ["   1 b 1", "   2 w ="]),
            trf_line(4, "Eng, Dan", "3.0", "", ["   2 w 0", "   1 b 0"]),
        ]
    )
    + "\n"
)


def test_the_tournament_list_crowns_the_file_s_top_scorer(club: Club, tmp_path: Path) -> None:
    from clubrating.club.read import tournaments

    (path := tmp_path / "unranked.trf").write_text(UNRANKED, encoding="utf-8")
    t = _import(club, path)
    winners = tournaments.tournament_summaries(club, [t])[t.id]["winners"]
    assert [name for name, _ in winners] == ["Eng, Dan"]
    assert [(p["place"], p["name"]) for p in tournaments.standings(t)["players"]][0] == (
        1,
        "Eng, Dan",
    )
    api = Client().get("/api/c/riverside/tournaments").json()
    assert [w["name"] for w in api[0]["winners"]] == ["Eng, Dan"]
