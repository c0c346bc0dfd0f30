"""Every page of the website in Armenian and in Russian, crawled: no English text left on it.

The URL patterns come from Django's resolver; each is visited with its arguments filled from one
club (a published tournament with analysed games, an evening being played, a round robin being
numbered, moves links), or excused with a reason, and a new pattern fails the crawl until it is one
or the other. On each page every text node and the attributes people read are checked twice:
against the English catalogue's msgids (placeholders as wildcards) and against the English words
of those msgids. How the check reads a page, and why each word of the allow-list is on it:
docs/website.md#the-languages-check."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from clubrating.club.services import evening as ev
from clubrating.club.jobs.analysis import rebuild_ledger
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    EveningBoard,
    Game,
    GameAnalysis,
    Member,
    RebuildLog,
    Tournament,
)
from clubrating.club.services import accounts
from clubrating.club.services import moves_links as ml
from clubrating.club.services.club_settings import change_settings, current_settings, parse_settings
from clubrating.club.services.moves import attach_typed_moves
from clubrating.club.services.monthly_lists import publish_month
from clubrating.formats.typed import parse_typed
from tests.cpi.coach_games import build, publish_analysed

from .conftest import WHO, make_arbiter

# the fixture: the committed .po files compiled
from .test_translated_pages import catalogue  # noqa: F401
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.members import merge, unmerge
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import correct_result, import_tournament

LOCALE = Path(django_settings.BASE_DIR) / "locale"
LANGUAGES = ("hy", "ru")

# The routes no person reads in a language: data for programs, and forms' targets. The JSON API, the
# downloads and their headers stay English by the stable contract of docs/cli.md.
DOWNLOAD = (
    "a file download (CSV, JSON, TRF or PGN) for other programs: English by the stable contract"
)
API = "the JSON API (and its OpenAPI description, JSON too): English by the stable contract"
ACTION = "a form's target (POST only): it answers with a redirect to a page this crawl reads"
EXCUSED = {
    "robots.txt": "for crawlers, not people",
    "sitemap.xml": "for crawlers, not people",
    "healthz": "for the load balancer and the monitoring, not people",
    "language/": ACTION,
    "accounts/logout/": ACTION,
    "api/openapi.json": API,
    "api/clubs": API,
    **{
        f"api/{club}/{tail}": API
        for club in ("c/<slug:slug>", "u/<slug:token>")
        for tail in (
            "ratings",
            "players/<int:member_id>",
            "tournaments",
            "tournaments/<int:tournament_id>",
        )
    },
    **{
        f"{club}/{tail}": DOWNLOAD
        for club in ("c/<slug:slug>", "u/<slug:token>")
        for tail in (
            "ratings.csv",
            "ratings.json",
            "lists/<str:month>.csv",
            "lists/<str:month>.json",
            "t/<int:tournament_id>/tournament.trf",
            "t/<int:tournament_id>/games.pgn",
            "t/<int:tournament_id>/live.pgn",
            "t/<int:tournament_id>/round/<int:round_number>.pgn",
            "t/<int:tournament_id>/standings.csv",
            "p/<int:member_id>/history.csv",
            "p/<int:member_id>/history.json",
            "p/<int:member_id>/card.csv",
            "p/<int:member_id>/card.json",
            "g/<int:game_id>/game.pgn",
        )
    },
    **{
        f"c/<slug:slug>/arbiter/{tail}": ACTION
        for tail in (
            "t/<int:tournament_id>/<slug:action>/",
            "members/<slug:action>/",
            "arbiters/<slug:action>/",
            "initial-list/<slug:action>/",
            "evening/<int:tournament_id>/<slug:action>/",
        )
    },
}

# Words written the same in Armenian or Russian as in English (the rest of the catalogue's English
# words is a leak wherever it shows): why each is here, docs/website.md#the-languages-check.
SAME_WORDS = {
    "hy": {
        "cpi",
        "br",
        "pgn",
        "trf",
        "csv",
        "json",
        "fide",
        "qr",
        "utc",
        "lichess",
        "clubrating",
        "english",
        "san",
        "iana",
    },
    "ru": {
        "cpi",
        "br",
        "pgn",
        "trf",
        "csv",
        "json",
        "qr",
        "utc",
        "lichess",
        "clubrating",
        "english",
        "san",
        "iana",
    },
}

# English a page shows that the crawl knows of and leaves: each with the reason, none of it a text
# of the web layer. The services' words are the command line's too, and translated with it.
TYPED = "what an arbiter types, named as the command line and the file formats take it"
KNOWN = [
    (
        re.compile(r"/arbiter/settings/"),
        re.compile(r".*\b(club|fide|k-new(-games)?|time-zone|en|hy|ru)\b.*"),
        TYPED,
    ),
    (re.compile(r"/arbiter/initial-list/"), re.compile(r"CSV.* name, rating .* games .*"), TYPED),
    (
        re.compile(r"/arbiter/(upload|t/\d+/moves)/"),
        re.compile(r".*\bround, ?(board, ?)?white, ?black, ?result\b.*"),
        TYPED,
    ),  # a tournament file's columns, named in the error about its header
    (re.compile(r"/arbiter/evening/$"), re.compile(r"auto"), TYPED),  # Keizer's top=auto
    (
        re.compile(r"/arbiter/fair-play/"),
        re.compile(r".*'spec'.*"),
        TYPED,
    ),  # the CPI preset, as --preset takes it
]


@dataclass(frozen=True)
class Visit:
    path: str
    arbiter: bool = False
    post: dict[str, str] | None = None
    status: int = 200
    host: str = "testserver"
    follow: bool = False  # a form's target: the page it redirects to, with the message it leaves


@dataclass
class Site:
    """The club the crawl reads, and every name in it (not words of the catalogue)."""

    visits: dict[str, list[Visit]]
    errors: list[Visit]
    names: list[str] = field(default_factory=list)


def routes(
    patterns: list[URLPattern | URLResolver] | None = None, prefix: str = ""
) -> Iterator[str]:
    """Every URL pattern of the site as its route text, ``c/<slug:slug>/t/<int:tournament_id>/``."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


