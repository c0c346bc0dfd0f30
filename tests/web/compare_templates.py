"""Every page read the same with the templates of another revision and with the work tree's: the
check that rewrapping the templates changed nothing a visitor sees.

Not part of ``make test`` (its name is not a test file's): ``scripts/compare_pages REV`` copies
REV's templates into a folder and runs this module with CLUBRATING_TEMPLATES_BEFORE naming it.
The club is the languages check's (test_every_page_translated.py: every route of the site, with
an evening being played, analysed games, monthly lists, forms posted), shown in English, Armenian
and Russian, with each of its privacy settings; each page is rendered with both sets of
templates on the same rows (each request in a transaction rolled back, so a form posted twice
finds the same club) and compared as a reader tells pages apart (rendered.py). To that club are
added moves sent through the links of a board that differ (the arbiter's game page then names who
sent each) and through a second board's link of either side and from a device no longer known (its
page also visited with moves it refuses or asks to confirm, and after accepting one), the game
page's other states (game_states), evenings in the states the crawl's own do not reach (a round
still to be changed, a round robin's rounds to come, Keizer seasons), the pairings to print of a
round without boards, the arbiter's page of a draft whose names are confirmed and of a file whose
written points differ from its results (tests/formats/data/team_swiss.trf) and, in the unlisted
crawl, a fitted CPI preset with games long enough for a strength (the others crawl the spec's
running CPI); the error pages no request reaches are rendered from their templates.
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import random
import secrets
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Paginator
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.test import Client, RequestFactory, override_settings
from django.utils import timezone, translation

from clubrating.club.services import evening as ev
from clubrating.club.services import keizer, phone_results
from clubrating.club.services import moves_links as ml
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.cpi_weights import set_cpi_weights
from clubrating.club.services.names import accept_exact
from clubrating.club.services.tournaments import import_tournament
from clubrating.club.store.models import (
    Club,
    EveningBoard,
    Game,
    MovesLink,
    MovesSubmission,
    Tournament,
)
from clubrating.files import read_tournament_file
from tests.cpi.coach_games import publish_analysed

from .conftest import TODAY, WHO
from .rendered import differences
from .test_cpi_page_reads import long_game
from .test_every_page_translated import Site, Visit, _tonight, site  # noqa: F401  (the fixture)
from .test_file_standings import TEAM_SWISS
from .test_translated_pages import catalogue  # noqa: F401  (the fixture)

BEFORE = os.environ.get("CLUBRATING_TEMPLATES_BEFORE", "")
DUMP = os.environ.get("CLUBRATING_PAGES_DUMP", "")  # a folder to write every page into
TEMPLATES = Path(django_settings.BASE_DIR) / "web" / "templates"
LANGUAGES = ("en", "hy", "ru")
# (visibility, names): the club's privacy settings (docs/website.md), each a crawl of its own.
PRIVACY = (("public", "full"), ("unlisted", "initials"), ("arbiter", "initials"))
# rendered as Django's handlers of a server error and of a refusal render them: no view of the
# site raises either
UNREQUESTED = ("500.html", "403.html")


def fetch(visit: Visit, language: str, arbiter: Client, now: dt.datetime) -> tuple[str, set[str]]:
    """The visit's answer as text (status, type, body) and the templates it rendered, as
    test_every_page_translated.read asks for it; nothing it wrote is kept. The clock and the
    random tokens (of the moves links a form prints) are the same at each render of a visit."""
    draw = random.Random(0)
    tokens = mock.patch.object(
        secrets, "token_urlsafe", lambda n=32: base64.urlsafe_b64encode(draw.randbytes(n)).decode()
    )
    with tokens, mock.patch.object(timezone, "now", lambda: now):
        return _fetch(visit, language, arbiter)


def _fetch(visit: Visit, language: str, arbiter: Client) -> tuple[str, set[str]]:
    client = arbiter if visit.arbiter else Client()
    if visit.status == 403:
        client = Client(enforce_csrf_checks=True)
        client.force_login(User.objects.get(username="anna-arbiter"))
    headers = {"accept-language": language}
    with transaction.atomic():
        cache.clear()  # the anonymous pages' cache would answer with the other templates' page
        if visit.post is not None:
            response = client.post(
                visit.path, visit.post, headers=headers, HTTP_HOST=visit.host, follow=visit.follow
            )
        else:
            response = client.get(visit.path, headers=headers, HTTP_HOST=visit.host)
        transaction.set_rollback(True)
    names = {t.name for t in getattr(response, "templates", []) if t.name}
    head = f"{response.status_code} {response.get('Content-Type', '')}\n"
    return head + response.content.decode(), names


def crawl(site: Site, arbiter: Client, now: dt.datetime) -> tuple[dict[str, str], set[str]]:
    """Every page of the site in every language: (path, language) -> the answer."""
    pages: dict[str, str] = {}
    used: set[str] = set()
    visits = [v for vs in site.visits.values() for v in vs] + site.errors
    for language in LANGUAGES:
        for number, visit in enumerate(visits):
            pages[f"{visit.path} #{number} [{language}]"], names = fetch(
                visit, language, arbiter, now
            )
            used |= names
        with translation.override(language):
            request = RequestFactory().get("/")
            request.user = AnonymousUser()
            for name in UNREQUESTED:
                pages[f"{name} [{language}]"] = render_to_string(name, request=request)
                used.add(name)
    return pages, used


def moves_that_differ(site: Site) -> None:
    """White's and Black's moves of the published evening's last round's first board, sent
    through their links and differing: they wait for the arbiter, whose game page is visited
    (game_states stores moves in that game later); the round's second board in more states."""
    evening = Tournament.objects.get(club__slug="riverside", name="Tuesday Rapid")
    links = [issued.link for issued in ml.issue_links(evening, 3, who=WHO)]
    white, black = links[:2]
    ml.submit(white, "1. e4 e5 2. Nf3 Nc6 3. Bc4", device="White's phone")
    ml.submit(black, "1. e4 e5 2. Nf3 Nc6 3. Bb5", device="Black's phone")
    game = white.game
    assert game is not None
    boarded = Game.objects.filter(tournament__club__slug="riverside", board__isnull=False).first()
    assert boarded is not None  # a game of an evening being played: its title names the board
    site.visits["moves that differ"] = [
        Visit(f"/c/riverside/arbiter/g/{game.id}/", arbiter=True),
        *either_side_and_waiting(*links[2:4]),
        Visit(f"/c/riverside/arbiter/g/{boarded.id}/", arbiter=True),
    ]


