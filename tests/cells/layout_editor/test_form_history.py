"""Saves and deletes made in the forms beside the plan go on the plan's undo
stack, so Ctrl+Z takes back a typed change as it takes back a drawn one; and
default labels are never given out twice."""

from __future__ import annotations

import json

from django.urls import reverse

from cells.layout_editor import services
from cells.models import Device, GuardSegment, Opening, OperatorStation
from tests.factories import (
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, cell, operation, **data):
    body = {k: json.dumps(v) if isinstance(v, list) else v for k, v in data.items()}
    return client.post(
        reverse("cells:plan_edit", args=[cell.pk, operation]), body, **HTMX
    )


SEGMENT = {
    "label": "F1",
    "kind": "fence",
    "start_x_mm": 0,
    "start_y_mm": 0,
    "end_x_mm": 3000,
    "end_y_mm": 0,
    "height_mm": 1800,
}


def test_a_segment_saved_in_its_form_is_undone_and_redone(owner_client, cell):
    segment = GuardSegmentFactory(cell=cell, **SEGMENT)
    response = owner_client.post(
        reverse("cells:element_edit", args=[cell.pk, "segment", segment.pk]),
        {**SEGMENT, "label": "North fence", "end_x_mm": 4200, "height_mm": 2000},
        **HTMX,
    )
    assert response.status_code == 200, response.content
    segment.refresh_from_db()
    assert (segment.label, segment.end_x_mm, segment.height_mm) == (
        "North fence",
        4200,
        2000,
    )

    response = post(owner_client, cell, "undo")
    assert response.status_code == 200
    assert "Undid: Saved North fence." in response.text
    segment.refresh_from_db()
    assert (segment.label, segment.end_x_mm, segment.height_mm) == ("F1", 3000, 1800)

    post(owner_client, cell, "redo")
    segment.refresh_from_db()
    assert (segment.label, segment.end_x_mm, segment.height_mm) == (
        "North fence",
        4200,
        2000,
    )


def test_an_element_added_in_its_form_is_undone(owner_client, cell):
    response = owner_client.post(
        reverse("cells:element_add", args=[cell.pk, "station"]),
        {"label": "Loading", "x_mm": 500, "y_mm": -800},
        **HTMX,
    )
    assert response.status_code == 200, response.content
    station = OperatorStation.objects.get(cell=cell)
    post(owner_client, cell, "undo")
    assert not OperatorStation.objects.filter(pk=station.pk).exists()
    post(owner_client, cell, "redo")
    assert OperatorStation.objects.get(pk=station.pk).x_mm == 500


def test_a_form_save_that_changes_nothing_is_no_step(owner_client, cell):
    segment = GuardSegmentFactory(cell=cell, **SEGMENT)
    owner_client.post(
        reverse("cells:element_edit", args=[cell.pk, "segment", segment.pk]),
        SEGMENT,
        **HTMX,
    )
    assert not owner_client.session.get(f"layout_editor.{cell.pk}", {}).get("undo")


def test_a_refused_form_save_is_no_step(owner_client, cell):
    segment = GuardSegmentFactory(cell=cell, **SEGMENT)
    response = owner_client.post(
        reverse("cells:element_edit", args=[cell.pk, "segment", segment.pk]),
        {**SEGMENT, "end_x_mm": 150_000},
        **HTMX,
    )
    assert "Keep within 100 m" in response.text
    assert not owner_client.session.get(f"layout_editor.{cell.pk}", {}).get("undo")


def test_the_hazard_zone_reset_in_its_form_is_undone(owner_client, cell):
    post(owner_client, cell, "zone", points=[[-2000, -500], [6000, -500], [2000, 6000]])
    # Reset to the robot's reach circle, in the hazard zone form.
    response = owner_client.post(
        reverse("cells:hazard_zone_edit", args=[cell.pk]),
        {
            "robot_base_x_mm": 100,
            "robot_base_y_mm": 200,
            "hazard_zone_shape": "circle",
            "hazard_zone_radius_mm": 1500,
            "hazard_zone_polygon_mm": "",
        },
        **HTMX,
    )
    assert response.status_code == 200, response.content
    cell.refresh_from_db()
    assert (cell.hazard_zone_shape, cell.hazard_zone_radius_mm) == ("circle", 1500)

    post(owner_client, cell, "undo")
    cell.refresh_from_db()
    assert cell.hazard_zone_shape == "polygon"
    assert cell.hazard_zone_polygon_mm == [[-2000, -500], [6000, -500], [2000, 6000]]
    assert cell.hazard_zone_radius_mm is None
    post(owner_client, cell, "undo")  # the zone drawn: the reach circle again
    cell.refresh_from_db()
    assert cell.hazard_zone_shape == "circle"


