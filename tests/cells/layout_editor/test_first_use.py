"""Editor, first use (issue 31): a new cell's plan opens on the robot with
room for a perimeter; the plan's status line hears what each edit did, in
the reader's language; the toolbar offers the grids and carries the texts the
script shows."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from cells.layout_editor.selectors import (
    DEFAULT_CLEARANCE_MM,
    FRAME_REACH_FACTOR,
    new_cell_frame,
)
from tests.factories import CellFactory, GuardSegmentFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def plan_model(response) -> dict:
    found = re.search(r'data-plan-model="([^"]*)"', response.text)
    assert found, "the page carries no plan model"
    return json.loads(html.unescape(found[1]))


def test_the_default_clearance_is_the_references_larger_figure():
    # "Keep 120-200 mm clearance between the robot's restricted space and
    # the fence" (compliance.calculators.iso13857_tables.ROBOT_FENCE_CLEARANCE).
    assert DEFAULT_CLEARANCE_MM == 200
    assert FRAME_REACH_FACTOR == 1.5


def test_a_new_cells_frame_holds_one_and_a_half_reaches_and_the_clearance(project):
    cell = CellFactory(
        project=project, reach_mm=1700, robot_base_x_mm=2000, robot_base_y_mm=1750
    )
    x, y, width, height = new_cell_frame(cell)
    half = 1.5 * 1700 + 200
    # Centred on the base, y flipped as the SVG draws it.
    assert (x, y, width, height) == (2000 - half, -1750 - half, 2 * half, 2 * half)


def test_the_frame_grows_with_a_zone_larger_than_the_reach(project):
    cell = CellFactory(
        project=project,
        reach_mm=1400,
        end_effector_mm=400,
        workpiece_mm=200,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
    )
    assert cell.hazard_zone_effective_radius_mm == 2000
    assert new_cell_frame(cell)[2] == 2 * (1.5 * 2000 + 200)


def test_a_polygon_zone_is_framed_by_its_farthest_corner(project):
    cell = CellFactory(
        project=project,
        reach_mm=1000,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
        hazard_zone_shape="polygon",
        hazard_zone_polygon_mm=[[-3000, 0], [1000, -1000], [1000, 1000]],
    )
    assert new_cell_frame(cell)[2] == 2 * (1.5 * 3000 + 200)


def test_the_page_gives_the_frame_until_a_guard_is_drawn(owner_client, cell):
    url = reverse("cells:cell_detail", args=[cell.pk])
    assert plan_model(owner_client.get(url))["frame"] == new_cell_frame(cell)
    GuardSegmentFactory(cell=cell)
    assert plan_model(owner_client.get(url))["frame"] == []


def test_the_toolbar_offers_the_grids_and_the_texts_of_the_status_line(
    owner_client, cell
):
    text = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    options = re.search(r'<select name="plan-snap">(.*?)</select>', text, re.S)[1]
    assert re.findall(r'value="(\d+)"', options) == ["10", "50", "100", "500", "0"]
    for name in (
        "outside",
        "height",
        "rectangle-next",
        "line-next",
        "mat-next",
        "snap-underlay",
    ):
        assert f'data-msg-{name}="' in text, name
    assert "That point is outside the plan: click inside the drawing" in text


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Drew 4 guard segments."), ("ko", "방호 구간 4개를 그렸습니다.")],
)
def test_the_status_line_hears_what_the_edit_did_in_the_readers_language(
    owner_client, cell, language, said
):
    response = owner_client.post(
        reverse("cells:plan_edit", args=[cell.pk, "rectangle"]),
        {"a": "[0, 0]", "b": "[4000, 3000]", "height_mm": "1800"},
        HTTP_ACCEPT_LANGUAGE=language,
        **HTMX,
    )
    assert response.status_code == 200, response.content
    edited = json.loads(response["HX-Trigger-After-Settle"])["plan-edited"]
    assert edited["message"] == said
    assert edited["note"] == ""
