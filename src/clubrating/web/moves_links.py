"""The players' moves page behind a board's link (``/m/<token>/``) and the arbiter's board slips.

The phone page needs no login and no script and asks for nothing personal: it shows the two
players (under the club's name rules) and the round, and takes the moves as typed. The token
is the capability, so the page keeps it out of everything else: ``Referrer-Policy:
strict-origin`` and ``noindex`` (web/security.py, for every answer under ``/m/``), no caching,
the log filter (web/security.HideMovesTokens). A cookie scoped to ``/m/`` carries the phone's
random device id: the first device to open a link is its own, and two players agree only from
two devices (club/services/moves_links.py). Submissions are throttled per link (its own device
apart from the others), requests to unknown links per client address, and capped in size.

The slips page is the arbiter's: one slip per board of a round with the round, the board,
result boxes and, for each player, their own link as a QR code (segno's SVG, inline) and as
text, labelled with the player's name as the phone page shows it (the slip lies on the board,
in public), or in full in a club only its arbiters see. Printing the slips makes the links,
since only a token's hash is kept.
"""

from __future__ import annotations

import re
from typing import Any

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from clubrating.club.store.models import (
    Entry,
    EveningBoard,
    Game,
    MovesLink,
    Tournament,
    Visibility,
)
from clubrating.club.read.clubs import parse_id
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services import moves_links as ml
from clubrating.club.services import phone_results as pr
from clubrating.formats.bounds import MAX_LINK_DAYS
from clubrating.errors import ClubratingError, NotFound
from clubrating.formats.movetext import MAX_MOVETEXT, MoveError
from clubrating.web.access import ClubAccess, in_club, initials
from clubrating.web.arbiter import _page, _tournament, act, arbiter_view, posted, who
from clubrating.web.moves import board_svg
from clubrating.web.security import client_ip
from django.contrib import messages

MAX_PHONE_BYTES = (
    4 * MAX_MOVETEXT + 4096
)  # the form's body: the moves (UTF-8, up to 4 bytes each), the CSRF token
QR_SCALE = 3  # the SVG's own units; the slip's CSS prints it 28 mm across
DEVICE_COOKIE = "clubrating_device"  # the phone's random device id, sent to /m/ only
DEVICE_SHAPE = re.compile(
    r"[A-Za-z0-9_-]{22}"
)  # token_urlsafe(DEVICE_BYTES); anything else is no device


def _player(access: ClubAccess, entry: Entry, juniors: bool) -> str:
    """The name the public may see (R16, R17); initials for a name no member is linked to, and
    everywhere in a club whose pages are not public."""
    member = entry.member
    if member is None or access.club.visibility != Visibility.PUBLIC:
        return initials(entry.name)
    return access.name(
        entry.name,
        junior=member.junior,
        consent=member.full_name_consent,
        juniors_event=juniors,
        member_id=member.id,
    )


def _public(t: Tournament) -> ClubAccess:
    """The club's pages as the public sees them: the names a phone page and a slip show."""
    return ClubAccess(t.club, False, f"/c/{t.club.slug}/", f"/api/c/{t.club.slug}/")


def _pairing(link: MovesLink) -> EveningBoard | Game:
    pairing = link.evening_board or link.game
    assert pairing is not None
    return pairing