def a_round_without_boards(site: Site) -> None:
    """The pairings to print of the round robin not paired yet (shown to an arbiter only): its
    round has no board."""
    robin = Tournament.objects.get(club__slug="riverside", name="Friday Round Robin")
    site.visits["no board"] = [Visit(f"/c/riverside/t/{robin.id}/print/pairings/", arbiter=True)]


def names_and_written_points(site: Site) -> None:
    """The arbiter's page of the draft after its exact names are confirmed (each then offers to
    unlink), and of a file whose written points differ from its results."""
    draft = Tournament.objects.get(club__slug="riverside", name="Saturday Blitz")
    home = "/c/riverside/arbiter/t/"
    club = Club.objects.get(slug="riverside")
    written = import_tournament(club, read_tournament_file(str(TEAM_SWISS)), who=WHO, today=TODAY)
    site.visits["names and written points"] = [
        Visit(f"{home}{draft.id}/accept-exact/", arbiter=True, post={}, follow=True),
        Visit(f"{home}{written.id}/", arbiter=True),
    ]


def either_side_and_waiting(white: MovesLink, black: MovesLink) -> list[Visit]:
    """The round's second board: White's link one of either side (made before links were per
    player), Black's moves sent from a device no longer known; both wait, each saying why. Its
    arbiter's page, and the same with typed moves refused (White's, Black's) or to confirm, and
    after accepting White's (the decided submissions listed)."""
    game = white.game
    assert game is not None and game == black.game
    last = Game.objects.filter(tournament=game.tournament, round=3).order_by("board").last()
    assert game != last  # the game game_states stores moves in
    MovesLink.objects.filter(id=white.id).update(player=None, colour="")
    white.refresh_from_db()
    ml.submit(white, "1. d4 d5", device="White's phone")
    ml.submit(black, "1. d4 Nf6", device="Black's phone")
    MovesSubmission.objects.filter(link=black).update(device="")
    accepted = MovesSubmission.objects.get(link=white)
    url = f"/c/riverside/arbiter/g/{game.id}/"
    return [
        Visit(url, arbiter=True),
        Visit(url, arbiter=True, post={"moves": "1. e4 e5 2. Ke3"}),  # White's move refused
        Visit(url, arbiter=True, post={"moves": "1. e4 Ke6"}),  # Black's
        *(  # one of two mates ends against the result: the arbiter confirms
            Visit(url, arbiter=True, post={"moves": mate})
            for mate in ("1. f3 e5 2. g4 Qh4#", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#")
        ),
        Visit(url, arbiter=True, post={"submission": str(accepted.id)}, follow=True),  # decided
    ]


def evenings_in_more_states(site: Site) -> None:
    """Evenings in the states the crawl's own do not reach (evening/evening.html, round.html): a
    Swiss round still to be changed, a player withdrawn and the phones' answers differing on a
    board; a round robin with its rounds to come, a double one not paired yet; a Keizer season
    marked and paired; a Keizer evening rated on its own, published (the season's next evening
    offered). A Keizer pairing that could not keep the rematch gap is a row of CONTEXTS."""
    club = Club.objects.get(slug="riverside")
    five = ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]
    swiss = _tonight(club, "Monday Swiss", five)
    ev.pair_next_round(swiss, who=WHO)
    ev.withdraw(swiss.entries.get(name="Dana White"), who=WHO)
    white, black = ml.issue_links(swiss, 1, who=WHO)[:2]
    phone_results.submit_result(white.link, "1-0", device="White's phone")
    phone_results.submit_result(black.link, "0-1", device="Black's phone")
    robin = _tonight(club, "Sunday Round Robin", five[:3], system="round-robin")
    ev.pair_next_round(robin, who=WHO)
    double = _tonight(club, "Double Round Robin", five[:4], system="double-round-robin")
    season = _tonight(club, "Keizer season", five[:4], system="keizer")
    keizer.mark(season.entries.get(name="Dana White"), keizer.Attendance.APOLOGIES, who=WHO)
    ev.pair_next_round(season, who=WHO)
    night = ev.start_evening(
        club,
        "Keizer night",
        dt.date.today(),
        1,
        who=WHO,
        system="keizer",
        keizer_settings={"rated": "evening"},
    )
    for name in five[:2]:
        ev.register(night, name, who=WHO)
    accept_exact(night, who=WHO)
    ev.pair_next_round(night, who=WHO)
    ev.enter_result(EveningBoard.objects.get(tournament=night), "1-0", who=WHO)
    ev.publish_evening(night, who=WHO)
    home = "/c/riverside/arbiter/evening/"
    site.visits["evenings in more states"] = [
        Visit(f"{home}{t.id}/{tail}", arbiter=True)
        for t in (swiss, robin, double, season, night)
        for tail in ("", "round/")
    ]


