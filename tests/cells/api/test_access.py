"""Who gets what: members read, editors write, outsiders see nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cells.auth import api_token_create
from cells.models import Cell, Membership, Role
from tests.cells.api.support import (
    BASENAMES,
    MODELS,
    PARENT_FIELDS,
    cell_body,
    detail_url,
    list_url,
)
from tests.factories import CellFactory, OrganisationFactory, ProjectFactory

pytestmark = pytest.mark.django_db

# A harmless change for each resource, for PATCH.
CHANGES = {
    "project": {"name": "Renamed"},
    "cell": {"name": "Renamed"},
    "guard-segment": {"label": "Renamed"},
    "opening": {"label": "Renamed"},
    "operator-station": {"label": "Renamed"},
    "device": {"label": "Renamed"},
    "certificate": {"number": "Renamed"},
}


@pytest.mark.parametrize("basename", BASENAMES)
def test_viewer_can_list_and_read(viewer_api, objects, basename):
    obj = objects[basename]

    listed = viewer_api.get(list_url(basename))
    read = viewer_api.get(detail_url(basename, obj.pk))

    assert listed.status_code == 200
    assert [row["id"] for row in listed.data["results"]] == [obj.pk]
    assert read.status_code == 200
    assert read.data["id"] == obj.pk


@pytest.mark.parametrize("basename", BASENAMES)
def test_viewer_cannot_create(viewer_api, create_bodies, basename):
    count = MODELS[basename].objects.count()

    response = viewer_api.post(
        list_url(basename), create_bodies[basename], format="json"
    )

    assert response.status_code == 403
    assert MODELS[basename].objects.count() == count


@pytest.mark.parametrize("basename", BASENAMES)
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_viewer_cannot_change_or_delete(viewer_api, objects, basename, method):
    obj = objects[basename]
    before = type(obj).objects.values().get(pk=obj.pk)

    response = getattr(viewer_api, method)(
        detail_url(basename, obj.pk), CHANGES[basename], format="json"
    )

    assert response.status_code == 403
    assert type(obj).objects.values().get(pk=obj.pk) == before


@pytest.mark.parametrize("basename", BASENAMES)
def test_safety_engineer_can_edit(engineer_api, objects, basename):
    obj = objects[basename]

    response = engineer_api.patch(
        detail_url(basename, obj.pk), CHANGES[basename], format="json"
    )

    assert response.status_code == 200
    obj.refresh_from_db()
    assert str(obj) == "Renamed"


@pytest.mark.parametrize("basename", BASENAMES)
def test_outsider_gets_an_empty_list(outsider_api, objects, basename):
    response = outsider_api.get(list_url(basename))

    assert response.status_code == 200
    assert response.data["count"] == 0
    assert response.data["results"] == []


@pytest.mark.parametrize("basename", BASENAMES)
@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_outsider_gets_404_on_every_detail_url(outsider_api, objects, basename, method):
    obj = objects[basename]
    before = type(obj).objects.values().get(pk=obj.pk)

    response = getattr(outsider_api, method)(
        detail_url(basename, obj.pk), CHANGES[basename], format="json"
    )

    assert response.status_code == 404
    assert type(obj).objects.values().get(pk=obj.pk) == before


@pytest.mark.parametrize("basename", BASENAMES)
def test_outsider_cannot_create_under_a_foreign_parent(
    outsider_api, create_bodies, basename
):
    count = MODELS[basename].objects.count()
    parent_field = PARENT_FIELDS[basename]

    response = outsider_api.post(
        list_url(basename), create_bodies[basename], format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data[parent_field][0])
    assert MODELS[basename].objects.count() == count


def test_editor_cannot_create_under_a_parent_where_they_only_view(owner, owner_api):
    # The owner edits their own organisation but only views this one.
    other = OrganisationFactory()
    Membership.objects.create(user=owner, organisation=other, role=Role.VIEWER)
    foreign_project = ProjectFactory(organisation=other)

    response = owner_api.post(
        list_url("cell"), cell_body(foreign_project), format="json"
    )

    assert response.status_code == 403
    assert not foreign_project.cells.exists()


def test_editor_cannot_move_a_cell_to_a_project_where_they_only_view(
    owner, owner_api, cell, project
):
    other = OrganisationFactory()
    Membership.objects.create(user=owner, organisation=other, role=Role.VIEWER)
    foreign_project = ProjectFactory(organisation=other)

    response = owner_api.patch(
        detail_url("cell", cell.pk), {"project": foreign_project.pk}, format="json"
    )

    assert response.status_code == 403
    cell.refresh_from_db()
    assert cell.project == project


@pytest.mark.parametrize("basename", BASENAMES)
def test_anonymous_requests_are_refused(api_client, objects, create_bodies, basename):
    listed = api_client.get(list_url(basename))
    read = api_client.get(detail_url(basename, objects[basename].pk))
    created = api_client.post(list_url(basename), create_bodies[basename])

    assert {listed.status_code, read.status_code, created.status_code} <= {401, 403}


def test_token_authentication_reads_and_writes(owner, project):
    _, token = api_token_create(user=owner)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    listed = client.get(list_url("cell"))
    created = client.post(list_url("cell"), cell_body(project), format="json")

    assert listed.status_code == 200
    assert created.status_code == 201
    assert Cell.objects.filter(pk=created.data["id"], project=project).exists()


def test_a_wrong_token_is_refused(owner):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = client.get(list_url("project"))

    assert response.status_code in {401, 403}


def test_session_authentication_works(client, owner, cell):
    client.force_login(owner)

    response = client.get(list_url("cell"))

    assert response.status_code == 200
    assert response.json()["results"][0]["id"] == cell.pk


def test_objects_of_another_organisation_are_not_listed(owner_api, cell):
    CellFactory(project=ProjectFactory(organisation=OrganisationFactory()))

    response = owner_api.get(list_url("cell"))

    assert [row["id"] for row in response.data["results"]] == [cell.pk]


@pytest.mark.parametrize("basename", BASENAMES)
def test_browsable_api_pages_render(owner_api, objects, basename):
    listed = owner_api.get(list_url(basename), HTTP_ACCEPT="text/html")
    read = owner_api.get(
        detail_url(basename, objects[basename].pk), HTTP_ACCEPT="text/html"
    )
    options = owner_api.options(list_url(basename))

    assert (listed.status_code, read.status_code, options.status_code) == (
        200,
        200,
        200,
    )