def _phone(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    response = render(request, "moves/phone.html", context, status=status)
    response["Cache-Control"] = "no-store"
    return response


def phone_page(request: HttpRequest, token: str) -> HttpResponse:
    """A board's moves, typed by either player."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    try:
        link = ml.open_link(token)
    except NotFound as error:
        if ml.guess_throttled(
            client_ip(request)
        ):  # only unknown links: the room's valid ones go on
            return _phone(
                request,
                {
                    "invalid": gettext(
                        "too many moves links that do not work were tried from "
                        "here: wait an hour, or ask the arbiter for the slip"
                    )
                },
                429,
            )
        return _phone(request, {"invalid": error.translated(translation)}, status=404)
    cookie = request.COOKIES.get(DEVICE_COOKIE, "")
    device = cookie if DEVICE_SHAPE.fullmatch(cookie) else ml.new_device()
    with in_club(request, link.tournament.club):
        response = _board_page(request, link, device)
    if (
        device != cookie
    ):  # the first link this browser opens: its device id, as long as a link may live
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=MAX_LINK_DAYS * 24 * 3600,
            path="/m/",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def _board_page(request: HttpRequest, link: MovesLink, device: str) -> HttpResponse:
    t = link.tournament
    access = _public(t)
    pairing = _pairing(link)
    game = ml.game_of(link)
    stored = game is not None and bool(game.moves.strip())
    if stored or request.method == "HEAD":
        own = link.device in ("", ml.device_key(link, device))
    else:
        own = ml.open_on(link, device)  # its first opening makes this device the link's own
    context: dict[str, Any] = {
        "tournament": t,
        "round": link.round,
        "board": link.board,
        "typed": "",
        "white": _player(access, pairing.white, t.has_juniors),
        "black": _player(access, pairing.black, t.has_juniors),
        "mine": ml.EITHER if link.player_id is None else link.colour,
        "in_use": not own,
        "stored": stored,
        "max_chars": MAX_MOVETEXT,
        # an evening board without its result: the phone may send it (club/services/phone_results)
        "result_open": link.evening_board_id is not None and game is None and not t.is_published,
        "entered": "" if game is None else game_result_text(game),
    }
    if request.method != "POST" or stored:
        return _phone(request, context)
    if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_PHONE_BYTES:
        return _phone(
            request,
            {
                **context,
                "error": gettext("at most %(count)s characters of moves are read")
                % {"count": f"{MAX_MOVETEXT:,}"},
            },
            413,
        )
    if ml.submission_throttled(link, own=own):
        return _phone(
            request,
            {
                **context,
                "error": gettext(
                    "too many tries from here: wait an hour, or hand the scoresheet to the arbiter"
                ),
            },
            429,
        )
    text = request.POST.get("moves", "")
    try:
        outcome = pr.submit_from_phone(link, text, request.POST.get("result", ""), device=device)
    except MoveError as error:
        return _phone(
            request,
            {
                **context,
                "typed": text,
                "error": error.translated(translation),
                "move": error,
                "position": board_svg(error.fen),
            },
        )
    except ClubratingError as error:
        return _phone(request, {**context, "typed": text, "error": error.translated(translation)})
    return _phone(request, {**context, "received": outcome.translated(translation)})


# --- the arbiter's board slips -----------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The URL as a QR code, segno's SVG (made from our own URL, no user text); sized by its
    viewBox, so that the slip's CSS scales it whole."""
    return mark_safe(
        segno.make(url, error="m").svg_inline(
            scale=QR_SCALE,
            title=gettext("moves link"),  # noqa: S308
            omitsize=True,
        )
    )


@arbiter_view
def slips_page(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """GET: the round to print and the links made so far; POST ``print``: new links for the
    round's boards, and their slips; POST ``revoke``: one link stops working; POST ``release``:
    one link is freed from the phone that opened it."""
    t = _tournament(access, tournament_id)
    back = f"{access.base}arbiter/t/{t.id}/slips/"
    if request.method == "POST" and request.POST.get("action") in ("revoke", "release"):
        change = ml.revoke_link if request.POST["action"] == "revoke" else ml.release_device
        return act(
            request,
            lambda: change(
                posted(
                    MovesLink,
                    t,
                    request,
                    "link",
                    ("tournament",),
                    gettext_noop("no such moves link"),
                ),
                who=who(request),
            ),
            back,
        )
    if request.method == "POST":
        round_text = request.POST.get("round", "")
        try:
            number = parse_id(round_text)  # never int(): of "²" or 5,000 digits it raises
            if number is None:
                raise NotFound(
                    gettext("round %(text)s: expected a round number")
                    % {"text": repr(round_text[:20])}
                )
            issued = ml.issue_links(t, number, who=who(request))
        except ClubratingError as error:
            messages.error(request, error.translated(translation))
            return _slips_form(request, access, t)
        response = _page(
            request, access, "moves/slips.html", tournament=t, slips=_slips(request, t, issued)
        )
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "strict-origin"
        return response
    return _slips_form(request, access, t)


def _slips(
    request: HttpRequest, t: Tournament, issued: list[ml.IssuedLink]
) -> list[dict[str, Any]]:
    """One slip a board: its two players' links (White's first, as issued), each labelled with
    the name the phone page shows; in a club whose pages only its arbiters see, the name in full
    (the slips lie among the club's own players, and initials are ambiguous at the boards)."""
    public, slips = _public(t), []
    private = t.club.visibility == Visibility.ARBITER
    for white, black in zip(issued[::2], issued[1::2], strict=True):
        codes = []
        for issued_link in (white, black):
            url = request.build_absolute_uri(issued_link.path)
            player = issued_link.link.player
            assert player is not None
            codes.append(
                {
                    "colour": issued_link.link.colour,
                    "name": player.name if private else _player(public, player, t.has_juniors),
                    "url": url,
                    "qr": qr_svg(url),
                }
            )
        slips.append({"round": white.link.round, "board": white.link.board, "codes": codes})
    return slips


def _slips_form(request: HttpRequest, access: ClubAccess, t: Any) -> HttpResponse:
    rounds = sorted(
        set(EveningBoard.objects.filter(tournament=t).values_list("round", flat=True))
        | set(Game.objects.filter(tournament=t).values_list("round", flat=True))
    )
    links = [
        {
            "link": link,
            "pairing": link.evening_board or link.game,
            "live": link.revoked is None,
            "submissions": link.submissions.count(),
        }
        for link in ml.links_of(t)
    ]
    return _page(
        request,
        access,
        "moves/slips_form.html",
        tournament=t,
        rounds=rounds,
        latest=rounds[-1] if rounds else None,
        links=links,
    )
