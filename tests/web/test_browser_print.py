"""The printable pages printed by Chromium to A4 PDF and turned into images by poppler's pdftoppm:
a running evening of 40 players, eight rounds played and the ninth paired. Nothing of a table is
clipped (every name is in the PDF's text, and the page images keep their right margin blank), and
one round's pairings, by board or by name, fit on at most two A4 pages. Chromium or poppler-utils
missing is a failure, not a skip (scripts/bootstrap --test installs them)."""

from __future__ import annotations

import datetime as dt
import shutil
import re
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clubrating.club.services import evening
from clubrating.club.store.models import Club, EveningBoard, Tournament

from .test_browser import page  # noqa: F401  (the Chromium fixture)
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.names import all_new_members

pytestmark = pytest.mark.browser

FIRST = ["Anna", "Bob", "Carl", "Dana", "Erik", "Fay", "Gina", "Hrant", "Irina", "Jakob"]
LAST = [
    "Smith",
    "Jones",
    "Berg",
    "Konstantinopolskaya-Petrosyan",
    "Lund",
    "Wong",
    "Hart",
    "Abrahamyan",
]
PLAYERS = [
    f"{FIRST[i % 10]} {LAST[i % 8]}{'' if i < 10 else f' {chr(65 + i // 10)}.'}" for i in range(40)
]
A4_PAGES_AT_MOST = 2
MARGIN_STRIP = 0.03  # the rightmost 3 % of a page image (6 mm of A4's 210) must stay blank


def _evening_of_forty(club: Club) -> Tournament:
    t = evening.start_evening(club, "Club Championship", dt.date.today(), 9, who="test")
    for name in PLAYERS:
        evening.register(t, name, who="test")
    all_new_members(t, who="test")
    for rnd in range(1, 10):
        evening.pair_next_round(t, who="test")
        if rnd < 9:
            for i, board in enumerate(EveningBoard.objects.filter(tournament=t, round=rnd)):
                evening.enter_result(board, ["1-0", "1/2-1/2", "0-1"][(i + rnd) % 3], who="test")
    return t


def _words(name: str) -> list[str]:
    """The words of a text, a hyphenated one in two: a cell may wrap a name after a space or a
    hyphen."""
    return re.findall(r"[^\s-]+-?", name)


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found, (
        f"{name} is missing: run scripts/bootstrap --test (installs Debian's poppler-utils)"
    )
    return found


def _pdf_pages(pdf: Path) -> int:
    info = subprocess.run(
        [_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    return int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:")))


def _pdf_text(pdf: Path) -> str:
    return subprocess.run(
        [_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def _gray_pages(pdf: Path, prefix: Path) -> list[tuple[int, int, bytes]]:
    """Each page as (width, height, 8-bit grey pixels) from pdftoppm's binary PGM."""
    subprocess.run([_tool("pdftoppm"), "-r", "60", "-gray", str(pdf), str(prefix)], check=True)
    pages = []
    for image in sorted(prefix.parent.glob(f"{prefix.name}-*.pgm")):
        data = image.read_bytes()
        magic, width, height, maxval, pixels = data.split(maxsplit=4)
        assert magic == b"P5" and maxval == b"255"
        pages.append((int(width), int(height), pixels))
    return pages


def _right_margin_is_blank(width: int, height: int, pixels: bytes) -> bool:
    strip = int(width * (1 - MARGIN_STRIP))
    return all(min(pixels[y * width + strip : (y + 1) * width]) > 200 for y in range(height))


PRINTABLE_WIDTH = {
    "portrait": 703,
    "landscape": 1047,
}  # CSS px (96 an inch) of A4 less the @page margins


def _print(page: Any, url: str, pdf: Path, orientation: str) -> Path:
    page.goto(url)
    page.emulate_media(media="print")
    # Laid out for print at the printable width of the page: no table wider than it.
    page.set_viewport_size({"width": PRINTABLE_WIDTH[orientation], "height": 1000})
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PRINTABLE_WIDTH[orientation], f"{url}: {wide} px wide"
    page.pdf(path=str(pdf), format="A4", prefer_css_page_size=True, print_background=False)
    return pdf


@pytest.mark.parametrize("which", ["pairings", "names", "wallchart"])
def test_a_printed_page_keeps_every_row_within_the_a4_page(
    live_server: Any, transactional_db: None, page: Any, tmp_path: Path, which: str
) -> None:  # noqa: F811
    club = create_club("Riverside Chess Club", who="test", slug="riverside")
    set_privacy(club, who="test", visibility="public")
    t = _evening_of_forty(club)
    pdf = _print(
        page,
        f"{live_server.url}/c/riverside/t/{t.id}/print/{which}/",
        tmp_path / f"{which}.pdf",
        "landscape" if which == "wallchart" else "portrait",
    )
    pages = _pdf_pages(pdf)
    if which != "wallchart":  # one round: 20 boards, 40 names
        assert pages <= A4_PAGES_AT_MOST, f"{which}: {pages} A4 pages"
    printed = Counter(_words(_pdf_text(pdf)))
    missing = Counter(word for name in PLAYERS for word in _words(name)) - printed
    assert not missing, f"{which}: not in the printed text: {dict(missing)}"
    if which == "wallchart":  # the last column of the crosstable (the last tie-break) is printed
        assert printed["PS"] >= 1 and printed["R9"] >= 1
    images = _gray_pages(pdf, tmp_path / which)
    assert len(images) == pages
    for number, (width, height, pixels) in enumerate(images, 1):
        assert (
            width < height if which != "wallchart" else width > height
        )  # portrait; the chart landscape
        assert _right_margin_is_blank(width, height, pixels), (
            f"{which}: page {number} is printed to its edge"
        )
