"""Drawing on the plan: each tool's edit through its endpoint, through the same
services and checks as the forms, and undo and redo across the session."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cells.layout_editor import services
from cells.models import Cell, Device, GuardSegment, Opening, OperatorStation
from tests.factories import (
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)
from tests.kept import forget_kept

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, cell, operation, **data):
    body = {k: json.dumps(v) if isinstance(v, list) else v for k, v in data.items()}
    return client.post(
        reverse("cells:plan_edit", args=[cell.pk, operation]), body, **HTMX
    )


def corners(segment):
    return (segment.start, segment.end)


@pytest.fixture
def square(owner_client, cell):
    response = post(
        owner_client, cell, "rectangle", a=[0, 0], b=[4000, 3000], height_mm=1800
    )
    assert response.status_code == 200, response.content
    return list(GuardSegment.objects.filter(cell=cell))


def test_rectangle_draws_four_joined_segments(square):
    assert [corners(s) for s in square] == [
        ((0, 0), (4000, 0)),
        ((4000, 0), (4000, 3000)),
        ((4000, 3000), (0, 3000)),
        ((0, 3000), (0, 0)),
    ]
    assert {s.height_mm for s in square} == {1800}
    assert [s.label for s in square] == ["F1", "F2", "F3", "F4"]


def test_an_edit_redraws_the_workspace_and_announces_itself(owner_client, cell):
    response = post(
        owner_client, cell, "rectangle", a=[0, 0], b=[4000, 3000], height_mm=1800
    )
    assert 'id="workspace"' in response.text
    assert 'data-key="s3"' in response.text  # the plan, redrawn
    assert 'id="findings-summary"' in response.text  # reloads the findings
    assert "plan-edited" in response["HX-Trigger-After-Settle"]


def test_polyline_without_a_height_is_refused_with_a_message(owner_client, cell):
    response = post(owner_client, cell, "segments", points=[[0, 0], [1000, 0]])
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#plan-status"
    assert "height" in response.text
    assert not GuardSegment.objects.filter(cell=cell).exists()


def test_moving_a_shared_corner_moves_both_segments(owner_client, cell, square):
    response = post(
        owner_client, cell, "corner", **{"from": [4000, 0], "to": [4500, -200]}
    )
    assert response.status_code == 200, response.content
    first, second, third, fourth = GuardSegment.objects.filter(cell=cell)
    assert first.end == (4500, -200)
    assert second.start == (4500, -200)
    assert corners(third) == corners(square[2])
    assert corners(fourth) == corners(square[3])


def test_corners_within_a_millimetre_are_joined(owner_client, cell):
    GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=1000, end_y_mm=0
    )
    GuardSegmentFactory(
        cell=cell, start_x_mm=1001, start_y_mm=0, end_x_mm=1001, end_y_mm=900
    )
    post(owner_client, cell, "corner", **{"from": [1000, 0], "to": [1200, 0]})
    first, second = GuardSegment.objects.filter(cell=cell)
    assert first.end == (1200, 0) and second.start == (1200, 0)


def test_dragging_a_segment_stretches_its_neighbours(owner_client, cell, square):
    post(owner_client, cell, "move", kind="segment", id=square[1].pk, dx=500, dy=0)
    first, second, third, _fourth = GuardSegment.objects.filter(cell=cell)
    assert corners(second) == ((4500, 0), (4500, 3000))
    assert first.end == (4500, 0) and third.start == (4500, 3000)


def test_opening_dragged_along_a_segment_stays_on_it(owner_client, cell, square):
    # Drawn a little off the segment: it is taken onto it.
    response = post(
        owner_client, cell, "opening", segment=square[0].pk, a=[1000, 40], b=[1800, -30]
    )
    assert response.status_code == 200, response.content
    opening = Opening.objects.get(segment=square[0])
    assert (opening.offset_mm, opening.width_mm) == (1000, 800)
    assert opening.upper_edge_mm == 1800  # the guard's whole height

    # Slid past the end: it stops at the end of the segment.
    post(owner_client, cell, "opening", id=opening.pk, at=[9000, 500])
    opening.refresh_from_db()
    assert (opening.offset_mm, opening.segment_id) == (3200, square[0].pk)


def test_opening_moved_onto_another_is_refused_with_the_forms_message(
    owner_client, cell, segment
):
    first = OpeningFactory(segment=segment, label="A", offset_mm=0, width_mm=800)
    second = OpeningFactory(segment=segment, label="B", offset_mm=2000, width_mm=800)
    response = post(owner_client, cell, "opening", id=second.pk, at=[700, 0])
    assert response.status_code == 400
    assert "This opening overlaps opening A (0–800 mm)." in response.text
    second.refresh_from_db()
    assert second.offset_mm == 2000
    assert first.offset_mm == 0


def test_light_curtain_line_placed(owner_client, cell):
    response = post(
        owner_client,
        cell,
        "device",
        kind="light_curtain",
        points=[[500, -100], [1300, -100]],
    )
    assert response.status_code == 200, response.content
    device = Device.objects.get(cell=cell)
    assert (device.x1_mm, device.y1_mm, device.x2_mm, device.y2_mm) == (
        500,
        -100,
        1300,
        -100,
    )
    assert device.kind == "light_curtain"
    trigger = json.loads(response["HX-Trigger-After-Settle"])["plan-edited"]
    assert trigger == {
        "selected": f"device:{device.pk}",
        "created": True,
        # For the plan's status line: it stands across no opening.
        "message": "Placed Safety light curtain 1.",
        "note": "Safety light curtain 1 crosses no opening: choose what it guards "
        "in its form.",
    }
    assert 'class="device curtain' in response.text


def test_mat_scanner_station_and_zone_placed(owner_client, cell):
    post(owner_client, cell, "device", kind="safety_mat", points=[[0, 0], [800, 600]])
    post(owner_client, cell, "device", kind="laser_scanner", points=[[100, 100]])
    post(owner_client, cell, "station", at=[2000, -900])
    response = post(
        owner_client, cell, "zone", points=[[-1000, -1000], [5000, -1000], [2000, 5000]]
    )
    assert response.status_code == 200, response.content
    assert Device.objects.filter(cell=cell).count() == 2
    assert OperatorStation.objects.get(cell=cell).x_mm == 2000
    cell.refresh_from_db()
    assert cell.hazard_zone_shape == "polygon"
    assert cell.hazard_zone_polygon_mm == [[-1000, -1000], [5000, -1000], [2000, 5000]]


def test_out_of_bounds_answers_the_models_message_and_saves_nothing(owner_client, cell):
    response = post(
        owner_client, cell, "rectangle", a=[0, 0], b=[150_000, 3000], height_mm=1800
    )
    assert response.status_code == 400
    assert "Keep within 100 m of the plan&#x27;s origin" in response.text
    assert not GuardSegment.objects.filter(cell=cell).exists()


def test_station_moved_off_the_plan_is_refused(owner_client, cell, station):
    response = post(
        owner_client, cell, "move", kind="station", id=station.pk, dx=200_000, dy=0
    )
    assert response.status_code == 400
    assert "Keep within 100 m" in response.text
    station.refresh_from_db()
    assert station.x_mm == 2000


def test_undo_and_redo_restore_exactly(owner_client, cell, square):
    before = [corners(s) for s in GuardSegment.objects.filter(cell=cell)]
    post(owner_client, cell, "corner", **{"from": [4000, 3000], "to": [4200, 3300]})
    after = [corners(s) for s in GuardSegment.objects.filter(cell=cell)]
    assert after != before

    assert post(owner_client, cell, "undo").status_code == 200
    assert [corners(s) for s in GuardSegment.objects.filter(cell=cell)] == before
    assert post(owner_client, cell, "redo").status_code == 200
    assert [corners(s) for s in GuardSegment.objects.filter(cell=cell)] == after

    # Undo past the rectangle itself: nothing drawn remains; redo draws it again
    # with the same ids.
    ids = [s.pk for s in square]
    post(owner_client, cell, "undo")
    post(owner_client, cell, "undo")
    assert not GuardSegment.objects.filter(cell=cell).exists()
    response = post(owner_client, cell, "undo")
    assert response.status_code == 400 and "Nothing to undo." in response.text
    post(owner_client, cell, "redo")
    assert [s.pk for s in GuardSegment.objects.filter(cell=cell)] == ids


def test_undo_keeps_what_was_typed_in_the_form_since(owner_client, cell, station):
    post(owner_client, cell, "move", kind="station", id=station.pk, dx=100, dy=0)
    OperatorStation.objects.filter(pk=station.pk).update(label="Renamed in the form")
    post(owner_client, cell, "undo")
    station.refresh_from_db()
    assert (station.x_mm, station.label) == (2000, "Renamed in the form")


def test_delete_then_undo_restores_the_segment_with_its_openings_and_devices(
    owner_client, cell, segment, opening
):
    device = DeviceFactory(cell=cell, opening=opening, label="Curtain")
    response = post(owner_client, cell, "delete", kind="segment", id=segment.pk)
    assert response.status_code == 200, response.content
    assert not GuardSegment.objects.filter(pk=segment.pk).exists()
    device.refresh_from_db()
    assert device.opening_id is None

    post(owner_client, cell, "undo")
    restored = GuardSegment.objects.get(pk=segment.pk)
    assert corners(restored) == corners(segment)
    assert list(restored.openings.values_list("pk", "offset_mm", "width_mm")) == [
        (opening.pk, opening.offset_mm, opening.width_mm)
    ]
    device.refresh_from_db()
    assert device.opening_id == opening.pk


def test_a_new_edit_clears_what_could_be_redone(owner_client, cell, station):
    post(owner_client, cell, "move", kind="station", id=station.pk, dx=100, dy=0)
    post(owner_client, cell, "undo")
    post(owner_client, cell, "move", kind="station", id=station.pk, dx=0, dy=50)
    response = post(owner_client, cell, "redo")
    assert response.status_code == 400 and "Nothing to redo." in response.text


def test_the_undo_stack_is_bounded(owner_client, cell, station):
    for _ in range(services.UNDO_LIMIT + 5):
        post(owner_client, cell, "move", kind="station", id=station.pk, dx=10, dy=0)
    stored = owner_client.session[f"layout_editor.{cell.pk}"]
    assert len(stored["undo"]) == services.UNDO_LIMIT
    for _ in range(services.UNDO_LIMIT):
        assert post(owner_client, cell, "undo").status_code == 200
    station.refresh_from_db()
    assert station.x_mm == 2000 + 5 * 10  # the oldest five are gone
    assert post(owner_client, cell, "undo").status_code == 400


def test_undo_stacks_are_per_cell(owner_client, cell, project, station):
    from tests.factories import CellFactory

    other = CellFactory(project=project)
    post(owner_client, cell, "move", kind="station", id=station.pk, dx=10, dy=0)
    assert post(owner_client, other, "undo").status_code == 400


def test_another_cells_element_is_not_found(owner_client, cell, project):
    from tests.factories import CellFactory

    foreign = OperatorStationFactory(cell=CellFactory(project=project))
    response = post(
        owner_client, cell, "move", kind="station", id=foreign.pk, dx=1, dy=0
    )
    assert response.status_code == 400
    foreign.refresh_from_db()
    assert foreign.x_mm == 2000


def test_viewer_cannot_draw(viewer_client, cell):
    response = post(viewer_client, cell, "station", at=[0, 0])
    assert response.status_code == 403
    assert not OperatorStation.objects.filter(cell=cell).exists()


def test_outsider_gets_404(outsider_client, cell, station):
    response = post(
        outsider_client, cell, "move", kind="station", id=station.pk, dx=5, dy=0
    )
    assert response.status_code == 404


def test_only_post(owner_client, cell):
    response = owner_client.get(reverse("cells:plan_edit", args=[cell.pk, "undo"]))
    assert response.status_code == 405


def test_csrf_is_required(client, owner, cell):
    client = type(client)(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(
        reverse("cells:plan_edit", args=[cell.pk, "station"]),
        {"at": "[0, 0]"},
        **HTMX,
    )
    assert response.status_code == 403
    assert not OperatorStation.objects.filter(cell=cell).exists()


def test_garbled_input_is_a_clear_400(owner_client, cell):
    response = post(owner_client, cell, "station", at="not json")
    assert response.status_code == 400
    assert "cannot read" in response.text


def test_the_cell_page_carries_the_plan_model_for_the_tools(
    owner_client, cell, segment, opening
):
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert "data-plan-editor" in response.text
    assert 'data-key="s0o0"' in response.text
    found = re.search(r'data-plan-model="([^"]*)"', response.text)
    model = json.loads(html.unescape(found.group(1)))
    assert model["segments"][0]["id"] == segment.pk
    assert model["openings"][0] == {
        "key": "s0o0",
        "id": opening.pk,
        "segment": segment.pk,
        "offset_mm": opening.offset_mm,
        "width_mm": opening.width_mm,
        "edit": reverse("cells:element_edit", args=[cell.pk, "opening", opening.pk]),
    }


def test_the_plan_has_a_labelled_grid(owner_client, cell, segment):
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert 'class="grid-labels"' in response.text
    assert ">4,000</text>" in response.text or ">2,000</text>" in response.text


def _queries(client, cell, station):
    with CaptureQueriesContext(connection) as queries:
        response = post(
            client, cell, "move", kind="station", id=station.pk, dx=10, dy=0
        )
    assert response.status_code == 200
    return len(queries)


def _add_elements(cell, count):
    for n in range(count):
        segment = GuardSegmentFactory(
            cell=cell, start_x_mm=0, start_y_mm=n * 500, end_x_mm=3000, end_y_mm=n * 500
        )
        OpeningFactory(segment=segment, offset_mm=100, width_mm=500)
        DeviceFactory(cell=cell)
        OperatorStationFactory(cell=cell)


def test_an_edit_takes_a_fixed_number_of_queries(owner_client, cell, station):
    # One of each kind first: a prefetch runs only for a kind that is there.
    _add_elements(cell, 1)
    _queries(owner_client, cell, station)  # the session row exists from here on
    # Each measured edit works the findings out (issue 16: they are kept, and
    # moving a station changes none).
    forget_kept()
    small = _queries(owner_client, cell, station)
    _add_elements(cell, 6)
    forget_kept()
    assert _queries(owner_client, cell, station) == small
    assert Cell.objects.filter(pk=cell.pk).exists()


def test_an_undo_never_takes_back_a_change_saved_by_someone_else(owner_client, cell):
    # Issue 28: a device placed, then its response time saved by a colleague
    # (not on this person's undo stack): undoing the placement would delete
    # their change silently, so it is refused, saying why.
    post(owner_client, cell, "device", kind="light_curtain", points=[[0, 0], [900, 0]])
    device = Device.objects.get(cell=cell)
    Device.objects.filter(pk=device.pk).update(response_time_ms=20)  # theirs
    response = post(owner_client, cell, "undo")
    assert "was changed by someone else since" in response.text
    assert Device.objects.get(pk=device.pk).response_time_ms == 20


def test_an_undo_of_a_move_keeps_a_colleagues_later_move(owner_client, cell):
    segment = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=3000, end_y_mm=0
    )
    post(owner_client, cell, "move", kind="segment", id=segment.pk, dx=100, dy=0)
    segment.refresh_from_db()
    assert (segment.start_x_mm, segment.end_x_mm) == (100, 3100)
    # A colleague moves it on from their own screen.
    GuardSegment.objects.filter(pk=segment.pk).update(start_x_mm=500, end_x_mm=3500)
    response = post(owner_client, cell, "undo")
    assert "was changed by someone else since" in response.text
    segment.refresh_from_db()
    assert (segment.start_x_mm, segment.end_x_mm) == (500, 3500)


def test_an_undo_of_ones_own_move_still_works(owner_client, cell):
    segment = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=3000, end_y_mm=0
    )
    post(owner_client, cell, "move", kind="segment", id=segment.pk, dx=100, dy=0)
    # Another field, changed meanwhile by someone else: the move is taken
    # back, their height stays.
    GuardSegment.objects.filter(pk=segment.pk).update(height_mm=2200)
    post(owner_client, cell, "undo")
    segment.refresh_from_db()
    assert (segment.start_x_mm, segment.end_x_mm, segment.height_mm) == (0, 3000, 2200)
