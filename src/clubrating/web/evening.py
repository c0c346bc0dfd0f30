"""The arbiter's pages of tonight's evening: start, register, confirm names, pair,
enter results on a phone, standings with tie-breaks, publish.

Every page is the arbiter's (:func:`clubrating.web.arbiter.arbiter_view`); every write is a
POST through :mod:`clubrating.club.services.evening` or ``services``, its outcome one message.
The results page needs no script (the CSP says ``script-src 'none'``): one form a board, a
button a result.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST, require_safe

from clubrating.club.services import evening
from clubrating.club.services import pairing_changes
from clubrating.formats import zones
from clubrating.club.services import keizer
from clubrating.club.read.matching import proposals_for
from clubrating.club.services import moves_links as ml
from clubrating.club.services import phone_results
from clubrating.club.store.models import (
    Bye,
    Entry,
    Evening,
    EveningBoard,
    EveningPlayer,
    Member,
    Tournament,
)
from clubrating.errors import ClubratingError, InputError, Text
from clubrating.tournament import Standing, System, Tiebreak
from clubrating.tournament.roundrobin import MAX_SEED, PairingSystem, TableOrder, berger_round
from clubrating.tournament.standings import DEFAULT_TIEBREAKS
from clubrating.web.access import ClubAccess
from clubrating.web.language import in_name_order
from clubrating.web.arbiter import act, arbiter_view, posted, who
from clubrating.web.reading import figure
from clubrating.club.read.clubs import parse_id
from clubrating.club.read.members import get_member
from clubrating.club.read.tournaments import game_result_text
from clubrating.club.services.names import accept_exact, link, new_member

RESULTS = [("1-0", "1-0"), ("1/2-1/2", "½-½"), ("0-1", "0-1")]
FORFEITS = [("+-", "+ −"), ("-+", "− +"), ("--", "− −")]
SYSTEMS = [
    (s.value, s.label) for s in PairingSystem
]  # the start form's choice, Swiss first (the default)
# (the labels in English: the template translates them)


def _columns(tiebreaks: tuple[Tiebreak, ...]) -> list[tuple[str, str, str]]:
    """The standings' tie-break columns: id, short name, C.07 section and name (in the page's
    language)."""
    return [(t.key, gettext(t.short), f"{t.source} {gettext(t.name)}") for t in tiebreaks]


def _page(request: HttpRequest, access: ClubAccess, template: str, **context: Any) -> HttpResponse:
    home = f"{access.base}arbiter/"
    return render(
        request,
        template,
        {"access": access, "club": access.club, "base": access.base, "home": home, **context},
    )


def _evening(access: ClubAccess, tournament_id: int) -> tuple[Tournament, Evening]:
    number = parse_id(tournament_id)  # a path's <int:> takes 20 digits, which SQLite cannot compare
    found = (
        None
        if number is None
        else Evening.objects.filter(tournament__club=access.club, tournament_id=number)
        .select_related("tournament__club")
        .first()
    )
    if found is None:
        raise Http404("no such evening")
    return found.tournament, found


@arbiter_view
def evenings(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """The evenings paired here, and the form that starts tonight's."""
    if request.method == "POST":
        return _start(request, access)
    rows = (
        Evening.objects.filter(tournament__club=access.club)
        .select_related("tournament")
        .order_by("-id")
    )
    return _page(
        request,
        access,
        "evening/list.html",
        evenings=rows,
        today=zones.today(access.club.time_zone).isoformat(),
        systems=SYSTEMS,
    )


