"""The CPI dashboard reads at a glance: one headline (the running CPI under the spec's settings,
"plays like" under fitted ones, the running CPI beneath it), a chart of the CPI from the first
analysed game with each day's date once, factors compared with the club in words right for
both directions and what each costs, each term explained, every ledger row and exercise
linked to its game."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client

from clubrating.club.derived.ledger import member_ledger
from clubrating.club.store.models import Club, CpiEntry, Game, GameAnalysis
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.cpi.facts import GameFacts
from clubrating.cpi.index import PRESETS
from clubrating.web.cpi_views import factor_row
from clubrating.web.links import game_href
from tests.cpi.coach_games import OPEN_GAME, build, publish_analysed

from .conftest import WHO, member
from .rendered import flat
from .test_cpi_pages import analysed, page
from clubrating.club.services.clubs import set_privacy

RUY = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Nb8",
    "d4",
    "Nbd7",
    "c4",
    "c6",
    "Nc3",
    "Bb7",
    "Bc2",
    "Re8",
    "b3",
    "Bf8",
    "Bb2",
    "g6",
    "a3",
    "Bg7",
    "Qd2",
    "Qc7",
    "Rad1",
    "Rad8",
    "Bd3",
    "h6",
    "Qc2",
    "Kh7",
]  # 40 plies: 20 moves each


def long_game(index: int) -> GameFacts:
    """White loses 40·(index % 4) cp once in 40 plies; Black plays the engine's move throughout."""
    loss = 40 * (index % 4)
    return build(RUY, {7: {"best": [("Ba4", 0)], "after": -loss}} if loss else {})


def chart(html: str) -> str:
    found = re.search(r'<svg [^>]*class="chart cpi-line".*?</svg>', html, re.S)
    assert found is not None
    return found.group(0)


def day_labels(svg: str) -> list[str]:
    return re.findall(r'text-anchor="middle">([^<]+)</text>', svg)


def test_under_the_spec_the_headline_is_the_running_cpi_and_the_chart_starts_at_the_first_game(
    club,
) -> None:
    anna = analysed(club, 8)  # two evenings of 5 and 3 games, a week apart
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    entries = list(CpiEntry.objects.filter(member=anna).order_by("ordinal"))
    headline = re.search(r'<p id="cpi-headline"[^>]*>(.*?)</p>', html, re.S)
    assert headline is not None
    assert (
        headline.group(1)
        == f"CPI <strong>{entries[-1].cpi_after:.1f}</strong> after 8 analysed games."
    )
    assert html.count('id="cpi-headline"') == 1 and "Plays like" not in html
    svg = chart(html)
    assert svg.count('<circle class="dot"') == 8 and "before the first" not in svg
    assert f"{entries[0].cpi_after:.0f} after the first (2026-01-06)" in svg  # not the start of 0
    assert day_labels(svg) == ["6 Jan 2026", "13 Jan"] and "band" not in svg
    assert '<th scope="col" class="num">CPI after</th>' in html  # the running figure a row


@pytest.fixture
def fitted(club: Club) -> Club:
    set_cpi_weights(club, {}, who=WHO, preset="fide-classical")
    club.refresh_from_db()
    return club


def test_under_fitted_settings_the_headline_is_plays_like_and_the_running_cpi_is_beneath(
    fitted,
) -> None:
    publish_analysed(fitted, 8, facts=long_game, who=WHO)
    anna = member(fitted, "Anna Berg")
    strength = member_ledger(anna)["strength"]
    assert strength is not None and not strength["stale"] and strength["games"] == 8
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    headline = re.search(r'<p id="cpi-headline"[^>]*>(.*?)</p>', html, re.S)
    assert headline is not None and headline.group(1) == (
        f"Plays like <strong>{strength['elo']} ± "
        f"{strength['sd']}</strong> over the last 8 analysed games."
    )
    cpi = CpiEntry.objects.filter(member=anna).order_by("ordinal").last()
    running = re.search(r'<p class="term" id="cpi-running">(.*?)</p>', html, re.S)
    assert (
        cpi is not None
        and running is not None
        and running.group(1).startswith(
            f"CPI <strong>{cpi.cpi_after:.1f}</strong> after "
            "8 analysed games: it starts at the pool's mean"
        )
    )
    assert "; 8 analysed games in all.</p>" in html
    svg = chart(html)
    assert (
        "band" not in svg and svg.count('<circle class="dot"') == 8
    )  # the CPI itself, game by game
    assert day_labels(svg) == ["6 Jan 2026", "13 Jan"]
    assert PRESETS["fide-classical"].model.windowed
    player = flat(page(Client(), f"/c/riverside/p/{anna.id}/"))
    block = re.search(r'<p id="cpi">(.*?)</p>', player, re.S)
    assert block is not None and block.group(1).startswith(
        f"Plays like <strong>{strength['elo']} ± "
        f"{strength['sd']}</strong> over the last 8 analysed games;"
    )
    assert f"{cpi.cpi_after:.1f}" not in block.group(1)  # the player page too


