"""Every view agrees with the store: a crawl of every page, export, API document and command.

:func:`crawl` reads the store's rows (:mod:`crawl_truth`, none of the product's read functions)
and then every surface that shows a figure, for every member and every published tournament:
the club page and its CSV / JSON, the tournament page (crosstable), its standings CSV, TRF (with
the club ratings), PGN and wall chart, the player page, its history CSV / JSON and card CSV /
JSON, the CPI dashboard, a game's page and PGN, the JSON API, and the commands ``ratings``,
``player``, ``tournament``, ``cpi`` and ``coach`` (text and ``--json``, run in this process). It
returns one line for each figure that differs from the store (rating, change, games, points,
CPI, result), or each place that differs between two views; an empty list is agreement.

``ROUTES`` and ``COMMANDS`` say which of the website's routes and which commands the crawl
reads, and why each other one shows no figure of its own: test_views_agree.py fails on a route
or a command that is in neither.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
from collections import Counter, defaultdict
from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from clubrating import djangoenv
from clubrating.cli import build_parser
from clubrating.club.store.models import Club, EveningPlayer, Game, Member, Tournament

from .crawl_read import (
    Page,
    cell_ending_at,
    csv_rows,
    half_points,
    member_of,
    pgn_results,
    tournament_of,
    trf_players,
)
from .crawl_truth import Change, Truth, read_truth

# The website's routes (web/urls.py) by where they sit ("club": under /c/<slug>/ and /u/<token>/;
# "api": under /api/c/<slug>/ and /api/u/<token>/; "arbiter": under /c/<slug>/arbiter/; "site": the
# rest) and their pattern: each the crawl reads, with what it checks there...
ROUTES = {
    ("club", ""): "rank, rating, games of every member on every list",
    ("club", "ratings.csv"): "the rating list's CSV",
    ("club", "ratings.json"): "the rating list's JSON",
    ("club", "t/<int:tournament_id>/"): "place, points, rating before and after, change",
    (
        "club",
        "t/<int:tournament_id>/tournament.trf",
    ): "points, rank, the club rating before the tournament",
    ("club", "t/<int:tournament_id>/games.pgn"): "every game's result",
    ("club", "t/<int:tournament_id>/standings.csv"): "place, points, rating before and after",
    ("club", "t/<int:tournament_id>/print/wallchart/"): "place and points",
    (
        "club",
        "p/<int:member_id>/",
    ): "history (points, games, ratings, change), the CPI line; a merged member's redirect",
    ("club", "p/<int:member_id>/history.csv"): "the history's CSV",
    (
        "club",
        "p/<int:member_id>/history.json",
    ): "the ratings after each tournament (lichess's shape)",
    ("club", "p/<int:member_id>/card.csv"): "each game's opponent rating and change",
    (
        "club",
        "p/<int:member_id>/card.json",
    ): "each game's opponent rating (the store's) and the API's card",
    ("club", "p/<int:member_id>/cpi/"): "the CPI and its analysed games",
    ("club", "g/<int:game_id>/"): "the game's result (its heading)",
    ("club", "g/<int:game_id>/game.pgn"): "its result",
    ("api", "ratings"): "the rating list",
    ("api", "players/<int:member_id>"): "ratings and history",
    ("api", "tournaments/<int:tournament_id>"): "place, points, ratings, games rated",
}
# ... or why it shows no figure of the store's of its own.
NO_FIGURES = {
    (
        "club",
        "t/",
    ): "names, dates, counts of players and rounds, the winners' names: no rating, no points",
    ("api", "tournaments"): "the tournament list page's rows as JSON",
    ("club", "lists/"): "the months whose list was published: no figure",
    ("club", "lists/<str:month>/"): "a monthly list: the figures of its day as published, not "
    "the store's live ones (tests/web/test_monthly_lists.py checks them against the oracle)",
    ("club", "lists/<str:month>.csv"): "a monthly list's CSV (the same)",
    ("club", "lists/<str:month>.json"): "a monthly list's JSON (the same)",
    (
        "club",
        "t/<int:tournament_id>/print/pairings/",
    ): "a running evening's round: points before it, a draft's",
    ("club", "t/<int:tournament_id>/print/names/"): "the same round by name",
    ("club", "t/<int:tournament_id>/live.pgn"): (
        "a running evening's boards: the moves and results entered so far, no rating or points "
        "(tests/web/test_broadcast.py reads them back against the store)"
    ),
    ("club", "t/<int:tournament_id>/round/<int:round_number>.pgn"): "one round of the same",
    ("site", ""): "the index: club names",
    ("site", "robots.txt"): "text for crawlers",
    ("site", "healthz"): "the server's health",
    ("site", "sitemap.xml"): "addresses of public clubs",
    ("site", "accounts/login/"): "a form",
    ("site", "accounts/logout/"): "a form",
    ("site", "accounts/password_change/"): "a form",
    ("site", "accounts/<slug:kind>/<str:uidb64>/<str:token>/"): "a form (a one-time link's)",
    ("site", "language/"): "the language switch",
    ("site", "api/openapi.json"): "the API's description",
    ("site", "api/clubs"): "club names",
    ("site", "ratings/"): (
        "the federation list: each public club's listed players as its own list shows them "
        "(tests/web/test_federation_list.py joins every page and compares it with each club's "
        "ratings.json)"
    ),
    ("site", "m/<slug:token>/"): "a board's phone page: moves, no rating",
}
ARBITER_FORMS = (
    "the arbiter's working pages (forms; names, moves and rounds to review; audit; settings): "
    "figures they show come from the reads the public pages use"
)
# The commands that report figures of the store (crawled), and why every other shows none.
COMMANDS = {
    "ratings": "rating and games, text and --json",
    "player": "history and ratings, text and --json",
    "tournament": "places, points, ratings, text and --json",
    "cpi": "CPI, games, ledger (--json)",
    "coach": "analysed games (--json)",
}
WRITES = "a write through a service: an outcome line; the views then show the store"
NO_FIGURE_COMMANDS = {
    "monthly": "the monthly lists: the figures of their day as published, not the store's live "
    "ones (tests/web/test_monthly_lists.py checks them against the oracle)",
    "rate": "a file's ratings, without the database",
    "analyze": "a PGN file's CPI, without the database",
    "analyse": "as analyze",
    "analyse-club": "runs the engine, then the ledger's rebuild",
    "match": "name proposals",
    "calibrate": "fits weights to files",
    "demo": "builds a club",
    "serve": "runs the website",
    "worker": "runs jobs",
    "init": "creates a club",
    "arbiter": "logins",
    "rebuild": "the replay's counts (the state machine's invariant checks them)",
    "audit": "the audit log's sentences",
    "entries": "a tournament's names and candidate members",
    "duplicates": "names that may be one person",
    "privacy": "settings",
    "settings": "settings",
    "seed-ratings": WRITES,
    "fairplay": "quality against ratings, no stored figure (the CPI's area)",
    "cpi-weights": "the weights",
    "backup": "a file",
    "restore": "a file",
    "status": "the backups",
    "export-club": "a file",
    "import-club": WRITES,
    "moves": WRITES,
    "moves-links": "phone links",
    "evening": "a draft evening's rounds (not rated) and its writes",
    "import": WRITES,
    "publish": WRITES,
    "unpublish": WRITES,
    "delete": WRITES,
    "correct": WRITES,
    "redate": WRITES,
    "link": WRITES,
    "merge": WRITES,
    "unmerge": WRITES,
    "distinct": WRITES,
    "member": WRITES,
}


def crawl(club: Club, *, cli: bool = True) -> list[str]:
    """Every disagreement between the views and the store, one line each (see the module's text)."""
    truth = read_truth(club)
    web = arbiter_client(club)
    base, api = f"/c/{club.slug}/", f"/api/c/{club.slug}/"
    found: list[str] = []
    with translation.override("en"):
        found += rating_lists(web, base, api, truth)
        tournaments = {t.id: t for t in Tournament.objects.filter(id__in=truth.published)}
        for tid in truth.published:
            found += tournament_views(web, base, api, truth, club, tournaments[tid])
        active = sorted(m for m, p in truth.person.items() if m == p)
        for member in active:
            found += player_views(web, base, api, truth, member, club.policy)
        for member, person in sorted(truth.person.items()):
            if member != person:
                found += merged_redirects(web, base, member, person)
        found += game_views(web, base, truth)
        if cli:
            found += commands(truth, active)
    return found


def assert_views_agree(club: Club) -> None:
    """Fails with every disagreement of :func:`crawl`, one a line."""
    found = crawl(club)
    assert not found, "the views disagree with the store:\n" + "\n".join(found)


def arbiter_client(club: Club) -> Client:
    user, _ = User.objects.get_or_create(username=f"crawl-{club.slug}")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    return client


def get(web: Client, url: str) -> bytes:
    response = web.get(url)
    assert response.status_code == 200, f"{url}: {response.status_code}"
    return bytes(response.content)


def rated_games(n: int) -> str:
    return f"{n} rated game" + ("" if n == 1 else "s")


# --- the rating list -------------------------------------------------------------------------


def rating_lists(web: Client, base: str, api: str, truth: Truth) -> list[str]:
    found = []
    for lst in truth.lists:
        want = truth.listed(lst)
        page = Page(get(web, f"{base}?list={lst}").decode())
        shown = {}
        for table in page.tables:
            if "ratings" in table.attrs.get("class", ""):
                for row in (r for r in table.rows if len(r) > 3 and r[1].hrefs):
                    shown[member_of(row[1].hrefs[0])] = (row[2].text, row[3].text)
        found += differ(
            f"club page ({lst})", shown, {m: (f"{r:.0f}", str(g)) for m, (r, g) in want.items()}
        )
        rows = csv_rows(get(web, f"{base}ratings.csv?list={lst}"))
        found += differ(
            f"ratings.csv ({lst})",
            {int(r["ID"]): (r["Rtg"], r["Gms"]) for r in rows},
            {m: (f"{r:.1f}", str(g)) for m, (r, g) in want.items()},
        )
        for where, url in (
            ("ratings.json", f"{base}ratings.json?list={lst}"),
            ("API ratings", f"{api}ratings?list={lst}"),
        ):
            doc = json.loads(get(web, url))
            found += differ(
                f"{where} ({lst})",
                {p["member_id"]: (p["rating"], p["games"]) for p in doc["players"]},
                want,
            )
    return found


def differ(where: str, shown: dict[Any, Any], want: dict[Any, Any]) -> list[str]:
    """One line for each key whose shown value is not the stored one (or shown and not stored)."""
    return [
        f"{where}: {key}: shows {shown.get(key)!r}, the store {want.get(key)!r}"
        for key in sorted(set(shown) | set(want), key=repr)
        if shown.get(key) != want.get(key)
    ]


# --- a tournament ----------------------------------------------------------------------------


def expected_rows(truth: Truth, tid: int) -> dict[int, tuple[int | None, int, Change | None]]:
    """Start number -> (person, half-points, the person's change)."""
    return {
        n: (p, truth.points[tid][n], truth.changes.get((tid, p)) if p else None)
        for n, p in truth.entries[tid].items()
    }


def tournament_views(
    web: Client, base: str, api: str, truth: Truth, club: Club, t: Tournament
) -> list[str]:
    want = expected_rows(truth, t.id)
    places: dict[str, dict[int, Any]] = {}
    found = []
    page = Page(get(web, f"{base}t/{t.id}/").decode())
    table = page.table(id="crosstable")
    assert table is not None, f"tournament {t.id}: no crosstable"
    shown = {}
    for row in table.rows:
        n = int(row[1].text)
        places.setdefault("page", {})[n] = row[0].text if row[0].text != "–" else None
        change = row[-1].text
        rating = row[-2].text
        shown[n] = (
            member_of(row[2].hrefs[0]) if row[2].hrefs else None,
            half_points(row[3].text),
            rating,
            change,
        )
    found += differ(
        f"tournament page {t.id}",
        shown,
        {
            n: (
                p,
                pts,
                "not rated" if c is None else f"{c.before:.0f} → {c.after:.0f}",
                "" if c is None else f"{c.after - c.before:+.1f}",
            )
            for n, (p, pts, c) in want.items()
        },
    )
    rows = csv_rows(get(web, f"{base}t/{t.id}/standings.csv"))
    places["standings.csv"] = {int(r["No."]): r["Place"] or None for r in rows}
    found += differ(
        f"standings.csv {t.id}",
        {
            int(r["No."]): (half_points(r["Points"]), r["Rating before"], r["Rating after"])
            for r in rows
        },
        {
            n: (pts, "" if c is None else f"{c.before:.1f}", "" if c is None else f"{c.after:.1f}")
            for n, (_, pts, c) in want.items()
        },
    )
    wall = Page(get(web, f"{base}t/{t.id}/print/wallchart/").decode())
    wall_rows = [r for tb in wall.tables for r in tb.rows if len(r) > 3 and r[1].text.isdigit()]
    places["wall chart"] = {
        int(r[1].text): r[0].text if r[0].text != "–" else None for r in wall_rows
    }
    found += differ(
        f"wall chart {t.id}",
        {int(r[1].text): half_points(r[3].text) for r in wall_rows},
        {n: pts for n, (_, pts, _) in want.items()},
    )
    found += trf_view(web, base, truth, club, t, want, places)
    found += pgn_view(web, base, truth, t)
    doc = json.loads(get(web, f"{api}tournaments/{t.id}"))
    found += standings_document(f"API tournament {t.id}", doc, want, places)
    return found + places_agree(t.id, places)


def standings_document(
    where: str,
    doc: dict[str, Any],
    want: dict[int, tuple[int | None, int, Change | None]],
    places: dict[str, dict[int, Any]],
) -> list[str]:
    places[where] = {p["number"]: p["place"] for p in doc["players"]}
    return differ(
        where,
        {
            p["number"]: (
                p["member_id"],
                round(p["points"] * 2),
                p["rating_before"],
                p["rating_after"],
                p["games_rated"],
            )
            for p in doc["players"]
        },
        {
            n: (p, pts, c and c.before, c and c.after, c.games if c else 0)
            for n, (p, pts, c) in want.items()
        },
    )


def places_agree(tid: int, places: dict[str, dict[int, Any]]) -> list[str]:
    """Every view gives each start number the same place."""
    seen = {
        where: {n: None if v in (None, "", 0) else int(v) for n, v in by.items()}
        for where, by in places.items()
    }
    first, *others = sorted(seen)
    return [
        f"tournament {tid}: places of {other} {seen[other]} differ from {first}'s {seen[first]}"
        for other in others
        if seen[other] != seen[first]
    ]


def trf_view(
    web: Client,
    base: str,
    truth: Truth,
    club: Club,
    t: Tournament,
    want: dict[int, tuple[int | None, int, Change | None]],
    places: dict[str, dict[int, Any]],
) -> list[str]:
    """The TRF with the club ratings: a rated player's rating before the tournament, else the
    person's current rating on the tournament's list; an evening's seed ratings as they were."""
    players = trf_players(get(web, f"{base}t/{t.id}/tournament.trf?ratings=club"))
    places["TRF"] = {p.startrank: p.rank for p in players}
    lst = t.time_control if club.separate_lists else "standard"
    seeds = dict(
        EveningPlayer.objects.filter(entry__tournament=t).values_list(
            "entry__number", "seed_rating"
        )
    )
    expected = {}
    for n, (person, pts, change) in want.items():
        rating = (
            change.before
            if change
            else truth.current.get((person, lst), (None,))[0]
            if person
            else None
        )
        if hasattr(t, "evening"):
            rating = seeds.get(n)
        expected[n] = (pts, round(rating) if rating and rating >= 1 else 0)
    return differ(
        f"TRF {t.id}", {p.startrank: (round(p.points * 2), p.rating) for p in players}, expected
    )


RESULT = {(2, 0): "1-0", (0, 2): "0-1", (1, 1): "1/2-1/2"}


def pgn_view(web: Client, base: str, truth: Truth, t: Tournament) -> list[str]:
    """The result of every game with moves in the PGN, a forfeit marked so (Termination "forfeit");
    of
    every played game when none has moves."""
    shown = Counter(pgn_results(get(web, f"{base}t/{t.id}/games.pgn")))
    with_moves = set(
        Game.objects.filter(tournament=t).exclude(moves="").values_list("id", flat=True)
    )
    want = Counter(
        (rnd, RESULT.get((wp, truth.black_points[gid]), "*"), not played)
        for gid, rnd, _, _, wp, played in truth.games.get(t.id, [])
        if gid in with_moves or (played and not with_moves)
    )
    return (
        []
        if shown == want
        else [
            f"games.pgn {t.id}: results {sorted(shown.items())}, the store {sorted(want.items())}"
        ]
    )


# --- a member --------------------------------------------------------------------------------


def history_rows(truth: Truth, person: int) -> list[tuple[int, int, Change | None]]:
    """(tournament, the person's half-points, change) of each published tournament they played
    in."""
    return [
        (t, truth.person_points(t, person), truth.changes.get((t, person)))
        for t in truth.history(person)
    ]


def player_views(
    web: Client, base: str, api: str, truth: Truth, person: int, policy: str
) -> list[str]:
    want = history_rows(truth, person)
    found = []
    page = Page(get(web, f"{base}p/{person}/").decode())
    table = next(
        t for t in page.tables if t.rows is not None and "card" not in t.attrs.get("class", "")
    )
    shown = [
        (
            tournament_of(r[1].hrefs[0]),
            half_points(r[-4].text),
            int(r[-3].text),
            r[-2].text,
            r[-1].text,
        )
        for r in table.rows
        if len(r) > 1 and r[1].hrefs
    ]
    found += differ(
        f"player page {person}",
        dict(enumerate(shown)),
        dict(
            enumerate(
                (
                    t,
                    pts,
                    c.games if c else 0,
                    f"{c.before:.0f} → {c.after:.0f}" if c else "not rated",
                    f"{c.after - c.before:+.1f}" if c else "",
                )
                for t, pts, c in want
            )
        ),
    )
    ratings = {lst: rg for (m, lst), rg in truth.current.items() if m == person}
    found += cpi_line(page, truth, person)
    rows = [
        r
        for r in csv_rows(get(web, f"{base}p/{person}/history.csv"))
        if r["Tournament"] != "Initial list"
    ]
    found += differ(
        f"history.csv {person}",
        dict(
            enumerate(
                (
                    half_points(r["Score"]),
                    int(r["Games rated"]),
                    r["Rating before"],
                    r["Rating after"],
                    r["Change"],
                )
                for r in rows
            )
        ),
        dict(
            enumerate(
                (
                    pts,
                    c.games if c else 0,
                    f"{c.before:.1f}" if c else "",
                    f"{c.after:.1f}" if c else "",
                    f"{c.after - c.before:+.1f}" if c else "",
                )
                for _, pts, c in want
            )
        ),
    )
    lichess = json.loads(get(web, f"{base}p/{person}/history.json"))
    found += differ(
        f"history.json {person}",
        {"points": sorted(p[3] for h in lichess for p in h["points"])},
        {"points": sorted(round(c.after) for _, _, c in want if c)},
    )
    doc = json.loads(get(web, f"{api}players/{person}"))
    found += differ(
        f"API player {person}",
        {
            "history": [
                (
                    h["tournament_id"],
                    round(h["score"] * 2),
                    h["rating_before"],
                    h["rating_after"],
                    h["games_rated"],
                )
                for h in doc["history"]
            ],
            "ratings": {k: (v["rating"], v["games"]) for k, v in doc["ratings"].items()},
        },
        {
            "history": [
                (t, pts, c and c.before, c and c.after, c.games if c else 0) for t, pts, c in want
            ],
            "ratings": ratings,
        },
    )
    found += card_views(web, base, truth, person, doc["card"], policy)
    return found + cpi_dashboard(web, base, truth, person)


def card_views(
    web: Client, base: str, truth: Truth, person: int, api_card: dict[str, Any], policy: str
) -> list[str]:
    """The card's games: the opponent's rating is the opponent's stored rating before the
    tournament (when rated in it), the games' changes add up to the tournament's stored change;
    the CSV and JSON card carry the same figures as the API's."""
    card = json.loads(get(web, f"{base}p/{person}/card.json"))["card"]
    found = [] if card == api_card else [f"card.json {person} differs from the API's card"]
    for g in card["games"]:
        theirs = (
            truth.changes.get((g["tournament_id"], g["opponent_id"])) if g["opponent_id"] else None
        )
        if g["status"] == "rated" and theirs is not None and g["opponent_rating"] != theirs.before:
            found.append(
                f"card {person}: game {g['game_id']}: opponent's rating {g['opponent_rating']}, "
                f"the store {theirs.before}"
            )
    found += card_sums(truth, person, card, policy)
    rows = csv_rows(get(web, f"{base}p/{person}/card.csv"))
    found += differ(
        f"card.csv {person}",
        dict(enumerate((r["Opponent rating"], r["Change"]) for r in rows)),
        dict(
            enumerate(
                (
                    "" if g["opponent_rating"] is None else f"{g['opponent_rating']:.1f}",
                    "" if g["change"] is None else f"{g['change']:+.2f}",
                )
                for g in card["games"]
            )
        ),
    )
    return found


# How far the card's sum may be from the stored change: FIDE's policy rounds a tournament's change
# to a whole number (FIDE handbook B.02 8.3.4); the club's does not round.
CARD_ROUNDING = {"fide": 0.5, "club": 1e-6}


def card_sums(truth: Truth, person: int, card: dict[str, Any], policy: str) -> list[str]:
    """The changes of a tournament's rated games on the card add up to the stored change."""
    sums: dict[int, float] = defaultdict(float)
    for g in card["games"]:
        if g["change"] is not None:
            sums[g["tournament_id"]] += g["change"]
    found = []
    for tid, total in sums.items():
        stored = truth.changes.get((tid, person))
        if stored is None or abs(total - (stored.after - stored.before)) > CARD_ROUNDING[policy]:
            found.append(
                f"card {person}: tournament {tid}: the games' changes "
                f"add up to {total:+.2f}, the store "
                f"{'none' if stored is None else f'{stored.after - stored.before:+.2f}'}"
            )
    return found


def cpi_line(page: Page, truth: Truth, person: int) -> list[str]:
    """The player page's CPI line: none before the first analysed game, else the games (and the
    CPI itself when the club's CPI is the running sum)."""
    text = page.by_id.get("cpi", "")
    cpi = truth.cpi.get(person)
    if cpi is None:
        return (
            []
            if text.startswith("Not analysed yet")
            else [f"player page {person}: CPI line {text!r}, no CPI stored"]
        )
    value, games, _ = cpi
    running = f"CPI {value:.1f} after {games} analysed game"
    if (
        text.startswith("CPI ")
        and not text.startswith(running)
        or (
            not text.startswith(("CPI ", "Plays like"))
            and not text.startswith(f"{games} analysed game")
        )
    ):
        return [f"player page {person}: CPI line {text!r}, the store CPI {value:.1f} after {games}"]
    return []


def cpi_dashboard(web: Client, base: str, truth: Truth, person: int) -> list[str]:
    page = Page(get(web, f"{base}p/{person}/cpi/").decode())
    cpi = truth.cpi.get(person)
    if cpi is None:
        return (
            []
            if "cpi-none" in page.by_id
            else [f"CPI dashboard {person}: shows a CPI, none stored"]
        )
    value, games, _ = cpi
    text = page.by_id.get("cpi-headline", "")
    if (
        text.startswith("CPI ")
        and text != f"CPI {value:.1f} after {games} analysed game{'s' if games != 1 else ''}."
    ):
        return [f"CPI dashboard {person}: {text!r}, the store CPI {value:.1f} after {games}"]
    return []


def merged_redirects(web: Client, base: str, member: int, person: int) -> list[str]:
    """A merged member's page and exports answer with the member it stands for now."""
    found = []
    for suffix in ("", "history.csv", "card.json", "cpi/"):
        response = web.get(f"{base}p/{member}/{suffix}")
        if response.status_code != 302 or response["Location"] != f"{base}p/{person}/{suffix}":
            found.append(
                f"p/{member}/{suffix}: {response.status_code} {response.get('Location')}, "
                f"expected the page of member {person}"
            )
    return found


FORFEIT = {(2, 0): "+-", (0, 2): "-+", (0, 0): "--"}


def game_views(web: Client, base: str, truth: Truth) -> list[str]:
    """Each game of a published tournament: its page's heading ends with the stored result, and the
    PGN of a played game with moves carries it (a game without moves has no PGN of its own)."""
    found = []
    with_moves = set(
        Game.objects.filter(tournament_id__in=truth.published)
        .exclude(moves="")
        .values_list("id", flat=True)
    )
    for tid in truth.published:
        for gid, _, _, _, wp, played in truth.games.get(tid, []):
            result = RESULT[wp, 2 - wp] if played else FORFEIT[wp, truth.black_points[gid]]
            heading = Page(get(web, f"{base}g/{gid}/").decode()).by_id.get("h1", "")
            if not heading.endswith(f" {result}"):
                found.append(f"game {gid} page: {heading!r}, the store {result}")
            if (
                played
                and gid in with_moves
                and (pgn := pgn_results(get(web, f"{base}g/{gid}/game.pgn"))[0][1]) != result
            ):
                found.append(f"game {gid} PGN: {pgn}, the store {result}")
    return found


# --- the command line ------------------------------------------------------------------------


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The command line's parser, built once (in English): :func:`clubrating.cli.main` builds it
    anew for every command, a quarter of a second that a crawl of a hundred commands need not
    pay."""
    with translation.override("en"):
        return build_parser()


def run(*args: str) -> str:
    """A command run in this process as :func:`clubrating.cli.main` runs it, its standard output
    (the database URL kept as it was)."""
    out, url = io.StringIO(), os.environ.get("CLUBRATING_DATABASE_URL")
    try:
        # The schema's check at a command's start (djangoenv.migrate_once) is left out: the test's
        # database is migrated, and it was two thirds of a crawl's commands (tests/club/test_cli.py
        # runs it).
        with (
            contextlib.redirect_stdout(out),
            mock.patch.object(djangoenv, "migrate_once", lambda: None),
        ):
            parsed = parser().parse_args(list(args))
            code = parsed.handler(parsed) or 0
    finally:
        if url is None:
            os.environ.pop("CLUBRATING_DATABASE_URL", None)
        else:
            os.environ["CLUBRATING_DATABASE_URL"] = url
    assert code == 0, f"clubrating {' '.join(args)}: exit {code}"
    return out.getvalue()


def commands(truth: Truth, active: list[int]) -> list[str]:
    found = []
    for lst in truth.lists:
        want = truth.listed(lst)
        doc = json.loads(run("ratings", "--list", lst, "--json"))
        found += differ(
            f"clubrating ratings --json ({lst})",
            {p["member_id"]: (p["rating"], p["games"]) for p in doc["players"]},
            want,
        )
        lines = run("ratings", "--list", lst).splitlines()[2:]
        found += differ(
            f"clubrating ratings ({lst})",
            dict(enumerate(rating_and_games(line) for line in lines)),
            dict(enumerate([f"{p['rating']:.1f}", str(p["games"])] for p in doc["players"])),
        )
        found += differ(
            f"clubrating ratings ({lst}) members",
            {"order": [p["member_id"] for p in doc["players"]]},
            {"order": [p["member_id"] for p in doc["players"] if p["member_id"] in want]},
        )
    for tid in truth.published:
        found += tournament_command(truth, tid)
    for person in active:
        found += player_command(truth, person)
    return found


def rating_and_games(line: str) -> list[str]:
    """The rating and games of a line of ``clubrating ratings``: rank, name, rating, games, the
    day last played (if any), "provisional" (if so)."""
    cells = line.removesuffix("provisional").split()
    return cells[-3:-1] if cells[-1][:4].isdigit() and "-" in cells[-1] else cells[-2:]


def tournament_command(truth: Truth, tid: int) -> list[str]:
    want = expected_rows(truth, tid)
    places: dict[str, dict[int, Any]] = {}
    doc = json.loads(run("tournament", str(tid), "--json"))
    found = standings_document(f"clubrating tournament {tid} --json", doc, want, places)
    lines = run("tournament", str(tid)).splitlines()
    header = lines[2]
    ends = {word: header.index(word) + len(word) for word in ("points", "before", "change")}
    shown = {}
    for line in lines[3 : 3 + len(doc["players"])]:
        place, number = line.split()[:2]
        places.setdefault("clubrating tournament", {})[int(number)] = (
            None if place == "-" else place
        )
        shown[int(number)] = (
            half_points(cell_ending_at(line, ends["points"])),
            cell_ending_at(line, ends["before"]),
            cell_ending_at(line, ends["change"]),
        )
    found += differ(
        f"clubrating tournament {tid}",
        shown,
        {
            n: (pts, f"{c.before:.1f}" if c else "", f"{c.after - c.before:+.1f}" if c else "")
            for n, (_, pts, c) in want.items()
        },
    )
    return found + places_agree(tid, places)


def player_command(truth: Truth, person: int) -> list[str]:
    want = history_rows(truth, person)
    doc = json.loads(run("player", str(person), "--json"))
    found = differ(
        f"clubrating player {person} --json",
        {
            "history": [
                (
                    h["tournament_id"],
                    round(h["score"] * 2),
                    h["rating_before"],
                    h["rating_after"],
                    h["games_rated"],
                )
                for h in doc["tournaments"]
            ],
            "ratings": {k: (v["rating"], v["games"]) for k, v in doc["ratings"].items()},
        },
        {
            "history": [
                (t, pts, c and c.before, c and c.after, c.games if c else 0) for t, pts, c in want
            ],
            "ratings": {lst: rg for (m, lst), rg in truth.current.items() if m == person},
        },
    )
    lines = run("player", str(person)).splitlines()
    rows = [
        line[-35:] for line in lines if line[:4].isdigit()
    ]  # a tournament's line starts with its date
    found += differ(
        f"clubrating player {person}",
        dict(
            enumerate(
                (
                    half_points(r[0:5]),
                    int(r[6:11]),
                    r[12:19].strip(),
                    r[20:27].strip(),
                    r[28:35].strip(),
                )
                for r in rows
            )
        ),
        dict(
            enumerate(
                (
                    pts,
                    c.games if c else 0,
                    f"{c.before:.1f}" if c else "",
                    f"{c.after:.1f}" if c else "",
                    f"{c.after - c.before:+.1f}" if c else "",
                )
                for _, pts, c in want
            )
        ),
    )
    ratings = [line.strip() for line in lines[1:] if line.startswith("  ") and " after " in line]
    found += differ(
        f"clubrating player {person} ratings",
        {"lines": [r.split(" (")[0] for r in ratings]},
        {
            "lines": [
                f"{lst}: {r:.1f} after {rated_games(g)}"
                for (m, lst), (r, g) in sorted(truth.current.items())
                if m == person
            ]
        },
    )
    cpi = truth.cpi.get(person)
    ledger = json.loads(run("cpi", str(person), "--json"))
    found += differ(
        f"clubrating cpi {person} --json",
        {"cpi": (ledger["cpi"], ledger["games"], [r["game_id"] for r in ledger["ledger"]])},
        {"cpi": cpi or (None, 0, [])},
    )
    coach = json.loads(run("coach", str(person), "--json"))
    found += differ(
        f"clubrating coach {person} --json",
        {"games": coach["games"]},
        {"games": cpi[1] if cpi else 0},
    )
    return found
