"""The read-side pages: club, player, tournament, what each shows."""

from __future__ import annotations

import datetime as dt

from django.test import Client

from clubrating.club.store.models import Club, Tournament
from clubrating.formats.records import TournamentKind

from .conftest import WHO, member, publish_typed
from clubrating.club.services.members import merge
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import correct_result, import_tournament, publish


def test_the_club_page_lists_established_players_first_and_provisional_ones_below_in_grey(
    club: Club, evening: Tournament
) -> None:
    publish_typed(
        club,
        "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 0-1\n"
        "2, Anna Smith, Carl Berg, 1-0\n2, Bob Jones, Dana White, 1-0\n",
        "Second",
        dt.date(2024, 2, 6),
    )
    publish_typed(club, "1, Anna Smith, Eve Novak, 1-0\n", "Third", dt.date(2024, 3, 5))
    html = Client().get("/c/riverside/").content.decode()
    # Anna has 5 rated games (established); everyone else is provisional.
    anna, eve = html.index("Anna Smith"), html.index("Eve Novak")
    assert html.index("Provisional (fewer than 5 rated games)") < eve
    assert anna < html.index("Provisional (fewer than 5")
    assert 'class="provisional"' in html and "provisional</span>" in html
    assert "Recent tournaments" in html and "Tuesday Rapid" in html


def test_the_search_box_finds_players_by_the_name_shown(club: Club, evening: Tournament) -> None:
    html = Client().get("/c/riverside/", {"q": "carl"}).content.decode()
    assert "Carl Berg" in html and "Anna Smith" not in html


def test_a_junior_cannot_be_found_by_the_full_name_the_page_hides(
    club: Club, evening: Tournament
) -> None:
    html = Client().get("/c/riverside/", {"q": "White"}).content.decode()
    assert "No player matches" in html
    assert "D. W." in Client().get("/c/riverside/").content.decode()


def test_the_player_page_shows_history_games_chart_and_the_cpi_placeholder(
    club: Club, evening: Tournament
) -> None:
    anna = member(club, "Anna Smith")
    html = Client().get(f"/c/riverside/p/{anna.id}/").content.decode()
    assert "<svg" in html and "Rating history of Anna Smith" in html and "provisional" in html
    assert "1200 → " in html  # rating before → after
    assert "Tuesday Rapid" in html and "3" in html
    assert html.count('<tr><td class="num">') == 3  # three games, under one row of the tournament
    assert html.count("2024-01-09 · <a") == 1
    assert "Not analysed yet." in html
    assert "Also written as" not in html


def test_the_player_page_shows_the_opponent_colour_and_result_of_every_game(
    club: Club, evening: Tournament
) -> None:
    bob = member(club, "Bob Jones")
    html = Client().get(f"/c/riverside/p/{bob.id}/").content.decode()
    assert "D. W." in html  # the junior opponent, by initials
    assert '+ <span class="not-rated">forfeit: not rated</span>' in html  # the forfeit win
    assert ">white<" in html and ">black<" in html


def test_the_tournament_page_marks_forfeits_and_byes_as_not_rated(club: Club) -> None:
    t = publish_typed(
        club,
        "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, bye\n2, Carl Berg, Anna Smith, -+\n"
        "2, Bob Jones, bye 1/2\n",
        "With byes",
        dt.date(2024, 1, 9),
    )
    html = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "bye 1" in html and "bye ½" in html
    assert "forfeit: not rated" in html and "bye: counts in the standings, not rated" in html
    assert "1200 → " in html and "+20.0" in html


def test_a_bughouse_tournament_shows_standings_and_says_it_is_not_rated(club: Club) -> None:
    record_text = "1, Anna Smith, Bob Jones, 1-0\n"
    from clubrating.formats.typed import parse_typed
    import dataclasses

    record = dataclasses.replace(
        parse_typed(record_text, name="Bughouse night", date=dt.date(2024, 1, 9)),
        kind=TournamentKind.BUGHOUSE,
    )
    t = import_tournament(club, record, who=WHO, today=dt.date(2030, 1, 1))
    all_new_members(t, who=WHO)
    publish(t, who=WHO)
    html = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "Bughouse: the standings are published, the games are not rated." in html
    assert "bughouse: not rated" in html


def test_a_draft_tournament_is_hidden_from_members(club: Club) -> None:
    from clubrating.formats.typed import parse_typed

    t = import_tournament(
        club,
        parse_typed("1, A B, C D, 1-0", name="Draft", date=dt.date(2024, 1, 1)),
        who=WHO,
        today=dt.date(2030, 1, 1),
    )
    assert Client().get(f"/c/riverside/t/{t.id}/").status_code == 404
    assert "Draft" not in Client().get("/c/riverside/").content.decode()


def test_a_merged_member_page_redirects_to_the_member_it_was_merged_into(
    club: Club, evening: Tournament
) -> None:
    publish_typed(club, "1, A. Smith, Zed Zero, 1-0\n", "Later", dt.date(2024, 5, 1))
    merge(member(club, "A. Smith"), member(club, "Anna Smith"), who=WHO)
    response = Client().get(f"/c/riverside/p/{member(club, 'A. Smith').id}/")
    assert (
        response.status_code == 302
        and response["Location"] == f"/c/riverside/p/{member(club, 'Anna Smith').id}/"
    )


def test_the_index_opens_the_only_public_club(club: Club) -> None:
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"] == "/c/riverside/"


def test_unknown_pages_answer_404(club: Club, evening: Tournament) -> None:
    client = Client()
    for url in (
        "/c/nowhere/",
        "/c/riverside/p/999999/",
        "/c/riverside/t/999999/",
        "/u/not-a-token/",
    ):
        assert client.get(url).status_code == 404, url


def test_a_cached_page_shows_a_correction_at_once(club: Club, evening: Tournament) -> None:
    from clubrating.club.store.models import CurrentRating, Game

    client = Client()
    anna = member(club, "Anna Smith")
    url = f"/c/riverside/p/{anna.id}/"
    before = client.get(url).content.decode()
    assert client.get(url).content.decode() == before  # served again, from the cache
    game = Game.objects.get(tournament=evening, round=1, white__name="Anna Smith")
    correct_result(game, "0-1", who=WHO)
    after = client.get(url).content.decode()
    rating = CurrentRating.objects.get(member=anna).rating
    assert after != before and f"<strong>{rating:.0f}</strong>" in after


def test_pages_say_how_long_the_server_took(club: Club, evening: Tournament) -> None:
    timing = Client().get("/c/riverside/")["Server-Timing"]
    assert timing.startswith("app;dur=") and float(timing.split("=")[1]) >= 0
