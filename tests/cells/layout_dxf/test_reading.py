"""Reading DXF drawings (pure): what becomes a guard segment, what the
underlay, what is skipped and why, in which units."""

from __future__ import annotations

import random

import pytest

from cells.layout_dxf import reading
from cells.layout_dxf.reading import DxfError, interpret, read_dxf
from tests.cells.layout_dxf.support import fenced_square, new_drawing, to_bytes


def plan_of(doc, **options) -> reading.DxfPlan:
    return interpret(read_dxf(to_bytes(doc)), **options)


def ends(plan) -> list[tuple[int, int, int, int]]:
    return [(s.start_x_mm, s.start_y_mm, s.end_x_mm, s.end_y_mm) for s in plan.segments]


def test_mapped_layers_give_guard_segments_and_the_rest_underlay():
    plan = plan_of(fenced_square(), mapping={"FENCE": "fence", "WALLS": "wall"})
    assert plan.segments_by_kind() == {"fence": 4, "wall": 1, "machine_body": 0}
    lines, circle = plan.underlay[:2], plan.underlay[2:]
    assert lines == [[-1000, -1000, -1000, 5000], [-1000, 5000, 6000, 5000]]
    # The column (a CIRCLE of 300 round 2000, 2000): 18 chords within 5 mm.
    assert len(circle) == 18
    assert circle[0][:2] == [2300, 2000] and circle[-1][2:] == [2300, 2000]
    assert plan.skipped == {("text", "TEXT"): 1}
    assert plan.notes == {"curves_flattened": 1}
    targets = {layer.name: layer.target for layer in plan.layers}
    assert targets == {"FENCE": "fence", "WALLS": "wall", "HALL": "underlay"}


def test_a_closed_lwpolyline_gives_its_closing_segment():
    plan = plan_of(fenced_square(), mapping={"fence": "fence"})  # any case
    assert ends(plan)[:4] == [
        (0, 0, 4000, 0),
        (4000, 0, 4000, 4000),
        (4000, 4000, 0, 4000),
        (0, 4000, 0, 0),
    ]


def test_unmapped_layers_are_underlay_and_nothing_is_a_guard():
    plan = plan_of(fenced_square())
    assert plan.segments == [] and plan.doors == []
    assert len(plan.underlay) == 4 + 1 + 2 + 18


def test_inch_units_from_the_header_are_read_as_millimetres():
    plan = plan_of(fenced_square(100, insunits=1), mapping={"FENCE": "fence"})
    assert (plan.units, plan.units_from) == ("inch", "header")
    assert ends(plan)[0] == (0, 0, 2540, 0)


def test_given_units_override_the_header():
    plan = plan_of(fenced_square(4, insunits=4), mapping={"FENCE": "fence"}, units="m")
    assert (plan.units, plan.units_from) == ("m", "request")
    assert ends(plan)[0] == (0, 0, 4000, 0)


@pytest.mark.parametrize(
    ("code", "units", "mm"), [(2, "foot", 3048), (5, "cm", 100), (6, "m", 10000)]
)
def test_feet_centimetres_and_metres(code, units, mm):
    plan = plan_of(fenced_square(10, insunits=code), mapping={"FENCE": "fence"})
    assert plan.units == units
    assert ends(plan)[0] == (0, 0, mm, 0)


def test_a_unitless_drawing_is_read_as_millimetres_and_says_so():
    plan = plan_of(fenced_square(insunits=0), mapping={"FENCE": "fence"})
    assert (plan.units, plan.units_from) == ("mm", "assumed")


def test_units_this_import_does_not_read_need_to_be_given():
    with pytest.raises(DxfError) as caught:
        plan_of(fenced_square(insunits=3))  # miles
    assert caught.value.code == "unknown_units"
    assert plan_of(fenced_square(insunits=3), units="mm").units == "mm"


def test_an_arc_in_a_polyline_is_cut_into_chords_on_every_layer():
    # Skipped on a guard layer before issue 31; now flattened everywhere.
    doc = new_drawing()
    points = [(0, 0, 0), (2000, 0, -1), (4000, 0, 0)]  # x, y, bulge
    for layer in ("FENCE", "HALL"):
        doc.modelspace().add_lwpolyline(
            points, format="xyb", dxfattribs={"layer": layer}
        )
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    # A bulge of -1: a half circle of radius 1000 round (3000, 0), clockwise
    # from (2000, 0) over its top to (4000, 0), in 16 chords of 11.25° (each
    # 1000 (1 - cos 5.625°) = 4.8 mm from the arc at most).
    guard = ends(plan)
    assert guard[0] == (0, 0, 2000, 0)
    assert len(guard) == 1 + 16
    assert guard[1][:2] == (2000, 0) and guard[-1][2:] == (4000, 0)
    assert guard[9][:2] == (3000, 1000)  # the top, halfway
    assert plan.skipped == {}
    assert [list(line) for line in guard] == plan.underlay
    assert plan.notes == {"curves_flattened": 2}


def test_a_closed_2d_polyline_and_a_3d_polyline():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_polyline2d(
        [(0, 0), (1000, 0), (1000, 1000)], close=True, dxfattribs={"layer": "FENCE"}
    )
    msp.add_polyline3d([(0, 0, 0), (0, -1000, 50)], dxfattribs={"layer": "FENCE"})
    plan = plan_of(doc, mapping={"FENCE": "fence"})
    assert ends(plan) == [
        (0, 0, 1000, 0),
        (1000, 0, 1000, 1000),
        (1000, 1000, 0, 0),
        (0, 0, 0, -1000),
    ]