def _start(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    try:
        date = dt.date.fromisoformat(request.POST.get("date", "").strip())
    except ValueError:
        messages.error(
            request,
            gettext("%(text)s is not a date: expected YYYY-MM-DD")
            % {"text": repr(request.POST.get("date", ""))},
        )
        return redirect(f"{access.base}arbiter/evening/")
    try:
        t = evening.start_evening(
            access.club,
            request.POST.get("name", ""),
            date,
            request.POST.get("rounds", ""),
            who=who(request),
            time_control=request.POST.get("time_control", "standard"),
            system=request.POST.get("system", "swiss"),
            keizer_settings=_keizer_settings(request),
        )
    except ClubratingError as error:
        messages.error(request, error.translated(translation))
        return redirect(f"{access.base}arbiter/evening/")
    messages.success(
        request, gettext("started '%(name)s': register tonight's players") % {"name": t.name}
    )
    return redirect(f"{access.base}arbiter/evening/{t.id}/")


def _keizer_settings(request: HttpRequest) -> dict[str, str] | None:
    """The start form's Keizer settings (``keizer-top``, ...), the ones filled in; None for
    another system."""
    if request.POST.get("system", "").strip().casefold() != PairingSystem.KEIZER.value:
        return None
    given = {key: request.POST.get(f"keizer-{key}", "").strip() for key in keizer.SETTINGS}
    return {key: value for key, value in given.items() if value}


@require_safe
@arbiter_view
def evening_page(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    t, ev = _evening(access, tournament_id)
    players = {p.entry_id: p for p in EveningPlayer.objects.filter(entry__tournament=t)}
    byes = {(b.entry_id, b.round): b for b in Bye.objects.filter(tournament=t)}
    rows: list[dict[str, Any]] = [
        {
            "entry": e,
            "proposals": proposals,
            "player": players.get(e.id),
            "byes": sorted(r for (entry_id, r) in byes if entry_id == e.id),
        }
        for e, proposals in proposals_for(t)
    ]
    members = in_name_order(
        Member.objects.filter(club=access.club, merged_into=None, left=None)
        .order_by("id")
        .values_list("id", "name"),
        lambda m: m[1],
    )
    system = PairingSystem(ev.system)
    is_keizer = system is PairingSystem.KEIZER
    standings = [] if is_keizer else evening.standings_of(t)
    if is_keizer:
        marks = keizer.attendance_of(t, ev.paired_rounds + 1)
        for row in rows:
            row["mark"] = marks[row["entry"].id].value
    return _page(
        request,
        access,
        "evening/evening.html",
        tournament=t,
        evening=ev,
        rows=rows,
        members=list(members),
        boards=_boards(t, ev.paired_rounds, is_keizer),
        standings=_standings(standings),
        is_keizer=is_keizer,
        **(_keizer_context(t, ev) if is_keizer else {}),
        tiebreaks=_columns(
            DEFAULT_TIEBREAKS[System.SWISS if system is PairingSystem.SWISS else System.ROUND_ROBIN]
        ),
        system=system,
        is_swiss=system is PairingSystem.SWISS,
        # a player joins before round 1, and later a Swiss or a Keizer season with rounds to come
        registering=not ev.paired_rounds
        or (
            ev.paired_rounds < ev.planned_rounds
            and system in (PairingSystem.SWISS, PairingSystem.KEIZER)
        ),
        schedule=_schedule(t, ev, system),
        next_rounds=list(range(ev.paired_rounds + 1, ev.planned_rounds + 1)),
        open_boards=EveningBoard.objects.filter(tournament=t, game=None).count(),
        changeable=_changeable(t, ev),
        seated=_seated(t, ev.paired_rounds),
        to_number=_to_number(t, ev, system),
        max_seed=MAX_SEED,
    )


def _keizer_context(t: Tournament, ev: Evening) -> dict[str, Any]:
    """A Keizer season's part of its page: the ranking, the marks for the next evening, the
    rematches the last pairing could not avoid, and how the season is rated."""
    numbers = dict(Entry.objects.filter(tournament=t).values_list("number", "name"))
    return {
        "keizer_rows": [
            {
                "rank": row.rank,
                "name": entry.name,
                "score": figure(float(row.score), ".2f"),
                "value": row.value,
                "played": row.played,
                "points": figure(row.points / 2, ".1f"),
            }
            for row, entry in keizer.table(t)
        ],
        "attendances": [(a.value, a.label) for a in keizer.Attendance],
        "rematches": [(numbers[w], numbers[b]) for w, b in keizer.rematches_of(t, ev)],
        "rated_by_evening": keizer.rated_of(ev) is keizer.Rated.EVENING,
        "today": zones.today(t.club.time_zone).isoformat(),
    }


def _to_number(t: Tournament, ev: Evening, system: PairingSystem) -> list[Entry]:
    """A round robin's players before round 1, in the order of entry, for the table numbers' form
    (each prefilled with its place in that order); empty once round 1 is paired, and in a Swiss."""
    if system is PairingSystem.SWISS or ev.paired_rounds or ev.keizer.get("previous"):
        return []
    return list(Entry.objects.filter(tournament=t, evening__withdrawn_from=None).order_by("number"))


@require_safe
@arbiter_view
def round_page(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    """The results of the current round, for a phone: one board a row, a big button a result."""
    t, ev = _evening(access, tournament_id)
    return _page(
        request,
        access,
        "evening/round.html",
        tournament=t,
        evening=ev,
        boards=_boards(t, ev.paired_rounds, ev.system == PairingSystem.KEIZER.value),
        results=RESULTS,
        forfeits=FORFEITS,
    )


def _boards(t: Tournament, rnd: int, is_keizer: bool = False) -> list[dict[str, Any]]:
    boards = EveningBoard.objects.filter(tournament=t, round=rnd).select_related(
        "white", "black", "game"
    )
    rests = ("U",) if is_keizer else ("U", "Z")  # a Keizer season's Z: apologies, no board
    rest = (
        Bye.objects.filter(tournament=t, round=rnd, kind__in=rests).select_related("entry").first()
    )
    answers = phone_results.answers_of_round(t, rnd)
    rows: list[dict[str, Any]] = [
        {"board": b, "result": _result(b), "answers": _answers(answers.get(b.id, []))}
        for b in boards
    ]
    if rest is not None:  # the Swiss's pairing bye, or a round robin's round off
        rows.append({"board": None, "bye": rest.entry, "off": rest.kind == "Z"})
    return rows


def _answers(answers: list[phone_results.Answer]) -> dict[str, Any] | None:
    """The results the board's phones sent that wait for the arbiter, as the page shows them."""
    if not answers:
        return None
    sender = {ml.WHITE: gettext("White's phone"), ml.BLACK: gettext("Black's phone")}
    return {
        "each": [
            {
                "sender": sender.get(a.side, gettext("a phone with the board's link")),
                "result": a.result.replace("1/2", "½"),
                "why": gettext(a.why) if a.why else "",
            }
            for a in answers
        ],
        "differ": len({a.result for a in answers}) > 1,
    }


def _changeable(t: Tournament, ev: Evening) -> bool:
    """Whether the current round's pairings can still change: paired, and no result in yet."""
    return (
        ev.paired_rounds > 0
        and not t.is_published
        and pairing_changes.first_result(t, ev.paired_rounds) is None
    )


def _seated(t: Tournament, rnd: int) -> list[Entry]:
    """The players of the round (on a board or the pairing bye), by name, for the exchange form."""
    ids = [
        i
        for pair in EveningBoard.objects.filter(tournament=t, round=rnd).values_list(
            "white_id", "black_id"
        )
        for i in pair
    ] + list(
        Bye.objects.filter(tournament=t, round=rnd, kind="U").values_list("entry_id", flat=True)
    )
    return in_name_order(Entry.objects.filter(id__in=ids).order_by("number"), lambda e: e.name)


def _schedule(t: Tournament, ev: Evening, system: PairingSystem) -> list[dict[str, Any]]:
    """A round robin's rounds still to come, from its Berger table (known once round 1 is
    paired)."""
    cycles = system.cycles
    if cycles is None or ev.paired_rounds == 0:
        return []
    name = dict(Entry.objects.filter(tournament=t).values_list("number", "name"))
    return [
        {
            "round": rnd,
            "boards": [(name[w], name[b]) for w, b in plan.boards],
            "off": name[plan.bye] if plan.bye is not None else None,
        }
        for rnd in range(ev.paired_rounds + 1, ev.planned_rounds + 1)
        for plan in [berger_round(len(name), rnd, cycles)]
    ]


def _result(board: EveningBoard) -> str:
    game = board.game
    return "" if game is None else game_result_text(game)


def _standings(standings: list[tuple[Standing, Entry]]) -> list[dict[str, Any]]:
    return [
        {
            "place": row.place,
            "number": row.number,
            "name": entry.name,
            "points": figure(int(row.points) / 2, ".1f"),  # as the arbiter's pairing tables
            "tiebreaks": ["" if value is None else figure(value, "g") for value in row.tiebreaks],
        }
        for row, entry in standings
    ]


# --- the writes ----------------------------------------------------------------------------------


def _numbering(t: Tournament, request: HttpRequest) -> evening.Numbering:
    """Round 1 of a round robin: its table numbers by rating, by lot (a seed typed or drawn), or as
    the arbiter numbered the players (a number field each, ``table-<entry id>``)."""
    order = request.POST.get("order", TableOrder.RATING.value)
    if order != TableOrder.HAND.value:
        return evening.parse_numbering(
            order, request.POST.get("seed", "") if order == TableOrder.LOT.value else ""
        )
    players = Entry.objects.filter(tournament=t, evening__withdrawn_from=None).order_by("number")
    return evening.numbering_from_table(
        [(e, request.POST.get(f"table-{e.id}", "")) for e in players]
    )


def _entry(t: Tournament, request: HttpRequest, field: str = "entry") -> Entry:
    return posted(
        Entry,
        t,
        request,
        field,
        ("tournament__club", "member"),
        gettext_noop("no such player in this evening"),
    )


def _board(t: Tournament, request: HttpRequest) -> EveningBoard:
    return posted(
        EveningBoard,
        t,
        request,
        "board",
        ("tournament__club", "white", "black", "game"),
        gettext_noop("no such board in this evening"),
    )


def _member(access: ClubAccess, text: str) -> Member:
    """A member picked as "Name (#12)", "12" or typed as an exact name."""
    text = text.strip()
    if text.endswith(")") and "(#" in text:
        text = text.rsplit("(#", 1)[1].rstrip(")")
    if not text:
        raise InputError(gettext("say which member: pick one from the list"))
    return get_member(access.club, text)


def _registered(entry: Entry) -> str:
    """The registration's message in the page's language: a member's name, number or alias is
    linked at once, and says so."""
    if entry.member is None:
        return gettext("registered '%(name)s'") % {"name": entry.name}
    return gettext("registered '%(name)s': member %(member)s (#%(number)s)") % {
        "name": entry.name,
        "member": entry.member.name,
        "number": entry.member_id,
    }


def _actions(
    request: HttpRequest, access: ClubAccess, t: Tournament
) -> dict[str, Callable[[], Any]]:
    by = who(request)
    post = request.POST
    return {
        "register": lambda: _registered(evening.register(t, post.get("name", ""), who=by)),
        "link": lambda: link(_entry(t, request), _member(access, post.get("member", "")), who=by),
        "new-member": lambda: new_member(_entry(t, request), who=by),
        "accept-exact": lambda: accept_exact(t, who=by),
        "withdraw": lambda: evening.withdraw(_entry(t, request), who=by),
        "bye": lambda: evening.request_bye(_entry(t, request), post.get("round", ""), who=by),
        "pair": lambda: evening.pair_next_round(t, who=by, numbering=_numbering(t, request)),
        "result": lambda: evening.enter_result(_board(t, request), post.get("result", ""), who=by),
        "publish": lambda: evening.publish_evening(t, who=by),
        "colours": lambda: pairing_changes.swap_colours(_board(t, request), who=by),
        "exchange": lambda: pairing_changes.exchange_players(
            t,
            _entry(t, request, "one"),
            _entry(t, request, "other"),
            who=by,
            confirm_rematch=post.get("confirm") == "yes",
        ),
        "repair": lambda: pairing_changes.repair_round(t, who=by),
        "mark": lambda: keizer.mark(
            _entry(t, request), keizer.Attendance.parse(post.get("attendance", "")), who=by
        ),
        "next": lambda: _next(t, request),
    }


def _next(t: Tournament, request: HttpRequest) -> Any:
    """The season's next evening (rated evening by evening): its message, and the page to go to."""
    text = request.POST.get("date", "").strip()
    try:
        date = dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(
            gettext_noop("%(text)s is not a date: expected YYYY-MM-DD"), text=repr(text[:40])
        ) from None
    after = keizer.continue_season(t, request.POST.get("name", ""), date, who=who(request))
    return Text(
        gettext_noop("started '%(name)s': tournament %(id)s, the season's next evening"),
        name=after.name,
        id=after.id,
    )


@require_POST
@arbiter_view
def evening_action(
    request: HttpRequest, access: ClubAccess, tournament_id: int, action: str
) -> HttpResponse:
    t, _ = _evening(access, tournament_id)
    actions = _actions(request, access, t)
    if action not in actions:
        raise Http404("no such action")
    back = request.POST.get("back") == "round"
    page = f"{access.base}arbiter/evening/{t.id}/" + ("round/" if back else "")
    if action == "publish":
        page = f"{access.base}arbiter/evening/{t.id}/"
    return act(request, actions[action], page)
