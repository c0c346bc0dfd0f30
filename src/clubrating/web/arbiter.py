"""The arbiter's pages: upload or type a tournament, confirm names, publish, correct,
merge, rebuild, privacy, audit log.

Login required; the user must be one of the club's arbiters (anyone else: 404,
so another club's arbiter learns nothing). Every write is a POST (CSRF by
Django's middleware) through :mod:`clubrating.club.services`; its Outcome text
is shown to the arbiter as a message, and a user's mistake as an error message.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_POST, require_safe

from clubrating.club.read import audit_log
from clubrating.club.read import tournaments
from clubrating.formats import zones
from clubrating.club.read.matching import possible_duplicates, proposals_for
from clubrating.club.store.models import Club, Entry, Game, Member, Visibility
from clubrating.club.services.outcome import rebuild_text
from clubrating.errors import ClubratingError, InputError, NotFound, Text
from clubrating.formats.results import GameResult
from clubrating.formats.typed import parse_typed
from clubrating.web.access import ARBITER_PREFIX, ClubAccess, in_club, mark_privacy, moved
from clubrating.web.language import in_name_order
from clubrating.web.pages import points_text
from clubrating.files import read_tournament_bytes
from clubrating.club.read.clubs import parse_id
from clubrating.club.read.members import get_member
from clubrating.club.read.tournaments import game_result_text, get_tournament
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.history import check_history
from clubrating.club.services.members import (
    come_back,
    leave,
    mark_distinct,
    merge,
    rename_member,
    set_member_flags,
    unmerge,
)
from clubrating.club.services.names import accept_exact, all_new_members, new_member, unlink
from clubrating.club.services.tournaments import (
    SameTournament,
    change_date,
    correct_result,
    delete_tournament,
    import_tournament,
    publish,
    unpublish,
)
from clubrating.club.services import names as name_services

MAX_UPLOAD_BYTES: int = settings.MAX_UPLOAD_BYTES  # 5 MB: a club's tournament file is kilobytes
RESULT_CHOICES = [result.value for result in GameResult]  # 1-0, 0-1, 1/2-1/2, +-, -+, --


def arbiter_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = Club.objects.filter(slug=slug, arbiters=request.user).first()
        if club is None and (redirect := moved(request, slug)) is not None:
            return redirect
        if club is None:
            raise Http404("no such club")
        access = ClubAccess(club, True, f"/c/{club.slug}/", f"/api/c/{club.slug}/")
        with in_club(request, club):
            return mark_privacy(view(request, access, *args, **kwargs), access)

    return wrapper


def who(request: HttpRequest) -> str:
    return f"{ARBITER_PREFIX}{request.user.get_username()}"


def act(request: HttpRequest, action: Callable[[], Any], back: str) -> HttpResponse:
    """Run a service; its Outcome becomes a message, a user's mistake an error message."""
    try:
        outcome = action()
    except ClubratingError as error:
        messages.error(request, error.translated(translation))
    else:  # an Outcome, or a sentence a view wrote itself (the evening's registration)
        messages.success(
            request, outcome if isinstance(outcome, str) else outcome.translated(translation)
        )
    return redirect(back)


def _page(request: HttpRequest, access: ClubAccess, template: str, **context: Any) -> HttpResponse:
    home = f"{access.base}arbiter/"
    return render(
        request,
        template,
        {
            "access": access,
            "club": access.club,
            "base": access.base,
            "home": home,
            "time_zone": zones.zone_name(access.club.time_zone),
            **context,
        },
    )


def _left_day(club: Club, text: str) -> dt.date:
    """The day a member left as typed on the members page; blank: today, in the club's zone."""
    return _date(text) or zones.today(club.time_zone)


def _date(text: str) -> dt.date | None:
    if not text.strip():
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            gettext("%(text)s is not a date: expected YYYY-MM-DD") % {"text": repr(text)}
        ) from None


