"""The hostile-input suite, website: every form, the players' phone page, the login, the
language switch and every page's query string and path numbers, given what an attacker would
send (tests/web/hostile_inputs.py). Each must answer below 500; a control character anywhere
400; a refused request (4xx) writes nothing (the whole database compared before and after).

Every URL pattern is in GET_ONLY or POST_SURFACES: a pattern added later fails
test_every_url_is_covered until it is, and so does a GET_ONLY page that starts taking POST
(every pattern is posted to once, empty: 405 or not). Django's test client on pytest-django's
database, each input rolled back after."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from clubrating.club.services import evening as ev
from clubrating.club.services.keizer import SETTINGS as KEIZER_SETTINGS
from clubrating.club.services import club_settings
from clubrating.club.store.models import Entry, EveningBoard, Game, Member, Tournament
from clubrating.club.services import accounts
from clubrating.club.services import moves_links as ml
from clubrating.club.services.monthly_lists import publish_month

from .conftest import WHO
from .hostile_inputs import COUNTS, bounded, record, has_control, hostile_file, hostile_text
from .test_hostile_cli import GOOD, database_dump

EXAMPLES = int(os.environ.get("CLUBRATING_HOSTILE_EXAMPLES", "2"))
NO_SHRINK = (
    Phase.explicit,
    Phase.reuse,
    Phase.generate,
)  # each failure says its input; shrinking a slow one costs minutes

# Every query parameter a page reads (request.GET in web/): each page is given all of them.
QUERY = ("q", "page", "list", "vs", "ratings", "ply", "games", "round", "next", "lang")

ARBITER = "c/<slug:slug>/arbiter/"
CLUB_PAGES = (
    "",
    "ratings.csv",
    "ratings.json",
    "t/",
    "lists/",
    "lists/<str:month>/",
    "lists/<str:month>.csv",
    "lists/<str:month>.json",
    "t/<int:tournament_id>/",
    "t/<int:tournament_id>/tournament.trf",
    "t/<int:tournament_id>/games.pgn",
    "t/<int:tournament_id>/standings.csv",
    "t/<int:tournament_id>/live.pgn",
    "t/<int:tournament_id>/round/<int:round_number>.pgn",
    "t/<int:tournament_id>/print/pairings/",
    "t/<int:tournament_id>/print/names/",
    "t/<int:tournament_id>/print/wallchart/",
    "p/<int:member_id>/",
    "p/<int:member_id>/history.csv",
    "p/<int:member_id>/history.json",
    "p/<int:member_id>/card.csv",
    "p/<int:member_id>/card.json",
    "p/<int:member_id>/cpi/",
    "g/<int:game_id>/",
    "g/<int:game_id>/game.pgn",
)
API = ("ratings", "players/<int:member_id>", "tournaments", "tournaments/<int:tournament_id>")

# The pages that answer GET only (a POST is 405, checked): their input is the query string and the
# numbers in their path, fuzzed for every one of them.
GET_ONLY = {
    "",
    "robots.txt",
    "healthz",
    "sitemap.xml",
    "api/openapi.json",
    "api/clubs",
    "ratings/",
    *(prefix + page for prefix in ("c/<slug:slug>/", "u/<slug:token>/") for page in CLUB_PAGES),
    *(prefix + page for prefix in ("api/c/<slug:slug>/", "api/u/<slug:token>/") for page in API),
    *(
        ARBITER + page
        for page in (
            "",
            "audit/",
            "members/",
            "arbiters/",
            "initial-list/",
            "fair-play/",
            "evening/<int:tournament_id>/",
        )
    ),
}

# route -> (its actions, the fields each posts); an action "" for a route without one.
POST_SURFACES: dict[str, dict[str, tuple[str, ...]]] = {
    "accounts/login/": {"": ("username", "password", "next")},
    "accounts/logout/": {"": ("next",)},
    "accounts/password_change/": {"": ("old_password", "new_password1", "new_password2")},
    "accounts/<slug:kind>/<str:uidb64>/<str:token>/": {"": ("new_password1", "new_password2")},
    "language/": {"": ("language", "next")},
    "m/<slug:token>/": {"": ("moves", "result")},
    ARBITER + "rebuild/": {"": ()},
    ARBITER + "lists/publish/": {"": ("month", "replace")},
    ARBITER + "t/<int:tournament_id>/analysis/": {"retry": ()},
    ARBITER + "upload/": {
        "file": ("file", "name", "date", "has_juniors", "force"),
        "typed": ("rows", "name", "date"),
    },
    ARBITER + "t/<int:tournament_id>/": {"": ("name",)},
    ARBITER + "t/<int:tournament_id>/<slug:action>/": {
        "link": ("entry", "member"),
        "new-member": ("entry",),
        "unlink": ("entry",),
        "accept-exact": (),
        "all-new": (),
        "publish": (),
        "unpublish": (),
        "date": ("date",),
        "result": ("game", "result"),
        "delete": ("confirm",),
        "nonsense": (),
    },
    ARBITER + "t/<int:tournament_id>/moves/": {"": ("file", "pgn", "source")},
    ARBITER + "t/<int:tournament_id>/slips/": {"": ("action", "round")},
    ARBITER + "g/<int:game_id>/": {
        "typed": ("moves", "confirm"),
        "submission": ("submission", "confirm"),
    },
    ARBITER + "members/<slug:action>/": {
        "flags": ("member", "junior", "consent"),
        "merge": ("absorbed", "into"),
        "unmerge": ("member",),
        "rename": ("member", "name"),
        "distinct": ("one", "other"),
        "leave": ("member", "day"),
        "return": ("member",),
        "nonsense": (),
    },
    ARBITER + "arbiters/<slug:action>/": {
        "invite": ("login",),
        "reset": ("login",),
        "remove": ("login",),
        "nonsense": (),
    },
    ARBITER + "privacy/": {"": ("visibility", "names", "rotate")},
    ARBITER + "settings/": {
        "weights": ("cpi-preset",),
        "rules": tuple(s.key for s in club_settings.SETTINGS),
    },
    ARBITER + "initial-list/<slug:action>/": {
        "link": ("row", "member"),
        "new-member": ("row",),
        "unlink": ("row",),
        "accept-exact": (),
        "all-new": (),
        "upload": ("file",),
    },
    ARBITER + "evening/": {
        "": ("name", "date", "rounds", "time_control", "system")
        + tuple(f"keizer-{key}" for key in KEIZER_SETTINGS)
    },
    ARBITER + "evening/<int:tournament_id>/round/": {"": ("round",)},
    ARBITER + "evening/<int:tournament_id>/<slug:action>/": {
        "register": ("name",),
        "link": ("entry", "member"),
        "new-member": ("entry",),
        "accept-exact": (),
        "withdraw": ("entry",),
        "bye": ("entry", "round"),
        "pair": ("order", "seed", "table-{entry}"),
        "result": ("board", "result"),
        "publish": (),
        "colours": ("board",),
        "exchange": ("one", "other", "confirm"),
        "repair": (),
        "mark": ("entry", "attendance"),
        "next": ("name", "date"),
        "nonsense": ("back",),
    },
}


def routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[str]:
    """The whole route of every URL pattern."""
    for item in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(item, URLResolver):
            yield from routes(item.url_patterns, prefix + str(item.pattern))
        elif isinstance(item, URLPattern):
            yield prefix + str(item.pattern)


# --- the club ----------------------------------------------------------------------------------


@pytest.fixture
def club_numbers(evening: Tournament, arbiter_client: Client) -> dict[str, str]:
    """The ids the forms refer to: a published tournament, a draft, an evening with a paired
    round."""
    club = evening.club
    draft_text = "1, A. Smith, Zed New, 1-0\n"
    from clubrating.club.services.tournaments import correct_result, import_tournament
    from clubrating.formats.typed import parse_typed

    draft = import_tournament(
        club,
        parse_typed(draft_text, name="Draft", date=dt.date(2024, 2, 20)),
        who=WHO,
        today=dt.date(2030, 1, 1),
    )
    night = ev.start_evening(
        club, "Wednesday", dt.date(2024, 3, 6), 3, who=WHO, today=dt.date(2024, 3, 6)
    )
    for name in ("Anna Smith", "Bob Jones", "Carl Berg", "Dana White"):
        ev.register(night, name, who=WHO)
    publish_month(club, dt.date(2024, 2, 1), who=WHO)  # the evening's list, for lists/<month>/
    correct_result(
        Game.objects.get(tournament=evening, round=2, white__name="Anna Smith"), "1/2-1/2", who=WHO
    )  # its page then names who moved since publication, and this correction
    ev.pair_next_round(night, who=WHO)
    links = ml.issue_links(night, 1, who=WHO)
    members = list(Member.objects.filter(club=club).order_by("pk"))
    return {
        "tournament": str(evening.id),
        "draft": str(draft.id),
        "evening": str(night.id),
        "entry": str(Entry.objects.filter(tournament=draft).first().id),  # type: ignore[union-attr]
        "evening_entry": str(
            Entry.objects.filter(tournament=night).first().id  # type: ignore[union-attr]
        ),
        "member": str(members[0].id),
        "member2": str(members[1].id),
        "game": str(Game.objects.filter(tournament=evening).first().id),  # type: ignore[union-attr]
        "board": str(
            EveningBoard.objects.filter(tournament=night).first().id  # type: ignore[union-attr]
        ),
        "token": links[0].token,
        "invitation": accounts.invite_arbiter(club, "olga-invited", who=WHO)[1],
        "slug": "riverside",
    }


def path_of(
    whole: str, numbers: dict[str, str], action: str, hostile_number: str | None = None
) -> str:
    """The URL of ``whole`` with the club's own numbers (or ``hostile_number`` in every number)."""
    evening_route = whole.startswith("c/<slug:slug>/arbiter/evening/")
    values = {
        "<slug:slug>": "riverside",
        "<slug:token>": numbers["token"] if whole.startswith("m/") else "x" * 20,
        "<int:tournament_id>": numbers["evening" if evening_route else "tournament"],
        "<int:member_id>": numbers["member"],
        "<int:game_id>": numbers["game"],
        "<int:round_number>": "1",
        "<str:month>": "2024-02",
        "<slug:action>": action or "x",
        **dict(
            zip(
                ("<slug:kind>", "<str:uidb64>", "<str:token>"),
                numbers["invitation"].split("/")[2:5],
            )
        ),
    }
    if hostile_number is not None:
        values.update({key: hostile_number for key in values if key.startswith("<int:")})
    if whole.startswith("c/<slug:slug>/arbiter/t/") and action in (
        "link",
        "new-member",
        "unlink",
        "accept-exact",
        "all-new",
        "publish",
        "delete",
    ):
        values["<int:tournament_id>"] = (
            numbers["draft"] if hostile_number is None else hostile_number
        )
    path = whole
    for key, value in values.items():
        path = path.replace(key, value)
    return "/" + path


