from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers: the process answers. Touches no database."""
    return HttpResponse("ok", content_type="text/plain")
