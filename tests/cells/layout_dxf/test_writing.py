"""Writing a cell's plan as DXF (pure): a layer per kind, millimetres, the
labels as TEXT, and a file that reads back as the same guard segments."""

from __future__ import annotations

import io
import json
from pathlib import Path

import ezdxf
import pytest

from cells.drawing import DrawingLabels, Requirement
from cells.exchange import CellDocument
from cells.layout_dxf import layers
from cells.layout_dxf.reading import interpret, read_dxf
from cells.layout_dxf.writing import build_dxf

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "demo"


@pytest.fixture
def palletiser() -> CellDocument:
    data = json.loads((FIXTURES / "palletiser.json").read_text(encoding="utf-8"))
    return CellDocument.model_validate(data)


@pytest.fixture
def polygon_cell(palletiser) -> CellDocument:
    """The palletiser with a drawn polygon zone, a mat and a scanner."""
    data = palletiser.model_dump(mode="json")
    data["hazard_zone"] = {
        "shape": "polygon",
        "polygon_mm": [[1000, 1000], [5000, 1000], [5000, 5000], [1000, 5000]],
        "height_mm": 2000,
    }
    data["devices"] += [
        {
            "label": "Mat",
            "kind": "safety_mat",
            "x1_mm": 100,
            "y1_mm": 100,
            "x2_mm": 900,
            "y2_mm": 700,
        },
        {
            "label": "Scanner",
            "kind": "laser_scanner",
            "x1_mm": 5500,
            "y1_mm": 500,
            "field_height_mm": 200,
        },
    ]
    return CellDocument.model_validate(data)


def entities(data: bytes) -> dict[str, list]:
    doc, _auditor = ezdxf.recover.read(io.BytesIO(data))
    by_layer: dict[str, list] = {}
    for entity in doc.modelspace():
        by_layer.setdefault(entity.dxf.layer, []).append(entity)
    return by_layer


def test_the_file_is_in_millimetres_with_a_layer_per_kind(palletiser):
    data = build_dxf(palletiser)
    doc, _auditor = ezdxf.recover.read(io.BytesIO(data))
    assert doc.header["$INSUNITS"] == 4
    names = {layer.dxf.name for layer in doc.layers}
    assert set(layers.COLOURS) <= names
    by_layer = entities(data)
    guards = sum(len(by_layer.get(n, [])) for n in layers.GUARD_LAYERS.values())
    assert guards == len(palletiser.guard_segments)


def test_a_polygon_zone_mats_scanners_and_their_distances(polygon_cell):
    index = next(
        i for i, d in enumerate(polygon_cell.devices) if d.kind == "safety_mat"
    )
    data = build_dxf(
        polygon_cell, required=[Requirement(device_index=index, required_mm=850)]
    )
    by_layer = entities(data)
    zone = [e.dxftype() for e in by_layer[layers.HAZARD_ZONE]]
    assert sorted(zone) == ["LWPOLYLINE", "POINT"]
    devices = sorted(e.dxftype() for e in by_layer[layers.DEVICES])
    assert devices.count("LWPOLYLINE") == 1  # the mat
    assert "CIRCLE" in devices and "POINT" in devices  # the scanner
    (outline,) = [
        e for e in by_layer[layers.MINIMUM_DISTANCES] if e.dxftype() == "LWPOLYLINE"
    ]
    assert outline.closed
    xs = [p[0] for p in outline.get_points("xy")]
    assert min(xs) == pytest.approx(1000 - 850, abs=1)
    assert max(xs) == pytest.approx(5000 + 850, abs=1)


def test_the_labels_are_text_in_the_words_given(palletiser):
    index = next(
        i for i, d in enumerate(palletiser.devices) if d.kind == "light_curtain"
    )
    data = build_dxf(
        palletiser,
        required=[Requirement(device_index=index, required_mm=850)],
        labels=DrawingLabels(required="S ≧ %(distance)s mm (번역)"),
    )
    texts = [e.dxf.text for e in entities(data)[layers.LABELS]]
    assert "S ≧ 850 mm (번역)" in texts


def test_it_reads_back_as_the_same_guard_segments(palletiser):
    plan = interpret(read_dxf(build_dxf(palletiser)))
    assert plan.units == "mm"
    assert len(plan.segments) == len(palletiser.guard_segments)
    for doc_seg, line in zip(palletiser.guard_segments, plan.segments, strict=True):
        assert line.kind == doc_seg.kind
        assert (line.start_x_mm, line.start_y_mm) == (
            doc_seg.start.x_mm,
            doc_seg.start.y_mm,
        )
        assert (line.end_x_mm, line.end_y_mm) == (doc_seg.end.x_mm, doc_seg.end.y_mm)
        assert line.height_mm == doc_seg.height_mm
        assert line.bottom_gap_mm == doc_seg.bottom_gap_mm
    # The other layers are drawn from the cell: left out, not underlay.
    assert plan.underlay == []
