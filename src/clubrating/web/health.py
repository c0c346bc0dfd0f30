"""``/healthz``: for a load balancer or a monitor, the installation's health as JSON
(:mod:`clubrating.club.ops.health`): no club's data, no login, never cached; 200 when healthy,
503 otherwise."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clubrating.club.ops.health import health


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    state = health()
    return JsonResponse(state.as_dict(), status=200 if state.healthy else 503)