def test_a_delete_from_the_form_is_undone_with_what_went_with_it(
    owner_client, cell, segment, opening
):
    device = DeviceFactory(cell=cell, opening=opening, label="Curtain")
    response = owner_client.post(
        reverse("cells:element_delete", args=[cell.pk, "segment", segment.pk]),
        **HTMX,
    )
    assert response.status_code == 200
    assert "Deleted F1." in response.text
    assert not GuardSegment.objects.filter(pk=segment.pk).exists()

    post(owner_client, cell, "undo")
    assert GuardSegment.objects.filter(pk=segment.pk).exists()
    assert Opening.objects.get(pk=opening.pk).segment_id == segment.pk
    device.refresh_from_db()
    assert device.opening_id == opening.pk


def test_a_device_form_save_after_placing_it_undoes_in_two_steps(owner_client, cell):
    post(owner_client, cell, "device", kind="light_curtain", points=[[0, 0], [900, 0]])
    device = Device.objects.get(cell=cell)
    response = owner_client.get(
        reverse("cells:element_edit", args=[cell.pk, "device", device.pk]), **HTMX
    )
    form = response.context["editor"]["form"]
    data = {
        name: ("" if value is None else value)
        for name, value in form.initial.items()
        if name in form.fields
    }
    data = {k: v for k, v in data.items() if v is not False}
    data["response_time_ms"] = 20
    response = owner_client.post(
        reverse("cells:element_edit", args=[cell.pk, "device", device.pk]),
        data,
        **HTMX,
    )
    assert response.status_code == 200, response.content
    assert Device.objects.get(pk=device.pk).response_time_ms == 20

    post(owner_client, cell, "undo")
    assert Device.objects.get(pk=device.pk).response_time_ms is None
    post(owner_client, cell, "undo")
    assert not Device.objects.filter(pk=device.pk).exists()


# Default labels ------------------------------------------------------------------


def test_a_new_segment_never_takes_a_label_still_in_use(owner_client, cell):
    post(
        owner_client,
        cell,
        "segments",
        points=[[0, 0], [1000, 0], [2000, 0], [3000, 0]],
        height_mm=1800,
    )
    assert list(GuardSegment.objects.values_list("label", flat=True)) == [
        "F1",
        "F2",
        "F3",
    ]
    GuardSegment.objects.get(label="F2").delete()
    post(owner_client, cell, "segments", points=[[0, 500], [900, 500]], height_mm=1800)
    labels = list(GuardSegment.objects.values_list("label", flat=True))
    assert labels == ["F1", "F3", "F4"]


def test_new_labels_count_per_prefix(owner_client, cell):
    GuardSegmentFactory(cell=cell, label="F7")
    GuardSegmentFactory(cell=cell, label="West wall")
    post(owner_client, cell, "segments", points=[[0, 0], [900, 0]], height_mm=1800)
    post(
        owner_client,
        cell,
        "segments",
        points=[[0, 900], [900, 900]],
        kind="wall",
        height_mm=2400,
    )
    assert set(GuardSegment.objects.values_list("label", flat=True)) == {
        "F7",
        "West wall",
        "F8",
        "W1",
    }


def test_new_devices_stations_and_openings_skip_labels_in_use(
    owner_client, cell, segment
):
    OperatorStationFactory(cell=cell, label="Station 1")
    OperatorStationFactory(cell=cell, label="Station 3")
    DeviceFactory(cell=cell, kind="laser_scanner", label="Safety laser scanner 2")
    OpeningFactory(segment=segment, label="O2", offset_mm=0, width_mm=100)
    post(owner_client, cell, "station", at=[0, -1000])
    post(owner_client, cell, "device", kind="laser_scanner", points=[[0, -500]])
    post(owner_client, cell, "opening", segment=segment.pk, a=[500, 0], b=[900, 0])
    assert OperatorStation.objects.filter(label="Station 4").exists()
    assert Device.objects.filter(label="Safety laser scanner 3").exists()
    assert Opening.objects.filter(label="O3").exists()


def test_next_number_reads_only_labels_of_the_pattern():
    labels = ["S1", "S3", "S10x", "Gate", "XS9"]
    assert services.next_number(labels, lambda n: f"S{n}") == 4
    assert services.next_number([], lambda n: f"S{n}") == 1


def test_deleting_the_hazard_zone_resets_it_to_the_reach_and_undoes(owner_client, cell):
    post(owner_client, cell, "zone", points=[[-2000, -500], [6000, -500], [2000, 6000]])
    response = post(owner_client, cell, "delete", kind="zone", id=0)
    assert response.status_code == 200, response.content
    assert "Reset the hazard zone" in response.text
    cell.refresh_from_db()
    assert (cell.hazard_zone_shape, cell.hazard_zone_polygon_mm) == ("circle", [])

    post(owner_client, cell, "undo")
    cell.refresh_from_db()
    assert cell.hazard_zone_shape == "polygon"
    assert cell.hazard_zone_polygon_mm == [[-2000, -500], [6000, -500], [2000, 6000]]

    post(owner_client, cell, "undo")  # the zone drawn
    response = post(owner_client, cell, "delete", kind="zone", id=0)
    assert response.status_code == 400
    assert "already the robot" in response.text
