"""Every answer under /api/ is JSON, errors included: also the ones Django
gives before an API view runs (no route matches, a refused request, a crash)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from cells.api import views as cell_api_views
from tests import test_tenancy
from tests.test_tenancy import LIST_URLS, OBJECT_URLS

owned = test_tenancy.owned


@pytest.fixture
def api_client(owner):
    client = APIClient(raise_request_exception=False)
    client.force_login(owner)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/cells/abc/",
        "/api/v1/projects/1.5/",
        "/api/v1/guard-segments/-1/",
        "/api/v1/nope/",
        "/api/nope",
    ],
)
def test_an_api_path_no_route_matches_answers_json_404(api_client, path):
    response = api_client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_a_page_no_route_matches_is_still_the_html_404(api_client):
    response = api_client.get("/nope/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_refused_host_under_the_api_answers_json_400(db):
    response = Client().get("/api/v1/cells/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "detail" in response.json()


def test_an_unhandled_error_under_the_api_answers_json_500(
    api_client, cell, monkeypatch
):
    def crash(self):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cell_api_views.CellViewSet, "get_queryset", crash)
    response = api_client.get(reverse("api:cell-detail", args=[cell.pk]))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "A server error occurred."}


def test_an_unhandled_error_in_a_page_is_still_the_html_500(owner, monkeypatch):
    def crash(user):
        raise RuntimeError("a bug")

    monkeypatch.setattr("cells.selectors.project_list", crash)
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    response = client.get(reverse("cells:project_list"))
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_every_api_error_of_the_walk_is_json(outsider, owned):
    """Wrong methods (405), foreign objects (404), bad bodies (400): the
    outsider of the tenancy walk can change nothing, so every method is tried."""
    client = APIClient(raise_request_exception=False)
    client.force_login(outsider)
    urls = [reverse(name) for name in LIST_URLS] + [
        reverse(name, args=args(owned)) for name, args in OBJECT_URLS.items()
    ]
    not_json = []
    for url in (u for u in urls if u.startswith("/api/")):
        for method in ["get", "post", "put", "patch", "delete", "options"]:
            response = getattr(client, method)(url, {}, format="json")
            if response.status_code >= 400 and not response["Content-Type"].startswith(
                "application/json"
            ):
                not_json.append((method, url, response.status_code))
    assert not_json == []
