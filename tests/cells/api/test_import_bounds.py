"""Importing an exchange document: capped, checked whole before anything is
written, and written in a fixed number of queries however large the cell."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cells.exchange import (
    MAX_DEVICES,
    MAX_GUARD_SEGMENTS,
    MAX_OPENINGS,
    MAX_OPERATOR_STATIONS,
    POLYGON_MAX_CORNERS,
)
from cells.models import Cell, Device, GuardSegment, Opening, OperatorStation

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("api:cell-import")


def _segment(k: int, openings: int = 0) -> dict:
    """Segment ``k`` of a row of 1 m fences along y = 0, each with openings."""
    return {
        "label": f"F{k}",
        "start": {"x_mm": -100_000 + 1000 * k, "y_mm": 0},
        "end": {"x_mm": -100_000 + 1000 * (k + 1), "y_mm": 0},
        "height_mm": 2000,
        "kind": "fence",
        "openings": [
            {
                "offset_mm": 100 + 300 * j,
                "width_mm": 200,
                "lower_edge_mm": 0,
                "upper_edge_mm": 1000,
                "purpose": "material_entry",
            }
            for j in range(openings)
        ],
    }


def _document(segments: int, *, openings: int = 0, devices: int = 0, stations: int = 0):
    return {
        "name": "Large cell",
        "robot": {
            "manufacturer": "Acme",
            "model": "R",
            "kind": "industrial",
            "payload_kg": 10,
            "reach_mm": 1500,
            "max_tcp_speed_mm_s": 2000,
            "moving_mass_kg": 80,
        },
        "robot_base": {"x_mm": 0, "y_mm": 5000},
        "hazard_zone": {"shape": "circle"},
        "guard_segments": [_segment(k, openings) for k in range(segments)],
        "operator_stations": [
            {"label": f"T{k}", "x_mm": 10 * k, "y_mm": -1000} for k in range(stations)
        ],
        "devices": [
            {
                "label": f"D{k}",
                "kind": "interlocked_door",
                "opening": {"segment": k, "opening": 0},
            }
            for k in range(devices)
        ],
    }


def _counts():
    return tuple(
        m.objects.count()
        for m in (Cell, GuardSegment, Opening, OperatorStation, Device)
    )


def _import(api, project, document):
    return api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )


def test_a_20000_segment_document_is_refused_by_its_count(owner_api, project):
    # Under the 2.5 MB body cap, this used to be validated and saved one
    # segment at a time and time out.
    document = _document(200)
    document["guard_segments"] *= 100  # 20,000
    before = _counts()

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert str(MAX_GUARD_SEGMENTS) in str(response.data["document.guard_segments"])
    assert _counts() == before


@pytest.mark.parametrize(
    ("field", "document", "cap"),
    [
        (
            "document.operator_stations",
            _document(1, stations=MAX_OPERATOR_STATIONS + 1),
            MAX_OPERATOR_STATIONS,
        ),
        (
            "document.devices",
            _document(MAX_DEVICES + 1, openings=1, devices=MAX_DEVICES + 1),
            MAX_DEVICES,
        ),
        (  # openings over all the segments
            "document.guard_segments",
            _document(MAX_OPENINGS // 2 + 1, openings=2),
            MAX_OPENINGS,
        ),
    ],
)
def test_every_list_of_elements_is_capped(owner_api, project, field, document, cap):
    before = _counts()

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert str(cap) in str(response.data[field])
    assert _counts() == before


def test_a_full_cell_is_imported_in_a_fixed_number_of_queries(owner_api, project):
    document = _document(
        MAX_GUARD_SEGMENTS,
        openings=1,
        devices=MAX_DEVICES,
        stations=MAX_OPERATOR_STATIONS,
    )

    with CaptureQueriesContext(connection) as queries:
        response = _import(owner_api, project, document)

    assert response.status_code == 201, response.data
    assert _counts()[1:] == (
        MAX_GUARD_SEGMENTS,
        MAX_OPENINGS,
        MAX_OPERATOR_STATIONS,
        MAX_DEVICES,
    )
    # Checked in memory, then a few INSERTs per kind of element (SQLite takes
    # at most 999 values a statement): not one per element, 350, as before.
    inserts = [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) <= 20
    assert len(queries) < 50


def test_an_error_in_the_last_element_stops_the_import_before_any_write(
    owner_api, project
):
    document = _document(50, openings=1, devices=50)
    document["devices"][-1]["opening"] = {"segment": 49, "opening": 7}
    before = _counts()

    with CaptureQueriesContext(connection) as queries:
        response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert "document.devices.49.opening" in response.data
    assert _counts() == before
    assert not [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]


def test_overlapping_openings_of_one_segment_are_named_in_the_import(
    owner_api, project
):
    document = _document(3, openings=3)
    document["guard_segments"][2]["openings"][2]["offset_mm"] = 450  # over the 2nd
    before = _counts()

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert "document.guard_segments.2.openings.2.offset_mm" in response.data
    assert _counts() == before


def test_a_polygon_of_too_many_corners_is_refused_in_the_import(owner_api, project):
    document = _document(1)
    document["hazard_zone"] = {
        "shape": "polygon",
        "polygon_mm": [[k, k * k % 1000] for k in range(POLYGON_MAX_CORNERS + 1)],
    }

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert str(POLYGON_MAX_CORNERS) in str(
        response.data["document.hazard_zone.polygon_mm"]
    )


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("robot", "reach_mm"), 100_001),
        (("robot", "stopping_time_ms"), 60_001),
        (("robot", "max_tcp_speed_mm_s"), 20_001),
        (("hazard_zone", "radius_mm"), 10**300),
        (("hazard_zone", "height_mm"), 100_001),
        (("guard_segments", 0, "height_mm"), 100_001),
        (("guard_segments", 0, "openings", 0, "width_mm"), 100_001),
    ],
)
def test_a_figure_past_its_bound_is_refused_in_the_import(
    owner_api, project, path, value
):
    document = _document(1, openings=1)
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    before = _counts()

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert "document." + ".".join(str(p) for p in path) in response.data
    assert _counts() == before