# --- the club ------------------------------------------------------------------------------------

DRAFT = """
1, Ana Smith, Bob Jones, 1-0
1, Carl Berg, Dana Whyte, 0-1
"""
SUNDAY = """
1, Carla Berg, Robert Jones, 1/2-1/2
"""
SCHOLAR = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
NOTES: dict[int, dict[str, Any]] = {
    3: {"best": [("Nf3", 40)], "after": -30},
    4: {"best": [("g6", 50)], "after": -80},
    6: {"best": [("g6", 20), ("Qe7", 10)], "after": "#-1"},
}


def _analysed_game(evening: Tournament) -> Game:
    """Round 1 of the published evening, Anna Smith - Bob Jones 1-0: moves and a stored analysis
    with an inaccuracy, a mistake and a blunder (tests/web/test_game_viewer's game)."""
    game = Game.objects.get(tournament=evening, round=1, white__name="Anna Smith")
    attach_typed_moves(game, " ".join(SCHOLAR), who=WHO)
    GameAnalysis.objects.create(
        game=game,
        engine="Fake",
        engine_version="1",
        nodes=1000,
        multipv=3,
        facts=build(SCHOLAR, NOTES, result="1-0").to_dict(),
    )
    return game


def _tonight(club: Club, name: str, players: list[str], system: str = "swiss") -> Tournament:
    t = ev.start_evening(club, name, dt.date.today(), 3, who=WHO, system=system)
    for player in players:
        ev.register(t, player, who=WHO)
    accept_exact(t, who=WHO)
    all_new_members(t, who=WHO)
    return t


def _stored_sentences(club: Club) -> None:
    """Operations whose sentences stored when they were done the arbiter's pages show (the audit
    log's summaries, the last rebuild's reason): the CPI ledger after an analysis run, a change of
    the rating rules, a merge taken back (the last rebuild before the crawl's own)."""
    rebuild_ledger(club, 5, 40, 10)
    k = current_settings(club)["k-established"]
    change_settings(club, parse_settings({"k-established": str(k + 1)}), who=WHO)
    robert, bob = (Member.objects.get(club=club, name=n) for n in ("Robert Jones", "Bob Jones"))
    merge(robert, bob, who=WHO)
    unmerge(robert, who=WHO)


