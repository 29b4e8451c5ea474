"""Projects through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import Country, Membership, Project, Role
from tests.cells.api.support import detail_url, list_url, project_body
from tests.factories import OrganisationFactory, ProjectFactory

pytestmark = pytest.mark.django_db


def test_editor_creates_a_project_in_their_only_organisation(
    owner, owner_api, organisation
):
    response = owner_api.post(list_url("project"), project_body(), format="json")

    assert response.status_code == 201
    project = Project.objects.get(pk=response.data["id"])
    assert project.organisation == organisation
    assert project.created_by == owner
    assert response.data["organisation"] == organisation.pk
    assert response.data["created_by"] == owner.pk


def test_project_create_needs_the_organisation_when_user_edits_several(
    owner, owner_api
):
    Membership.objects.create(
        user=owner, organisation=OrganisationFactory(), role=Role.SAFETY_ENGINEER
    )

    response = owner_api.post(list_url("project"), project_body(), format="json")

    assert response.status_code == 400
    assert "organisation" in response.data
    assert not Project.objects.exists()


def test_editor_of_several_organisations_chooses_one(owner, owner_api):
    second = OrganisationFactory()
    Membership.objects.create(
        user=owner, organisation=second, role=Role.SAFETY_ENGINEER
    )

    response = owner_api.post(
        list_url("project"), project_body(organisation=second.pk), format="json"
    )

    assert response.status_code == 201
    assert Project.objects.get(pk=response.data["id"]).organisation == second


def test_editor_cannot_create_a_project_where_they_only_view(owner, owner_api):
    viewed = OrganisationFactory()
    Membership.objects.create(user=owner, organisation=viewed, role=Role.VIEWER)

    response = owner_api.post(
        list_url("project"), project_body(organisation=viewed.pk), format="json"
    )

    assert response.status_code == 403
    assert not viewed.projects.exists()


def test_editor_renames_a_project(owner_api, project):
    response = owner_api.patch(
        detail_url("project", project.pk), {"name": "Phase 2"}, format="json"
    )

    assert response.status_code == 200
    project.refresh_from_db()
    assert project.name == "Phase 2"


def test_editor_replaces_a_project(owner_api, project, organisation):
    body = project_body(name="Replaced", country="DE", proposal_language="en")

    response = owner_api.put(detail_url("project", project.pk), body, format="json")

    assert response.status_code == 200
    project.refresh_from_db()
    assert (project.name, project.country, project.organisation) == (
        "Replaced",
        "DE",
        organisation,
    )


def test_created_by_cannot_be_written(owner_api, project, outsider):
    owner_api.patch(
        detail_url("project", project.pk), {"created_by": outsider.pk}, format="json"
    )

    project.refresh_from_db()
    assert project.created_by != outsider


def test_editor_deletes_a_project(owner_api, cell):
    response = owner_api.delete(detail_url("project", cell.project_id))

    assert response.status_code == 204
    assert not Project.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"country": "XX"}, "country"),
        ({"name": ""}, "name"),
        ({"name": 42 * "x" * 5}, "name"),
        ({"proposal_language": ["ko"]}, "proposal_language"),
    ],
)
def test_project_with_bad_input_is_refused(owner_api, change, field):
    response = owner_api.post(
        list_url("project"), project_body(**change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not Project.objects.exists()


def test_projects_filter_by_country_customer_and_organisation(
    owner, owner_api, organisation
):
    korean = ProjectFactory(
        organisation=organisation, country=Country.KR, customer_name="Hanil Motors"
    )
    ProjectFactory(
        organisation=organisation, country=Country.DE, customer_name="Bremer GmbH"
    )
    second = OrganisationFactory()
    Membership.objects.create(user=owner, organisation=second, role=Role.VIEWER)
    elsewhere = ProjectFactory(organisation=second, country=Country.DE)

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("project") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids("?country=KR") == {korean.pk}
    assert ids("?customer_name=hanil") == {korean.pk}
    assert ids(f"?organisation={second.pk}") == {elsewhere.pk}


def test_project_filter_with_a_bad_id_is_refused(owner_api):
    response = owner_api.get(list_url("project") + "?organisation=abc")

    assert response.status_code == 400
    assert "organisation" in response.data
