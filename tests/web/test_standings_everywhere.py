"""A tournament ranks its players one way on its page, in its API document, its standings CSV and
its TRF export: an evening paired here by its own tie-breaks, an imported file by the ranks written
in it, a file without ranks by points and FIDE's default tie-breaks. The TRF export keeps the
imported header
lines and, on request, carries the club ratings; the Dutch engine pairs its next round from it."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import trf  # type: ignore[import-untyped]
from django.test import Client

from clubrating.club.services import evening as evenings
from clubrating.tournament.pairing import History, Seat, pair_round
from clubrating.club.store.models import Club, EveningBoard, Tournament
from clubrating.files import read_tournament_file
from clubrating.formats.records import Bye, ByeKind, Pairing
from clubrating.formats.typed import parse_typed

from .conftest import TODAY, WHO
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament
from clubrating.club.services import tournaments as tournament_services

GUESTS = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eve Stone", "Finn Gray"]
HEADERS = [
    "012 Riverside Autumn Open",
    "022 Riverside",
    "032 ENG",
    "042 2024/10/01",
    "052 2024/10/22",
    "062 4",
    "072 0",
    "082 0",
    "092 Individual: Swiss-System",
    "102 IA Jane Arbiter",
    "112 Tom Deputy",
    "122 90 min + 30 s per move",
    "XXR 5",
]


def trf_line(number: int, name: str, points: str, rank: str, cells: list[str]) -> str:
    return f"001 {number:>4}      {name:<33}{'':33}{points:>4} {rank:>4}" + "".join(
        "  " + c for c in cells
    )


# 3 beats 1 and draws 2; 2 beats 4; 1 beats 4: 2 and 3 level on 1.5, the file ranks 3 first
AUTUMN = (
    "\n".join(
        [
            *HEADERS,
            trf_line(1, "Berg, Anna", "1.0", "3", ["   3 w 0", "   4 w 1"]),
            trf_line(2, "Cole, Ben", "1.5", "2", ["   4 b 1", "   3 b ="]),
            trf_line(3, "Dunn, Cara", "1.5", "1", ["   1 b 1", "   2 w ="]),
            trf_line(4, "Eng, Dan", "0.0", "4", ["   2 w 0", "   1 b 0"]),
        ]
    )
    + "\n"
)


def _import(club: Club, path: Path, *, publish: bool = True) -> Tournament:
    t = import_tournament(club, read_tournament_file(str(path)), who=WHO, today=TODAY)
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    if publish:
        tournament_services.publish(t, who=WHO)
    return t


def _everywhere(t: Tournament) -> dict[str, list[int]]:
    """The start numbers in the order of the page, the API document and the TRF export's ranks."""
    client = Client()
    html = client.get(f"/c/riverside/t/{t.id}/").content.decode()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    page = [
        int(n)
        for n in re.findall(
            r'<tr><td class="num">[^<]*(?:<[^>]*>[^<]*</span>)?</td><td class="num">(\d+)</td>',
            body,
        )
    ]
    api = [
        p["number"] for p in client.get(f"/api/c/riverside/tournaments/{t.id}").json()["players"]
    ]
    export = client.get(f"/c/riverside/t/{t.id}/tournament.trf").content.decode()
    ranks = {int(row[4:8]): int(row[85:89]) for row in export.splitlines() if row.startswith("001")}
    table = csv.DictReader(
        io.StringIO(client.get(f"/c/riverside/t/{t.id}/standings.csv").content.decode())
    )
    csv_order = [int(row["No."]) for row in table]
    assert csv_order == page, "the standings CSV lists the page's order"
    return {"page": page, "api": api, "trf": sorted(ranks, key=lambda n: ranks[n])}


def test_an_imported_file_is_ranked_as_written_in_it_on_every_page_and_export(
    club: Club, tmp_path: Path
) -> None:
    (path := tmp_path / "autumn.trf").write_text(AUTUMN, encoding="utf-8")
    t = _import(club, path)
    assert _everywhere(t) == {"page": [3, 2, 1, 4], "api": [3, 2, 1, 4], "trf": [3, 2, 1, 4]}
    html = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "Ranked as written in the file." in html
    assert all(f">{short}</abbr></th>" in html for short in ("BH-C1", "BH", "SB", "PS"))
    header = Client().get(f"/c/riverside/t/{t.id}/standings.csv").content.decode().splitlines()[0]
    assert header == "Place,No.,Name,Points,BH-C1,BH,SB,PS,Rating before,Rating after"
    doc = Client().get(f"/api/c/riverside/tournaments/{t.id}").json()
    assert doc["rule"] == "written" and doc["ranked_by"] == "Ranked as written in the file"
    assert [p["place"] for p in doc["players"]] == [1, 2, 3, 4] and len(
        doc["players"][0]["tiebreaks"]
    ) == 4


def test_a_file_without_ranks_is_ranked_by_points_then_fide_s_default_tie_breaks(
    club: Club,
) -> None:
    # a Swiss of four: Bob and Carl level on 1.5, Bob's opponents scored more (Buchholz) than Carl's
    text = (
        "1, Dana White, Carl Berg, 0-1\n1, Anna Smith, Bob Jones, 0-1\n"
        "2, Carl Berg, Bob Jones, 1/2-1/2\n2, Anna Smith, Dana White, 1-0\n"
    )
    t = import_tournament(
        club, parse_typed(text, name="Ladder", date=dt.date(2024, 2, 1)), who=WHO, today=TODAY
    )
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    tournament_services.publish(t, who=WHO)
    number = {e.name: e.number for e in t.entries.all()}
    expected = [number[n] for n in ("Bob Jones", "Carl Berg", "Anna Smith", "Dana White")]
    assert (
        number["Carl Berg"] < number["Bob Jones"]
    )  # so ranking level players by start number would fail
    assert _everywhere(t) == {"page": expected, "api": expected, "trf": expected}
    html = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert (
        "Ranked by points, then Buchholz Cut-1, Buchholz, Sonneborn-Berger, progressive scores."
        in html
    )


