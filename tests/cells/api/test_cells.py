"""Cells through the API: create, change, delete, validate, filter."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cells.models import Cell, HazardZoneShape, RobotKind
from tests.cells.api.support import cell_body, detail_url, list_url
from tests.factories import CellFactory, ProjectFactory

pytestmark = pytest.mark.django_db


def test_editor_creates_a_cell(owner_api, project, organisation):
    response = owner_api.post(list_url("cell"), cell_body(project), format="json")

    assert response.status_code == 201
    cell = Cell.objects.get(pk=response.data["id"])
    assert cell.project == project
    assert cell.payload_kg == Decimal("20.00")
    assert response.data["organisation"] == organisation.pk


def test_editor_creates_a_cell_with_a_polygon_hazard_zone(owner_api, project):
    # Round the robot's maximum space: 1,800 mm round its base at 0, 0.
    outline = [[-1800, -1800], [3000, -1800], [3000, 2000], [-1800, 2000]]
    body = cell_body(
        project, hazard_zone_shape="polygon", hazard_zone_polygon_mm=outline
    )

    response = owner_api.post(list_url("cell"), body, format="json")

    assert response.status_code == 201
    assert Cell.objects.get(pk=response.data["id"]).hazard_zone_polygon_mm == outline


def test_editor_changes_a_cell(owner_api, cell):
    response = owner_api.patch(
        detail_url("cell", cell.pk),
        {"reach_mm": 2100, "robot_kind": "collaborative"},
        format="json",
    )

    assert response.status_code == 200
    cell.refresh_from_db()
    assert (cell.reach_mm, cell.robot_kind) == (2100, RobotKind.COLLABORATIVE)


def test_a_cell_uses_several_collaborative_modes(owner_api, project):
    body = cell_body(project, collaborative_modes=["ssm", "pfl"])

    response = owner_api.post(list_url("cell"), body, format="json")

    assert response.status_code == 201
    assert response.data["collaborative_modes"] == ["ssm", "pfl"]
    cell = Cell.objects.get(pk=response.data["id"])
    assert cell.collaborative_modes == ["ssm", "pfl"]


def test_a_repeated_collaborative_mode_is_refused_by_name(owner_api, cell):
    response = owner_api.patch(
        detail_url("cell", cell.pk),
        {"collaborative_modes": ["ssm", "ssm"]},
        format="json",
    )

    assert response.status_code == 400
    assert "given twice" in str(response.data["collaborative_modes"])
    cell.refresh_from_db()
    assert cell.collaborative_modes == []


def test_editor_replaces_a_cell(owner_api, cell, project):
    response = owner_api.put(
        detail_url("cell", cell.pk), cell_body(project, name="Replaced"), format="json"
    )

    assert response.status_code == 200
    cell.refresh_from_db()
    assert (cell.name, cell.reach_mm) == ("Replaced", 1800)


def test_editor_moves_a_cell_to_another_of_their_projects(
    owner_api, cell, organisation
):
    other = ProjectFactory(organisation=organisation)

    response = owner_api.patch(
        detail_url("cell", cell.pk), {"project": other.pk}, format="json"
    )

    assert response.status_code == 200
    cell.refresh_from_db()
    assert cell.project == other


def test_editor_deletes_a_cell(owner_api, cell, segment, opening, station):
    response = owner_api.delete(detail_url("cell", cell.pk))

    assert response.status_code == 204
    assert not Cell.objects.exists()


BOW_TIE = [[0, 0], [1000, 1000], [1000, 0], [0, 1000]]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"payload_kg": "-5"}, "payload_kg"),
        ({"payload_kg": "0"}, "payload_kg"),
        ({"moving_mass_kg": "0.00"}, "moving_mass_kg"),
        ({"reach_mm": 0}, "reach_mm"),
        ({"reach_mm": -1}, "reach_mm"),
        ({"max_tcp_speed_mm_s": 0}, "max_tcp_speed_mm_s"),
        ({"hazard_zone_radius_mm": 0}, "hazard_zone_radius_mm"),
        ({"payload_kg": "heavy"}, "payload_kg"),
        ({"payload_kg": "123456.78"}, "payload_kg"),
        ({"reach_mm": "far"}, "reach_mm"),
        ({"reach_mm": 1.5}, "reach_mm"),
        ({"robot_kind": "android"}, "robot_kind"),
        ({"name": None}, "name"),
        ({"project": "first"}, "project"),
        ({"project": 999999}, "project"),
        (
            {"hazard_zone_shape": "polygon", "hazard_zone_polygon_mm": BOW_TIE},
            "hazard_zone_polygon_mm",
        ),
        (
            {
                "hazard_zone_shape": "polygon",
                "hazard_zone_polygon_mm": [[0, 0], [1, 1]],
            },
            "hazard_zone_polygon_mm",
        ),
        (
            {
                "hazard_zone_shape": "polygon",
                "hazard_zone_polygon_mm": [[0, 0], [0, 0], [5, 5], [5, 0]],
            },
            "hazard_zone_polygon_mm",
        ),
        ({"hazard_zone_polygon_mm": [[0, 0, 0]]}, "hazard_zone_polygon_mm"),
        ({"hazard_zone_polygon_mm": [[0, "a"]]}, "hazard_zone_polygon_mm"),
        ({"hazard_zone_polygon_mm": [[0.5, 1]]}, "hazard_zone_polygon_mm"),
        ({"hazard_zone_polygon_mm": "square"}, "hazard_zone_polygon_mm"),
        ({"collaborative_modes": ["telepathy"]}, "collaborative_modes"),
        ({"collaborative_modes": ["pfl", "pfl"]}, "collaborative_modes"),
        ({"collaborative_modes": "pfl"}, "collaborative_modes"),
    ],
)
def test_cell_with_bad_input_is_refused(owner_api, project, change, field):
    response = owner_api.post(
        list_url("cell"), cell_body(project, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not Cell.objects.exists()


def test_cell_update_with_bad_input_leaves_it_unchanged(owner_api, cell):
    before = Cell.objects.values().get(pk=cell.pk)

    response = owner_api.patch(
        detail_url("cell", cell.pk),
        {"hazard_zone_shape": "polygon", "hazard_zone_polygon_mm": BOW_TIE},
        format="json",
    )

    assert response.status_code == 400
    assert "hazard_zone_polygon_mm" in response.data
    assert Cell.objects.values().get(pk=cell.pk) == before


def test_malformed_json_is_refused(owner_api, project):
    response = owner_api.post(
        list_url("cell"), data='{"name": ', content_type="application/json"
    )

    assert response.status_code == 400
    assert not Cell.objects.exists()


def test_a_list_body_is_refused(owner_api, project):
    response = owner_api.post(list_url("cell"), [cell_body(project)], format="json")

    assert response.status_code == 400
    assert not Cell.objects.exists()


def test_cells_filter_by_project_and_robot_kind(owner_api, project, organisation):
    cobot = CellFactory(project=project, robot_kind=RobotKind.COLLABORATIVE)
    industrial = CellFactory(project=project, robot_kind=RobotKind.INDUSTRIAL)
    elsewhere = CellFactory(project=ProjectFactory(organisation=organisation))

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("cell") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids("?robot_kind=collaborative") == {cobot.pk}
    assert ids(f"?project={project.pk}") == {cobot.pk, industrial.pk}
    assert ids(f"?project={elsewhere.project_id}") == {elsewhere.pk}
    assert ids(f"?project={project.pk}&robot_kind=industrial") == {industrial.pk}


def test_polygon_shape_is_listed_with_its_outline(owner_api, project):
    outline = [[0, 0], [1000, 0], [0, 1000]]
    CellFactory(
        project=project,
        hazard_zone_shape=HazardZoneShape.POLYGON,
        hazard_zone_polygon_mm=outline,
    )

    response = owner_api.get(list_url("cell"))

    assert response.data["results"][0]["hazard_zone_polygon_mm"] == outline
