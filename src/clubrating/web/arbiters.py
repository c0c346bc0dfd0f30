"""The arbiters of a club on the web: invite one by a one-time link, remove one, make a password
reset link for one; and for every arbiter, the change of their own password and the pages the
one-time links open (club/services/accounts.py). Each form counts in the login lockout: a wrong
current password or a link that is no link is a failed login of django-axes, and a locked login
is answered 429 as the login page answers it."""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler  # type: ignore[import-untyped]
from axes.helpers import get_lockout_response  # type: ignore[import-untyped]
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.contrib.auth.signals import user_login_failed
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from clubrating.club.services import accounts
from clubrating.errors import ClubratingError
from clubrating.web.access import ClubAccess
from clubrating.web.arbiter import _page, arbiter_view, who


def _locked(request: HttpRequest, login: str) -> HttpResponse | None:
    """The lockout page when ``login`` is locked from this address, else None."""
    credentials = {"username": login}
    if AxesProxyHandler.is_locked(request, credentials):
        response: HttpResponse = get_lockout_response(request, None, credentials)
        return response
    return None


def _failed(request: HttpRequest, login: str) -> None:
    """One failed login of ``login`` from this address (django-axes counts it)."""
    user_login_failed.send(sender=__name__, credentials={"username": login}, request=request)


@require_safe
@arbiter_view
def arbiters_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    rows = [
        {"login": u.get_username(), "invited": not u.has_usable_password()}
        for u in access.club.arbiters.order_by("username")
    ]
    return _page(
        request,
        access,
        "web/arbiter/arbiters.html",
        arbiters=rows,
        me=request.user.get_username(),
        days=accounts.link_days(),
    )


@require_POST
@arbiter_view
def arbiter_action(request: HttpRequest, access: ClubAccess, action: str) -> HttpResponse:
    back, login = f"{access.base}arbiter/arbiters/", request.POST.get("login", "")
    try:
        if action == "invite":
            outcome, path = accounts.invite_arbiter(access.club, login, who=who(request))
        elif action == "reset":
            outcome, path = accounts.reset_link(access.club, login, who=who(request))
        elif action == "remove":
            if login == request.user.get_username():
                messages.error(request, gettext("another arbiter of the club removes you"))
                return redirect(back)
            accounts.remove_arbiter(access.club, login, who=who(request))
            messages.success(
                request,
                gettext("%(login)s is no longer an arbiter of %(club)s")
                % {"login": login, "club": access.club.name},
            )
            return redirect(back)
        else:
            raise Http404("no such action")
    except ClubratingError as error:
        messages.error(request, error.translated(translation))
        return redirect(back)
    messages.success(request, outcome.translated(translation))
    messages.info(request, request.build_absolute_uri(path))
    return redirect(back)


def change_password(request: HttpRequest) -> HttpResponse:
    """An arbiter's own password: the current one (a wrong one counts as a failed login), then
    the new one twice, checked by Django's validators."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    login = request.user.get_username()
    if (locked := _locked(request, login)) is not None:
        return locked
    form = PasswordChangeForm(request.user, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            accounts.set_password(request.user, form.cleaned_data["new_password1"], how="change")
            update_session_auth_hash(request, request.user)
            messages.success(request, gettext("your password is changed"))
            return redirect("/")
        if "old_password" in form.errors:
            _failed(request, login)
    return _password_page(request, form, gettext("Change your password"), current=True)


def choose_password(request: HttpRequest, kind: str, uidb64: str, token: str) -> HttpResponse:
    """The page of an invitation or a reset link: the new password twice; then the login page."""
    if kind not in accounts.LINKS:
        raise Http404("no such link")
    login, user = accounts.user_of_link(kind, uidb64[:64], token[:128])
    if (locked := _locked(request, login)) is not None:
        return locked
    if user is None:
        _failed(request, login)
        return render(request, "web/link_used.html", status=404)
    form = SetPasswordForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        accounts.set_password(user, form.cleaned_data["new_password1"], how=kind)
        messages.success(
            request, gettext("%(login)s: your password is set; log in with it") % {"login": login}
        )
        return redirect("login")
    title = (
        gettext("Welcome, %(login)s: choose your password")
        if kind == "invite"
        else gettext("%(login)s: choose a new password")
    ) % {"login": login}
    return _password_page(request, form, title, current=False)


def _password_page(request: HttpRequest, form: Any, title: str, *, current: bool) -> HttpResponse:
    """The form's page; the new password's problems in words of the catalogue where Django's own
    are missing from some language (its Armenian lacks the mismatch), the validators' as Django
    words them (translated in every language of the site)."""
    problems = [
        gettext("the two new passwords differ") if e.code == "password_mismatch" else e.messages[0]
        for field in ("new_password1", "new_password2")
        for e in (form.errors.as_data().get(field, []) if form.is_bound else [])
    ]
    return render(
        request,
        "web/password.html",
        {"form": form, "title": title, "current": current, "problems": problems},
    )
