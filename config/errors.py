"""Error pages that answer in the client's language: JSON under ``/api/``.

DRF answers its own errors as JSON, but some are Django's before any API view
runs: a path no route matches (``/api/v1/cells/abc/``, ``/api/v1/nope/``), a
request Django refuses as suspicious, an exception no handler caught. An API
client gets those as ``{"detail": ...}`` too, like every other API error.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions

API_PREFIX = "/api/"


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _json(exc: type[exceptions.APIException]) -> JsonResponse:
    return JsonResponse({"detail": str(exc.default_detail)}, status=exc.status_code)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json(exceptions.ParseError)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json(exceptions.PermissionDenied)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json(exceptions.NotFound)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json(exceptions.APIException)
    return defaults.server_error(request)