def game_states(site: Site) -> None:
    """The game page before the first move, at Black's marked move and as the arbiter sees it
    (a link to the game's arbiter page); games of the evening with moves no board can play and
    with moves not analysed yet (not in round 2, whose slips are printed; the latter is round 3's
    last game by board, which is the game of moves_that_differ's first visit: that visit then
    shows these moves beside the two sent), and a published game without moves nor a board
    number."""
    evening = Tournament.objects.get(club__slug="riverside", name="Tuesday Rapid")
    analysed = Game.objects.get(tournament=evening, round=1, white__name="Anna Smith")
    unreadable = Game.objects.exclude(pk=analysed.pk).get(tournament=evening, round=1)
    unanalysed = Game.objects.filter(tournament=evening, round=3).order_by("board").last()
    assert unanalysed is not None and not unreadable.moves and not unanalysed.moves
    Game.objects.filter(pk=unreadable.pk).update(moves="1. e4 e5 2. Ke3")  # White's king can't
    Game.objects.filter(pk=unanalysed.pk).update(moves="1. e4 e5 2. Nf3")
    bare = Game.objects.filter(tournament__club__slug="riverside", board=None, moves="").first()
    assert bare is not None and bare.tournament.is_published
    base = "/c/riverside/g/"
    site.visits["game states"] = [
        Visit(f"{base}{analysed.id}/?ply=0"),
        Visit(f"{base}{analysed.id}/?ply=4"),
        Visit(f"{base}{analysed.id}/", arbiter=True),
        *(Visit(f"{base}{g.id}/") for g in (unreadable, unanalysed, bare)),
    ]


