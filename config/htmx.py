"""One place that decides whether a request gets a page or just a fragment."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def is_fragment_request(request: HttpRequest) -> bool:
    """Answer with a fragment only to htmx's own swaps, never to a whole page load."""
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def render_page(
    request: HttpRequest,
    template: str,
    context: dict,
    *,
    fragment: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or for htmx just ``template#fragment``; varies on HX-Request."""
    name = (
        f"{template}#{fragment}"
        if fragment and is_fragment_request(request)
        else template
    )
    response = render(request, name, context, status=status)
    if fragment:
        patch_vary_headers(response, ["HX-Request"])
    return response
