"""The arbiter's settings page: the club's rating rules, each change replayed and audited.

The fields are :data:`clubrating.club.services.club_settings.SETTINGS`; a change
goes through :func:`~clubrating.club.services.club_settings.change_settings`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from clubrating.club.services import club_settings
from clubrating.web.access import ClubAccess
from clubrating.web.arbiter import _page, act, arbiter_view, who


@arbiter_view
def settings_page(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    if request.method == "POST":
        texts = {s.key: request.POST[s.key] for s in club_settings.SETTINGS if s.key in request.POST}
        return act(request, lambda: club_settings.change_settings(
            club, club_settings.parse_settings(texts), who=who(request)), f"{access.base}arbiter/settings/")
    values = club_settings.current_settings(club)
    fields = [{"key": s.key, "help": s.help, "value": _shown(values[s.key])} for s in club_settings.SETTINGS]
    return _page(request, access, "web/arbiter/settings.html", fields=fields)


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