def _member(club: Club, text: str) -> Member:
    """A member typed as "Name (#12)", "12" or an exact name."""
    text = text.strip()
    if text.endswith(")") and "(#" in text:
        text = text.rsplit("(#", 1)[1].rstrip(")")
    if not text:
        raise InputError(gettext("say which member: pick one from the list"))
    return get_member(club, text)


# --- dashboard, rebuild, audit --------------------------------------------------------------

AUDIT_PAGE = 100  # audit entries a page


@require_safe
@arbiter_view
def dashboard(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    log = audit_log.last_rebuild(access.club)
    return _page(
        request,
        access,
        "web/arbiter/dashboard.html",
        tournaments=tournaments.tournaments(access.club),
        last_rebuild=log,
        rebuild_reason=audit_log.rebuild_reason(log) if log else "",
        this_month=f"{zones.today(access.club.time_zone):%Y-%m}",
    )


@require_POST
@arbiter_view
def rebuild_now(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """The manual rebuild (R14): replay everything and say whether the stored history matched."""
    report = check_history(access.club, who=who(request))
    replayed = rebuild_text(report).translated(
        translation
    )  # "rebuilt 2 tournaments, ..." in the page's language
    if report.changes_differing:
        messages.warning(
            request,
            f"{replayed}; "
            + ngettext(
                "%(count)s stored rating change did not match the replay and were corrected",
                "%(count)s stored rating changes did not match the replay and were corrected",
                report.changes_differing,
            )
            % {"count": report.changes_differing},
        )
    else:
        messages.success(
            request,
            f"{replayed}; " + gettext("the stored history matched (0 rating changes differed)"),
        )
    return redirect(f"{access.base}arbiter/")


@require_safe
@arbiter_view
def audit_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    text = request.GET.get("page", "1")
    try:
        log = audit_log.audit_page(access.club, parse_id(text) or 0, AUDIT_PAGE)
    except InputError as error:
        messages.error(request, error.translated(translation))
        log = audit_log.audit_page(access.club, 1, AUDIT_PAGE)
    return _page(request, access, "web/arbiter/audit.html", log=log, entries=log["entries"])


# --- import ----------------------------------------------------------------------------------


@arbiter_view
def upload(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    if request.method != "POST":
        return _page(
            request,
            access,
            "web/arbiter/upload.html",
            today=zones.today(access.club.time_zone).isoformat(),
        )
    try:
        tournament, notes = _import(request, access.club)
    except ClubratingError as error:
        twin = error.twin if isinstance(error, SameTournament) else None
        again = gettext(" (choose the file again)") if request.FILES.get("file") else ""
        messages.error(
            request,
            error.translated(translation)
            if twin is None
            else error.translated(translation)
            + ": "
            + gettext("to import it anyway, tick the box below and send it again")
            + again,
        )
        return _page(
            request,
            access,
            "web/arbiter/upload.html",
            today=zones.today(access.club.time_zone).isoformat(),
            typed=request.POST.get("rows", ""),
            typed_name=request.POST.get("name", ""),
            typed_date=request.POST.get("date", ""),
            twin=twin,
        )
    for (
        note
    ) in notes:  # what the reader noticed or left out (R18: the tags and comments not stored)
        messages.warning(request, note.translated(translation) if isinstance(note, Text) else note)
    players, games = tournament.entries.count(), tournament.games.count()
    messages.success(
        request,
        gettext(
            "imported '%(name)s' (%(date)s) as a draft: %(players)s, %(games)s; confirm the "
            "names, then publish"
        )
        % {
            "name": tournament.name,
            "date": tournament.date,
            "players": ngettext("%(count)s player", "%(count)s players", players)
            % {"count": players},
            "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
        },
    )
    return redirect(f"{access.base}arbiter/t/{tournament.id}/")


def _import(request: HttpRequest, club: Club) -> tuple[Any, tuple[Text, ...]]:
    juniors = request.POST.get("has_juniors") == "on"
    force = (
        request.POST.get("force") == "on"
    )  # the arbiter confirmed: not the tournament already stored
    date = _date(request.POST.get("date", ""))
    upload_file = request.FILES.get("file")
    if upload_file is not None:
        if upload_file.size and upload_file.size > MAX_UPLOAD_BYTES:
            raise InputError(
                gettext("the file is larger than %(mb)s MB")
                % {"mb": MAX_UPLOAD_BYTES // 1024 // 1024},
                file=upload_file.name,
            )

        record, digest = read_tournament_bytes(upload_file.read(), upload_file.name or "upload")
        return import_tournament(
            club,
            record,
            who=who(request),
            content_hash=digest,
            date=date,
            has_juniors=juniors,
            force=force,
        ), record.warnings
    rows = request.POST.get("rows", "")
    if not rows.strip():
        raise InputError(gettext("choose a file, or type the games"))
    record = parse_typed(rows, name=request.POST.get("name", ""), date=date)
    return import_tournament(
        club, record, who=who(request), has_juniors=juniors, force=force
    ), record.warnings


# --- one tournament: names, publish, corrections ---------------------------------------------


@require_safe
@arbiter_view
def review(request: HttpRequest, access: ClubAccess, tournament_id: int) -> HttpResponse:
    t = _tournament(access, tournament_id)
    rows = proposals_for(t)
    members = in_name_order(
        Member.objects.filter(club=access.club, merged_into=None)
        .order_by("id")
        .values_list("id", "name"),
        lambda m: m[1],
    )
    games = (
        Game.objects.filter(tournament=t)
        .select_related("white", "black")
        .order_by("round", "board", "id")
    )
    return _page(
        request,
        access,
        "web/arbiter/review.html",
        tournament=t,
        rows=rows,
        members=list(members),
        unlinked=sum(1 for e, _ in rows if e.member_id is None),
        games=[(g, game_result_text(g)) for g in games],
        results=RESULT_CHOICES,
        differences=differences_shown(t),
    )


def differences_shown(t: Any) -> list[dict[str, Any]]:
    """Each player whose points written in the file differ from the results, with the unplayed
    rounds that can explain it ("R2 0000 - -; R5 +") in the page's language."""
    return [
        {
            **d,
            "written_text": points_text(d["written"]),
            "computed_text": points_text(d["computed"]),
            "rounds_text": "; ".join(gettext("R%(round)s %(code)s") % c for c in d["rounds"]),
        }
        for d in tournaments.written_differences(t)
    ]


def _tournament(access: ClubAccess, tournament_id: int) -> Any:
    try:
        return get_tournament(access.club, tournament_id)
    except NotFound:
        raise Http404("no such tournament") from None


Row = TypeVar("Row", bound=Model)


def posted(
    model: type[Row],
    t: Any,
    request: HttpRequest,
    field: str,
    related: tuple[str, ...],
    missing: str,
) -> Row:
    """The row of ``model`` in tournament ``t`` whose id the form posted as ``field``; NotFound
    (one line, ``missing``) for a bad or foreign id."""
    number = parse_id(request.POST.get(field))
    found = (
        None
        if number is None
        else model._default_manager.filter(tournament=t, id=number).select_related(*related).first()
    )
    if found is None:
        raise NotFound(missing)
    return found


def _entry(t: Any, request: HttpRequest) -> Entry:
    return posted(
        Entry,
        t,
        request,
        "entry",
        ("tournament__club", "member"),
        gettext_noop("no such name in this tournament"),
    )


def _game(t: Any, request: HttpRequest) -> Game:
    return posted(
        Game,
        t,
        request,
        "game",
        ("tournament__club", "white", "black"),
        gettext_noop("no such game in this tournament"),
    )


TournamentAction = Callable[[HttpRequest, Any, str], Any]
ACTIONS: dict[str, TournamentAction] = {
    "link": lambda r, t, w: name_services.link(
        _entry(t, r), _member(t.club, r.POST.get("member", "")), who=w
    ),
    "new-member": lambda r, t, w: new_member(_entry(t, r), who=w),
    "unlink": lambda r, t, w: unlink(_entry(t, r), who=w),
    "accept-exact": lambda r, t, w: accept_exact(t, who=w),
    "all-new": lambda r, t, w: all_new_members(t, who=w),
    "publish": lambda r, t, w: publish(t, who=w),
    "unpublish": lambda r, t, w: unpublish(t, who=w),
    "date": lambda r, t, w: change_date(
        t, _date(r.POST.get("date", "")) or _missing(gettext_noop("the date is missing")), who=w
    ),
    "result": lambda r, t, w: correct_result(_game(t, r), r.POST.get("result", ""), who=w),
}


def _missing(what: str) -> Any:
    raise InputError(what)


@require_POST
@arbiter_view
def tournament_action(
    request: HttpRequest, access: ClubAccess, tournament_id: int, action: str
) -> HttpResponse:
    t = _tournament(access, tournament_id)
    back = f"{access.base}arbiter/t/{t.id}/"
    if action == "delete":
        if request.POST.get("confirm") != t.name:
            messages.error(
                request,
                gettext("type the tournament's name (%(name)s) to delete it") % {"name": t.name},
            )
            return redirect(back)
        return act(
            request,
            lambda: delete_tournament(t, who=who(request)),
            f"{access.base}arbiter/",
        )
    if action not in ACTIONS:
        raise Http404("no such action")
    return act(request, lambda: ACTIONS[action](request, t, who(request)), back)


# --- members ---------------------------------------------------------------------------------


@require_safe
@arbiter_view
def members_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    members = in_name_order(
        Member.objects.filter(club=access.club).select_related("merged_into").order_by("id"),
        lambda m: m.name,
    )
    return _page(
        request,
        access,
        "web/arbiter/members.html",
        members=members,
        active=[m for m in members if m.merged_into_id is None],
        duplicates=possible_duplicates(access.club),
    )


@require_POST
@arbiter_view
def member_action(request: HttpRequest, access: ClubAccess, action: str) -> HttpResponse:
    club, w, back = access.club, who(request), f"{access.base}arbiter/members/"
    post = request.POST
    actions: dict[str, Callable[[], Any]] = {
        "flags": lambda: set_member_flags(
            _member(club, post.get("member", "")),
            who=w,
            junior=post.get("junior") == "on",
            consent=post.get("consent") == "on",
        ),
        "merge": lambda: merge(
            _member(club, post.get("absorbed", "")), _member(club, post.get("into", "")), who=w
        ),
        "unmerge": lambda: unmerge(_member(club, post.get("member", "")), who=w),
        "rename": lambda: rename_member(
            _member(club, post.get("member", "")), post.get("name", ""), who=w
        ),
        "distinct": lambda: mark_distinct(
            _member(club, post.get("one", "")), _member(club, post.get("other", "")), who=w
        ),
        "leave": lambda: leave(
            _member(club, post.get("member", "")), _left_day(club, post.get("day", "")), who=w
        ),
        "return": lambda: come_back(_member(club, post.get("member", "")), who=w),
    }
    if action not in actions:
        raise Http404("no such action")
    return act(request, actions[action], back)


# --- privacy ---------------------------------------------------------------------------------


@arbiter_view
def privacy(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    if request.method == "POST":
        return act(
            request,
            lambda: set_privacy(
                club,
                who=who(request),
                visibility=request.POST.get("visibility") or None,
                names=request.POST.get("names") or None,
                rotate_token=request.POST.get("rotate") == "on",
            ),
            f"{access.base}arbiter/privacy/",
        )
    link = request.build_absolute_uri(f"/u/{club.token}/")
    return _page(
        request,
        access,
        "web/arbiter/privacy.html",
        visibilities=Visibility.choices,
        link=link,
        name_choices=club._meta.get_field("names").choices,
    )
