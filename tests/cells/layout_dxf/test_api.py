"""``POST /api/v1/cells/{id}/layout/dxf/``: a DXF drawing into the cell's
layout, all or nothing; ``GET /api/v1/cells/{id}/layout.dxf``: the plan as
a DXF drawing, which reads back as the same guard segments."""

from __future__ import annotations

import io
import json
import random

import ezdxf
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator

from cells.exchange import MAX_GUARD_SEGMENTS
from cells.layout_dxf import layers, reading
from cells.models import GuardSegment, LayoutUnderlay
from tests.cells.layout_dxf.support import fenced_square, new_drawing, to_bytes, upload
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

pytestmark = pytest.mark.django_db


def import_url(cell) -> str:
    return reverse("api:cell-layout-dxf-import", args=[cell.pk])


def export_url(cell) -> str:
    return reverse("api:cell-layout-dxf", args=[cell.pk])


def post(client, cell, data: bytes, **fields):
    if "mapping" in fields:
        fields["mapping"] = json.dumps(fields["mapping"])
    return client.post(
        import_url(cell), {"file": upload(data), **fields}, format="multipart"
    )


def segments_of(cell) -> list[tuple]:
    return list(
        GuardSegment.objects.filter(cell=cell)
        .order_by("id")
        .values_list(
            "kind", "start_x_mm", "start_y_mm", "end_x_mm", "end_y_mm", "height_mm"
        )
    )


# Import ---------------------------------------------------------------------------


