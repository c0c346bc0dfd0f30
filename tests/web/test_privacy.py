"""Who sees what at each visibility (R15), names as initials (R16, R17), noindex, 404s."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from clubrating.club.store.models import Club, Tournament
from clubrating.web.access import initials, public_name

from .conftest import WHO, member, publish_typed
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import merge, set_member_flags
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import import_tournament, publish


def pages_of(club: Club, evening: Tournament, prefix: str) -> list[str]:
    anna = member(club, "Anna Smith")
    return [
        prefix,
        f"{prefix}t/",
        f"{prefix}t/{evening.id}/",
        f"{prefix}p/{anna.id}/",
        f"{prefix}ratings.csv",
        f"{prefix}ratings.json",
        f"{prefix}p/{anna.id}/history.csv",
        f"{prefix}p/{anna.id}/history.json",
        f"{prefix}t/{evening.id}/tournament.trf",
        f"{prefix}t/{evening.id}/games.pgn",
    ]


def api_of(club: Club, evening: Tournament, prefix: str) -> list[str]:
    anna = member(club, "Anna Smith")
    return [
        f"{prefix}ratings",
        f"{prefix}players/{anna.id}",
        f"{prefix}tournaments",
        f"{prefix}tournaments/{evening.id}",
    ]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Jason Becher", "J. B."),
        ("Becher, Jason", "J. B."),
        ("Anna-Maria Li", "A.-M. L."),
        ("jan van der berg", "J. V. D. B."),
        ("Ованес Туманян", "О. Т."),
        ("  ", "?"),
    ],
)
def test_initials_keep_one_letter_of_each_name(name: str, expected: str) -> None:
    assert initials(name) == expected


@pytest.mark.parametrize(
    "full, junior, consent, juniors_event, shown",
    [
        (True, False, False, False, "Jason Becher"),
        (True, True, False, False, "J. B."),  # a junior: initials unless consent (R17)
        (True, True, True, False, "Jason Becher"),
        (
            True,
            False,
            False,
            True,
            "J. B.",
        ),  # an event with under-18 players: initials by default (R16)
        (True, False, True, True, "Jason Becher"),
        (
            False,
            False,
            True,
            False,
            "J. B.",
        ),  # the club shows initials: consent does not override it
        (False, False, False, False, "J. B."),
    ],
)
def test_the_public_name_follows_the_club_setting_the_junior_flag_and_consent(
    full: bool, junior: bool, consent: bool, juniors_event: bool, shown: str
) -> None:
    assert (
        public_name(
            "Jason Becher", full=full, junior=junior, consent=consent, juniors_event=juniors_event
        )
        == shown
    )


def test_a_public_club_is_visible_to_everyone_and_indexable(
    club: Club, evening: Tournament
) -> None:
    client = Client()
    for url in pages_of(club, evening, "/c/riverside/") + api_of(
        club, evening, "/api/c/riverside/"
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "X-Robots-Tag" not in response, url
    assert b'name="robots"' not in client.get("/c/riverside/").content


def test_an_arbiter_only_club_answers_404_to_everyone_else_on_every_page(
    club: Club, evening: Tournament, other_arbiter_client: Client
) -> None:
    set_privacy(club, who=WHO, visibility="arbiter")
    urls = (
        pages_of(club, evening, "/c/riverside/")
        + pages_of(club, evening, f"/u/{club.token}/")
        + api_of(club, evening, "/api/c/riverside/")
        + api_of(club, evening, f"/api/u/{club.token}/")
    )
    for client in (Client(), other_arbiter_client):
        for url in urls:
            assert client.get(url).status_code == 404, url


def test_an_arbiter_sees_an_arbiter_only_club_marked_noindex(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    set_privacy(club, who=WHO, visibility="arbiter")
    for url in pages_of(club, evening, "/c/riverside/"):
        response = arbiter_client.get(url)
        assert response.status_code == 200, url
        assert response["X-Robots-Tag"].startswith("noindex"), url


def test_an_unlisted_club_opens_only_under_its_token_and_never_for_indexing(
    club: Club, evening: Tournament
) -> None:
    set_privacy(club, who=WHO, visibility="unlisted")
    client = Client()
    for url in pages_of(club, evening, "/c/riverside/") + api_of(
        club, evening, "/api/c/riverside/"
    ):
        assert client.get(url).status_code == 404, url
    prefix = f"/u/{club.token}/"
    for url in pages_of(club, evening, prefix) + api_of(club, evening, f"/api/u/{club.token}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["X-Robots-Tag"] == "noindex, nofollow", url
        assert response["Referrer-Policy"] == "same-origin", url
    html = client.get(prefix).content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert (
        f'href="{prefix}p/' in html and 'href="/c/riverside/p/' not in html
    )  # links keep the token


def test_the_token_has_at_least_128_random_bits_and_rotation_kills_the_old_link(
    club: Club, evening: Tournament
) -> None:
    set_privacy(club, who=WHO, visibility="unlisted")
    old = club.token
    assert len(old) * 6 >= 128  # URL-safe base64: 6 bits a character
    set_privacy(club, who=WHO, rotate_token=True)
    club.refresh_from_db()
    assert Client().get(f"/u/{old}/").status_code == 404
    assert Client().get(f"/u/{club.token}/").status_code == 200


def test_the_sitemap_lists_public_clubs_only(club: Club) -> None:
    hidden = create_club("Hidden Club", who=WHO, slug="hidden")
    set_privacy(hidden, who=WHO, visibility="unlisted")
    create_club("Secret Club", who=WHO, slug="secret")
    xml = Client().get("/sitemap.xml").content.decode()
    assert (
        "/c/riverside/" in xml
        and "hidden" not in xml
        and "secret" not in xml
        and hidden.token not in xml
    )
    robots = Client().get("/robots.txt").content.decode()
    assert "Sitemap: http://testserver/sitemap.xml" in robots and "Disallow: /u/" not in robots


def test_the_index_lists_no_unlisted_or_arbiter_only_club(db: None) -> None:
    for slug, visibility in (("a", "unlisted"), ("b", "arbiter")):
        set_privacy(
            create_club(slug.upper() + " club", who=WHO, slug=slug),
            who=WHO,
            visibility=visibility,
        )
    html = Client().get("/").content.decode()
    assert "/c/a/" not in html and "/c/b/" not in html and "No club is public here" in html


def test_a_club_that_shows_initials_shows_them_everywhere_but_to_its_arbiters(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    set_privacy(club, who=WHO, names="initials")
    anna = member(club, "Anna Smith")
    for url in pages_of(club, evening, "/c/riverside/") + api_of(
        club, evening, "/api/c/riverside/"
    ):
        body = Client().get(url).content.decode()
        assert "Anna Smith" not in body and "Smith" not in body, url
    assert "A. S." in Client().get("/c/riverside/").content.decode()
    assert "A. S." in Client().get(f"/c/riverside/t/{evening.id}/tournament.trf").content.decode()
    assert "Anna Smith" in arbiter_client.get(f"/c/riverside/p/{anna.id}/").content.decode()


def test_a_junior_is_shown_by_initials_until_the_arbiter_records_consent(
    club: Club, evening: Tournament
) -> None:
    dana = member(club, "Dana White")
    pages = pages_of(club, evening, "/c/riverside/") + api_of(club, evening, "/api/c/riverside/")
    pages += [f"/c/riverside/p/{dana.id}/", f"/api/c/riverside/players/{dana.id}"]
    for url in pages:
        assert "Dana White" not in Client().get(url).content.decode(), url
    set_member_flags(dana, who=WHO, consent=True)
    assert "Dana White" in Client().get("/c/riverside/").content.decode()


def test_a_tournament_with_under_18_players_shows_initials_by_default(club: Club) -> None:
    t = publish_typed(
        club, "1, Kim Lee, Max Roe, 1-0\n", "Junior cup", dt.date(2024, 4, 2), juniors=True
    )
    html = Client().get(f"/c/riverside/t/{t.id}/").content.decode()
    assert "K. L." in html and "Kim Lee" not in html and "Max Roe" not in html


def test_aliases_are_listed_to_arbiters_only(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    t = publish_typed(club, "1, A. Smith, Zed Zero, 1-0\n", "Later", dt.date(2024, 5, 1))
    merge(member(club, "A. Smith"), member(club, "Anna Smith"), who=WHO)
    url = f"/c/riverside/p/{member(club, 'Anna Smith').id}/"
    assert "Also written as" not in Client().get(url).content.decode()
    assert (
        "Also written as (seen by arbiters only): A. Smith"
        in arbiter_client.get(url).content.decode()
    )
    assert t.id


def test_no_page_shows_contact_or_birth_data_fields(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    for url in pages_of(club, evening, "/c/riverside/") + ["/c/riverside/arbiter/members/"]:
        body = arbiter_client.get(url).content.decode().casefold()
        for word in ("birth", "e-mail", "email", "phone", "address"):
            assert word not in body, (url, word)


def test_a_stored_merge_cycle_does_not_hang_the_initials_rule(db: None) -> None:
    """The services refuse merge cycles; a database that holds one anyway (written before
    the lock) must not loop forever in the pages' initials rule (web.access)."""
    from clubrating.club.store.models import Member
    from clubrating.web.access import juniors_event_members
    from tests.club.conftest import make_record

    club = create_club("Cycle Club", who="test")
    record = make_record(
        "Juniors", dt.date(2026, 1, 6), ("Ann Lee", "Bo Kim"), [(1, "Ann Lee", "Bo Kim", "1-0")]
    )
    tournament = import_tournament(
        club, record, who="test", has_juniors=True, today=dt.date(2030, 1, 1)
    )
    all_new_members(tournament, who="test")
    publish(tournament, who="test")
    ann, bo = Member.objects.get(name="Ann Lee"), Member.objects.get(name="Bo Kim")
    Member.objects.filter(pk=ann.pk).update(merged_into=bo)
    Member.objects.filter(pk=bo.pk).update(merged_into=ann)
    assert juniors_event_members(club) >= {ann.id, bo.id}