def depth_line(html: str) -> str:
    found = re.search(r'<p class="term" id="cpi-depth">(.*?)</p>', flat(html), re.S)
    assert found is not None
    return found.group(1)


def test_the_dashboard_says_the_nodes_the_preset_was_fitted_at_beside_the_games_analysis(
    fitted,
) -> None:
    publish_analysed(fitted, 8, facts=long_game, who=WHO)  # the fixture's engine ran 1,000 nodes
    anna = member(fitted, "Anna Berg")
    url = f"/c/riverside/p/{anna.id}/cpi/"
    assert depth_line(page(Client(), url)) == (
        "The model behind this figure was fitted on games the engine "
        "analysed at 150,000 nodes a position; it analysed these at 1,000 nodes. A shallower "
        "analysis sees more mistakes, so the figure may read lower than "
        "a fit at this depth would give."
    )
    GameAnalysis.objects.filter(game__tournament__club=fitted).update(nodes=1_000_000)
    cache.clear()
    assert depth_line(page(Client(), url)).endswith(
        "it analysed these at 1,000,000 nodes. A deeper analysis finds fewer "
        "mistakes, so the figure may read higher than a fit at this depth would give."
    )
    russian = Client().get(url, headers={"accept-language": "ru"}).content.decode()
    assert re.sub(r"\s", " ", depth_line(russian)) == (
        "Модель этой оценки подобрана по партиям, которые движок анализировал "
        "на 150 000 узлах на позицию; эти партии он анализировал на 1 000 000 "
        "узлах. Более глубокий анализ находит меньше ошибок, поэтому оценка "
        "может оказаться выше, чем дала бы модель, подобранная на этой глубине."
    )  # the page's own number format
    GameAnalysis.objects.filter(game__tournament__club=fitted).update(nodes=150_000)
    cache.clear()  # the page cache knows nothing of the update
    assert depth_line(page(Client(), url)) == (
        "The model behind this figure was fitted on games the engine "
        "analysed at 150,000 nodes a position, as it analysed these."
    )
    assert member_ledger(anna)["strength"]["nodes"] == [150_000]


def test_too_few_games_under_fitted_settings_say_so_instead_of_a_figure(fitted) -> None:
    publish_analysed(fitted, 2, facts=long_game, who=WHO)
    anna = member(fitted, "Anna Berg")
    html = page(Client(), f"/c/riverside/p/{anna.id}/cpi/")
    assert (
        "2 analysed games: not enough yet to say how "
        "Anna Berg plays (it takes 5 games and 150 moves)" in html
    )


def test_the_factors_against_the_club_read_right_whichever_way_is_better(club) -> None:
    anna = analysed(club)  # Anna hangs a move every game, Ben never: the club hangs 0.5 a game
    ben = member(club, "Ben Cole")
    mine = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    # H costs |w_H| = 25 ΔCPI a game for a hang every game (spec C1), the most of all: the weakest
    assert re.search(
        r'<tr id="factor-H" class="weakest">.*?<td>worse</td><td class="num">25\.0</td>'
        r".*?fewer is better",
        mine,
    )
    assert re.search(
        r'<tr id="factor-E">.*?<td>worse</td><td class="num">[\d.]+</td>.*?more is better', mine
    )
    assert (
        "Weakest factor: <strong>H</strong>, hangs (moves costing 15 points "
        "of win chance or more): 1.00 a game (the club 0.50 a game; fewer "
        "is better); it costs 25.0 ΔCPI a game against a perfect score."
    ) in mine
    his = flat(page(Client(), f"/c/riverside/p/{ben.id}/cpi/"))
    assert re.search(r'<tr id="factor-H">.*?<td>better</td><td class="num">0\.0</td>', his)
    assert re.search(r'<tr id="factor-E" class="weakest">.*?<td>better</td>', his)  # his weakest: E


