"""The board slips of one round of a 40-player tournament (20 boards), made by the arbiter's
page in-process and printed to A4 by Chromium (Playwright's page.pdf): the time to make the 40
links (one per player) and draw the page, a slip's size as printed (its board part and two
tear-off halves), the PDF's pages (pdfinfo), and how many QR codes zbarimg reads back from the
pages turned into images by pdftoppm at 150 dpi.

Usage: python benchmarks/measure_slips.py
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import tempfile
import time
from pathlib import Path

BOARDS = 20
CHROMIUM = "/usr/bin/chromium"
PRINTABLE_WIDTH = 718  # CSS px of A4's 190 mm between the slips page's 10 mm margins
MM_PER_PX = 25.4 / 96


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="clubrating-slips-"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "clubrating.settings"
    os.environ["CLUBRATING_DATABASE_URL"] = f"sqlite:///{work / 'club.sqlite3'}"
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from clubrating.club.services.clubs import create_club
    from clubrating.club.services.tournaments import import_tournament
    from clubrating.formats.typed import parse_typed

    call_command("migrate", verbosity=0)
    club = create_club("Measure Club", who="measure", slug="measure")
    text = "".join(
        f"1, Player{2 * i:02d} Surname, Player{2 * i + 1:02d} Othername, 1-0\n"
        for i in range(BOARDS)
    )
    t = import_tournament(
        club,
        parse_typed(text, name="Forty", date=dt.date(2024, 1, 9)),
        who="measure",
        today=dt.date(2030, 1, 1),
    )
    user = User.objects.create_user("arbiter")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    start = time.perf_counter()
    html = client.post(
        f"/c/measure/arbiter/t/{t.id}/slips/", {"action": "print", "round": "1"}
    ).content.decode()
    print(
        f"{2 * BOARDS} links made and the slips page drawn: "
        f"{1000 * (time.perf_counter() - start):.0f} ms"
    )

    from playwright.sync_api import sync_playwright

    pdf = work / "slips.pdf"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": PRINTABLE_WIDTH, "height": 1000})
        page.set_content(html)
        page.emulate_media(media="print")
        slip = page.locator("article.slip").first.bounding_box()
        print(
            f"a slip as printed: {slip['height'] * MM_PER_PX:.1f} "
            f"mm high, {slip['width'] * MM_PER_PX:.1f} mm wide"
        )
        page.pdf(path=str(pdf), format="A4")
        browser.close()
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:"))
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(work / "page")], check=True)
    images = sorted(str(p) for p in work.glob("page*.png"))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", *images], capture_output=True, text=True
    ).stdout.split()
    print(f"{pages} A4 pages; {len(decoded)} of {2 * BOARDS} QR codes decoded")


if __name__ == "__main__":
    main()
