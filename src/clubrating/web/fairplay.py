"""The fair-play signal as a page for the club's arbiters (spec C7, "anti-cheat").

The same numbers as ``clubrating fairplay``
(:func:`clubrating.club.derived.fairplay.fair_play`): each member's mean ΔCPI, engine agreement
(B1), accuracy and centipawn loss over their latest analysed games against what their club
rating predicts, as a z-score, highest first. A reason to look closer, never a verdict, and
never an automatic action.

Arbiters of the club only, through :func:`clubrating.web.arbiter.arbiter_view`: another club's
arbiter or a logged-in member gets 404, an anonymous visitor the login page, exactly as for
every other arbiter page (and for a club that does not exist), so nobody else learns the page
or the club exists. Every answer carries ``X-Robots-Tag: noindex`` (whatever the club's
visibility) and ``Cache-Control: private, no-store``; no sitemap or API lists it.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_safe

from clubrating.club.derived.fairplay import MIN_GAMES, RECENT_GAMES, Z_LOOK_CLOSER, fair_play
from clubrating.errors import ClubratingError, InputError
from clubrating.words import N_
from clubrating.web.access import ClubAccess
from clubrating.web.arbiter import _page, arbiter_view
from clubrating.web.reading import figure

MAX_GAMES = 1000  # as the CLI's ``fairplay --games`` (commands/cpi.py: whole(1, 1000))
# The chance alone of z >= Z_LOOK_CLOSER under the module's normal model: P = erfc(z/√2)/2, 1 in
# ~161.
BY_CHANCE_ONE_IN = round(2 / math.erfc(Z_LOOK_CLOSER / math.sqrt(2)))
BAD_REQUEST = 400  # RFC 9110 §15.5.1: the address's ?games= is the client's mistake


def parse_games(text: str | None) -> int:
    """The window ``?games=N``: the default when absent or blank, else a whole number from
    MIN_GAMES (fewer make a z of noise) to MAX_GAMES; anything else is one clear line."""
    if text is None or not text.strip():
        return RECENT_GAMES
    try:
        games = int(text.strip())
    except ValueError:
        raise InputError(
            N_("games=%(text)s is not a whole number: expected %(least)s to %(most)s"),
            text=repr(text[:20]),
            least=MIN_GAMES,
            most=MAX_GAMES,
        ) from None
    if not MIN_GAMES <= games <= MAX_GAMES:
        raise InputError(
            N_(
                "games=%(games)s is out of range: expected %(least)s to %(most)s "
                "(fewer than %(least)s games make a z-score of noise)"
            ),
            games=games,
            least=MIN_GAMES,
            most=MAX_GAMES,
        )
    return games


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the table as the template prints it (figures as text, '–' where not measured)."""

    def text(value: float | None, form: str) -> str:
        return "–" if value is None else figure(value, form)

    return {
        **row,
        "rating_text": text(row["rating"], ".0f"),
        "mean_text": text(row["mean_delta"], ".1f"),
        "expected_text": text(row["expected_delta"], ".1f"),
        "z_text": text(row["z"], "+.2f"),
        "agreement_text": "–"
        if row["engine_agreement"] is None
        else f"{row['engine_agreement']:.0%}",
        "accuracy_text": text(row["accuracy"], ".0f"),
        "acpl_text": text(row["acpl"], ".0f"),
    }


@require_safe
@arbiter_view
def fairplay_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    context: dict[str, Any] = {
        "games": request.GET.get("games", "")[:20],
        "min_games": MIN_GAMES,
        "max_games": MAX_GAMES,
        "look_closer_at_z": Z_LOOK_CLOSER,
        "by_chance_one_in": BY_CHANCE_ONE_IN,
        "members": None,
    }
    status = 200
    try:
        window = parse_games(request.GET.get("games"))
        context["games"] = window
        doc = fair_play(access.club, recent=window)
    except InputError as error:
        context["error"], status = error.translated(translation), BAD_REQUEST
    except ClubratingError as error:  # Refused: the club's CPI settings cannot predict (no Elo map)
        context["error"] = error.translated(translation)
    else:
        context.update(preset=doc["preset"], members=[_shown(row) for row in doc["members"]])
    response = _page(request, access, "web/arbiter/fairplay.html", **context)
    response.status_code = status
    response["X-Robots-Tag"] = "noindex, nofollow"  # even on a public club's site
    response["Cache-Control"] = "private, no-store"
    return response