@pytest.mark.parametrize(
    ("name", "mine", "club", "against", "cell"),
    [
        ("E", 0.50, 0.39, "better than the club", "better"),  # more is better
        ("E", 0.39, 0.50, "worse than the club", "worse"),
        ("H", 0.80, 0.50, "worse than the club", "worse"),  # fewer is better
        ("H", 0.20, 0.50, "better than the club", "better"),
        ("B2", 0.30, 0.20, "above the club", "above"),  # neither way
        ("E", 0.5001, 0.4999, "the same as the club", "the same"),
        ("M1", None, 0.50, "", ""),  # not available
    ],
)
def test_a_factor_row_says_better_or_worse_than_the_club_in_its_direction(
    name: str, mine: float | None, club: float, against: str, cell: str
) -> None:
    row = factor_row(
        name,
        {"average": mine, "club_average": club, "available": 1, "games": 1, "label": name},
        3.25,
    )
    assert (row["against"], row["cell"], row["cost_text"]) == (
        against,
        cell,
        "3.2",
    )  # the cost as given
    assert (
        factor_row(
            name,
            {"average": mine, "club_average": club, "available": 1, "games": 1, "label": name},
            None,
        )["cost_text"]
        == ""
    )


def test_each_term_is_explained_in_one_line_where_it_appears(club) -> None:
    anna = analysed(club)
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    assert re.search(
        r'<p class="term" id="term-delta">ΔCPI: what one game added to the index[^<]*'
        r"CPI after = CPI before \+ ΔCPI\.</p>",
        html,
    )
    assert (
        '<p class="term" id="term-result">The result\'s part of a game\'s ΔCPI: +10 for a win, '
        "+5 for a draw, +0 for a loss.</p>"
    ) in html
    rows = re.findall(
        r'<tr id="factor-(\w+)"[^>]*>.*?</tr><tr class="means"><td colspan="6">([^<]+)</td></tr>',
        html,
    )
    assert [name for name, _ in rows] == [
        "E",
        "T",
        "O",
        "B1",
        "B2",
        "B3",
        "M1",
        "M2",
        "M3",
        "H",
        "Br",
    ]
    assert all(
        re.search(
            r"^[A-Z].+; (more is better|fewer is better|neither good nor bad by itself); "
            r"measured in \d+ of 5 games\.$",
            text,
        )
        for _, text in rows
    )


def test_every_ledger_row_and_exercise_links_to_its_game(club) -> None:
    anna = analysed(club)
    entries = list(CpiEntry.objects.filter(member=anna).select_related("game"))
    tournament = entries[0].game.tournament_id
    html = page(Client(), f"/c/riverside/p/{anna.id}/cpi/")
    links = re.findall(r'<a class="game" href="([^"]+)">', html)
    assert len(links) == 5 + 5 and set(
        links
    ) == {  # five rows, five exercises: no game has moves here
        game_href("/c/riverside/", e.game_id, tournament, has_moves=False) for e in entries
    } == {f"/c/riverside/t/{tournament}/"}
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    unlisted = page(Client(), f"/u/{club.token}/p/{anna.id}/cpi/")
    assert set(re.findall(r'<a class="game" href="([^"]+)">', unlisted)) == {
        f"/u/{club.token}/t/{tournament}/"
    }


def test_a_game_with_moves_is_linked_to_its_viewer_at_the_exercises_position(club) -> None:
    games = publish_analysed(club, 5, who=WHO)
    Game.objects.filter(id=games[0].id).update(
        moves=" ".join(OPEN_GAME)
    )  # the analysed moves, stored
    anna = member(club, "Anna Berg")
    html = flat(page(Client(), f"/c/riverside/p/{anna.id}/cpi/"))
    row = re.search(
        rf'<a class="game" href="/c/riverside/g/{games[0].id}/">Evening 1, round 1</a>', html
    )
    exercise = re.search(rf'<a class="game" href="/c/riverside/g/{games[0].id}/\?ply=(\d+)">', html)
    assert row is not None and exercise is not None
    assert (
        int(exercise.group(1)) == 0
    )  # White's first move hangs in the first game: the start position
    assert page(Client(), f"/c/riverside/g/{games[0].id}/?ply={exercise.group(1)}")


def test_the_dashboard_names_the_rating_pool_in_the_readers_language(fitted) -> None:
    publish_analysed(fitted, 8, facts=long_game, who=WHO)
    url = f"/c/riverside/p/{member(fitted, 'Anna Berg').id}/cpi/"
    assert "The rating (FIDE ratings, classical over the board) of players" in page(Client(), url)
    russian = Client().get(url, headers={"accept-language": "ru"}).content.decode()
    assert (
        "(рейтинги ФИДЕ, классика за доской)" in russian
        and "classical over the board" not in russian
    )
    armenian = Client().get(url, headers={"accept-language": "hy"}).content.decode()
    assert "(FIDE-ի վարկանիշները, դասական շախմատ տախտակի վրա)" in armenian
