"""Issue 27 over the API: a hazard zone smaller than the robot's maximum space
(reach + end effector + workpiece) and a stopping time the recorded stop
cannot take are refused with 400 naming the field, on the cells endpoint and
in an imported exchange document; a smaller zone resting on recorded
safety-rated limits is kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.models import Cell
from tests.cells.api.support import cell_body, detail_url, list_url
from tests.factories import CellFactory

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("api:cell-import")
REASON = "SafeMove zone 2 keeps the TCP within 2,000 mm of the base."


def robot_body(project, **overrides):
    return cell_body(project, reach_mm=2000, end_effector_mm=300, **overrides)


def test_a_radius_below_reach_plus_tool_is_refused_by_name(owner_api, project):
    response = owner_api.post(
        list_url("cell"),
        robot_body(project, hazard_zone_radius_mm=2000),
        format="json",
    )
    assert response.status_code == 400
    message = str(response.data["hazard_zone_radius_mm"])
    assert "= 2,300 mm round its base" in message
    assert "Give at least 2,300 mm" in message
    assert not Cell.objects.exists()


def test_a_smaller_radius_with_its_record_is_kept(owner_api, project):
    body = robot_body(
        project,
        hazard_zone_radius_mm=2000,
        safety_rated_limits=True,
        hazard_zone_reduction_reason=REASON,
    )
    response = owner_api.post(list_url("cell"), body, format="json")
    assert response.status_code == 201, response.data
    assert response.data["hazard_zone_reduction_reason"] == REASON
    assert Cell.objects.get().hazard_zone_effective_radius_mm == 2000


def test_a_longer_tool_past_the_radius_typed_is_refused_and_nothing_lost(
    owner_api, project
):
    cell = CellFactory(
        project=project, reach_mm=2000, end_effector_mm=300, hazard_zone_radius_mm=2300
    )
    response = owner_api.patch(
        detail_url("cell", cell.pk), {"end_effector_mm": 400}, format="json"
    )
    assert response.status_code == 400
    assert "= 2,400 mm round its base" in str(response.data["hazard_zone_radius_mm"])
    cell.refresh_from_db()
    assert (cell.end_effector_mm, cell.hazard_zone_radius_mm) == (300, 2300)


def test_a_polygon_leaving_out_part_of_the_reach_is_refused_by_name(owner_api, project):
    body = robot_body(
        project,
        hazard_zone_shape="polygon",
        hazard_zone_polygon_mm=[[-2000, -2000], [2000, -2000], [2000, 2000]],
    )
    response = owner_api.post(list_url("cell"), body, format="json")
    assert response.status_code == 400
    assert "2,300 mm round its base" in str(response.data["hazard_zone_polygon_mm"])


def test_a_stopping_time_shorter_than_the_stop_is_refused_by_name(owner_api, cell):
    response = owner_api.patch(
        detail_url("cell", cell.pk),
        {"stopping_distance_mm": 600, "stopping_time_ms": 100},
        format="json",
    )
    # The cell's robot moves at most 1,500 mm/s: 600 mm take at least 400 ms.
    assert response.status_code == 400
    assert "at least 400 ms" in str(response.data["stopping_time_ms"])


# The exchange document ---------------------------------------------------------


def document(**zone) -> dict:
    return {
        "name": "Door cell",
        "application": "palletising",
        "robot": {
            "manufacturer": "Acme",
            "model": "R-20",
            "kind": "industrial",
            "payload_kg": "20",
            "reach_mm": 2000,
            "end_effector_mm": 300,
            "max_tcp_speed_mm_s": 2000,
            "moving_mass_kg": "150",
        },
        "robot_base": {"x_mm": 0, "y_mm": 0},
        "hazard_zone": {"shape": "circle", **zone},
    }


def test_an_imported_radius_below_reach_plus_tool_is_refused_by_path(
    owner_api, project
):
    response = owner_api.post(
        IMPORT_URL,
        {"project": project.pk, "document": document(radius_mm=2000)},
        format="json",
    )
    assert response.status_code == 400
    message = str(response.data["document.hazard_zone.radius_mm"])
    assert "Give at least 2,300 mm" in message
    assert not Cell.objects.exists()


def test_an_imported_smaller_radius_with_its_record_is_kept(owner_api, project):
    body = document(radius_mm=2000, reduction_reason=REASON)
    body["robot"]["safety_rated_limits"] = True
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": body}, format="json"
    )
    assert response.status_code == 201, response.data
    cell = Cell.objects.get()
    assert (cell.safety_rated_limits, cell.hazard_zone_reduction_reason) == (
        True,
        REASON,
    )
    assert cell.hazard_zone_effective_radius_mm == 2000


def test_an_imported_reason_without_the_record_is_refused_by_path(owner_api, project):
    body = document(radius_mm=2000, reduction_reason=REASON)
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": body}, format="json"
    )
    assert response.status_code == 400
    assert "document.hazard_zone.radius_mm" in response.data


def test_an_imported_reason_is_bounded(owner_api, project):
    body = document(radius_mm=2000, reduction_reason="x" * 501)
    body["robot"]["safety_rated_limits"] = True
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": body}, format="json"
    )
    assert response.status_code == 400
    assert "document.hazard_zone.reduction_reason" in response.data
