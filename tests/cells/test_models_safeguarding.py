"""What the safeguarding checks read from the drawn layout: the tooling beyond
the flange, the hazard zone's heights, the gap under a guard, and where each
device is on the plan. Each rule is in ``clean()`` (and in the database where
simple); each message names the field it is about."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cells.models import (
    COORDINATE_LIMIT_MM,
    Cell,
    Device,
    GuardSegment,
    OperatorStation,
)
from tests.factories import CellFactory, DeviceFactory, GuardSegmentFactory

pytestmark = pytest.mark.django_db

LINE = {"x1_mm": 1000, "y1_mm": -200, "x2_mm": 1800, "y2_mm": -200}


def errors_of(instance) -> dict[str, list[str]]:
    """The messages of ``full_clean()`` by field; empty when valid."""
    try:
        instance.full_clean(validate_unique=False)
    except ValidationError as exc:
        return exc.message_dict
    return {}


# The hazard zone -------------------------------------------------------------


def test_effective_radius_is_reach_plus_end_effector_plus_workpiece(project):
    cell = CellFactory(
        project=project, reach_mm=1700, end_effector_mm=250, workpiece_mm=400
    )
    assert cell.hazard_zone_effective_radius_mm == 2350


def test_a_drawn_radius_wins_over_the_robots_maximum_space(project):
    cell = CellFactory(
        project=project,
        reach_mm=1700,
        end_effector_mm=250,
        workpiece_mm=400,
        hazard_zone_radius_mm=3000,
    )
    assert cell.hazard_zone_effective_radius_mm == 3000


def test_tooling_defaults_to_nothing_beyond_the_flange(project):
    cell = CellFactory(project=project, reach_mm=1400)
    assert (cell.end_effector_mm, cell.workpiece_mm, cell.hazard_zone_lower_mm) == (
        0,
        0,
        0,
    )
    assert cell.hazard_zone_effective_radius_mm == 1400


def test_hazard_zone_lower_point_must_be_below_its_height(cell):
    cell.hazard_zone_height_mm, cell.hazard_zone_lower_mm = 1400, 1400
    errors = errors_of(cell)
    assert list(errors) == ["hazard_zone_lower_mm"]
    assert "lowest point of the hazard zone" in errors["hazard_zone_lower_mm"][0]

    cell.hazard_zone_lower_mm = 300
    assert errors_of(cell) == {}


def test_hazard_zone_lower_point_without_a_height_is_accepted(cell):
    cell.hazard_zone_height_mm, cell.hazard_zone_lower_mm = None, 500
    assert errors_of(cell) == {}


def test_database_refuses_a_hazard_zone_lower_than_it_is_high(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        Cell.objects.filter(pk=cell.pk).update(
            hazard_zone_height_mm=1000, hazard_zone_lower_mm=1200
        )


@pytest.mark.parametrize("field", ["end_effector_mm", "workpiece_mm"])
def test_tooling_longer_than_the_plan_is_refused(cell, field):
    setattr(cell, field, COORDINATE_LIMIT_MM + 1)
    assert list(errors_of(cell)) == [field]
    setattr(cell, field, 250)
    assert errors_of(cell) == {}


# The gap under a guard -----------------------------------------------------------


def test_bottom_gap_must_be_below_the_guard_height(segment):
    segment.bottom_gap_mm = segment.height_mm
    errors = errors_of(segment)
    assert list(errors) == ["bottom_gap_mm"]
    assert "gap under the guard" in errors["bottom_gap_mm"][0]

    segment.bottom_gap_mm = 150
    assert errors_of(segment) == {}


def test_database_refuses_a_bottom_gap_as_high_as_the_guard(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        GuardSegmentFactory(cell=cell, height_mm=1800, bottom_gap_mm=1800)


# Coordinates stay on the plan --------------------------------------------------


def placed(cell, model: str):
    """A valid object of ``model`` with every coordinate set."""
    if model == "segment":
        return GuardSegment(
            cell=cell,
            start_x_mm=0,
            start_y_mm=0,
            end_x_mm=4000,
            end_y_mm=0,
            height_mm=1800,
        )
    if model == "station":
        return OperatorStation(cell=cell, label="HMI", x_mm=0, y_mm=-800)
    if model == "device":
        return Device(cell=cell, kind="multibeam", label="G", **LINE)
    return cell


@pytest.mark.parametrize("value", [COORDINATE_LIMIT_MM + 1, -COORDINATE_LIMIT_MM - 1])
@pytest.mark.parametrize(
    ("model", "field"),
    [
        ("segment", "start_x_mm"),
        ("segment", "end_y_mm"),
        ("station", "x_mm"),
        ("station", "y_mm"),
        ("cell", "robot_base_x_mm"),
        ("cell", "robot_base_y_mm"),
        ("device", "x1_mm"),
        ("device", "y2_mm"),
    ],
)
def test_a_coordinate_beyond_100_m_is_refused(cell, model, field, value):
    instance = placed(cell, model)
    assert errors_of(instance) == {}

    setattr(instance, field, value)
    errors = errors_of(instance)
    assert field in errors
    assert "100 m" in errors[field][0]

    setattr(instance, field, COORDINATE_LIMIT_MM if value > 0 else -COORDINATE_LIMIT_MM)
    assert field not in errors_of(instance)


def test_a_polygon_corner_beyond_100_m_is_refused(cell):
    cell.hazard_zone_shape = "polygon"
    cell.hazard_zone_polygon_mm = [[0, 0], [COORDINATE_LIMIT_MM + 1, 0], [0, 3000]]
    errors = errors_of(cell)
    assert "beyond 100 m" in errors["hazard_zone_polygon_mm"][0]

    cell.hazard_zone_polygon_mm = [[0, 0], [COORDINATE_LIMIT_MM, 0], [0, 3000]]
    assert errors_of(cell) == {}


def test_a_huge_polygon_corner_is_refused_even_for_a_circle(cell):
    cell.hazard_zone_polygon_mm = [[0, 0], [10**300, 0], [0, 3000]]
    assert "hazard_zone_polygon_mm" in errors_of(cell)


def test_database_refuses_a_device_off_the_plan(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        DeviceFactory(
            cell=cell, kind="laser_scanner", x1_mm=COORDINATE_LIMIT_MM + 1, y1_mm=0
        )


# Where a device is on the plan ---------------------------------------------------


def device(cell, kind: str, **fields) -> Device:
    return Device(cell=cell, kind=kind, label="D1", **fields)


@pytest.mark.parametrize("kind", ["light_curtain", "multibeam", "safety_mat"])
@pytest.mark.parametrize("missing", ["x1_mm", "y1_mm", "x2_mm", "y2_mm"])
def test_a_line_or_mat_needs_both_points_or_none(cell, kind, missing):
    placed = {**LINE, "y2_mm": 400}
    errors = errors_of(device(cell, kind, **{**placed, missing: None}))
    assert list(errors) == [missing]
    assert f"Give {missing.removesuffix('_mm')} too" in errors[missing][0]

    assert errors_of(device(cell, kind, **placed)) == {}
    assert errors_of(device(cell, kind)) == {}


@pytest.mark.parametrize("kind", ["light_curtain", "multibeam"])
def test_a_detection_line_cannot_be_a_single_point(cell, kind):
    errors = errors_of(device(cell, kind, **{**LINE, "x2_mm": 1000, "y2_mm": -200}))
    assert list(errors) == ["x2_mm"]
    assert "same point" in errors["x2_mm"][0]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [({"x2_mm": 1000}, "x2_mm", "no width"), ({"y2_mm": -200}, "y2_mm", "no depth")],
)
def test_a_mat_needs_width_and_depth(cell, change, field, words):
    corners = {**LINE, "y2_mm": 400}
    errors = errors_of(device(cell, "safety_mat", **{**corners, **change}))
    assert list(errors) == [field]
    assert words in errors[field][0]


def test_a_scanner_is_placed_by_one_point(cell):
    assert errors_of(device(cell, "laser_scanner", x1_mm=500, y1_mm=-300)) == {}
    assert errors_of(device(cell, "laser_scanner")) == {}

    errors = errors_of(device(cell, "laser_scanner", x1_mm=500))
    assert list(errors) == ["y1_mm"]
    assert "Give y1 too" in errors["y1_mm"][0]

    errors = errors_of(device(cell, "laser_scanner", **LINE))
    assert sorted(errors) == ["x2_mm", "y2_mm"]
    assert "Leave x2 empty" in errors["x2_mm"][0]


@pytest.mark.parametrize(
    "kind",
    [
        "interlocked_door",
        "emergency_stop",
        "enabling_device",
        "safety_controller",
        "other",
    ],
)
def test_other_kinds_are_not_placed(cell, kind):
    errors = errors_of(device(cell, kind, x1_mm=100))
    assert list(errors) == ["x1_mm"]
    assert "Leave x1 empty" in errors["x1_mm"][0]
    assert errors_of(device(cell, kind)) == {}


# Heights of beams and fields -----------------------------------------------------


def test_the_lowest_beam_must_be_below_the_highest(cell):
    errors = errors_of(
        device(cell, "light_curtain", detection_lower_mm=900, detection_upper_mm=900)
    )
    assert list(errors) == ["detection_lower_mm"]
    assert "lowest beam" in errors["detection_lower_mm"][0]

    ok = device(cell, "light_curtain", detection_lower_mm=300, detection_upper_mm=1800)
    assert errors_of(ok) == {}


def test_the_highest_beam_is_at_most_3000_mm(cell):
    errors = errors_of(device(cell, "multibeam", detection_upper_mm=3001))
    assert list(errors) == ["detection_upper_mm"]
    assert "highest beam" in errors["detection_upper_mm"][0]
    assert errors_of(device(cell, "multibeam", detection_upper_mm=3000)) == {}


def test_a_scanner_field_is_at_most_1000_mm_high(cell):
    errors = errors_of(device(cell, "laser_scanner", field_height_mm=1001))
    assert list(errors) == ["field_height_mm"]
    assert "protective field height" in errors["field_height_mm"][0]
    assert errors_of(device(cell, "laser_scanner", field_height_mm=1000)) == {}


@pytest.mark.parametrize(
    "fields",
    [
        {"detection_lower_mm": 1000, "detection_upper_mm": 500},
        {"detection_upper_mm": 3001},
        {"field_height_mm": 1001},
        {"iec61496_type": 5},
    ],
)
def test_database_refuses_impossible_device_heights_and_types(cell, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        DeviceFactory(cell=cell, **fields)


def test_iec61496_type_3_is_a_choice(cell):
    assert errors_of(device(cell, "laser_scanner", iec61496_type=3)) == {}
    assert "iec61496_type" in errors_of(device(cell, "laser_scanner", iec61496_type=5))


def test_guard_locking_and_the_kcs_certificate_are_recorded(cell):
    door = DeviceFactory(
        cell=cell,
        kind="interlocked_door",
        guard_locking=True,
        kcs_certified=True,
        kcs_certificate_no="KCs-2024-0123",
    )
    door.refresh_from_db()
    assert (door.guard_locking, door.kcs_certificate_no) == (True, "KCs-2024-0123")
    door.kcs_certificate_no = "x" * 41
    assert "kcs_certificate_no" in errors_of(door)
