"""The page cache never shows a page older than the last write, nor one viewer's page to another.

Each case: a page is fetched twice (the second time from the cache), one kind of
write is made through the services, and the page fetched again must show it.
"""

from __future__ import annotations

import datetime as dt
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache.backends.filebased import FileBasedCache
from django.http import HttpResponse
from django.test import Client, RequestFactory

from clubrating.djangoenv import page_cache
from clubrating.errors import InputError
from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.store.models import Club, CpiEntry, Entry, Game, Tournament
from clubrating.formats.records import TournamentRecord
from clubrating.web.access import history_version
from clubrating.web.page_cache import PageFileCache
from clubrating.formats.typed import parse_typed

from .conftest import TODAY, WHO, make_arbiter, member, publish_typed
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.history import check_history
from clubrating.club.services.members import merge, set_member_flags, unmerge
from clubrating.club.services.names import accept_exact, all_new_members, link, unlink
from clubrating.club.services.tournaments import (
    change_date,
    correct_result,
    delete_tournament,
    import_tournament,
    publish,
    unpublish,
)

LATER = "1, A. Smith, Zed Zero, 1-0\n"


def _import_draft(club: Club, name: str) -> Tournament:
    record: TournamentRecord = parse_typed(
        "1, Anna Smith, Bob Jones, 0-1\n", name=name, date=dt.date(2024, 3, 5)
    )
    t = import_tournament(club, record, who=WHO, today=TODAY)
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    return t


def _bob_entry(t: Tournament) -> Entry:
    return Entry.objects.get(tournament=t, name="Bob Jones")


def _first_game(t: Tournament) -> Game:
    """Anna Smith - Bob Jones 1-0."""
    return Game.objects.get(tournament=t, round=1, white__name="Anna Smith")


def _later(club: Club) -> Tournament:
    return publish_typed(club, LATER, "Later", dt.date(2024, 5, 1))


@dataclass(frozen=True)
class Case:
    name: str
    url: Callable[[Club, Tournament], str]
    write: Callable[[Club, Tournament], object]
    shows: Callable[[int, str], bool]  # (status, html) after the write
    setup: Callable[[Club, Tournament], object] = lambda club, t: None


def club_url(club: Club, t: Tournament) -> str:
    return "/c/riverside/"


def player_url(name: str) -> Callable[[Club, Tournament], str]:
    return lambda club, t: f"/c/riverside/p/{member(club, name).id}/"


