"""Tenant isolation and sign-in: another organisation's user finds nothing, an
anonymous one is refused, whatever the endpoint or method."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.models import AuditEntry, Hazard, Measure, Revision
from tests.compliance.assessment.api.conftest import hazard_body, list_url, measure_body

pytestmark = pytest.mark.django_db

# URL name → the object of the owner's it is about.
OBJECT_URLS = {
    "assessment-detail": "assessment",
    "revision-detail": "revision",
    "revision-submit": "revision",
    "revision-approve": "revision",
    "revision-sign": "revision",
    "revision-return": "revision",
    "revision-start-next": "revision",
    "revision-diff": "revision",
    "revision-history": "revision",
    "hazard-detail": "hazard",
    "measure-detail": "measure",
}
LISTS = ["assessment", "revision", "hazard", "measure"]


@pytest.fixture
def owned(revision, hazard, measure):
    return {
        "assessment": revision.assessment,
        "revision": revision,
        "hazard": hazard,
        "measure": measure,
    }


def snapshot() -> tuple:
    return (
        list(Revision.objects.values().order_by("id")),
        list(Hazard.objects.values().order_by("id")),
        list(Measure.objects.values().order_by("id")),
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize("name", sorted(OBJECT_URLS))
def test_outsider_gets_404_on_every_object_url_and_action(outsider_api, owned, name):
    obj = owned[OBJECT_URLS[name]]
    url = reverse(f"compliance-api:{name}", args=[obj.pk])
    query = f"?against={owned['revision'].pk}" if name == "revision-diff" else ""
    before = snapshot()

    answers = {
        method: getattr(outsider_api, method)(
            url + query, {"version": 1, "task": "x"}, format="json"
        ).status_code
        for method in ["get", "post", "put", "patch", "delete"]
    }

    # A method the endpoint does not offer is a 405 whatever the id.
    assert set(answers.values()) <= {404, 405}, answers
    assert 404 in answers.values()
    assert snapshot() == before


@pytest.mark.parametrize("basename", LISTS)
def test_outsider_lists_are_empty(outsider_api, owned, basename):
    response = outsider_api.get(list_url(basename))

    assert response.status_code == 200
    assert response.data["count"] == 0
    assert response.data["results"] == []


@pytest.mark.parametrize(
    ("filter_name", "key"),
    [("cell", "cell"), ("assessment", "assessment"), ("revision", "revision")],
)
def test_outsider_filtering_by_a_foreign_id_finds_nothing(
    outsider_api, owned, filter_name, key
):
    pk = owned["revision"].assessment.cell_id if key == "cell" else owned[key].pk
    basename = {"cell": "assessment", "assessment": "revision", "revision": "hazard"}[
        filter_name
    ]

    response = outsider_api.get(list_url(basename) + f"?{filter_name}={pk}")

    assert response.status_code == 200
    assert response.data["count"] == 0


def test_outsider_cannot_write_under_the_owners_objects(outsider_api, owned):
    before = snapshot()

    hazard = outsider_api.post(
        list_url("hazard"), hazard_body(owned["revision"]), format="json"
    )
    measure = outsider_api.post(
        list_url("measure"), measure_body(owned["hazard"]), format="json"
    )

    assert hazard.status_code == measure.status_code == 400
    assert "revision" in hazard.data and "hazard" in measure.data
    assert snapshot() == before


@pytest.mark.parametrize("basename", LISTS)
def test_anonymous_requests_are_refused(owned, basename):
    client = APIClient()
    obj = owned[basename]

    listed = client.get(list_url(basename))
    read = client.get(reverse(f"compliance-api:{basename}-detail", args=[obj.pk]))
    written = client.post(list_url(basename), {}, format="json")

    assert {listed.status_code, read.status_code, written.status_code} == {401}


@pytest.mark.parametrize("basename", LISTS)
def test_browsable_api_pages_render(owner_api, owned, basename):
    url = reverse(f"compliance-api:{basename}-detail", args=[owned[basename].pk])

    listed = owner_api.get(list_url(basename), HTTP_ACCEPT="text/html")
    read = owner_api.get(url, HTTP_ACCEPT="text/html")
    options = owner_api.options(list_url(basename))

    assert (listed.status_code, read.status_code, options.status_code) == (
        200,
        200,
        200,
    )


def test_every_endpoint_is_in_the_schema(owner_api):
    response = owner_api.get(reverse("api-schema"), HTTP_ACCEPT="application/json")

    paths = response.json()["paths"]
    for path in [
        "/api/v1/assessments/",
        "/api/v1/assessments/{id}/",
        "/api/v1/revisions/",
        "/api/v1/revisions/{id}/",
        "/api/v1/revisions/{id}/submit/",
        "/api/v1/revisions/{id}/approve/",
        "/api/v1/revisions/{id}/sign/",
        "/api/v1/revisions/{id}/return/",
        "/api/v1/revisions/{id}/start-next/",
        "/api/v1/revisions/{id}/diff/",
        "/api/v1/revisions/{id}/history/",
        "/api/v1/hazards/",
        "/api/v1/hazards/{id}/",
        "/api/v1/measures/",
        "/api/v1/measures/{id}/",
        "/api/v1/devices/",
        "/api/v1/devices/{id}/",
    ]:
        assert path in paths, path
    assert set(paths["/api/v1/revisions/{id}/"]) == {"get", "patch"}
    assert "409" in paths["/api/v1/hazards/{id}/"]["patch"]["responses"]