def good_value(field: str, numbers: dict[str, str], evening_route: bool) -> Any:
    """A value the field would take, so that one hostile field is what the form is refused for."""
    if field == "file":
        return SimpleUploadedFile("night.csv", GOOD["csv"].encode())
    if field in ("entry", "one"):
        return numbers["evening_entry" if evening_route else "entry"]
    return {
        "member": numbers["member"],
        "absorbed": numbers["member2"],
        "into": numbers["member"],
        "other": numbers["evening_entry"],
        "game": numbers["game"],
        "board": numbers["board"],
        "date": "2024-03-12",
        "day": "2024-03-12",
        "result": "1-0",
        "name": "Night",
        "rows": "1, Anna Smith, Bob Jones, 1-0",
        "moves": "1. e4 e5",
        "round": "1",
        "order": "rating",
        "seed": "7",
        "rounds": "3",
        "time_control": "standard",
        "system": "swiss",
        "visibility": "public",
        "names": "full",
        "cpi-preset": "spec",
        "username": "anna-arbiter",
        "password": "wrong",
        "language": "hy",
        "next": "/",
        "pgn": GOOD["pgn"],
        "action": "print",
        "confirm": "",
        "row": "1",
        "login": "anna-arbiter",
    }.get(field, "")


def as_sent(text: str) -> str:
    """``text`` as a browser can send it: a lone surrogate is no UTF-8, so it arrives as the bytes
    a broken client would write for it, which Django decodes as U+FFFD."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


@contextlib.contextmanager
def rolled_back() -> Iterator[None]:
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def check_response(
    status: int, sent: dict[str, Any], surface: str, before: Any, body: bytes
) -> None:
    shown = f"{surface}: {ascii(sent)[:300]} -> {status}"
    assert status < 500, shown
    texts = [v for v in sent.values() if isinstance(v, str)] + [k for k in sent]
    if any(
        has_control(text.replace("\r", "").replace("\n", "").replace("\t", "")) for text in texts
    ):
        assert status == 400, f"a control character was taken: {shown}"
    if 400 <= status < 500 and before is not None:
        assert database_dump() == before, f"a refused request changed the database: {shown}"


# --- the coverage --------------------------------------------------------------------------------


def test_every_url_is_covered_and_only_the_get_only_pages_refuse_a_post(
    club_numbers: dict[str, str], arbiter_client: Client
) -> None:
    missing = [whole for whole in routes() if whole not in GET_ONLY and whole not in POST_SURFACES]
    assert missing == [], f"neither in GET_ONLY nor in POST_SURFACES: {missing}"
    assert set(POST_SURFACES) | GET_ONLY <= set(routes())
    posting = []
    for whole in sorted(GET_ONLY):
        with rolled_back():
            if arbiter_client.post(path_of(whole, club_numbers, "")).status_code != 405:
                posting.append(whole)
    assert posting == [], f"pages in GET_ONLY that take a POST: {posting}"


# --- every page's query string and path numbers --------------------------------------------------

# The pages whose GET writes, and why (every other GET must leave the database as it was).
GET_WRITES = {
    "m/<slug:token>/": "the first open binds the link to that phone (docs/moves.md, two phones)"
}


@pytest.mark.parametrize("route", sorted(set(routes())))
def test_a_page_given_a_hostile_query_string_or_number_answers_below_500(
    route: str, club_numbers: dict[str, str], arbiter_client: Client
) -> None:
    client = arbiter_client if route.startswith(ARBITER) else Client()
    before = database_dump()

    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=list(HealthCheck),
        database=None,
        phases=NO_SHRINK,
    )
    @given(
        query=st.lists(st.tuples(st.sampled_from(QUERY), hostile_text()), min_size=1, max_size=3),
        number=st.sampled_from(
            ["0", "99999999999999999999", "9223372036854775808", "2147483648", "007"]
        ),
    )
    def each(query: list[tuple[str, tuple[str, str]]], number: str) -> None:
        sent = {name: as_sent(value) for name, (_, value) in query}
        for path in (path_of(route, club_numbers, "x"), path_of(route, club_numbers, "x", number)):
            COUNTS[f"GET /{route}"] += 1
            with bounded(f"GET {path} {ascii(sent)[:200]}"):
                response = client.get(path, sent)
            check_response(response.status_code, sent, f"GET {path}", None, response.content)

    each()
    record(f"GET /{route}")
    assert route in GET_WRITES or database_dump() == before, f"a GET of /{route} wrote"


# --- every form ----------------------------------------------------------------------------------

SURFACES = sorted((route, action) for route, actions in POST_SURFACES.items() for action in actions)


@pytest.mark.parametrize("whole, action", SURFACES)
def test_a_form_given_hostile_values_answers_below_500_and_a_refusal_writes_nothing(
    whole: str, action: str, club_numbers: dict[str, str], arbiter_client: Client
) -> None:
    fields = [
        f.replace("{entry}", club_numbers["evening_entry"]) for f in POST_SURFACES[whole][action]
    ] or ["x"]
    evening_route = "evening" in whole
    client = arbiter_client if "arbiter" in whole else Client()
    path = path_of(whole, club_numbers, action if "<slug:action>" in whole else "")

    if whole in GET_WRITES:
        client.get(path)  # the phone opens its link first, as a player does

    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=list(HealthCheck),
        database=None,
        phases=NO_SHRINK,
    )
    @given(field=st.sampled_from(fields), value=hostile_text(), file=hostile_file(GOOD["csv"]))
    def each(field: str, value: tuple[str, str], file: tuple[str, bytes]) -> None:
        form = {f: good_value(f, club_numbers, evening_route) for f in fields if f != "x"}
        if action == "submission":
            form.setdefault("submission", "1")
        form[field] = (
            SimpleUploadedFile("night.csv", file[1]) if field == "file" else as_sent(value[1])
        )
        COUNTS[f"POST /{whole}" + (f" {action}" if action else "")] += 1
        with rolled_back():
            before = database_dump()
            with bounded(f"POST {path} {field}={ascii(form[field])[:200]}"):
                response = client.post(path, form)
            sent = {k: v for k, v in form.items() if isinstance(v, str)}
            check_response(
                response.status_code, sent, f"POST {path} {field}", before, response.content
            )

    each()
    record(f"POST /{whole}" + (f" {action}" if action else ""))
