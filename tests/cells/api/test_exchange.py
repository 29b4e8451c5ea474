"""Exporting a cell as an exchange document and importing it back."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from cells.exchange import FORMAT
from cells.models import Cell, GuardSegment, HazardZoneShape, Opening, OperatorStation
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("api:cell-import")


def export_url(cell_id: int) -> str:
    return reverse("api:cell-export", args=[cell_id])


@pytest.fixture
def laid_out_cell(project):
    """A cell with a polygon zone, two segments, three openings and two stations."""
    cell = CellFactory(
        project=project,
        name="Welder",
        task_description="Spot welding of door frames",
        hazard_zone_shape=HazardZoneShape.POLYGON,
        hazard_zone_polygon_mm=[[0, 0], [4000, 0], [4000, 3000], [0, 3000]],
    )
    front = GuardSegmentFactory(cell=cell, label="Front", end_x_mm=4000)
    side = GuardSegmentFactory(
        cell=cell,
        label="Side",
        start_x_mm=4000,
        start_y_mm=0,
        end_x_mm=4000,
        end_y_mm=3000,
        height_mm=2200,
        kind="wall",
    )
    # Created out of order: the document lists openings along the segment.
    OpeningFactory(segment=front, label="Outfeed", offset_mm=2500, width_mm=600)
    OpeningFactory(segment=front, label="Infeed", offset_mm=200, width_mm=800)
    OpeningFactory(
        segment=side,
        label="Door",
        offset_mm=1000,
        width_mm=900,
        upper_edge_mm=2100,
        purpose="maintenance_door",
    )
    OperatorStationFactory(cell=cell, label="Loading", x_mm=500, y_mm=-800)
    OperatorStationFactory(cell=cell, label="HMI", x_mm=4500, y_mm=200)
    cell.stopping_time_ms, cell.collaborative_mode, cell.hazard_zone_height_mm = (
        320,
        "",
        1400,
    )
    cell.save()
    door = Opening.objects.get(segment=side, label="Door")
    DeviceFactory(
        cell=cell,
        kind="interlocked_door",
        label="Door switch",
        opening=door,
        kcs_certified=True,
    )
    DeviceFactory(
        cell=cell,
        label="LC",
        opening=Opening.objects.get(label="Infeed", segment=front),
        iec61496_type=4,
        response_time_ms=20,
        detection_capability_mm=14,
    )
    return cell


def test_export_returns_the_cell_document(owner_api, laid_out_cell):
    response = owner_api.get(export_url(laid_out_cell.pk))

    assert response.status_code == 200
    document = response.json()
    assert document["format"] == FORMAT
    assert document["name"] == "Welder"
    assert document["robot"]["payload_kg"] == "10.00"
    assert [s["label"] for s in document["guard_segments"]] == ["Front", "Side"]
    assert [o["label"] for o in document["guard_segments"][0]["openings"]] == [
        "Infeed",
        "Outfeed",
    ]
    assert [s["label"] for s in document["operator_stations"]] == ["Loading", "HMI"]


def test_viewer_can_export(viewer_api, cell):
    assert viewer_api.get(export_url(cell.pk)).status_code == 200


def test_outsider_cannot_export(outsider_api, cell):
    assert outsider_api.get(export_url(cell.pk)).status_code == 404


def test_export_and_import_round_trip(owner_api, laid_out_cell, project):
    exported = owner_api.get(export_url(laid_out_cell.pk)).json()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": exported}, format="json"
    )

    assert response.status_code == 201
    new_id = response.data["id"]
    assert new_id != laid_out_cell.pk
    assert response.data["project"] == project.pk
    assert response.data["name"] == "Welder"
    assert owner_api.get(export_url(new_id)).json() == exported
    assert Opening.objects.filter(segment__cell_id=new_id).count() == 3


def test_import_accepts_numbers_for_decimals(owner_api, cell, project):
    document = owner_api.get(export_url(cell.pk)).json()
    document["robot"]["payload_kg"] = 12.5

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 201
    assert Cell.objects.get(pk=response.data["id"]).payload_kg == 12.5


@pytest.fixture
def document(owner_api, laid_out_cell):
    return owner_api.get(export_url(laid_out_cell.pk)).json()


def _counts() -> tuple[int, int, int, int]:
    return (
        Cell.objects.count(),
        GuardSegment.objects.count(),
        Opening.objects.count(),
        OperatorStation.objects.count(),
    )


def test_import_with_an_opening_wider_than_its_segment_saves_nothing(
    owner_api, project, document
):
    bad = copy.deepcopy(document)
    bad["guard_segments"][1]["openings"][0]["width_mm"] = 5000
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.1.openings.0.width_mm" in response.data
    assert _counts() == before


def test_import_with_overlapping_openings_saves_nothing(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["guard_segments"][0]["openings"][1]["offset_mm"] = 500
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.0.openings.1.offset_mm" in response.data
    assert _counts() == before


def test_import_with_a_malformed_document_names_the_place(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["guard_segments"][0]["height_mm"] = 0
    bad["robot"]["reach_mm"] = "far"
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.0.height_mm" in response.data
    assert "document.robot.reach_mm" in response.data
    assert _counts() == before


def test_import_refuses_unknown_fields(owner_api, project, document):
    bad = {**document, "colour": "yellow"}

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.colour" in response.data


def test_import_of_an_unknown_format_says_which_is_supported(
    owner_api, project, document
):
    before = _counts()

    response = owner_api.post(
        IMPORT_URL,
        {"project": project.pk, "document": {**document, "format": "cellplan/9"}},
        format="json",
    )

    assert response.status_code == 400
    assert FORMAT in str(response.data["document.format"])
    assert _counts() == before


@pytest.mark.parametrize("value", [None, [], "a cell", 7])
def test_import_of_something_that_is_not_a_document_is_refused(
    owner_api, project, value
):
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": value}, format="json"
    )

    assert response.status_code == 400
    assert "document" in response.data


def test_import_needs_a_project(owner_api, document):
    response = owner_api.post(IMPORT_URL, {"document": document}, format="json")

    assert response.status_code == 400
    assert "project" in response.data


def test_import_into_a_foreign_project_is_refused(outsider_api, project, document):
    before = _counts()

    response = outsider_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["project"][0])
    assert _counts() == before


def test_viewer_cannot_import(viewer_api, project, document):
    before = _counts()

    response = viewer_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 403
    assert _counts() == before


def test_import_takes_json_only(owner_api, project):
    response = owner_api.post(IMPORT_URL, {"project": project.pk, "document": "x"})

    assert response.status_code == 415


def test_import_with_an_invalid_hazard_zone_saves_nothing(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["hazard_zone"]["polygon_mm"] = [[0, 0], [1000, 1000], [1000, 0], [0, 1000]]
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert any(key.startswith("document.hazard_zone") for key in response.data)
    assert _counts() == before


def test_import_names_a_bad_hazard_zone_by_its_document_path(
    owner_api, project, document
):
    bad = copy.deepcopy(document)
    bad["hazard_zone"] = {
        "shape": "polygon",
        "polygon_mm": [[0, 0], [2000, 2000], [2000, 0], [0, 2000]],
    }
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert response.data["document.hazard_zone.polygon_mm"] == [
        "The outline crosses itself."
    ]
    assert _counts() == before