CASES = [
    Case(
        "import and publish",
        club_url,
        lambda c, t: publish_typed(c, LATER, "Friday Blitz", dt.date(2024, 5, 1)),
        lambda s, html: "Friday Blitz" in html,
    ),
    Case(
        "publish",
        club_url,
        lambda c, t: publish(Tournament.objects.get(name="Spring"), who=WHO),
        lambda s, html: "Spring" in html,
        setup=lambda c, t: _import_draft(c, "Spring"),
    ),
    Case(
        "unpublish",
        club_url,
        lambda c, t: unpublish(t, who=WHO),
        lambda s, html: "Tuesday Rapid" not in html,
    ),
    Case(
        "delete",
        club_url,
        lambda c, t: delete_tournament(t, who=WHO),
        lambda s, html: "Tuesday Rapid" not in html,
    ),
    Case(
        "link",
        player_url("Bob Jones"),
        lambda c, t: link(_bob_entry(t), member(c, "Zed Zero"), who=WHO),
        lambda s, html: "Tuesday Rapid" not in html,
        setup=lambda c, t: _later(c),
    ),
    Case(
        "correct a result",
        player_url("Bob Jones"),
        lambda c, t: correct_result(_first_game(t), "1/2-1/2", who=WHO),
        lambda s, html: "<td>½</td>" in html,
    ),  # the card's result of the game
    Case(
        "change a date",
        player_url("Anna Smith"),
        lambda c, t: change_date(t, dt.date(2024, 1, 16), who=WHO, today=TODAY),
        lambda s, html: "2024-01-16" in html,
    ),
    Case(
        "merge",
        player_url("Anna Smith"),
        lambda c, t: merge(member(c, "A. Smith"), member(c, "Anna Smith"), who=WHO),
        lambda s, html: "Later" in html,
        setup=lambda c, t: _later(c),
    ),
    Case(
        "unmerge",
        player_url("Anna Smith"),
        lambda c, t: unmerge(member(c, "A. Smith"), who=WHO),
        lambda s, html: "Later" not in html,
        setup=lambda c, t: (
            _later(c),
            merge(member(c, "A. Smith"), member(c, "Anna Smith"), who=WHO),
        ),
    ),
    Case(
        "names as initials",
        club_url,
        lambda c, t: set_privacy(c, who=WHO, names="initials"),
        lambda s, html: "Anna Smith" not in html and "A. S." in html,
    ),
    Case(
        "visibility",
        club_url,
        lambda c, t: set_privacy(c, who=WHO, visibility="unlisted"),
        lambda s, html: s == 404,
    ),
    Case(
        "member flags",
        club_url,
        lambda c, t: set_member_flags(member(c, "Dana White"), who=WHO, consent=True),
        lambda s, html: "Dana White" in html,
    ),
    Case(
        "a rebuild after a change made outside the services",
        player_url("Bob Jones"),
        lambda c, t: (
            Game.objects.filter(id=_first_game(t).id).update(white_points=1, black_points=1),
            check_history(c, who=WHO),
        ),
        lambda s, html: "<td>½</td>" in html,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_cached_page_shows_every_kind_of_write_at_once(
    club: Club, evening: Tournament, case: Case
) -> None:
    case.setup(club, evening)
    url = case.url(club, evening)
    client = Client()
    first = client.get(url)
    assert first.status_code == 200
    before = first.content.decode()
    assert client.get(url).content.decode() == before  # from the cache
    assert not case.shows(200, before), "the case must test a visible change"
    case.write(club, evening)
    club.refresh_from_db()
    after = client.get(url)
    assert case.shows(after.status_code, after.content.decode())


def test_a_change_made_outside_the_services_stays_hidden_until_a_rebuild(
    club: Club, evening: Tournament
) -> None:
    """The cache trusts the version: a raw write without an audit entry is not seen (so every
    writer must go through the services), and the manual rebuild (R14) makes it seen."""
    url = f"/c/riverside/p/{member(club, 'Bob Jones').id}/"
    before = Client().get(url).content.decode()
    Game.objects.filter(id=_first_game(evening).id).update(white_points=1, black_points=1)
    assert Client().get(url).content.decode() == before
    check_history(club, who=WHO)
    assert "<td>½</td>" in Client().get(url).content.decode()


def test_the_history_version_changes_with_writes_to_drafts_and_with_the_cpi_ledger(
    club: Club, evening: Tournament
) -> None:
    versions = [history_version(club)]
    draft = _import_draft(club, "Draft")
    versions.append(history_version(club))
    unlink(_bob_entry(draft), who=WHO)
    versions.append(history_version(club))
    game = Game.objects.filter(tournament=evening).first()
    assert game is not None
    CpiEntry.objects.create(
        member=member(club, "Anna Smith"),
        game=game,
        ordinal=1,
        color="white",
        cpi_before=50.0,
        delta=1.0,
        cpi_after=51.0,
    )
    versions.append(history_version(club))
    rebuild_cpi(club)  # no stored analysis: the ledger is rewritten empty
    assert not CpiEntry.objects.exists()
    versions.append(history_version(club))
    assert all(a != b for a, b in zip(versions, versions[1:])), versions


def test_arbiters_and_visitors_never_get_each_others_cached_page(
    club: Club, evening: Tournament
) -> None:
    set_privacy(club, who=WHO, names="initials")
    url = f"/c/riverside/p/{member(club, 'Anna Smith').id}/"
    visitor = Client()
    assert "Anna Smith" not in visitor.get(url).content.decode()  # cached now
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "anna-arbiter"))
    page = arbiter.get(url)
    assert "<h1>Anna Smith</h1>" in page.content.decode()
    assert page["Cache-Control"] == "private, no-store"
    assert (
        "Anna Smith" not in visitor.get(url).content.decode()
    )  # the arbiter's page was not stored