def test_a_thickness_gives_the_height_and_the_elevation_the_gap_under():
    doc = new_drawing(5)  # cm
    msp = doc.modelspace()
    msp.add_line((0, 0, 20), (300, 0, 20), dxfattribs={"layer": "F", "thickness": 160})
    msp.add_line((0, 0), (0, 300), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    first, second = plan.segments
    assert (first.height_mm, first.bottom_gap_mm) == (1800, 200)
    assert (second.height_mm, second.bottom_gap_mm) == (None, 0)


def test_zero_length_pieces_and_far_underlay_lines_are_skipped():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((5, 5), (5.2, 5.3), dxfattribs={"layer": "F"})
    msp.add_line((0, 0), (200_001, 0), dxfattribs={"layer": "HALL"})
    msp.add_line((0, 0), (1000, 0), dxfattribs={"layer": "HALL"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert plan.segments == [] and plan.underlay == [[0, 0, 1000, 0]]
    assert plan.skipped == {
        ("zero_length", "LINE"): 1,
        ("off_the_plan", "LINE"): 1,
    }


def test_an_ignored_layer_is_skipped_whole():
    plan = plan_of(fenced_square(), mapping={"HALL": "ignore"})
    assert plan.skipped[("layer_ignored", "LINE")] == 2
    assert plan.skipped[("layer_ignored", "CIRCLE")] == 1


def test_the_underlay_is_capped(monkeypatch):
    monkeypatch.setattr(reading, "MAX_UNDERLAY_LINES", 3)
    plan = plan_of(fenced_square())
    assert len(plan.underlay) == 3
    # The square's first three sides are kept; its fourth and the lines after.
    assert plan.skipped[("underlay_full", "LWPOLYLINE")] == 1
    assert plan.skipped[("underlay_full", "LINE")] == 3
    assert plan.skipped[("underlay_full", "CIRCLE")] == 18


@pytest.mark.parametrize(
    "data",
    [b"", b"garbage, not a drawing\n", bytes(range(256)) * 50],
    ids=["empty", "text", "binary"],
)
def test_a_file_that_is_not_a_dxf_is_refused(data):
    with pytest.raises(DxfError) as caught:
        read_dxf(data)
    assert caught.value.code in {"empty", "unreadable", "not_dxf"}


@pytest.mark.parametrize(
    ("data", "code"),
    [
        # Bytes the recovering reader used to mend into an empty drawing.
        (random.Random(1).randbytes(2000), "not_dxf"),
        (b"%PDF-1.4\n" + random.Random(2).randbytes(500), "not_dxf"),
        (b"0\nEOF\n", "not_dxf"),
        (b"AC1032" + random.Random(3).randbytes(500), "dwg"),
    ],
    ids=["random", "pdf", "no-section", "dwg"],
)
def test_a_file_that_only_the_recovering_reader_takes_is_refused(data, code):
    with pytest.raises(DxfError) as caught:
        read_dxf(data)
    assert caught.value.code == code


def test_a_drawing_with_windows_line_ends_reads_the_same():
    # AutoCAD writes CRLF; read without universal newlines it gave no entities.
    lf = to_bytes(fenced_square())
    crlf = interpret(read_dxf(lf.replace(b"\n", b"\r\n")), mapping={"FENCE": "fence"})
    assert crlf.segments == interpret(read_dxf(lf), mapping={"FENCE": "fence"}).segments
    assert len(crlf.segments) == 4 and len(crlf.underlay) == 3 + 18


def test_a_drawing_with_a_byte_order_mark_reads():
    data = b"\xef\xbb\xbf" + to_bytes(fenced_square())
    assert read_dxf(data).entity_count == 6


def test_too_many_entities_are_refused(monkeypatch):
    monkeypatch.setattr(reading, "MAX_ENTITIES", 5)
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(fenced_square()))
    assert caught.value.code == "too_many_entities"


def test_too_many_pieces_are_refused(monkeypatch):
    monkeypatch.setattr(reading, "MAX_PIECES", 10)
    doc = new_drawing()
    doc.modelspace().add_lwpolyline([(i * 10, i % 2) for i in range(20)])
    with pytest.raises(DxfError) as caught:
        read_dxf(to_bytes(doc))
    assert caught.value.code == "too_many_pieces"


def test_a_coordinate_that_is_not_a_number_is_refused():
    data = to_bytes(fenced_square()).replace(b"\n-1000.0\n", b"\nnan\n", 1)
    assert b"\nnan\n" in data
    with pytest.raises(DxfError) as caught:
        read_dxf(data)
    assert caught.value.code == "not_a_number"


def test_a_file_too_large_is_refused_before_it_is_parsed():
    with pytest.raises(DxfError) as caught:
        read_dxf(b"0\n" * (reading.MAX_FILE_BYTES // 2 + 1))
    assert caught.value.code == "too_large"


def test_a_binary_dxf_is_read(tmp_path):
    doc = fenced_square()
    doc.saveas(tmp_path / "cell.dxf", fmt="bin")
    data = (tmp_path / "cell.dxf").read_bytes()
    assert data.startswith(reading.BINARY_DXF)
    plan = interpret(read_dxf(data), mapping={"FENCE": "fence"})
    assert len(plan.segments) == 4


def test_a_broken_binary_dxf_is_refused():
    with pytest.raises(DxfError) as caught:
        read_dxf(reading.BINARY_DXF + b"\x01\x02 not tags")
    assert caught.value.code == "unreadable"
