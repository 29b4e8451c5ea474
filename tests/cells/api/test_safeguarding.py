"""Through the API, the safeguarding fields are refused exactly as on the pages:
a 400 naming the field, never a 500 and never a stored 10^300."""

from __future__ import annotations

import pytest

from cells.models import Cell, Device, GuardSegment, OperatorStation
from tests.cells.api.support import (
    cell_body,
    detail_url,
    device_body,
    list_url,
    segment_body,
    station_body,
)

pytestmark = pytest.mark.django_db

CURTAIN = {
    "x1_mm": 1000,
    "y1_mm": 0,
    "x2_mm": 1800,
    "y2_mm": 0,
    "detection_lower_mm": 300,
    "detection_upper_mm": 1800,
}


def test_editor_places_a_light_curtain(owner_api, cell):
    response = owner_api.post(
        list_url("device"), device_body(cell, **CURTAIN), format="json"
    )

    assert response.status_code == 201
    assert {name: response.data[name] for name in CURTAIN} == CURTAIN
    device = Device.objects.get(pk=response.data["id"])
    assert (device.x2_mm, device.detection_upper_mm) == (1800, 1800)


def test_editor_records_a_type_3_scanner_and_a_locked_door(owner_api, cell):
    scanner = owner_api.post(
        list_url("device"),
        device_body(
            cell,
            kind="laser_scanner",
            iec61496_type=3,
            x1_mm=3500,
            y1_mm=-500,
            field_height_mm=200,
        ),
        format="json",
    )
    door = owner_api.post(
        list_url("device"),
        device_body(
            cell,
            kind="interlocked_door",
            guard_locking=True,
            kcs_certified=True,
            kcs_certificate_no="KCs-19-AB-0042",
        ),
        format="json",
    )

    assert scanner.status_code == 201, scanner.data
    assert (scanner.data["iec61496_type"], scanner.data["x2_mm"]) == (3, None)
    assert door.status_code == 201, door.data
    assert door.data["guard_locking"] is True
    assert door.data["kcs_certificate_no"] == "KCs-19-AB-0042"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"y2_mm": None}, "y2_mm", "Give y2 too"),
        ({"x2_mm": 1000}, "x2_mm", "same point"),
        ({"detection_lower_mm": 1800}, "detection_lower_mm", "lowest beam"),
        ({"detection_upper_mm": 3001}, "detection_upper_mm", "highest beam"),
        ({"x1_mm": 100_001}, "x1_mm", "100000"),
        ({"y1_mm": -100_001}, "y1_mm", "-100000"),
        ({"x2_mm": 1e300}, "x2_mm", "valid integer"),
        ({"y2_mm": 10**300}, "y2_mm", "100000"),
        ({"kind": "emergency_stop"}, "x1_mm", "Leave x1 empty"),
        ({"kind": "laser_scanner"}, "x2_mm", "Leave x2 empty"),
        ({"iec61496_type": 5}, "iec61496_type", "not a valid choice"),
        ({"kcs_certificate_no": "x" * 41}, "kcs_certificate_no", "40"),
    ],
)
def test_bad_placement_or_heights_are_a_400_naming_the_field(
    owner_api, cell, change, field, words
):
    response = owner_api.post(
        list_url("device"), device_body(cell, **{**CURTAIN, **change}), format="json"
    )

    assert response.status_code == 400
    assert words in str(response.data[field])
    assert not Device.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"kind": "safety_mat", "x2_mm": 1000}, "x2_mm", "no width"),
        ({"kind": "safety_mat"}, "y2_mm", "no depth"),
        (
            {"kind": "laser_scanner", "x2_mm": None, "y2_mm": None, "y1_mm": None},
            "y1_mm",
            "Give y1 too",
        ),
    ],
)
def test_bad_mat_or_scanner_is_a_400_naming_the_field(
    owner_api, cell, change, field, words
):
    body = device_body(
        cell, **{**CURTAIN, "detection_lower_mm": None, "detection_upper_mm": None}
    )
    response = owner_api.post(list_url("device"), {**body, **change}, format="json")

    assert response.status_code == 400
    assert words in str(response.data[field])


