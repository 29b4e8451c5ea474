"""Every figure of a cell is bounded within a plant's size, and every list of
elements is capped: a bound breached is a 400 (or a form error) naming the
field, nothing is saved, and the database refuses it too."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from cells.exchange import (
    MAX_DEVICES,
    MAX_GUARD_SEGMENTS,
    MAX_OPENINGS,
    MAX_OPERATOR_STATIONS,
    POLYGON_MAX_CORNERS,
)
from cells.forms import HazardZoneForm
from cells.models import Cell, Device, GuardSegment, Opening, OperatorStation
from tests.cells.api.support import (
    detail_url,
    device_body,
    list_url,
    opening_body,
    segment_body,
    station_body,
)
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

# One bound for the whole plan: 100 m (cells.exchange.COORDINATE_LIMIT_MM).
PAST_THE_PLAN = 100_001
CORNERS = POLYGON_MAX_CORNERS


def _patch(api, basename, pk, body):
    return api.patch(
        detail_url(basename, pk), json.dumps(body), content_type="application/json"
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("reach_mm", PAST_THE_PLAN),
        ("reach_mm", 2_000_000_000),
        ("hazard_zone_radius_mm", PAST_THE_PLAN),
        ("hazard_zone_height_mm", PAST_THE_PLAN),
        ("hazard_zone_lower_mm", PAST_THE_PLAN),
        ("stopping_distance_mm", PAST_THE_PLAN),
        ("end_effector_mm", PAST_THE_PLAN),
        ("robot_base_x_mm", -PAST_THE_PLAN),
        ("stopping_time_ms", 60_001),  # a minute: cells.exchange.TIME_LIMIT_MS
        ("stopping_time_ms", 0),  # a robot that stops in no time is a slip
        ("max_tcp_speed_mm_s", 20_001),  # 20 m/s: cells.exchange.SPEED_LIMIT_MM_S
        ("programmed_speed_mm_s", 20_001),
        ("programmed_speed_mm_s", 0),
    ],
)
def test_a_cell_figure_past_its_bound_is_refused_by_name(owner_api, cell, field, value):
    before = getattr(cell, field)

    response = _patch(owner_api, "cell", cell.pk, {field: value})

    assert response.status_code == 400
    assert field in response.data
    cell.refresh_from_db()
    assert getattr(cell, field) == before


def test_a_cell_at_its_bounds_is_kept(owner_api, cell):
    response = _patch(
        owner_api,
        "cell",
        cell.pk,
        {
            "reach_mm": 100_000,
            "hazard_zone_radius_mm": 100_000,
            "stopping_time_ms": 60_000,
            "max_tcp_speed_mm_s": 20_000,
        },
    )

    assert response.status_code == 200, response.data


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("height_mm", PAST_THE_PLAN),
        ("height_mm", 2_000_000_000),
        ("bottom_gap_mm", PAST_THE_PLAN),
        ("mesh_opening_mm", PAST_THE_PLAN),
        ("mesh_opening_mm", 0),
        ("end_x_mm", PAST_THE_PLAN),
    ],
)
def test_a_segment_figure_past_its_bound_is_refused_by_name(
    owner_api, segment, field, value
):
    before = getattr(segment, field)

    response = _patch(owner_api, "guard-segment", segment.pk, {field: value})

    assert response.status_code == 400
    assert field in response.data
    segment.refresh_from_db()
    assert getattr(segment, field) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("offset_mm", PAST_THE_PLAN),
        ("width_mm", PAST_THE_PLAN),
        ("lower_edge_mm", PAST_THE_PLAN),
        ("upper_edge_mm", PAST_THE_PLAN),
    ],
)
def test_an_opening_figure_past_its_bound_is_refused_by_name(
    owner_api, opening, field, value
):
    before = getattr(opening, field)

    response = _patch(owner_api, "opening", opening.pk, {field: value})

    assert response.status_code == 400
    assert field in response.data
    opening.refresh_from_db()
    assert getattr(opening, field) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("response_time_ms", 60_001),
        ("detection_capability_mm", PAST_THE_PLAN),
        ("protective_field_mm", PAST_THE_PLAN),
        ("detection_lower_mm", PAST_THE_PLAN),
        ("beam_count", 1_001),  # cells.exchange.BEAM_COUNT_LIMIT
    ],
)
def test_a_device_figure_past_its_bound_is_refused_by_name(
    owner_api, cell, field, value
):
    device = DeviceFactory(cell=cell)
    before = getattr(device, field)

    response = _patch(owner_api, "device", device.pk, {field: value})

    assert response.status_code == 400
    assert field in response.data
    device.refresh_from_db()
    assert getattr(device, field) == before


@pytest.mark.parametrize(
    ("model", "field", "value"),
    [
        (Cell, "reach_mm", PAST_THE_PLAN),
        (Cell, "hazard_zone_radius_mm", 2_000_000_000),
        (Cell, "robot_base_y_mm", PAST_THE_PLAN),
        (Cell, "stopping_time_ms", 60_001),
        (Cell, "max_tcp_speed_mm_s", 20_001),
        (GuardSegment, "start_x_mm", -PAST_THE_PLAN),
        (GuardSegment, "height_mm", PAST_THE_PLAN),
        (Opening, "width_mm", PAST_THE_PLAN),
        (OperatorStation, "x_mm", PAST_THE_PLAN),
        (Device, "response_time_ms", 60_001),
        (Device, "protective_field_mm", PAST_THE_PLAN),
    ],
)
def test_the_database_refuses_a_figure_past_its_bound(
    cell, opening, station, model, field, value
):
    instance = {
        Cell: cell,
        GuardSegment: opening.segment,
        Opening: opening,
        OperatorStation: station,
        Device: DeviceFactory(cell=cell),
    }[model]

    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=instance.pk).update(**{field: value})


# --- The hazard zone's corners ---------------------------------------------------


def _circle_outline(corners: int) -> list[list[int]]:
    """A convex outline of ``corners`` distinct corners (a regular polygon)."""
    import math

    return [
        [
            round(50_000 * math.cos(2 * math.pi * k / corners)),
            round(50_000 * math.sin(2 * math.pi * k / corners)),
        ]
        for k in range(corners)
    ]


def test_a_polygon_of_as_many_corners_as_allowed_is_kept(owner_api, cell):
    outline = _circle_outline(CORNERS)

    response = _patch(
        owner_api,
        "cell",
        cell.pk,
        {"hazard_zone_shape": "polygon", "hazard_zone_polygon_mm": outline},
    )

    assert response.status_code == 200, response.data
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == outline


@pytest.mark.parametrize("corners", [CORNERS + 1, 10_000])
def test_a_polygon_of_more_corners_than_allowed_is_refused_by_name(
    owner_api, cell, corners
):
    # 10,000 corners (a 200 KB body) used to take 30 s and answer 500: the
    # count is refused before any geometry is looked at.
    response = _patch(
        owner_api,
        "cell",
        cell.pk,
        {
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": _circle_outline(corners),
        },
    )

    assert response.status_code == 400
    assert str(CORNERS) in str(response.data["hazard_zone_polygon_mm"])
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == []


def test_the_model_refuses_too_many_corners_whatever_the_shape(cell):
    cell.hazard_zone_polygon_mm = _circle_outline(CORNERS + 1)

    with pytest.raises(Exception) as caught:
        cell.full_clean()

    assert "hazard_zone_polygon_mm" in caught.value.message_dict


def test_the_database_refuses_too_many_corners(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        Cell.objects.filter(pk=cell.pk).update(
            hazard_zone_polygon_mm=_circle_outline(CORNERS + 1)
        )


def test_the_zone_form_refuses_too_many_corners(cell):
    lines = "\n".join(f"{x}, {y}" for x, y in _circle_outline(CORNERS + 1))
    form = HazardZoneForm(
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": lines,
        },
        instance=cell,
        cell=cell,
    )

    assert not form.is_valid()
    assert str(CORNERS) in str(form.errors["hazard_zone_polygon_mm"])


def test_the_zone_form_refuses_deeply_nested_json_without_crashing(cell):
    form = HazardZoneForm(
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": "[" * 5000 + "]" * 5000,
        },
        instance=cell,
        cell=cell,
    )

    assert not form.is_valid()
    assert "hazard_zone_polygon_mm" in form.errors


def test_the_zone_page_refuses_deeply_nested_json(owner_client, cell):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": "[" * 5000 + "]" * 5000,
        },
    )

    assert response.status_code == 200  # the form again, with its error
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == []


# --- Elements per cell ------------------------------------------------------------


def _fill(model, count, **values):
    model.objects.bulk_create([model(**values) for _ in range(count)])


def test_a_cell_holds_at_most_its_cap_of_guard_segments(owner_api, cell):
    _fill(
        GuardSegment,
        MAX_GUARD_SEGMENTS,
        cell=cell,
        start_x_mm=0,
        start_y_mm=0,
        end_x_mm=1000,
        end_y_mm=0,
        height_mm=1400,
    )

    response = owner_api.post(
        list_url("guard-segment"), segment_body(cell), format="json"
    )

    assert response.status_code == 400
    assert str(MAX_GUARD_SEGMENTS) in str(response.data["cell"])
    assert GuardSegment.objects.filter(cell=cell).count() == MAX_GUARD_SEGMENTS


def test_a_cell_holds_at_most_its_cap_of_openings(owner_api, cell):
    segments = [
        GuardSegment(
            cell=cell,
            start_x_mm=0,
            start_y_mm=1000 * k,
            end_x_mm=50_000,
            end_y_mm=1000 * k,
            height_mm=2000,
        )
        for k in range(2)
    ]
    GuardSegment.objects.bulk_create(segments)
    first, second = GuardSegment.objects.filter(cell=cell).order_by("id")
    Opening.objects.bulk_create(
        Opening(
            segment=first if k % 2 else second,
            offset_mm=(k // 2) * 400,
            width_mm=300,
            upper_edge_mm=1000,
        )
        for k in range(MAX_OPENINGS)
    )

    response = owner_api.post(
        list_url("opening"), opening_body(second, offset_mm=45_000), format="json"
    )

    assert response.status_code == 400
    assert str(MAX_OPENINGS) in str(response.data["segment"])
    assert Opening.objects.filter(segment__cell=cell).count() == MAX_OPENINGS


def test_a_cell_holds_at_most_its_cap_of_devices(owner_api, cell):
    _fill(Device, MAX_DEVICES, cell=cell, kind="emergency_stop", label="E-stop")

    response = owner_api.post(list_url("device"), device_body(cell), format="json")

    assert response.status_code == 400
    assert str(MAX_DEVICES) in str(response.data["cell"])
    assert Device.objects.filter(cell=cell).count() == MAX_DEVICES


def test_a_cell_holds_at_most_its_cap_of_operator_stations(owner_api, cell):
    _fill(
        OperatorStation,
        MAX_OPERATOR_STATIONS,
        cell=cell,
        label="Loading",
        x_mm=0,
        y_mm=0,
    )

    response = owner_api.post(
        list_url("operator-station"), station_body(cell), format="json"
    )

    assert response.status_code == 400
    assert str(MAX_OPERATOR_STATIONS) in str(response.data["cell"])
    assert OperatorStation.objects.filter(cell=cell).count() == MAX_OPERATOR_STATIONS


def test_changing_an_element_of_a_full_cell_is_allowed(owner_api, cell):
    _fill(
        OperatorStation,
        MAX_OPERATOR_STATIONS - 1,
        cell=cell,
        label="Loading",
        x_mm=0,
        y_mm=0,
    )
    station = OperatorStation.objects.create(cell=cell, label="HMI", x_mm=0, y_mm=0)

    response = _patch(owner_api, "operator-station", station.pk, {"x_mm": 500})

    assert response.status_code == 200, response.data


def test_a_full_cell_takes_no_element_on_the_page_either(owner_client, cell):
    _fill(
        OperatorStation,
        MAX_OPERATOR_STATIONS,
        cell=cell,
        label="Loading",
        x_mm=0,
        y_mm=0,
    )

    response = owner_client.post(
        reverse("cells:element_add", args=[cell.pk, "station"]),
        {"label": "One more", "x_mm": 0, "y_mm": 0},
    )

    assert response.status_code == 200
    assert f"at most {MAX_OPERATOR_STATIONS}" in response.content.decode()
    assert OperatorStation.objects.filter(cell=cell).count() == MAX_OPERATOR_STATIONS


def test_an_opening_moved_to_a_full_cell_is_refused(owner_api, cell, project):
    other = GuardSegmentFactory(cell__project=project, end_x_mm=50_000)
    Opening.objects.bulk_create(
        Opening(segment=other, offset_mm=k * 200, width_mm=100, upper_edge_mm=1000)
        for k in range(MAX_OPENINGS)
    )
    opening = OpeningFactory(segment__cell=cell)

    response = _patch(
        owner_api, "opening", opening.pk, {"segment": other.pk, "offset_mm": 45_000}
    )

    assert response.status_code == 400
    assert "segment" in response.data