@pytest.fixture
def site(club: Club, evening: Tournament) -> Site:
    """The published evening (one game with moves and analysis), five analysed games of Anna Berg
    (her CPI dashboard and its exercises), a Swiss evening in round 1 with a result in and moves
    links, a round robin numbering its players; an arbiter."""
    game = _analysed_game(evening)
    publish_analysed(club, 5, who=WHO)
    swiss = _tonight(
        club, "Thursday Swiss", ["Anna Smith", "Bob Jones", "Carl Berg", "Dana White", "Eva Fox"]
    )
    ev.pair_next_round(swiss, who=WHO)
    first_board = EveningBoard.objects.filter(tournament=swiss).order_by("board").first()
    assert first_board is not None
    ev.enter_result(first_board, "1-0", who=WHO)
    issued = ml.issue_links(swiss, 1, who=WHO)
    token = issued[-1].path.strip("/").split("/")[-1]
    ml.submit(
        issued[0].link, "1. e4 e5 2. Nf3", device="White's phone"
    )  # White's moves wait for Black's, or the arbiter
    ev.register(swiss, "Fay Gold", who=WHO)  # a late entry, not linked to a member yet
    draft = import_tournament(
        club,
        parse_typed(DRAFT, name="Saturday Blitz", date=dt.date(2024, 2, 3)),
        who=WHO,
        today=dt.date(2030, 1, 1),
    )  # names to confirm
    sunday = import_tournament(
        club,
        parse_typed(SUNDAY, name="Sunday Open", date=dt.date(2024, 3, 3)),
        who=WHO,
        today=dt.date(2030, 1, 1),
    )
    all_new_members(sunday, who=WHO)  # Carla Berg and Robert Jones: members who may be Carl and Bob
    robin = _tonight(
        club, "Friday Round Robin", ["Anna Smith", "Bob Jones", "Carl Berg"], system="round-robin"
    )
    make_arbiter(club, "anna-arbiter")
    set_privacy(
        create_club("Lakeside Chess Club", who=WHO, slug="lakeside"),
        who=WHO,
        visibility="public",
    )  # with two public clubs the site's first page lists them
    publish_month(club, dt.date(2024, 2, 1), who=WHO)
    correct_result(
        Game.objects.get(tournament=evening, round=2, white__name="Anna Smith"), "1/2-1/2", who=WHO
    )  # February's page then names who moved since its publication and this correction
    _stored_sentences(club)
    publish_month(club, dt.date(2024, 4, 1), who=WHO)
    publish_month(club, dt.date(2024, 4, 1), who=WHO, replace=True)  # its audit sentence too
    anna, berg = (Member.objects.get(club=club, name=n) for n in ("Anna Smith", "Anna Berg"))
    t, g = evening.id, game.id
    visits: dict[str, list[Visit]] = {
        "": [Visit("/")],
        "ratings/": [
            Visit("/ratings/"),
            Visit("/ratings/?list=blitz"),  # empty: no established blitz player
            Visit("/ratings/?after=1e999,1", status=400),
            Visit("/ratings/?list=bullet", status=400),
        ],
        "accounts/login/": [Visit("/accounts/login/")],
        "m/<slug:token>/": [
            Visit(f"/m/{token}/"),
            Visit(f"/m/{token}/", post={"moves": "1. e4 e5 2. Ke3"}),
            Visit("/m/no-such-link/", status=404),
        ],
    }
    for prefix, base in (
        ("c/<slug:slug>/", "/c/riverside/"),
        ("u/<slug:token>/", f"/u/{club.token}/"),
    ):
        visits.update(
            {
                prefix: [Visit(base)],
                f"{prefix}t/": [Visit(f"{base}t/")],
                f"{prefix}lists/": [Visit(f"{base}lists/")],
                f"{prefix}lists/<str:month>/": [
                    Visit(f"{base}lists/2024-02/"),
                    Visit(f"{base}lists/2024-04/"),
                ],
                f"{prefix}t/<int:tournament_id>/": [
                    Visit(f"{base}t/{t}/"),
                    Visit(f"{base}t/{swiss.id}/"),
                ],
                f"{prefix}t/<int:tournament_id>/print/pairings/": [
                    Visit(f"{base}t/{t}/print/pairings/"),
                    Visit(f"{base}t/{swiss.id}/print/pairings/"),
                ],
                f"{prefix}t/<int:tournament_id>/print/names/": [
                    Visit(f"{base}t/{t}/print/names/"),
                    Visit(f"{base}t/{swiss.id}/print/names/"),
                ],
                f"{prefix}t/<int:tournament_id>/print/wallchart/": [
                    Visit(f"{base}t/{t}/print/wallchart/"),
                    Visit(f"{base}t/{swiss.id}/print/wallchart/"),
                ],
                f"{prefix}p/<int:member_id>/": [
                    Visit(f"{base}p/{anna.id}/"),
                    Visit(f"{base}p/{berg.id}/"),
                ],
                f"{prefix}p/<int:member_id>/cpi/": [
                    Visit(f"{base}p/{anna.id}/cpi/"),
                    Visit(f"{base}p/{berg.id}/cpi/"),
                ],
                f"{prefix}g/<int:game_id>/": [
                    Visit(f"{base}g/{g}/"),
                    Visit(f"{base}g/{g}/?ply=3"),
                    Visit(f"{base}g/{g}/?ply=99", status=400),
                ],
            }
        )
    home = "/c/riverside/arbiter/"
    arbiter = {
        "": "",
        "audit/": "audit/",
        "upload/": "upload/",
        "t/<int:tournament_id>/": f"t/{t}/",
        "t/<int:tournament_id>/moves/": f"t/{swiss.id}/moves/",
        "t/<int:tournament_id>/analysis/": f"t/{t}/analysis/",
        "t/<int:tournament_id>/slips/": f"t/{swiss.id}/slips/",
        "g/<int:game_id>/": f"g/{g}/",
        "members/": "members/",
        "arbiters/": "arbiters/",
        "privacy/": "privacy/",
        "settings/": "settings/",
        "initial-list/": "initial-list/",
        "fair-play/": "fair-play/",
        "evening/": "evening/",
        "evening/<int:tournament_id>/": f"evening/{swiss.id}/",
        "evening/<int:tournament_id>/round/": f"evening/{swiss.id}/round/",
    }
    visits.update(
        {
            f"c/<slug:slug>/arbiter/{route}": [Visit(f"{home}{tail}", arbiter=True)]
            for route, tail in arbiter.items()
        }
    )
    visits["c/<slug:slug>/arbiter/evening/<int:tournament_id>/"] += [
        Visit(f"{home}evening/{robin.id}/", arbiter=True),
        Visit(
            f"{home}evening/{swiss.id}/register/",
            arbiter=True,
            post={"name": "Carla Berg"},
            follow=True,
        ),
    ]
    visits["c/<slug:slug>/arbiter/t/<int:tournament_id>/"].append(
        Visit(f"{home}t/{draft.id}/", arbiter=True)
    )
    _, invitation = accounts.invite_arbiter(club, "olga-invited", who=WHO)
    visits["accounts/password_change/"] = [Visit("/accounts/password_change/", arbiter=True)]
    visits["accounts/<slug:kind>/<str:uidb64>/<str:token>/"] = [
        Visit(invitation),
        Visit(invitation.replace("/invite/", "/reset/"), status=404),
        Visit(invitation, post={"new_password1": "x", "new_password2": "y"}),
    ]
    visits["c/<slug:slug>/arbiter/lists/publish/"] = [
        Visit(f"{home}lists/publish/", arbiter=True, post={"month": "2024-03"}, follow=True),
        Visit(f"{home}lists/publish/", arbiter=True, post={"month": "2024-03"}, follow=True),
    ]  # published, then refused: both messages
    visits["c/<slug:slug>/arbiter/rebuild/"] = [
        Visit(f"{home}rebuild/", arbiter=True, post={}, follow=True)
    ]
    visits["c/<slug:slug>/arbiter/t/<int:tournament_id>/moves/"].append(
        Visit(f"{home}t/{t}/moves/", arbiter=True)
    )
    visits["c/<slug:slug>/arbiter/t/<int:tournament_id>/slips/"].append(
        Visit(f"{home}t/{t}/slips/", arbiter=True, post={"action": "print", "round": "2"})
    )
    errors = [
        Visit("/c/riverside/t/999999/", status=404),
        Visit("/nothing-here/", status=404),
        Visit("/", host="bad..host", status=400),
        Visit(f"{home}privacy/", arbiter=True, post={"visibility": "public"}, status=403),
    ]
    names = [
        *Member.objects.values_list("name", flat=True),
        *Club.objects.values_list("name", flat=True),
        *Tournament.objects.values_list("name", flat=True),
        *User.objects.values_list("username", flat=True),
    ]
    return Site(visits, errors, sorted(set(names), key=len, reverse=True))