def test_scanner_field_above_1000_mm_is_a_400(owner_api, cell):
    response = owner_api.post(
        list_url("device"),
        device_body(cell, kind="laser_scanner", field_height_mm=1001),
        format="json",
    )

    assert response.status_code == 400
    assert "1,000 mm" in str(response.data["field_height_mm"])


def test_moving_one_end_onto_the_other_is_refused(owner_api, cell):
    device = Device.objects.create(
        cell=cell, kind="light_curtain", label="LC", **CURTAIN
    )

    response = owner_api.patch(
        detail_url("device", device.pk), {"x2_mm": 1000}, format="json"
    )

    assert response.status_code == 400
    assert "same point" in str(response.data["x2_mm"])
    device.refresh_from_db()
    assert device.x2_mm == 1800


# Cells, segments, stations -----------------------------------------------------


def test_cell_records_its_tooling_and_the_radius_follows(owner_api, project):
    response = owner_api.post(
        list_url("cell"),
        cell_body(
            project,
            reach_mm=1700,
            end_effector_mm=250,
            workpiece_mm=400,
            hazard_zone_height_mm=2200,
            hazard_zone_lower_mm=300,
        ),
        format="json",
    )

    assert response.status_code == 201, response.data
    cell = Cell.objects.get(pk=response.data["id"])
    assert cell.hazard_zone_effective_radius_mm == 2350
    assert (response.data["hazard_zone_lower_mm"], response.data["workpiece_mm"]) == (
        300,
        400,
    )


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            {"hazard_zone_height_mm": 1400, "hazard_zone_lower_mm": 1400},
            "hazard_zone_lower_mm",
            "lowest point of the hazard zone",
        ),
        ({"end_effector_mm": 100_001}, "end_effector_mm", "100000"),
        ({"workpiece_mm": -1}, "workpiece_mm", "greater than or equal to 0"),
        ({"robot_base_x_mm": 100_001}, "robot_base_x_mm", "100000"),
        ({"robot_base_y_mm": 1e300}, "robot_base_y_mm", "valid integer"),
        (
            {
                "hazard_zone_shape": "polygon",
                "hazard_zone_polygon_mm": [[0, 0], [100_001, 0], [0, 3000]],
            },
            "hazard_zone_polygon_mm",
            "100000",
        ),
        (
            {
                "hazard_zone_shape": "polygon",
                "hazard_zone_polygon_mm": [[0, 0], [10**300, 0], [0, 3000]],
            },
            "hazard_zone_polygon_mm",
            "100000",
        ),
    ],
)
def test_bad_cell_tooling_heights_or_coordinates_are_a_400(
    owner_api, project, change, field, words
):
    response = owner_api.post(
        list_url("cell"), cell_body(project, **change), format="json"
    )

    assert response.status_code == 400
    assert words in str(response.data[field])
    assert not Cell.objects.filter(name="Welder").exists()


def test_segment_records_the_gap_under_it(owner_api, cell):
    response = owner_api.post(
        list_url("guard-segment"), segment_body(cell, bottom_gap_mm=180), format="json"
    )

    assert response.status_code == 201
    assert GuardSegment.objects.get(pk=response.data["id"]).bottom_gap_mm == 180


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"bottom_gap_mm": 2000}, "bottom_gap_mm", "gap under the guard"),
        ({"start_x_mm": 100_001}, "start_x_mm", "100000"),
        ({"end_y_mm": 1e300}, "end_y_mm", "valid integer"),
        ({"end_x_mm": -(10**300)}, "end_x_mm", "-100000"),
    ],
)
def test_bad_segment_gap_or_coordinate_is_a_400(owner_api, cell, change, field, words):
    response = owner_api.post(
        list_url("guard-segment"), segment_body(cell, **change), format="json"
    )

    assert response.status_code == 400
    assert words in str(response.data[field])
    assert not GuardSegment.objects.filter(cell=cell).exists()


@pytest.mark.parametrize("value", [100_001, 1e300, 10**300])
def test_station_off_the_plan_is_a_400(owner_api, cell, value):
    response = owner_api.post(
        list_url("operator-station"), station_body(cell, x_mm=value), format="json"
    )

    assert response.status_code == 400
    assert "x_mm" in response.data
    assert not OperatorStation.objects.filter(cell=cell).exists()