def test_an_old_token_answers_404_even_when_its_page_was_cached(
    club: Club, evening: Tournament
) -> None:
    set_privacy(club, who=WHO, visibility="unlisted")
    club.refresh_from_db()
    old = f"/u/{club.token}/"
    assert Client().get(old).status_code == 200
    assert Client().get(old).status_code == 200
    set_privacy(club, who=WHO, rotate_token=True)
    club.refresh_from_db()
    assert Client().get(old).status_code == 404
    assert Client().get(f"/u/{club.token}/").status_code == 200


def test_a_visitors_pending_message_is_never_cached_for_others(
    club: Club, evening: Tournament
) -> None:
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(messages.INFO, "a note for one visitor only")
    carrier = HttpResponse()
    storage.update(carrier)
    visitor = Client()
    visitor.cookies[CookieStorage.cookie_name] = carrier.cookies[CookieStorage.cookie_name].value
    assert "a note for one visitor only" in visitor.get("/c/riverside/").content.decode()
    assert "a note for one visitor only" not in Client().get("/c/riverside/").content.decode()


@pytest.mark.parametrize(
    ("value", "backend", "location"),
    [
        ("", "locmem.LocMemCache", None),
        ("memory", "locmem.LocMemCache", None),
        ("/var/cache/clubrating", "files", "/var/cache/clubrating"),
        ("file:///var/cache/clubrating", "files", "/var/cache/clubrating"),
        ("redis://127.0.0.1:6379/1", "redis.RedisCache", "redis://127.0.0.1:6379/1"),
    ],
)
def test_the_page_cache_setting_names_a_django_cache(
    value: str, backend: str, location: str | None
) -> None:
    config = page_cache(value)
    if backend == "files":  # Django's FileBasedCache, compressed at zlib's fastest level
        assert config["BACKEND"] == "clubrating.web.page_cache.PageFileCache"
    else:
        assert config["BACKEND"] == f"django.core.cache.backends.{backend}"
    assert config.get("LOCATION") == location


@pytest.mark.parametrize("value", ["pages", "file://pages", "memcached://x"])
def test_a_page_cache_setting_that_is_not_understood_is_a_one_line_input_error(value: str) -> None:
    with pytest.raises(InputError, match="CLUBRATING_PAGE_CACHE: expected"):
        page_cache(value)


def test_the_file_page_cache_compresses_at_zlibs_fastest_level_and_django_reads_it_back(
    tmp_path: Path,
) -> None:
    """Django's FileBasedCache compresses at level 6: 11 ms of a rendered club page's time (a
    250 KB page); the page cache on files writes at level 1, and Django's own class (another
    server sharing the directory) reads its entries as its own."""
    page = HttpResponse("<tr><td>Anna Smith</td><td>1834</td></tr>\n" * 500)
    cache = PageFileCache(str(tmp_path), {})
    cache.set("page", page, 60)
    (entry,) = tmp_path.glob("*.djcache")
    with entry.open("rb") as stored:
        pickle.load(stored)  # the expiry
        packed = stored.read()
    assert packed[:2] == b"\x78\x01"  # zlib's header of level 1 (RFC 1950: FLEVEL 0)
    for reader in (cache, FileBasedCache(str(tmp_path), {})):
        assert reader.get("page").content == page.content


def test_the_file_page_cache_still_culls_a_third_of_its_entries_once_full(tmp_path: Path) -> None:
    cache = PageFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 6, "CULL_FREQUENCY": 3}})
    for n in range(6):
        cache.set(f"page {n}", n, 60)
    assert len(list(tmp_path.glob("*.djcache"))) == 6
    cache.set("page 6", 6, 60)  # full: two of the six removed first (Django's rule)
    assert len(list(tmp_path.glob("*.djcache"))) == 5 and cache.get("page 6") == 6
