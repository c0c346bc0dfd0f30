"""One weakest factor and one cost: ``clubrating cpi``, ``clubrating coach``, the CPI page and
the player page name the same factor with the same ΔCPI a game, under the spec's settings and
under a fitted preset; and the page's ledger reads CPI before + ΔCPI = CPI after."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from clubrating.cli import main
from clubrating.club.store.models import Club, CpiEntry
from clubrating.club.services.cpi_weights import set_cpi_weights
from tests.cpi.coach_games import hanging_game, publish_analysed

from .conftest import WHO, member
from .rendered import flat
from .test_cpi_page_reads import long_game
from .test_cpi_pages import page


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("preset", "facts"), [("spec", hanging_game), ("fide-classical", long_game)]
)
def test_the_cli_the_coach_and_the_pages_name_the_same_weakest_factor_and_cost(
    club: Club, capsys: pytest.CaptureFixture[str], preset: str, facts: object
) -> None:
    set_cpi_weights(club, {}, who=WHO, preset=preset)
    publish_analysed(club, 8, facts=facts, who=WHO)
    anna = member(club, "Anna Berg")
    ledger = json.loads(cli(capsys, "cpi", "Anna Berg", "--json"))["weakest"]
    coach = json.loads(cli(capsys, "coach", "Anna Berg", "--json"))["weakest"]
    assert ledger["factor"] == coach["factor"] and ledger["cost_per_game"] == coach["cost_per_game"]
    factor, cost = ledger["factor"], f"{ledger['cost_per_game']:.1f}"
    assert f"weakest factor: {factor} (costs {cost} ΔCPI a game)" in cli(capsys, "cpi", "Anna Berg")
    assert re.search(
        rf"weakest factor: {factor}, .*, costs {re.escape(cost)} ΔCPI a game",
        cli(capsys, "coach", "Anna Berg"),
    )
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    weakest = re.search(r'<p id="cpi-weakest">(.*?)</p>', html, re.S)
    assert weakest is not None and f"<strong>{factor}</strong>" in weakest.group(1)
    assert f"it costs {cost} ΔCPI a game against a perfect score" in weakest.group(1)
    assert re.search(
        rf'<tr id="factor-{factor}" class="weakest">(?:<t[hd][^>]*>[^<]*</t[hd]>)*?'
        rf'<td class="num">{re.escape(cost)}</td>',
        html,
    )
    assert html.count('class="weakest"') == 1
    coach_why = re.search(r'<p id="coach-why">(.*?)</p>', html, re.S)
    assert coach_why is not None and coach_why.group(1).startswith(
        f"{factor} is the factor that costs Anna Berg the most ΔCPI a game ({cost} short"
    )
    player = flat(page(Client(), f"/c/riverside/p/{anna.id}/"))
    block = re.search(r'<p id="cpi">(.*?)</p>', player, re.S)
    assert block is not None and f"weakest factor {factor}," in block.group(1)


@pytest.mark.parametrize(
    ("preset", "facts"), [("spec", hanging_game), ("fide-classical", long_game)]
)
def test_the_pages_ledger_reads_before_plus_delta_is_after(
    club: Club, preset: str, facts: object
) -> None:
    set_cpi_weights(club, {}, who=WHO, preset=preset)
    publish_analysed(club, 6, facts=facts, who=WHO)
    anna = member(club, "Anna Berg")
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    table = re.search(r'<table id="ledger">.*?</table>', html, re.S)
    assert table is not None
    rows = re.findall(
        r'<td class="num">([\d.]+)</td><td class="num (?:neg|pos)">([+-][\d.]+)</td>'
        r'<td class="num">([+-][\d.]+)</td><td class="num">([\d.]+)</td>',
        table.group(0),
    )
    assert len(rows) == 6
    for before, delta, _, after in rows:
        assert abs(float(before) + float(delta) - float(after)) <= 0.11  # each rounded to 0.1
    stored = CpiEntry.objects.filter(member=anna).order_by("-ordinal").first()
    assert stored is not None and rows[0][3] == f"{stored.cpi_after:.1f}"