def _run_evening(club: Club, rounds: int, results: list[str]) -> Tournament:
    t = evenings.start_evening(club, "Thursday Swiss", dt.date(2024, 3, 7), 5, who=WHO, today=TODAY)
    for name in GUESTS:
        evenings.register(t, name, who=WHO)
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    for rnd in range(1, rounds + 1):
        evenings.pair_next_round(t, who=WHO)
        for board, result in zip(
            EveningBoard.objects.filter(tournament=t, round=rnd).order_by("board"), results
        ):
            evenings.enter_result(board, result, who=WHO)
    return t


def test_a_published_evening_keeps_its_own_tie_breaks_everywhere(
    club: Club, evening: Tournament
) -> None:
    t = _run_evening(club, 3, ["1-0", "1/2-1/2", "0-1"])
    own = [row.number for row, _ in evenings.standings_of(t)]
    points = {row.number: row.points for row, _ in evenings.standings_of(t)}
    assert own != sorted(own, key=lambda n: (-points[n], n))  # the tie-breaks reorder level players
    evenings.publish_evening(t, who=WHO)
    assert [row.number for row, _ in evenings.standings_of(t)] == own
    assert _everywhere(t) == {"page": own, "api": own, "trf": own}


def test_the_export_keeps_the_imported_header_lines(club: Club, tmp_path: Path) -> None:
    (path := tmp_path / "autumn.trf").write_text(AUTUMN, encoding="utf-8")
    t = _import(club, path)
    export = Client().get(f"/c/riverside/t/{t.id}/tournament.trf").content.decode()
    assert export.splitlines()[: len(HEADERS)] == HEADERS


def test_the_club_ratings_fill_the_rating_column_on_request_only(
    club: Club, evening: Tournament
) -> None:
    changes = {
        c.member.name: round(c.rating_before)
        for c in evening.rating_changes.select_related("member")
    }
    client = Client()
    rated = client.get(f"/c/riverside/t/{evening.id}/tournament.trf?ratings=club").content.decode()
    plain = client.get(f"/c/riverside/t/{evening.id}/tournament.trf").content.decode()
    names = {e.number: e.member.name for e in evening.entries.select_related("member")}
    assert {
        names[int(row[4:8])]: int(row[48:52]) for row in rated.splitlines() if row.startswith("001")
    } == changes
    assert all(not row[48:52].strip() for row in plain.splitlines() if row.startswith("001"))
    refused = client.get(f"/c/riverside/t/{evening.id}/tournament.trf?ratings=fide")
    assert refused.status_code == 400 and b"ratings= takes 'club'" in refused.content


def _history_from(text: str) -> tuple[History, int]:
    """An evening's history as the independent ``trf`` reader sees the export: seats by the rating
    column, the games and byes by the 001 cells."""
    other = trf.loads(text)
    seats = tuple(Seat(p.startrank, p.rating or None) for p in other.players)
    points = {"1": 2, "=": 1, "0": 0, "+": 2, "-": 0}
    results, rests, done = [], [], 0
    for p in other.players:
        for g in p.games:
            if g.result == " ":
                continue
            done = max(done, g.round)
            if g.startrank and g.color == "w":
                theirs = next(h for h in other.players[g.startrank - 1].games if h.round == g.round)
                results.append(
                    Pairing(
                        g.round,
                        p.startrank,
                        g.startrank,
                        points[g.result],
                        points[theirs.result],
                        g.result in "1=0",
                    )
                )
            elif not g.startrank:
                kind = {"U": ByeKind.PAIRING, "H": ByeKind.HALF_POINT}[g.result.upper()]
                rests.append(Bye(g.round, p.startrank, 2 if kind is ByeKind.PAIRING else 1, kind))
    return History(seats, tuple(sorted(results, key=lambda r: r.round)), tuple(rests)), done


def test_the_dutch_engine_pairs_the_next_round_from_the_export_as_the_evening_does(
    club: Club, evening: Tournament
) -> None:
    t = _run_evening(club, 2, ["1-0", "1/2-1/2", "0-1"])
    export = Client().get(f"/c/riverside/t/{t.id}/tournament.trf?ratings=club")
    assert export.status_code == 404  # a draft is the arbiter's: log in as one
    client = _arbiter(club)
    text = client.get(f"/c/riverside/t/{t.id}/tournament.trf?ratings=club").content.decode()
    history, done = _history_from(text)
    assert done == 2 and "XXR 5" in text.splitlines()
    evenings.pair_next_round(t, who=WHO)
    plan = pair_round(history, 3, 5, [s.number for s in history.seats])
    boards = (
        EveningBoard.objects.filter(tournament=t, round=3)
        .order_by("board")
        .select_related("white", "black")
    )
    assert plan.boards == tuple((b.white.number, b.black.number) for b in boards)


def _arbiter(club: Club) -> Any:
    from .conftest import make_arbiter

    client = Client()
    client.force_login(make_arbiter(club, "tess-arbiter"))
    return client