def test_import_creates_guard_segments_and_the_underlay(owner_api, cell):
    response = post(
        owner_api,
        cell,
        to_bytes(fenced_square()),
        mapping={"FENCE": "fence", "WALLS": "wall"},
        height_mm=2000,
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["cell"] == cell.pk
    assert body["units"] == "mm" and body["units_from"] == "header"
    assert body["created"] == {
        "guard_segments": 5,
        "fence": 4,
        "wall": 1,
        "machine_body": 0,
        "openings": 0,
        # The hall's two lines and its column, a circle of 300 mm radius cut
        # into 18 chords: the fewest whose sagitta r(1 - cos(pi/n)) stays
        # within the 5 mm tolerance (n >= 17.2).
        "underlay_lines": 2 + 18,
    }
    # The text is read only as a name (there is none beside a guard here).
    assert body["skipped"] == [
        {"reason": "text", "entity_type": "TEXT", "count": 1},
    ]
    assert body["skipped_total"] == 1
    assert {layer["name"]: layer["mapped_to"] for layer in body["layers"]} == {
        "FENCE": "fence",
        "WALLS": "wall",
        "HALL": "underlay",
    }
    assert segments_of(cell) == [
        ("fence", 0, 0, 4000, 0, 2000),
        ("fence", 4000, 0, 4000, 4000, 2000),
        ("fence", 4000, 4000, 0, 4000, 2000),
        ("fence", 0, 4000, 0, 0, 2000),
        ("wall", 0, -500, 4000, -500, 2000),
    ]
    underlay = LayoutUnderlay.objects.get(cell=cell)
    assert underlay.lines[:2] == [
        [-1000, -1000, -1000, 5000],
        [-1000, 5000, 6000, 5000],
    ]
    assert underlay.source_name == "cell.dxf"


def test_inch_drawings_are_imported_in_millimetres(owner_api, cell):
    response = post(
        owner_api,
        cell,
        to_bytes(fenced_square(100, insunits=1)),
        mapping={"FENCE": "fence"},
        height_mm=1800,
    )
    assert response.status_code == 201
    assert response.json()["units"] == "inch"
    assert segments_of(cell)[1] == ("fence", 2540, 0, 2540, 2540, 1800)


def test_given_units_override_the_header(owner_api, cell):
    response = post(
        owner_api,
        cell,
        to_bytes(fenced_square(4)),
        mapping={"FENCE": "fence"},
        units="m",
        height_mm=1800,
    )
    assert response.json()["units_from"] == "request"
    assert segments_of(cell)[0][1:5] == (0, 0, 4000, 0)


def test_mapping_may_be_sent_as_form_fields(owner_api, cell):
    response = owner_api.post(
        import_url(cell),
        {
            "file": upload(to_bytes(fenced_square())),
            "mapping.FENCE": "machine_body",
            "height_mm": 1000,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["created"]["machine_body"] == 4


def test_a_new_import_replaces_the_underlay_and_adds_segments(owner_api, cell):
    post(
        owner_api,
        cell,
        to_bytes(fenced_square()),
        mapping={"FENCE": "fence"},
        height_mm=1800,
    )
    doc = new_drawing()
    doc.modelspace().add_line((0, 0), (100, 100), dxfattribs={"layer": "OTHER"})
    doc.modelspace().add_line((0, 0), (0, 900), dxfattribs={"layer": "F"})
    response = post(
        owner_api, cell, to_bytes(doc), mapping={"F": "fence"}, height_mm=900
    )
    assert response.status_code == 201
    assert LayoutUnderlay.objects.get(cell=cell).lines == [[0, 0, 100, 100]]
    assert GuardSegment.objects.filter(cell=cell).count() == 5


def test_an_import_without_underlay_lines_removes_the_underlay(owner_api, cell):
    post(owner_api, cell, to_bytes(fenced_square()), height_mm=1800)
    doc = new_drawing()
    doc.modelspace().add_line((0, 0), (0, 900), dxfattribs={"layer": "F"})
    post(owner_api, cell, to_bytes(doc), mapping={"F": "fence"}, height_mm=900)
    assert not LayoutUnderlay.objects.filter(cell=cell).exists()


def assert_nothing_saved(cell) -> None:
    assert not GuardSegment.objects.filter(cell=cell).exists()
    assert not LayoutUnderlay.objects.filter(cell=cell).exists()


@pytest.mark.parametrize(
    "data",
    [b"garbage, not a drawing", b"\x00\xff" * 1000, b""],
    ids=["text", "binary", "empty"],
)
def test_a_file_ezdxf_cannot_read_is_a_400_naming_file(owner_api, cell, data):
    response = post(owner_api, cell, data)
    assert response.status_code == 400
    assert list(response.json()) == ["file"]
    assert_nothing_saved(cell)


def test_the_unreadable_file_message_says_what_to_do(owner_api, cell):
    response = post(owner_api, cell, b"garbage, not a drawing")
    (message,) = response.json()["file"]
    assert "not a DXF drawing that can be read" in message


def test_random_bytes_are_a_400_and_the_underlay_stays(owner_api, cell):
    # The recovering reader took them as an empty drawing: a 201 that removed
    # the cell's underlay.
    LayoutUnderlay.objects.create(cell=cell, lines=[[0, 0, 5000, 0]])
    response = post(owner_api, cell, random.Random(1).randbytes(2000))
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert "not a DXF drawing that can be read" in message
    assert LayoutUnderlay.objects.get(cell=cell).lines == [[0, 0, 5000, 0]]


def test_a_dwg_file_is_a_400_that_says_to_save_as_dxf(owner_api, cell):
    response = post(owner_api, cell, b"AC1032" + bytes(500))
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert "DWG" in message and "as DXF" in message


def test_coordinates_past_100_m_are_a_400_and_nothing_is_saved(owner_api, cell):
    doc = fenced_square()
    doc.modelspace().add_line((0, 0), (100_001, 0), dxfattribs={"layer": "FENCE"})
    response = post(
        owner_api, cell, to_bytes(doc), mapping={"FENCE": "fence"}, height_mm=1800
    )
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert "LINE" in message and "FENCE" in message and "100 m" in message
    assert_nothing_saved(cell)


def test_coordinates_past_100_m_in_metres_are_refused_too(owner_api, cell):
    doc = new_drawing(6)
    doc.modelspace().add_line((0, 0), (100.5, 0), dxfattribs={"layer": "F"})
    response = post(owner_api, cell, to_bytes(doc), mapping={"F": "fence"}, height_mm=1)
    assert response.status_code == 400
    assert_nothing_saved(cell)


def test_more_segments_than_a_cell_holds_are_a_400(owner_api, cell):
    GuardSegmentFactory(cell=cell)
    doc = new_drawing()
    for i in range(MAX_GUARD_SEGMENTS):
        doc.modelspace().add_line(
            (0, i * 10), (1000, i * 10), dxfattribs={"layer": "F"}
        )
    response = post(
        owner_api, cell, to_bytes(doc), mapping={"F": "fence"}, height_mm=1800
    )
    assert response.status_code == 400
    assert "at most 100" in response.json()["file"][0]
    assert GuardSegment.objects.filter(cell=cell).count() == 1


def test_too_many_entities_are_a_400(owner_api, cell, monkeypatch):
    monkeypatch.setattr(reading, "MAX_ENTITIES", 5)
    response = post(owner_api, cell, to_bytes(fenced_square()))
    assert response.status_code == 400
    assert "entities" in response.json()["file"][0]
    assert_nothing_saved(cell)


def test_a_file_too_large_is_a_400_naming_file(owner_api, cell):
    response = post(owner_api, cell, b"0\n" * (reading.MAX_FILE_BYTES // 2 + 1))
    assert response.status_code == 400
    assert "5 MB" in response.json()["file"][0]


def test_guards_without_a_height_need_one(owner_api, cell):
    response = post(
        owner_api, cell, to_bytes(fenced_square()), mapping={"FENCE": "fence"}
    )
    assert response.status_code == 400
    assert list(response.json()) == ["height_mm"]
    assert_nothing_saved(cell)


def test_unknown_header_units_are_a_400_naming_units(owner_api, cell):
    response = post(owner_api, cell, to_bytes(fenced_square(insunits=3)))
    assert response.status_code == 400
    assert list(response.json()) == ["units"]


def test_a_bad_mapping_is_a_400_naming_mapping(owner_api, cell):
    response = post(
        owner_api, cell, to_bytes(fenced_square()), mapping={"FENCE": "moat"}
    )
    assert response.status_code == 400
    assert "mapping" in response.json()
    response = owner_api.post(
        import_url(cell),
        {"file": upload(to_bytes(fenced_square())), "mapping": "{not json"},
        format="multipart",
    )
    assert response.status_code == 400
    assert "mapping" in response.json()


# Export ---------------------------------------------------------------------------


@pytest.fixture
def laid_out(cell):
    """A cell with a segment of each kind, an opening, a placed curtain, a
    station and a minimum distance to draw."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    f1 = GuardSegmentFactory(
        cell=cell,
        label="F1",
        start_x_mm=0,
        start_y_mm=0,
        end_x_mm=6000,
        end_y_mm=0,
        height_mm=2000,
        bottom_gap_mm=150,
    )
    GuardSegmentFactory(
        cell=cell,
        label="W1",
        kind="wall",
        start_x_mm=6000,
        start_y_mm=0,
        end_x_mm=6000,
        end_y_mm=6000,
        height_mm=3000,
    )
    GuardSegmentFactory(
        cell=cell,
        label="M1",
        kind="machine_body",
        start_x_mm=6000,
        start_y_mm=6000,
        end_x_mm=0,
        end_y_mm=6000,
        height_mm=1500,
    )
    opening = OpeningFactory(segment=f1, label="Infeed", offset_mm=2500, width_mm=1000)
    DeviceFactory(
        cell=cell,
        opening=opening,
        label="LC1",
        kind="light_curtain",
        iec61496_type=4,
        response_time_ms=20,
        detection_capability_mm=30,
        x1_mm=2500,
        y1_mm=-100,
        x2_mm=3500,
        y2_mm=-100,
        detection_lower_mm=300,
        detection_upper_mm=1500,
    )
    OperatorStationFactory(cell=cell, label="Loading", x_mm=3000, y_mm=-1000)
    return cell


def read_back(response):
    doc, _auditor = ezdxf.recover.read(io.BytesIO(response.content))
    return doc


def test_the_export_is_a_dxf_file_in_millimetres_named_after_the_cell(
    owner_api, laid_out
):
    response = owner_api.get(export_url(laid_out))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/dxf"
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="Palletiser-layout.dxf"'
    )
    doc = read_back(response)
    assert doc.header["$INSUNITS"] == 4


def test_the_export_file_name_keeps_the_cells_script_and_drops_slashes(owner_api, cell):
    cell.name = "팔레타이저 A/B"
    cell.save()
    response = owner_api.get(export_url(cell))
    assert response["Content-Disposition"] == (
        "attachment; filename*=utf-8''%ED%8C%94%EB%A0%88%ED%83%80%EC%9D%B4%EC%A0%80"
        "%20A_B-layout.dxf"
    )


def test_the_export_has_a_layer_per_kind(owner_api, laid_out):
    doc = read_back(owner_api.get(export_url(laid_out)))
    by_layer: dict[str, list[str]] = {}
    for entity in doc.modelspace():
        by_layer.setdefault(entity.dxf.layer, []).append(entity.dxftype())
    assert by_layer[layers.GUARD_LAYERS["fence"]] == ["LINE"]
    assert by_layer[layers.GUARD_LAYERS["wall"]] == ["LINE"]
    assert by_layer[layers.GUARD_LAYERS["machine_body"]] == ["LINE"]
    assert by_layer[layers.OPENINGS] == ["LINE"]
    assert by_layer[layers.DEVICES] == ["LINE"]
    assert sorted(by_layer[layers.HAZARD_ZONE]) == ["CIRCLE", "POINT"]
    assert by_layer[layers.OPERATOR_STATIONS] == ["POINT"]
    assert sorted(by_layer[layers.MINIMUM_DISTANCES]) == ["CIRCLE", "LINE"]
    assert set(by_layer[layers.LABELS]) == {"TEXT"}
    texts = [e.dxf.text for e in doc.modelspace().query("TEXT")]
    assert "F1 · 6,000 mm" in texts and "Loading" in texts and "LC1" in texts
    assert any(t.startswith("S ≥ ") for t in texts)


def test_the_export_gives_a_guard_its_height_and_the_gap_under_it(owner_api, laid_out):
    doc = read_back(owner_api.get(export_url(laid_out)))
    (fence,) = doc.modelspace().query(f'LINE[layer=="{layers.GUARD_LAYERS["fence"]}"]')
    assert fence.dxf.start.z == 150 and fence.dxf.thickness == 1850


def test_export_then_import_into_an_empty_cell_gives_the_same_segments(
    owner_api, laid_out, project
):
    exported = owner_api.get(export_url(laid_out)).content
    empty = CellFactory(project=project)
    response = post(owner_api, empty, exported)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["created"]["guard_segments"] == 3
    assert body["created"]["underlay_lines"] == 0  # its other layers are left out
    fields = (
        "kind",
        "start_x_mm",
        "start_y_mm",
        "end_x_mm",
        "end_y_mm",
        "height_mm",
        "bottom_gap_mm",
    )
    before = list(GuardSegment.objects.filter(cell=laid_out).values_list(*fields))
    after = list(GuardSegment.objects.filter(cell=empty).values_list(*fields))
    for old, new in zip(before, after, strict=True):
        assert old[0] == new[0]
        assert all(abs(a - b) <= 1 for a, b in zip(old[1:], new[1:], strict=True))


def test_export_in_inches_then_import_stays_within_a_millimetre(owner_api, project):
    """Coordinates that are not whole inches survive the trip through a
    drawing in other units, re-saved in inches by a CAD program."""
    source = CellFactory(project=project)
    GuardSegmentFactory(
        cell=source, start_x_mm=13, start_y_mm=-7, end_x_mm=4321, end_y_mm=1234
    )
    exported = owner_api.get(export_url(source)).content
    doc, _auditor = ezdxf.recover.read(io.BytesIO(exported))
    doc.header["$INSUNITS"] = 1
    for line in doc.modelspace().query("LINE"):
        line.dxf.start = line.dxf.start / 25.4
        line.dxf.end = line.dxf.end / 25.4
        line.dxf.thickness = line.dxf.thickness / 25.4
    empty = CellFactory(project=project)
    assert post(owner_api, empty, to_bytes(doc)).status_code == 201
    (imported,) = GuardSegment.objects.filter(cell=empty)
    assert (
        imported.start_x_mm,
        imported.start_y_mm,
        imported.end_x_mm,
        imported.end_y_mm,
    ) == (
        13,
        -7,
        4321,
        1234,
    )


@pytest.mark.parametrize("count", [1, 10])
def test_the_export_costs_a_fixed_number_of_queries(owner_api, laid_out, count):
    for i in range(count):
        segment = GuardSegmentFactory(
            cell=laid_out,
            start_x_mm=-1000,
            start_y_mm=i * 100,
            end_x_mm=-2000,
            end_y_mm=i * 100,
        )
        OpeningFactory(segment=segment, offset_mm=0, width_mm=500)
        OperatorStationFactory(cell=laid_out)
        DeviceFactory(cell=laid_out, kind="emergency_stop")
    with CaptureQueriesContext(connection) as queries:
        assert owner_api.get(export_url(laid_out)).status_code == 200
    # The cell; its segments, openings, stations and devices; its certificates;
    # what the findings read (the risk assessment, the safety functions).
    assert len(queries) == EXPORT_QUERIES


EXPORT_QUERIES = 8


def test_the_import_answers_exactly_what_its_schema_says(owner_api, cell):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/cells/{id}/layout/dxf/"]["post"]
    ref = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert ref == {"$ref": "#/components/schemas/DxfImportResult"}
    assert "multipart/form-data" in operation["requestBody"]["content"]
    body = post(
        owner_api,
        cell,
        to_bytes(fenced_square()),
        mapping={"FENCE": "fence"},
        height_mm=1800,
    ).json()
    validator = Draft202012Validator({**ref, "components": schema["components"]})
    assert list(validator.iter_errors(body)) == []
    errors = post(owner_api, cell, b"garbage").json()
    error_ref = operation["responses"]["400"]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**error_ref, "components": schema["components"]})
    assert list(validator.iter_errors(errors)) == []
