"""A whole over-the-board evening in Chromium, as the arbiter and as the players, from a TRF to a
CPI: Playwright driving Debian's Chromium against the live server.

The arbiter uploads a six-player, two-round TRF (Swiss-Manager's format, written here by the
project's TRF writer), makes its names members and publishes it. Round 1's moves come from a PGN
on the "Add moves" page (one name misspelled, confirmed; one result that differs, corrected) and
from the scoresheet typed on a game's page (an illegal move refused naming the move, the text
kept, then corrected; after its analysis, a wrong check sign refused and the moves replaced and
analysed again). Round 2's board slips are printed to PDF, turned into images by pdftoppm
and their QR codes read by zbarimg; the two players of one board send the same moves, each through
their own link (stored at once), two of another board differ (the arbiter sees the first
difference and picks).
The TRF-imported tournament gets moves links itself, so no separate evening is needed. A real
worker (the database queue's ``db_worker``, the real Stockfish at a small node budget) analyses
the five games; the game viewer shows the blunder that allowed mate in one and the CPI page of a
player of the evening its figure. The tools missing is a failure, not a skip."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from clubrating.club.store.models import AuditEntry, Club, Game, GameAnalysis, Member, Tournament
from clubrating.formats.trf import write_trf
from clubrating.formats.typed import parse_typed

from .conftest import PASSWORD, make_arbiter
from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services.clubs import create_club, set_privacy

pytestmark = pytest.mark.browser

TONIGHT = """
1, Anna Smith, Bob Jones, 1-0
1, Carl Berg, Dana White, 1/2-1/2
1, Erik Lund, Fay Wong, 0-1
2, Bob Jones, Erik Lund, 1-0
2, Dana White, Anna Smith, 0-1
2, Fay Wong, Carl Berg, 1/2-1/2
"""
SCHOLAR = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"  # 3...Nf6?? allows mate in one
QUEENS = "1. d4 d5 2. c4 e6 3. Nc3 Nf6"
PHONE = {"width": 360, "height": 740}


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found, (
        f"{name} is missing: run scripts/bootstrap --test (installs poppler-utils and zbar-tools)"
    )
    return found


def _pgn(round_: str, white: str, black: str, result: str, moves: str) -> str:
    tags = {
        "Event": "Tuesday Rapid",
        "Site": "Riverside",
        "Date": "2024.01.09",
        "Round": round_,
        "White": white,
        "Black": black,
        "Result": result,
    }
    return "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + f"\n{moves} {result}\n\n"


def _game(t: Tournament, round_: int, white: str) -> Game:
    return Game.objects.get(tournament=t, round=round_, white__name=white)


def test_an_over_the_board_evening_from_its_trf_to_the_blunder_and_the_cpi(
    live_server: Any,
    transactional_db: None,
    page: Any,
    tmp_path: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club: Club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    Club.objects.filter(pk=club.pk).update(
        cpi_weights={"preset": "spec"}
    )  # the CPI as a running sum
    make_arbiter(club, "arbiter")
    url, home = live_server.url, f"{live_server.url}/c/riverside/arbiter"

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "arbiter")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/c/riverside/")

    # The TRF, through the arbiter's upload page, published.
    trf, out = tmp_path / "tuesday.trf", io.StringIO()
    write_trf(parse_typed(TONIGHT, name="Tuesday Rapid", date=dt.date(2024, 1, 9)), out)
    trf.write_text(out.getvalue())
    page.goto(f"{home}/upload/")
    page.set_input_files("#file", str(trf))
    page.click("text=Import as a draft")
    page.wait_for_selector("text=as a draft: 6 players, 6 games")
    page.click("text=Make every remaining name a new member")
    page.wait_for_selector("text=made 6 new members")
    page.click("text=Publish and rate")
    page.wait_for_selector("text=published 'Tuesday Rapid'")
    t = Tournament.objects.get(club=club, name="Tuesday Rapid")

    _add_moves_from_a_pgn(page, home, t)
    _type_a_scoresheet(page, home, t)
    links = _print_the_slips_and_read_the_codes(page, url, home, t, tmp_path)
    phone = page.context.browser.new_context(viewport=PHONE).new_page()  # the players: no login
    _players_enter_their_games(phone, page, home, t, links)

    # A real worker: the database queue's worker with the real engine at a small node budget.
    page.goto(f"{home}/t/{t.id}/analysis/")
    assert "queued: 5 · running: 0 · analysed: 0 · failed: 0" in page.inner_text("main")
    monkeypatch.setenv("CLUBRATING_NODES", "2000")
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    page.reload()
    assert "queued: 0 · running: 0 · analysed: 5 · failed: 0" in page.inner_text("main")

    # The public game viewer marks 3...Nf6 as Black's blunder, with the engine's choice.
    scholar = _game(t, 1, "Anna Smith")
    phone.goto(f"{url}/c/riverside/g/{scholar.id}/")
    phone.wait_for_selector("ol.moves")
    assert 'Nf6<abbr class="mark blunder" title="blunder">??</abbr>' in phone.content()
    phone.click("ol.moves a[href='?ply=6']")
    phone.wait_for_url("**?ply=6")
    position = phone.inner_text("#position")
    assert "blunder by Black" in position and "the engine's choice was" in position
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The CPI page of a player of the evening: two analysed games, the spec's running CPI.
    anna = Member.objects.get(club=club, name="Anna Smith")
    phone.goto(f"{url}/c/riverside/p/{anna.id}/cpi/")
    phone.wait_for_selector("#cpi-headline")
    assert phone.inner_text("#cpi-headline").endswith("after 2 analysed games.")

    _correct_a_scoresheet(page, home, t)
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    page.goto(f"{home}/t/{t.id}/analysis/")
    assert "queued: 0 · running: 0 · analysed: 5 · failed: 0" in page.inner_text("main")


def _correct_a_scoresheet(page: Any, home: str, t: Tournament) -> None:
    """Erik Lund - Fay Wong corrected after its analysis: a check sign the position contradicts
    is refused with the board, then the moves are replaced, audited, and analysed again."""
    game = _game(t, 1, "Erik Lund")
    page.goto(f"{home}/g/{game.id}/")
    assert page.input_value("#moves") == "1. e4 e5 2. Ke2 0-1"  # the stored moves, to edit
    page.fill("#moves", "1. e4 e5 2. Ke2 Qh4+")
    page.click("text=Check the moves and replace the stored ones")
    page.wait_for_selector("figcaption")
    assert "Move 2 (Black) “Qh4+”: written as check (+), but it gives no check" in page.inner_text(
        "figcaption"
    )
    assert _game(t, 1, "Erik Lund").moves == "1. e4 e5 2. Ke2 0-1"
    page.fill("#moves", "1. e4 e5 2. Ke2 Qh4")
    page.click("text=Check the moves and replace the stored ones")
    page.wait_for_selector("text=the moves replaced by 4 half-moves")
    assert _game(t, 1, "Erik Lund").moves == "1. e4 e5 2. Ke2 Qh4 0-1"
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert AuditEntry.objects.get(action="replace-moves").old == {"moves": "1. e4 e5 2. Ke2 0-1"}
    page.goto(f"{home}/t/{t.id}/analysis/")
    assert "queued: 1 · running: 0 · analysed: 4 · failed: 0" in page.inner_text("main")


def _add_moves_from_a_pgn(page: Any, home: str, t: Tournament) -> None:
    """Round 1's first two games: 'Ana Smith' is a proposal the arbiter ticks; Carl Berg - Dana
    White is 1/2-1/2 in the TRF and 1-0 in the PGN, and the arbiter corrects the stored result."""
    page.goto(f"{home}/t/{t.id}/moves/")
    page.fill(
        "#pgn",
        _pgn("1", "Ana Smith", "Bob Jones", "1-0", SCHOLAR)
        + _pgn("1", "Carl Berg", "Dana White", "1-0", QUEENS),
    )
    page.click("text=Match the games")
    page.wait_for_selector("text=Nothing is stored yet")
    assert "The results differ." in page.inner_text("main")
    assert not Game.objects.filter(tournament=t).exclude(moves="").exists()
    page.get_by_label("'Ana Smith' is 'Anna Smith'?").check()
    page.get_by_label("Correct the stored result to 1-0 (ratings replayed)").check()
    page.click("text=Store these moves")
    page.wait_for_url(f"{home}/t/{t.id}/")
    assert _game(t, 1, "Anna Smith").moves == f"{SCHOLAR} 1-0"
    carl = _game(t, 1, "Carl Berg")
    assert carl.moves == f"{QUEENS} 1-0" and game_result_text(carl) == "1-0"


def _type_a_scoresheet(page: Any, home: str, t: Tournament) -> None:
    """Erik Lund - Fay Wong typed from the scoresheet: 2. Ke3 is refused by name, the text stays."""
    game = _game(t, 1, "Erik Lund")
    page.goto(f"{home}/g/{game.id}/")
    page.fill("#moves", "1. e4 e5 2. Ke3")
    page.click("text=Check and store the moves")
    page.wait_for_selector("figcaption")
    assert "Move 2 (White) “Ke3”: illegal in this position" in page.inner_text("figcaption")
    assert page.input_value("#moves") == "1. e4 e5 2. Ke3"
    page.fill("#moves", "1. e4 e5 2. Ke2")
    page.click("text=Check and store the moves")
    page.wait_for_selector("h2:text-is('Moves')")
    assert _game(t, 1, "Erik Lund").moves == "1. e4 e5 2. Ke2 0-1"


def _print_the_slips_and_read_the_codes(
    page: Any, url: str, home: str, t: Tournament, tmp_path: Path
) -> dict[str, str]:
    """Round 2's pairing list and board slips printed to A4 PDF; each slip's QR code decodes to
    the link printed under it. The links by their player's name, as the slip labels them."""
    page.goto(f"{url}/c/riverside/t/{t.id}/print/pairings/?round=2")
    pairings = tmp_path / "pairings.pdf"
    page.pdf(path=str(pairings), format="A4", prefer_css_page_size=True)
    subprocess.run(
        [_tool("pdftoppm"), "-r", "60", "-png", str(pairings), str(tmp_path / "pairings")],
        check=True,
    )
    assert len(list(tmp_path.glob("pairings*.png"))) == 1  # three boards on one page

    page.goto(f"{home}/t/{t.id}/slips/")
    page.select_option("#round", "2")
    page.click("text=Make the links and show the slips")
    page.wait_for_selector("article.slip")
    links = {}
    for code in page.locator("article.slip figure").all():
        name = code.locator("figcaption").inner_text().split(": ", 1)[1].strip()
        links[name] = code.locator(".url").inner_text().strip()
    assert len(links) == 6 and {
        "Bob Jones",
        "Dana White",
        "Fay Wong",
        "Anna Smith",
        "Erik Lund",
    } < set(links)
    assert all(link.startswith(f"{url}/m/") for link in links.values())
    slips = tmp_path / "slips.pdf"
    page.pdf(path=str(slips), format="A4")
    subprocess.run(
        [_tool("pdftoppm"), "-r", "150", "-png", str(slips), str(tmp_path / "slip")], check=True
    )
    images = sorted(tmp_path.glob("slip*.png"))
    assert len(images) == 1
    decoded = subprocess.run(
        [_tool("zbarimg"), "--quiet", "--raw", *map(str, images)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(decoded) == sorted(links.values())
    return links


def _send(browser_page: Any, link: str, moves: str) -> str:
    """One player sends their moves from their own phone (a browser context of its own: two
    submissions agree only from two devices)."""
    context = browser_page.context.browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(link)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.fill("#moves", moves)
    phone.click("text=Send the moves")
    phone.wait_for_selector("[role=status]")
    said = str(phone.inner_text("[role=status]"))
    context.close()
    return said


def _players_enter_their_games(
    phone: Any, page: Any, home: str, t: Tournament, links: dict[str, str]
) -> None:
    """Bob Jones and Erik Lund agree, each through their own link (stored at once); Dana White
    and Anna Smith do not, and the arbiter, shown the first move where they differ, accepts
    Anna's."""
    _send(phone, links["Bob Jones"], "1. d4 d5 2. c4 e6")
    assert "stored" in _send(phone, links["Erik Lund"], "d4 d5 c4 e6")
    assert _game(t, 2, "Bob Jones").moves == "1. d4 d5 2. c4 e6 1-0"

    _send(phone, links["Dana White"], "1. e4 c5 2. Nf3 d6")
    _send(phone, links["Anna Smith"], "1. e4 c5 2. Nf3 Nc6")
    assert _game(t, 2, "Dana White").moves == ""  # nothing stored before the arbiter picks
    page.goto(f"{home}/g/{_game(t, 2, 'Dana White').id}/")
    page.wait_for_selector("text=Moves the players entered")
    assert "differs from the first at move 2 (Black): d6 / Nc6" in page.inner_text("main")
    page.locator("form", has_text="Nc6").get_by_role("button", name="Accept these moves").click()
    page.wait_for_selector("h2:text-is('Moves')")
    assert _game(t, 2, "Dana White").moves == "1. e4 c5 2. Nf3 Nc6 0-1"