# --- reading a page
# --------------------------------------------------------------------------------


class Texts(HTMLParser):
    """The texts people read on a page: its text nodes (not scripts nor styles), <title> and SVG's
    <title> and <desc> among them, and the attributes title, alt, aria-label, placeholder and a
    button's value; not the <code> in them."""

    ATTRIBUTES = ("title", "alt", "aria-label", "placeholder")
    CODE = (
        "script",
        "style",
        "code",
    )  # <code>: what is typed as it is (moves, commands, settings' names)

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0
        self.body = 0  # inside a table's <tbody>: its texts are marked "<tbody>" for KNOWN

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.CODE:
            self.hidden += 1
        self.body += tag == "tbody"
        attributes = dict(attrs)
        read = [a for a in self.ATTRIBUTES if attributes.get(a)]
        if tag == "button" or (
            tag == "input" and attributes.get("type") in ("submit", "button", "reset")
        ):
            read.append("value")
        self.texts.extend(str(attributes[a]) for a in read if attributes.get(a))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.CODE:
            self.hidden -= 1
        self.body -= tag == "tbody"

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.texts.append(f"<tbody>{data}" if self.body else data)


def texts_of(content: str, content_type: str) -> list[str]:
    if content_type.startswith("text/html"):
        parser = Texts()
        parser.feed(content)
        found = parser.texts
    else:
        found = [content]
    return [t for t in (" ".join(text.split()) for text in found) if t.removeprefix("<tbody>")]


