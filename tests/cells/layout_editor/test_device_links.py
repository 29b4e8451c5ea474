"""A light curtain, grid or mat drawn across an opening is linked to it
(issue 31): found by geometry, the opening it covers most, none when it
stands across no opening; the plan's status line says so."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from cells import geometry
from cells.layout_editor import services
from cells.layout_editor.guarding import OPENING_LINK_TOLERANCE_MM, guarded_opening
from cells.models import Device
from tests.factories import CellFactory, GuardSegmentFactory, OpeningFactory

TOLERANCE = OPENING_LINK_TOLERANCE_MM
# An opening 1,000 mm wide in a fence along y = 0, from x 2,000 to 3,000.
SPAN = ((2000.0, 0.0), (3000.0, 0.0))


def line_cover(line):
    return geometry.span_covered_by_line(SPAN, line, TOLERANCE)


# The pure helpers ----------------------------------------------------------------


def test_a_curtain_across_the_opening_covers_all_of_it():
    assert line_cover(((1900, 0), (3100, 0))) == 1000  # in the guard's plane
    assert line_cover(((2000, 100), (3000, 100))) == 1000  # on posts in front


def test_a_curtain_parallel_to_it_two_metres_away_covers_none():
    assert line_cover(((2000, 2000), (3000, 2000))) == 0


def test_a_curtain_at_right_angles_through_it_covers_none():
    assert line_cover(((2500, -1000), (2500, 1000))) == 0


def test_a_curtain_slanting_across_covers_what_lies_near_the_guard():
    # From 300 mm behind to 300 mm in front over 1,000 mm: all within reach.
    assert line_cover(((2000, -300), (3000, 300))) == pytest.approx(1000)
    # Steeper: only the 600 mm round the crossing lies within the tolerance.
    assert line_cover(((2000, -500), (3000, 500))) == pytest.approx(600)


def test_a_curtain_covering_part_of_the_opening_covers_that_part():
    assert line_cover(((2600, 0), (4000, 0))) == 400


def test_a_mat_laid_up_to_the_opening_covers_it():
    assert geometry.span_covered_by_box(SPAN, (1800, 0), (3200, -900), TOLERANCE) == (
        1000
    )
    # 200 mm short of the guard: still the opening's mat.
    assert geometry.span_covered_by_box(
        SPAN, (2200, -200), (2800, -900), TOLERANCE
    ) == (pytest.approx(1000))
    assert geometry.span_covered_by_box(
        SPAN, (2000, -2000), (3000, -3000), TOLERANCE
    ) == (0)


def test_the_span_covered_most_is_chosen():
    spans = [((0.0, 0.0), (800.0, 0.0)), SPAN, ((4000.0, 0.0), (5000.0, 0.0))]
    line = ((500, 0), (2900, 0))  # 300 mm of the first, 900 mm of the second

    def cover(span):
        return geometry.span_covered_by_line(span, line, TOLERANCE)

    assert geometry.most_covered_span(spans, cover) == 1
    assert geometry.most_covered_span(spans, lambda span: 0.0) is None
    assert geometry.most_covered_span([], cover) is None


# The link made when a device is placed -------------------------------------------


@pytest.fixture
def fence(cell):
    """A fence along y = 0 with two openings: O1 from x 1,000 to 2,000 and O2
    from x 3,000 to 3,500."""
    segment = GuardSegmentFactory(
        cell=cell, label="F1", start_x_mm=0, start_y_mm=0, end_x_mm=6000, end_y_mm=0
    )
    first = OpeningFactory(segment=segment, label="O1", offset_mm=1000, width_mm=1000)
    second = OpeningFactory(segment=segment, label="O2", offset_mm=3000, width_mm=500)
    return segment, first, second


def place(client, cell, kind, points):
    return client.post(
        reverse("cells:plan_edit", args=[cell.pk, "device"]),
        {"kind": kind, "points": json.dumps(points)},
        HTTP_HX_REQUEST="true",
    )


def test_a_curtain_drawn_across_an_opening_is_linked_to_it(owner_client, cell, fence):
    _segment, first, _second = fence
    response = place(owner_client, cell, "light_curtain", [[900, 0], [2100, 0]])
    assert response.status_code == 200, response.content
    device = Device.objects.get(cell=cell)
    assert device.opening == first
    trigger = json.loads(response["HX-Trigger-After-Settle"])["plan-edited"]
    assert trigger["message"] == (
        "Placed Safety light curtain 1 across opening O1 of F1."
    )
    assert trigger["note"] == ""


def test_a_curtain_parallel_two_metres_away_is_not_linked(owner_client, cell, fence):
    response = place(owner_client, cell, "light_curtain", [[900, 2000], [2100, 2000]])
    assert Device.objects.get(cell=cell).opening is None
    trigger = json.loads(response["HX-Trigger-After-Settle"])["plan-edited"]
    assert trigger["note"] == (
        "Safety light curtain 1 crosses no opening: choose what it guards in its form."
    )


def test_a_curtain_across_two_openings_is_linked_to_the_one_it_covers_most(cell, fence):
    _segment, first, second = fence
    # 300 mm of O1 (1,700 to 2,000), all 500 mm of O2.
    assert guarded_opening(
        cell=cell, kind="light_curtain", points=[(1700, 50), (3600, 50)]
    ) == (second)
    # 1,000 mm of O1, 200 mm of O2.
    assert (
        guarded_opening(cell=cell, kind="multibeam", points=[(900, 0), (3200, 0)])
        == first
    )


def test_a_curtain_in_a_guard_with_no_opening_is_linked_to_none(cell, fence):
    wall = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=0, end_y_mm=4000
    )
    assert wall.openings.count() == 0
    assert (
        guarded_opening(cell=cell, kind="light_curtain", points=[(0, 500), (0, 2500)])
        is None
    )


def test_a_mat_before_an_opening_is_linked_and_a_scanner_never(cell, fence):
    _segment, first, _second = fence
    assert (
        guarded_opening(
            cell=cell, kind="safety_mat", points=[(900, -100), (2100, -900)]
        )
        == first
    )
    assert guarded_opening(cell=cell, kind="laser_scanner", points=[(1500, 0)]) is None


def test_another_cells_opening_is_never_linked(cell, project, fence):
    other = CellFactory(project=project)
    assert (
        guarded_opening(cell=other, kind="light_curtain", points=[(900, 0), (2100, 0)])
        is None
    )


def test_undoing_and_redoing_a_linked_curtain_keeps_its_link(owner_client, cell, fence):
    _segment, first, _second = fence
    place(owner_client, cell, "light_curtain", [[900, 0], [2100, 0]])
    url = reverse("cells:plan_edit", args=[cell.pk, "undo"])
    owner_client.post(url, HTTP_HX_REQUEST="true")
    assert not Device.objects.filter(cell=cell).exists()
    owner_client.post(
        reverse("cells:plan_edit", args=[cell.pk, "redo"]), HTTP_HX_REQUEST="true"
    )
    assert Device.objects.get(cell=cell).opening == first


def test_the_service_says_which_opening_in_its_label(cell, fence):
    step = services.device_place(
        cell=cell, kind="safety_mat", points=[(2900, 0), (3600, -800)]
    )
    assert (
        step.label == "Placed Pressure-sensitive safety mat 1 across opening O2 of F1."
    )
    assert step.note == ""