def with_templates(folder: str) -> Any:
    """Django's settings with FOLDER's templates found before the package's own."""
    return override_settings(TEMPLATES=[{**django_settings.TEMPLATES[0], "DIRS": [folder]}])


@pytest.mark.parametrize(("visibility", "names"), PRIVACY)
def test_every_page_reads_as_with_the_templates_before(
    catalogue: None,  # noqa: F811
    site: Site,  # noqa: F811
    visibility: str,
    names: str,
) -> None:
    assert BEFORE and Path(BEFORE, "web", "base.html").is_file(), (
        "CLUBRATING_TEMPLATES_BEFORE names no folder of templates: run scripts/compare_pages"
    )
    moves_that_differ(site)
    game_states(site)
    evenings_in_more_states(site)
    a_round_without_boards(site)
    names_and_written_points(site)
    club = Club.objects.get(slug="riverside")
    set_privacy(club, who=WHO, visibility=visibility, names=names)
    if visibility == "unlisted":  # the CPI pages under a fitted preset (windowed, tracking),
        set_cpi_weights(club, {}, who=WHO, preset="fide-classical")  # with games long enough
        publish_analysed(club, 8, facts=long_game, who=WHO)  # for a strength (test_cpi_page_reads)
    now = timezone.now()
    arbiter = Client()
    arbiter.force_login(User.objects.get(username="anna-arbiter"))
    with with_templates(BEFORE):
        before, _ = crawl(site, arbiter, now)
    after, used = crawl(site, arbiter, now)
    if DUMP:  # for a look at the pages themselves: before/ and after/, one file a page
        for name, pages in (("before", before), ("after", after)):
            folder = Path(DUMP, f"{visibility}-{names}", name)
            folder.mkdir(parents=True, exist_ok=True)
            for number, page in enumerate(pages.values()):
                (folder / f"{number:04d}.html").write_text(page, encoding="utf-8")
    found = []
    for where, page in before.items():
        found += [f"{where}: {line}" for line in differences(page, after[where])]
    every = {str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html")}
    if visibility == "public":  # the other settings hide pages from the visitor
        assert sorted(every - used) == [], "templates no page of the crawl rendered"
    print(f"{len(before)} pages ({visibility}, {names}) read the same: {not found}")
    assert found == [], "\n".join(found)


# The branches of the templates that the crawl's club never reaches (an index of many clubs, a
# federation list past its first page, a bughouse or team tournament, an evening whose round is
# all in, a player who left, the arbiter's view of a player...), each rendered from a context
# written here: (template, context, a text its English page must show, so that the context is
# known to reach the branch).
PLAYER = {
    "member": {"id": 7, "left": dt.date(2026, 5, 1)},
    "club": {"name": "Riverside", "inactive_months": 12},
    "base": "/c/riverside/",
    "ratings": {
        "standard": {
            "rating": 1512.4,
            "games": 3,
            "provisional": True,
            "inactive": True,
            "last_played": "2026-04-01",
            "list_latest": "2026-05-02",
        },
        "rapid": {"rating": 1400.0, "games": 1},
    },
    "aliases": ["A. Smith", "Anna S."],
    "charts": [{"list_name": "standard", "svg": "<svg></svg>"}, {"list_name": "rapid"}],
    "initial": {"name_as_written": "Anna", "games": 3, "rating": 1650},
    "access": {"is_arbiter": True},
    "card": {
        "peaks": {"standard": {"rating": 1600, "date": "2026-01-01"}, "rapid": {"rating": 1500}},
        "colours": {
            c: {"wins": 2, "draws": 1, "losses": 0, "games": 3}
            for c in ("white", "black", "unknown")
        },
        "streaks": {
            "winning": {"length": 2, "from": "2026-01-01", "to": "2026-02-01"},
            "unbeaten": {"length": 3, "from": "2026-01-01", "to": "2026-03-01"},
        },
        "best_wins": [
            {
                "opponent_id": 3,
                "opponent": "Bob",
                "opponent_rating": 1700,
                "tournament": "Cup",
                "round": 2,
                "date": "2026-01-01",
            }
        ]
        * 2,
        "head_to_head": [1],
    },
    "against": {"opponent_id": 3, "opponent": "Bob Jones", "score": 1.5, "games": 2},
}
TOURNAMENT = {
    "name": "Cup",
    "date": "2026-01-01",
    "time_control": "rapid",
    "round_numbers": [1, 2],
    "club": {"slug": "riverside"},
    "base": "/c/riverside/",
    "tournament_id": 4,
    "status": "draft",
    "access": {"is_arbiter": True},
    "current": {"round": 2},
    "progress": {"open_boards": 2, "round": 2, "planned": 5},
    "rated": False,
    "has_unrated": True,
    "rule": "written",
    "ranked_by_words": "By points",
    "tiebreak_columns": [{"name": "Buchholz", "source": "C.05", "short": "BH"}],
    "teams": [
        {
            "name": "North",
            "points_text": "3",
            "players": [{"name": "Ann", "points_text": "2"}, {"name": "Bob", "points_text": "1"}],
        }
    ],
}
# the game page of a bughouse game, the CPI block of a player too new for a strength, and the
# CPI dashboard's strength gone stale, its depth notes, and a weakest factor the club equals
GAME = {"game": {"id": 3, "round": 1}, "base": "/c/r/", "club": {"slug": "r", "name": "R"}}
STALE = {"stale": True, "last_played": dt.date(2025, 1, 2)}
DASHBOARD = {
    "games": 8,
    "games_coached": 5,
    "name": "Anna",
    "member": {"id": 1},
    "base": "/c/r/",
    "strength": {
        "elo": 1500,
        "sd": 90,
        "games": 8,
        "pool": "p",
        "last_played": dt.date(2026, 1, 2),
    },
}
WEAKEST = {"cost_text": "2.0", "average_text": "1", "club_text": "1", "better": "fewer is better"}
CONTEXTS: list[tuple[str, dict[str, Any], str]] = [
    (
        "evening/evening.html",  # a Keizer pairing that could not keep the rematch gap
        {
            "tournament": {"id": 1, "name": "Keizer"},
            "evening": {"paired_rounds": 2, "planned_rounds": 5},
            "is_keizer": True,
            "registering": True,  # as web/evening.py finds it for these rounds
            "rematches": [("Anna Smith", "Bob Jones"), ("Carl Berg", "Dana White")],
        },
        "met recently:",
    ),
    ("web/player_main.html", PLAYER, "As Unknown: +2 =1 −0 (3 games)"),
    (
        "web/player_main.html",
        {
            "charts": [{"list_name": "standard", "svg": "<svg></svg>"}],
            "card": {"peaks": {"standard": {"rating": 1600}}, "streaks": {}},
        },
        "No published tournament yet.",
    ),
    ("web/tournament_main.html", TOURNAMENT, "The tie-break columns are FIDE"),
    (
        "web/tournament_main.html",
        {**TOURNAMENT, "progress": {"round": 2, "planned": 5}, "rated": True, "teams": []},
        "every result is in.",
    ),
    (
        "web/tournament_main.html",
        {**TOURNAMENT, "progress": None, "access": {}},
        "draft, not published",
    ),
    (
        "web/tournament_main.html",
        {**TOURNAMENT, "progress": None, "has_unrated": False, "status": "published"},
        "Standings and crosstable</caption>",
    ),
    (
        "web/index.html",
        {
            "own": [{"slug": "a", "name": "A"}],
            "listed": 250,
            "search": "x y",
            "public": Paginator([("B", "b")] * 250, 100).page(2),
        },
        'rel="prev"',
    ),
    (
        "web/index.html",
        {"listed": 3, "search": "zz", "public": Paginator([], 100).page(1)},
        "No club matches.",
    ),
    ("web/index.html", {}, "No club is public here."),
    (
        "web/federation.html",
        {
            "lists": ["standard", "rapid"],
            "rating_list": "standard",
            "paged": True,
            "next": "1500.0,7",
        },
        "First page",
    ),
    (
        "web/monthly_list.html",
        {
            "month": "2026-12",
            "base": "/c/riverside/",
            "club": {"name": "Riverside"},
            "differs": True,
            "lists": ["standard", "rapid"],
            "frozen": {"rating_list": "rapid"},
            "gone": [{"member_id": 1, "name": "Al"}, {"member_id": 2, "name": "Bo"}],
            "moved": [{"member_id": 1, "name": "Al", "rating": "1 → 2", "rank": "3 → 4"}],
            "corrections": [
                {
                    "day": "d1",
                    "what": "w1",
                    "tournament": {"is_published": True, "id": 3, "date": dt.date(2026, 1, 2)},
                    "name": "N",
                },
                {"day": "d2", "what": "w2", "name": "Gone"},
                {"day": "d3", "what": "w3", "member_id": 5, "member_name": "Cy"},
                {"day": "d4", "what": "w4", "settings": ["k", "days"]},
            ],
        },
        "Nobody was on the list.",
    ),
    (
        "web/game.html",
        {**GAME, "unreadable": True, "tournament": {"kind": "bughouse", "id": 2}},
        "(a bughouse game)",
    ),
    ("web/cpi/player_block.html", {"cpi": {"games": 3, "url": "/c/r/p/1/cpi/"}}, "3 analysed"),
    ("web/cpi/dashboard.html", {**DASHBOARD, "strength": STALE}, "No recent games"),
    (
        "web/cpi/dashboard.html",
        {**DASHBOARD, "depth": {"same": True, "fitted": "1,000"}},
        "as it analysed these",
    ),
    (
        "web/cpi/dashboard.html",
        {**DASHBOARD, "depth": {"fitted": "1,000", "nodes": "2,000", "deeper": True}},
        "A deeper analysis",
    ),
    (
        "web/cpi/dashboard.html",
        {**DASHBOARD, "strength": None, "weakest": {"factor": "H"}, "weakest_row": WEAKEST},
        "(fewer is better).",
    ),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_branches_the_crawl_misses_read_as_before(db: None, language: str) -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    found = []
    with translation.override(language):
        for number, (name, context, shown) in enumerate(CONTEXTS):
            with with_templates(BEFORE):
                before = render_to_string(name, context, request=request)
            after = render_to_string(name, context, request=request)
            assert language != "en" or shown in after, (number, shown)
            found += [f"{name} #{number}: {line}" for line in differences(before, after)]
    print(f"{len(CONTEXTS)} contexts ({language}) read the same: {not found}")
    assert found == [], "\n".join(found)