# --- the catalogue
# ---------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]")


@cache
def msgids() -> tuple[tuple[str, str | None], ...]:
    """The English catalogue's messages: (msgid, msgid_plural or None)."""
    text = (LOCALE / "en/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    found: list[tuple[str, str | None]] = []
    for entry in text.split("\n\n"):
        one = re.search(r'^msgid "(.+)"$', entry, re.M)
        other = re.search(r'^msgid_plural "(.+)"$', entry, re.M)
        if one:
            found.append(
                (json.loads(f'"{one[1]}"'), json.loads(f'"{other[1]}"') if other else None)
            )
    return tuple(found)


def segments(msgid: str) -> list[str]:
    """A msgid's texts between its HTML tags (a page shows each as a text node of its own)."""
    return [
        s.strip()
        for s in re.split(r"<[^>]+>", msgid.replace("%%", "%"))
        if re.search("[A-Za-z]", PLACEHOLDER.sub("", s))
    ]


def pattern(segment: str) -> re.Pattern[str]:
    """The segment with its placeholders as wildcards (figures only next to a lone letter:
    R%(r)s)."""
    literal = PLACEHOLDER.split(segment)
    wild = ".+?" if re.search("[A-Za-z]{2}", "".join(literal)) else r"[\d½.,]+"
    return re.compile(wild.join(re.escape(re.sub(r"\s+", " ", p)) for p in literal))


@cache
def leak_patterns(language: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The segments of every msgid that the language's translation does not keep as they are, the
    longest text first (a failure names the msgid the text is, not a shorter one it also fits)."""
    found: list[tuple[str, re.Pattern[str]]] = []
    with translation.override(language):
        for one, other in msgids():
            if other is None:
                translations = [translation.gettext(one)]
            else:
                translations = [translation.ngettext(one, other, n) for n in (1, 2, 5)]
            found.extend(
                (s, pattern(s))
                for text in (one, other)
                if text
                for s in segments(text)
                if not any(s in t.replace("%%", "%") for t in translations)
            )
    return tuple(sorted(found, key=lambda found: -len(PLACEHOLDER.sub("", found[0]))))


@cache
def vocabulary() -> frozenset[str]:
    """The English words of the catalogue's msgids, lower case, two letters or more."""
    words: set[str] = set()
    for one, other in msgids():
        for text in (one, other or ""):
            text = re.sub(r"<[^>]+>|&\w+;", " ", PLACEHOLDER.sub(" ", text))
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) > 1)
    return frozenset(words)


def english_words(text: str, names: list[str], language: str) -> list[str]:
    """The catalogue's English words in a text, leaving out names, addresses, notation and
    figures."""
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(
        r"\bclubrating(?: [a-z][a-z-]*)+(?: --?[a-z][a-z-]*)*", " ", text
    )  # a command, typed as it is
    words: list[str] = []
    for token in text.split():
        if token.startswith("--"):  # an option of a command, typed as it is
            continue
        if re.search(r"[\d/:@_=]", token):  # a move, a result, a figure, an address, a FEN, a token
            continue
        if re.search(r"\w\.[A-Za-z]{2,4}\b", token):  # a file's name, as the arbiter gave it
            continue
        words.extend(
            w
            for w in re.findall(r"[A-Za-z]+", token)
            if len(w) > 1 and w.lower() in vocabulary() and w.lower() not in SAME_WORDS[language]
        )
    return words


