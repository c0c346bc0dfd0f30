"""The number of SQL queries of a page does not grow with the number of rows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubrating.club.store.models import Club, Member, Tournament

from .conftest import make_arbiter, publish_typed


def grow(club: Club, size: int) -> Tournament:
    """``size`` players, each plays ``size // 5`` evenings; Anna plays every one."""
    last = None
    for evening in range(size // 5):
        lines = [f"1, Anna Smith, Player {evening}, 1-0"]
        lines += [
            f"{1 + (i % 3)}, Player {i}, Player {i + 1}, {'1-0' if i % 2 else '1/2-1/2'}"
            for i in range(0, size - 1, 2)
            if i != evening and i + 1 != evening
        ]
        last = publish_typed(
            club,
            "\n".join(lines),
            f"Evening {evening}",
            dt.date(2024, 1, 1) + dt.timedelta(days=7 * evening),
        )
    assert last is not None
    return last


def queries_of(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def urls(club: Club, t: Tournament) -> list[str]:
    """Every read page, export and API document of the club; the arbiter's review page last."""
    anna, c = Member.objects.get(club=club, name="Anna Smith").id, club.slug
    return [
        f"/c/{c}/",
        f"/c/{c}/t/",
        f"/c/{c}/p/{anna}/",
        f"/c/{c}/t/{t.id}/",
        f"/c/{c}/ratings.csv",
        f"/c/{c}/ratings.json",
        f"/c/{c}/p/{anna}/history.csv",
        f"/c/{c}/p/{anna}/history.json",
        f"/c/{c}/p/{anna}/card.csv",
        f"/c/{c}/p/{anna}/card.json",
        f"/c/{c}/t/{t.id}/tournament.trf",
        f"/c/{c}/t/{t.id}/games.pgn",
        f"/api/c/{c}/ratings",
        f"/api/c/{c}/players/{anna}",
        f"/api/c/{c}/tournaments",
        f"/api/c/{c}/tournaments/{t.id}",
        f"/c/{c}/arbiter/t/{t.id}/",
    ]


def play_evenings(club: Club, evenings: int) -> Tournament:
    """Anna plays five rounds every evening against the same ten opponents: 5 games an evening."""
    last = None
    for evening in range(evenings):
        lines = [
            f"{r}, Anna Smith, Opponent {(evening + r) % 10}, "
            f"{'1-0' if (evening + r) % 3 else '0-1'}"
            for r in range(1, 6)
        ]
        last = publish_typed(
            club,
            "\n".join(lines),
            f"Evening {evening}",
            dt.date(2024, 1, 1) + dt.timedelta(days=7 * evening),
        )
    assert last is not None
    return last


@pytest.mark.parametrize("as_arbiter", [False, True])
def test_queries_per_page_do_not_grow_from_10_to_50_members(db: None, as_arbiter: bool) -> None:
    from clubrating.club.services.clubs import create_club, set_privacy

    counts = []
    for size in (10, 50):
        club = create_club(f"Club {size}", who="t", slug=f"club{size}")
        set_privacy(club, who="t", visibility="public")
        t = grow(club, size)
        assert Member.objects.filter(club=club).count() >= size
        client = Client()
        if as_arbiter:
            client.force_login(make_arbiter(club, f"arb{size}"))
        pages = urls(club, t) if as_arbiter else urls(club, t)[:-1]
        counts.append([queries_of(client, u) for u in pages])
    small, large = counts
    assert small == large, [(u, a, b) for u, a, b in zip(pages, small, large) if a != b]
    # 12 + the player page's CPI block (web/cpi_views.player_cpi) + its initial rating + the card's
    # merged members, opponents' rating changes there and before, and their initial list
    # (club/derived/card.py)
    assert max(large) <= 18


@pytest.mark.parametrize("as_arbiter", [False, True])
def test_queries_per_page_do_not_grow_from_10_to_100_games_of_a_player(
    db: None, as_arbiter: bool
) -> None:
    from clubrating.club.services.clubs import create_club, set_privacy
    from clubrating.club.store.models import Game

    counts = []
    for games in (10, 100):
        club = create_club(f"Club {games}", who="t", slug=f"games{games}")
        set_privacy(club, who="t", visibility="public")
        t = play_evenings(club, games // 5)
        assert Game.objects.filter(tournament__club=club, white__name="Anna Smith").count() == games
        client = Client()
        if as_arbiter:
            client.force_login(make_arbiter(club, f"arb{games}"))
        pages = urls(club, t) if as_arbiter else urls(club, t)[:-1]
        counts.append([queries_of(client, u) for u in pages])
    small, large = counts
    assert small == large, [(u, a, b) for u, a, b in zip(pages, small, large) if a != b]
    # 12 + the player page's CPI block (web/cpi_views.player_cpi) + its initial rating + the card's
    # merged members, opponents' rating changes there and before, and their initial list
    # (club/derived/card.py)
    assert max(large) <= 18


def test_the_club_table_is_written_once_for_each_history(db: None) -> None:
    """A club page at another address (its query string) is rendered anew, but its rating table
    is read from the cache while the club's history is the same: no rating list query, the same
    rows; a new tournament shows at once."""
    from clubrating.club.services.clubs import create_club, set_privacy

    club = create_club("Club", who="t", slug="table")
    set_privacy(club, who="t", visibility="public")
    t = grow(club, 10)
    client = Client()

    def page(query: str) -> tuple[str, list[str]]:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"/c/{club.slug}/?{query}")
        assert response.status_code == 200
        html = response.content.decode()
        return html[html.index("<table") : html.index("</table>")], [
            q["sql"] for q in ctx.captured_queries
        ]

    first, read = page("a=1")
    again, read_again = page("a=2")
    assert again == first and "Anna Smith" in first
    rows_query = '"club_currentrating"."games"'  # the list's rows (not the lists' names)
    assert any(rows_query in q for q in read)
    assert not any(rows_query in q for q in read_again)
    assert len(read_again) < len(read)
    publish_typed(club, "1, Newcomer Zed, Anna Smith, 1-0", "Late", t.date + dt.timedelta(days=7))
    after, _ = page("a=3")
    assert "Newcomer Zed" in after


def test_the_standings_are_made_once_for_each_history(db: None) -> None:
    """A tournament page at another address reads its standings from the cache while the club's
    history is the same (no rating changes read, the same table); a corrected result shows at
    once; an arbiter's page is made each time."""
    from clubrating.club.services.clubs import create_club, set_privacy
    from clubrating.club.services.tournaments import correct_result
    from clubrating.club.store.models import Game

    club = create_club("Club", who="t", slug="standings")
    set_privacy(club, who="t", visibility="public")
    t = grow(club, 10)
    client, arbiter = Client(), Client()
    arbiter.force_login(make_arbiter(club, "arb"))

    def page(query: str, who: Client = client) -> tuple[str, list[str]]:
        with CaptureQueriesContext(connection) as ctx:
            response = who.get(f"/c/{club.slug}/t/{t.id}/?{query}")
        assert response.status_code == 200
        html = response.content.decode()
        return html[html.index('<table id="crosstable"') : html.index("</table>")], [
            q["sql"] for q in ctx.captured_queries
        ]

    changes = '"club_ratingchange"'  # the standings' rating columns
    first, read = page("a=1")
    again, read_again = page("a=2")
    assert again == first and any(changes in q for q in read)
    assert not any(changes in q for q in read_again)
    assert any(changes in q for q in page("a=2", arbiter)[1])
    game = Game.objects.filter(tournament=t, played=True).order_by("id").first()
    assert game is not None and game.white_points == 2  # 1-0: corrected to 0-1
    correct_result(game, "0-1", who="t")
    after, _ = page("a=3")
    assert after != first
