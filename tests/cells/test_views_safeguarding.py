"""The cell page's editors for what the safeguarding checks read: the tooling,
the hazard zone's heights, the gap under a guard, and each device's place and
heights; and the plan that shows them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.models import Cell, Device, GuardSegment
from tests.factories import DeviceFactory, OpeningFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def add_url(cell, kind):
    return reverse("cells:element_add", args=[cell.pk, kind])


def edit_url(cell, kind, pk):
    return reverse("cells:element_edit", args=[cell.pk, kind, pk])


def field_block(response, name: str) -> str:
    """The markup of one form field: its input, help text and errors."""
    html = response.text
    start = html.index(f'name="{name}"')
    end = html.find('\n  <div class="field', start)
    return html[start : end if end != -1 else len(html)]


def svg_of(response) -> str:
    text = response.text
    return text[text.index("<svg") : text.index("</svg>")]


CURTAIN = {
    "label": "LC1",
    "kind": "light_curtain",
    "iec61496_type": "4",
    "x1_mm": "1000",
    "y1_mm": "0",
    "x2_mm": "1800",
    "y2_mm": "0",
    "detection_lower_mm": "300",
    "detection_upper_mm": "1800",
}


def test_device_editor_offers_placement_heights_locking_and_certificate(
    owner_client, cell
):
    response = owner_client.get(add_url(cell, "device"), **HTMX)
    for name in (
        "x1_mm",
        "y1_mm",
        "x2_mm",
        "y2_mm",
        "detection_lower_mm",
        "detection_upper_mm",
        "field_height_mm",
        "guard_locking",
        "kcs_certificate_no",
    ):
        assert f'name="{name}"' in response.text
    assert '<option value="3">Type 3</option>' in response.text


def test_light_curtain_is_placed_and_drawn_as_its_detection_line(owner_client, cell):
    response = owner_client.post(add_url(cell, "device"), CURTAIN, **HTMX)

    assert response.status_code == 200
    device = Device.objects.get(cell=cell, label="LC1")
    assert (device.x1_mm, device.y1_mm, device.x2_mm, device.y2_mm) == (
        1000,
        0,
        1800,
        0,
    )
    assert (device.detection_lower_mm, device.detection_upper_mm) == (300, 1800)
    svg = svg_of(response)
    assert 'class="device curtain kind-light_curtain" data-label="LC1"' in svg
    assert "300–1,800 mm" in svg


def test_mat_and_scanner_are_drawn(owner_client, cell):
    owner_client.post(
        add_url(cell, "device"),
        {
            "label": "Mat",
            "kind": "safety_mat",
            "x1_mm": "0",
            "y1_mm": "-1200",
            "x2_mm": "1500",
            "y2_mm": "-300",
        },
    )
    owner_client.post(
        add_url(cell, "device"),
        {
            "label": "Scan",
            "kind": "laser_scanner",
            "iec61496_type": "3",
            "x1_mm": "3500",
            "y1_mm": "-500",
            "field_height_mm": "200",
        },
    )

    svg = svg_of(owner_client.get(reverse("cells:cell_detail", args=[cell.pk])))
    assert 'class="device mat" data-label="Mat"' in svg
    assert "1,500 × 900 mm" in svg
    assert 'class="device scanner" data-label="Scan"' in svg
    assert Device.objects.get(label="Scan").iec61496_type == 3


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"y2_mm": ""}, "y2_mm", "Give y2 too"),
        ({"x2_mm": "1000"}, "x2_mm", "same point"),
        ({"detection_lower_mm": "1800"}, "detection_lower_mm", "lowest beam"),
        ({"detection_upper_mm": "3001"}, "detection_upper_mm", "highest beam"),
        ({"x1_mm": "1e300"}, "x1_mm", "Enter a whole number"),
        ({"x1_mm": "100001"}, "x1_mm", "Keep within 100 m"),
        ({"y1_mm": "-100001"}, "y1_mm", "Keep within 100 m"),
        ({"kind": "emergency_stop"}, "x1_mm", "Leave x1 empty"),
        ({"kind": "laser_scanner"}, "x2_mm", "Leave x2 empty"),
        ({"iec61496_type": "5"}, "iec61496_type", "not one of the available"),
    ],
)
def test_bad_device_gets_a_form_error_on_its_field_and_nothing_is_saved(
    owner_client, cell, change, field, message
):
    response = owner_client.post(add_url(cell, "device"), {**CURTAIN, **change}, **HTMX)

    assert response.status_code == 200
    assert message in response.text
    assert message in field_block(response, field)
    assert not Device.objects.filter(cell=cell).exists()


def test_scanner_field_higher_than_1000_mm_is_a_form_error(owner_client, cell):
    response = owner_client.post(
        add_url(cell, "device"),
        {"label": "S", "kind": "laser_scanner", "field_height_mm": "1001"},
        **HTMX,
    )
    assert "protective field height can be at most 1,000 mm" in response.text
    assert not Device.objects.exists()


def test_guard_locking_and_certificate_number_are_saved(owner_client, cell):
    opening = OpeningFactory(segment__cell=cell, purpose="maintenance_door")
    owner_client.post(
        add_url(cell, "device"),
        {
            "label": "Door",
            "kind": "interlocked_door",
            "opening": str(opening.pk),
            "guard_locking": "on",
            "kcs_certified": "true",
            "kcs_certificate_no": "KCs-19-AB-0042",
        },
    )
    door = Device.objects.get(label="Door")
    assert (door.guard_locking, door.kcs_certified, door.kcs_certificate_no) == (
        True,
        True,
        "KCs-19-AB-0042",
    )


def test_device_being_edited_is_highlighted_on_the_plan(owner_client, cell):
    DeviceFactory(cell=cell, label="Other", kind="emergency_stop")
    curtain = DeviceFactory(
        cell=cell, label="LC9", x1_mm=0, y1_mm=0, x2_mm=900, y2_mm=0
    )

    response = owner_client.get(edit_url(cell, "device", curtain.pk), **HTMX)

    assert 'class="device curtain kind-light_curtain selected" data-label="LC9"' in (
        response.text
    )


def test_device_labels_are_escaped_on_the_plan(owner_client, cell):
    DeviceFactory(
        cell=cell,
        label='<script>alert("x")</script>',
        x1_mm=0,
        y1_mm=0,
        x2_mm=900,
        y2_mm=0,
    )
    svg = svg_of(owner_client.get(reverse("cells:cell_detail", args=[cell.pk])))
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg


@pytest.mark.parametrize("device_count", [3, 30])
def test_cell_page_with_placed_devices_makes_a_fixed_number_of_queries(
    owner_client, cell, device_count, django_assert_max_num_queries
):
    opening = OpeningFactory(segment__cell=cell)
    for i in range(device_count):
        DeviceFactory(
            cell=cell, opening=opening, x1_mm=0, y1_mm=i * 10, x2_mm=900, y2_mm=i * 10
        )
    # Nine: the page lists the cell's certificates too; ten: the risk
    # assessment, for the minimum distances drawn on the plan.
    # One more query since cells have safety functions (none here).
    with django_assert_max_num_queries(11):
        response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert response.text.count('class="device curtain') == device_count


# The robot, its tooling and the hazard zone -----------------------------------------


CELL = {
    "name": "Palletiser B",
    "application": "palletising",
    "robot_manufacturer": "Acme",
    "robot_model": "R-170",
    "robot_kind": "industrial",
    "payload_kg": "170",
    "reach_mm": "1700",
    "max_tcp_speed_mm_s": "2000",
    "moving_mass_kg": "900",
    "robot_base_x_mm": "0",
    "robot_base_y_mm": "0",
}


def test_tooling_adds_to_the_hazard_zone_drawn(owner_client, project):
    owner_client.post(
        reverse("cells:cell_create", args=[project.pk]),
        {**CELL, "end_effector_mm": "250", "workpiece_mm": "400"},
    )
    cell = Cell.objects.get(name="Palletiser B")
    assert cell.hazard_zone_effective_radius_mm == 2350

    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert 'r="2350.0"' in svg_of(response)
    assert "r 2,350 mm" in svg_of(response)
    assert "reach 1,700 + end effector 250 + workpiece 400 mm" in response.text


def test_tooling_and_hazard_lower_point_left_empty_are_zero(owner_client, project):
    response = owner_client.post(
        reverse("cells:cell_create", args=[project.pk]),
        {**CELL, "end_effector_mm": "", "workpiece_mm": "", "hazard_zone_lower_mm": ""},
    )
    assert response.status_code == 302
    cell = Cell.objects.get(name="Palletiser B")
    assert (cell.end_effector_mm, cell.workpiece_mm, cell.hazard_zone_lower_mm) == (
        0,
        0,
        0,
    )


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"hazard_zone_height_mm": "1400", "hazard_zone_lower_mm": "1400"},
            "hazard_zone_lower_mm",
            "lowest point of the hazard zone (1400 mm) must be below",
        ),
        ({"end_effector_mm": "100001"}, "end_effector_mm", "At most 100,000 mm"),
        ({"workpiece_mm": "-5"}, "workpiece_mm", "greater than or equal to 0"),
        ({"robot_base_x_mm": "1e300"}, "robot_base_x_mm", "Enter a whole number"),
        ({"robot_base_y_mm": "100001"}, "robot_base_y_mm", "Keep within 100 m"),
    ],
)
def test_bad_tooling_or_hazard_heights_are_form_errors(
    owner_client, project, change, field, message
):
    response = owner_client.post(
        reverse("cells:cell_create", args=[project.pk]), {**CELL, **change}
    )
    assert response.status_code == 200
    assert message in field_block(response, field)
    assert not Cell.objects.filter(name="Palletiser B").exists()


def test_hazard_lower_point_below_its_height_is_saved(owner_client, project):
    owner_client.post(
        reverse("cells:cell_create", args=[project.pk]),
        {**CELL, "hazard_zone_height_mm": "2200", "hazard_zone_lower_mm": "300"},
    )
    cell = Cell.objects.get(name="Palletiser B")
    assert (cell.hazard_zone_lower_mm, cell.hazard_zone_height_mm) == (300, 2200)


@pytest.mark.parametrize(
    "line", ["1e999, 0", "100001, 0", "1e300, 0"], ids=["inf", "over", "huge"]
)
def test_hazard_polygon_corner_off_the_plan_is_a_form_error(owner_client, cell, line):
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 0,
            "robot_base_y_mm": 0,
            "hazard_zone_shape": "polygon",
            "hazard_zone_polygon_mm": f"0, 0\n{line}\n0, 3000",
        },
        **HTMX,
    )
    assert response.status_code == 200
    assert 'class="field has-error' in response.text
    cell.refresh_from_db()
    assert cell.hazard_zone_polygon_mm == []


# The gap under a guard -----------------------------------------------------------


SEGMENT = {
    "label": "F9",
    "kind": "fence",
    "start_x_mm": 0,
    "start_y_mm": 3000,
    "end_x_mm": 2500,
    "end_y_mm": 3000,
    "height_mm": 1800,
}


def test_segment_gap_under_the_guard_is_saved(owner_client, cell):
    owner_client.post(add_url(cell, "segment"), {**SEGMENT, "bottom_gap_mm": "180"})
    assert GuardSegment.objects.get(cell=cell).bottom_gap_mm == 180


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"bottom_gap_mm": "1800"}, "bottom_gap_mm", "gap under the guard (1800 mm)"),
        ({"start_x_mm": "100001"}, "start_x_mm", "Keep within 100 m"),
        ({"end_y_mm": "1e300"}, "end_y_mm", "Enter a whole number"),
    ],
)
def test_bad_segment_gap_or_coordinate_is_a_form_error(
    owner_client, cell, change, field, message
):
    response = owner_client.post(
        add_url(cell, "segment"), {**SEGMENT, **change}, **HTMX
    )
    assert message in field_block(response, field)
    assert not GuardSegment.objects.filter(cell=cell).exists()


def test_station_off_the_plan_is_a_form_error(owner_client, cell):
    response = owner_client.post(
        add_url(cell, "station"), {"label": "HMI", "x_mm": "100001", "y_mm": "0"}
    )
    assert "Keep within 100 m" in response.text


def test_robot_and_segment_editors_offer_the_new_lengths(owner_client, cell):
    robot = owner_client.get(reverse("cells:cell_edit", args=[cell.pk]))
    for name in ("end_effector_mm", "workpiece_mm", "hazard_zone_lower_mm"):
        assert f'name="{name}"' in robot.text
    segment = owner_client.get(add_url(cell, "segment"), **HTMX)
    assert 'name="bottom_gap_mm"' in segment.text