def leaks(path: str, texts: list[str], names: list[str], language: str) -> list[str]:
    found: list[str] = []
    for marked_text in texts:
        text = marked_text.removeprefix("<tbody>")
        if any(
            page.search(path) and (known.fullmatch(marked_text) or known.fullmatch(text))
            for page, known, _why in KNOWN
        ):
            continue
        marked = next((s for s, p in leak_patterns(language) if p.fullmatch(text)), None)
        if marked is not None:
            found.append(f"{text!r} (the msgid {marked!r})")
        elif words := english_words(text, names, language):
            found.append(f"{text!r} (English words: {', '.join(words)})")
    return found


def read(visit: Visit, language: str, arbiter: Client) -> list[str]:
    client = arbiter if visit.arbiter else Client()
    if visit.status == 403:
        client = Client(enforce_csrf_checks=True)
        client.force_login(User.objects.get(username="anna-arbiter"))
    headers = {"accept-language": language}
    if visit.post is not None:
        response = client.post(
            visit.path, visit.post, headers=headers, HTTP_HOST=visit.host, follow=visit.follow
        )
    else:
        response = client.get(visit.path, headers=headers, HTTP_HOST=visit.host)
    assert response.status_code == visit.status, (visit.path, language, response.status_code)
    content = response.content.decode()
    texts = texts_of(content, response["Content-Type"])
    if (
        response["Content-Type"].startswith("text/html")
        and f'<html lang="{language}">' not in content
    ):
        texts.insert(0, f"<html lang> is not {language!r}: not the site's page")
    return texts


# --- the tests
# -------------------------------------------------------------------------------------


def test_every_url_pattern_is_crawled_or_excused_with_a_reason(site: Site) -> None:
    patterns = set(routes())
    assert (
        sorted(patterns - set(site.visits) - set(EXCUSED)) == []
    )  # a new page: crawl it, or excuse it
    assert sorted((set(site.visits) | set(EXCUSED)) - patterns) == []  # a page gone: drop it here
    assert set(site.visits).isdisjoint(EXCUSED)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_english_in_armenian_or_russian(
    catalogue: None, site: Site, language: str
) -> None:  # noqa: F811
    arbiter = Client()
    arbiter.force_login(User.objects.get(username="anna-arbiter"))
    found: list[str] = []
    for visit in [v for visits in site.visits.values() for v in visits] + site.errors:
        found.extend(
            f"{visit.path} [{language}]: {leak}"
            for leak in leaks(visit.path, read(visit, language, arbiter), site.names, language)
        )
    assert found == [], "\n".join(found)


def test_the_crawls_club_holds_stored_sentences_of_several_kinds_and_a_rebuild(site: Site) -> None:
    kinds = set(AuditEntry.objects.exclude(summary_text=None).values_list("action", flat=True))
    assert kinds >= {"publish", "moves-links", "analyse", "settings", "merge", "unmerge"}, kinds
    last = RebuildLog.objects.latest("id")
    assert last.reason.startswith("unmerge member ") and last.reason_text is not None


def test_the_check_finds_english_and_passes_names_notation_and_the_translation(
    catalogue: None,
) -> None:  # noqa: F811
    texts = [
        "Standings",
        "3 rounds",
        "R1",
        "Sonneborn-Berger",
        "Turnir of the club",
        "Турнирная таблица",
        "Anna Smith – Bob Jones",
        "1. e4 e5 2. Nf3 Nc6",
        "1-0",
        "½-½",
        "PGN",
        "CPI 87.0",
        "clubrating",
    ]
    found = leaks("/c/riverside/", texts, ["Anna Smith", "Bob Jones"], "ru")
    assert [f.split(" (")[0] for f in found] == [
        "'Standings'",
        "'3 rounds'",
        "'R1'",
        "'Sonneborn-Berger'",
        "'Turnir of the club'",
    ]
    assert re.search(r"\(the msgid '%\((rounds|count)\)[sd] rounds'\)$", found[1]), found[
        1
    ]  # a count of rounds
