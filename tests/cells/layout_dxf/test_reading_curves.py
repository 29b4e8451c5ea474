"""Curves cut into straight chords within a tolerance stated in millimetres,
and 3D entities seen from above (issue 31): where each chord lies, how many
there are, and the bounds a huge or pathological curve meets."""

from __future__ import annotations

import itertools
import math
import random
import time

import numpy as np
import pytest
from ezdxf.math import BSpline

from cells.layout_dxf import reading
from cells.layout_dxf.reading import DxfError, entities, interpret, read_dxf
from tests.cells.layout_dxf.support import new_drawing, to_bytes

TOLERANCE = reading.FLATTEN_TOLERANCE_MM


def plan_of(doc, **options) -> reading.DxfPlan:
    return interpret(read_dxf(to_bytes(doc)), **options)


def ends(lines) -> list[tuple[int, int, int, int]]:
    return [(s.start_x_mm, s.start_y_mm, s.end_x_mm, s.end_y_mm) for s in lines]


def distances(points, segments) -> np.ndarray:
    """The distance from each point (x, y) to the nearest of ``segments``
    (x1, y1, x2, y2)."""
    p = np.asarray(points, dtype=float)[:, None, :]
    s = np.asarray(segments, dtype=float)[None, :, :]
    a, d = s[..., :2], s[..., 2:] - s[..., :2]
    length = np.maximum((d * d).sum(-1), 1e-12)
    t = np.clip(((p - a) * d).sum(-1) / length, 0, 1)
    return np.hypot(*np.moveaxis(p - a - t[..., None] * d, -1, 0)).min(axis=1)


def assert_within(chords, curve, *, tolerance=TOLERANCE + 1):
    """Every point of ``curve`` (a list of points on it, dense) lies within
    ``tolerance`` of a chord, and every chord's within it of the curve (1 mm
    more than the tolerance: the chords' ends are rounded)."""
    assert distances(curve, chords).max() <= tolerance
    pieces = [(*a, *b) for a, b in itertools.pairwise(curve)]
    along = [
        (x1 + f * (x2 - x1), y1 + f * (y2 - y1))
        for x1, y1, x2, y2 in chords
        for f in (0.2, 0.35, 0.5, 0.65, 0.8)
    ]
    assert distances(along, pieces).max() <= tolerance


def circle_points(cx, cy, r, start=0.0, span=math.tau, count=2000):
    return [
        (
            cx + r * math.cos(start + span * i / count),
            cy + r * math.sin(start + span * i / count),
        )
        for i in range(count + 1)
    ]


def test_a_circle_is_cut_into_chords_within_the_tolerance():
    doc = new_drawing()
    doc.modelspace().add_circle((2000, 1000), 1000, dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    chords = ends(plan.segments)
    # 2 acos(1 - 5/1000) = 11.47° a chord at most: 32 of 11.25°.
    assert len(chords) == 32
    assert chords[0] == (3000, 1000, 2981, 1195)
    assert chords[8][:2] == (2000, 2000) and chords[16][:2] == (1000, 1000)
    assert chords[-1][2:] == (3000, 1000)
    assert_within(chords, circle_points(2000, 1000, 1000))
    assert plan.notes == {"curves_flattened": 1}
    assert {(s.entity, s.kind, s.height_mm) for s in plan.segments} == {
        ("CIRCLE", "fence", None)
    }


def test_a_circle_with_a_thickness_stands_as_high_at_each_chord():
    doc = new_drawing(insunits=5)  # cm
    doc.modelspace().add_circle(
        (0, 0, 10), 100, dxfattribs={"layer": "F", "thickness": 200}
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    assert {(s.height_mm, s.bottom_gap_mm) for s in plan.segments} == {(2100, 100)}


def test_the_tolerance_is_in_millimetres_whatever_the_units():
    doc = new_drawing(insunits=6)  # metres
    doc.modelspace().add_circle((0, 0), 3, dxfattribs={"layer": "F"})
    in_metres = plan_of(doc, mapping={"F": "fence"})
    # 3 m: 2 acos(1 - 5/3000) = 6.6° a chord, 55 of them.
    assert len(in_metres.segments) == 55
    assert_within(ends(in_metres.segments), circle_points(0, 0, 3000))
    # Read as millimetres, the same circle is 3 mm across: a square of 4.
    in_mm = plan_of(doc, mapping={"F": "fence"}, units="mm")
    assert ends(in_mm.segments) == [
        (3, 0, 0, 3),
        (0, 3, -3, 0),
        (-3, 0, 0, -3),
        (0, -3, 3, 0),
    ]


def test_an_arc_runs_counter_clockwise_from_its_start_to_its_end():
    doc = new_drawing()
    doc.modelspace().add_arc((0, 0), 2000, 90, 180, dxfattribs={"layer": "F"})
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    assert chords[0][:2] == (0, 2000) and chords[-1][2:] == (-2000, 0)
    # 2 acos(1 - 5/2000) = 8.1° a chord: 12 for the quarter.
    assert len(chords) == 12
    assert_within(chords, circle_points(0, 0, 2000, math.pi / 2, math.pi / 2))


def test_an_arc_drawn_mirrored_is_where_it_is_seen_and_not_projected():
    doc = new_drawing()
    # Extrusion -Z (as CAD programs mirror): the OCS x axis is the world's -x.
    doc.modelspace().add_arc(
        (1000, 0), 1000, 0, 90, dxfattribs={"layer": "F", "extrusion": (0, 0, -1)}
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    chords = ends(plan.segments)
    assert chords[0][:2] == (-2000, 0) and chords[-1][2:] == (-1000, 1000)
    assert_within(chords, circle_points(-1000, 0, 1000, math.pi, -math.pi / 2))
    assert plan.notes == {"curves_flattened": 1}


def test_an_ellipse_is_cut_into_chords_within_the_tolerance():
    doc = new_drawing()
    doc.modelspace().add_ellipse(
        (0, 0),
        major_axis=(2000, 0),
        ratio=0.5,
        start_param=0,
        end_param=math.pi,
        dxfattribs={"layer": "F"},
    )
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    assert chords[0][:2] == (2000, 0) and chords[-1][2:] == (-2000, 0)
    curve = [
        (2000 * math.cos(t), 1000 * math.sin(t))
        for t in (math.pi * i / 4000 for i in range(4001))
    ]
    assert_within(chords, curve)


def test_a_spline_is_cut_into_chords_within_the_tolerance():
    doc = new_drawing()
    control = [(0, 0), (1000, 3000), (3000, -2000), (5000, 2000), (6000, 0)]
    spline = doc.modelspace().add_open_spline(
        control, degree=3, dxfattribs={"layer": "F"}
    )
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    # A clamped spline starts and ends on its end control points.
    assert chords[0][:2] == (0, 0) and chords[-1][2:] == (6000, 0)
    curve = spline.construction_tool()
    dense = [(p.x, p.y) for p in curve.approximate(4000)]
    assert_within(chords, dense)
    assert len(chords) < 200  # not needlessly fine either


@pytest.mark.parametrize("seed", range(6))
def test_any_spline_rational_or_not_is_cut_within_the_tolerance(seed):
    rng = random.Random(seed)
    degree = rng.choice([2, 3, 3, 5])
    control = [
        (i * 800 + rng.uniform(-400, 400), rng.uniform(-1500, 1500)) for i in range(9)
    ]
    weights = [rng.uniform(0.7, 1.4) for _ in control] if seed % 2 else None
    curve = BSpline(control, order=degree + 1, weights=weights)
    # Within the cap, where the tolerance holds (a rational spline of very
    # uneven weights meets the cap sooner: its bound is loose).
    shape = reading.curves.Spline.of(curve)
    assert shape.chord_count(TOLERANCE, reading.MAX_CHORDS_PER_CURVE) < 200
    doc = new_drawing()
    spline = doc.modelspace().add_spline(dxfattribs={"layer": "F"})
    spline.apply_construction_tool(curve)
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    assert_within(chords, [(p.x, p.y) for p in curve.approximate(3000)])


def test_a_rational_spline_a_quarter_circle_is_cut_within_the_tolerance():
    doc = new_drawing()
    spline = doc.modelspace().add_rational_spline(
        [(1000, 0), (1000, 1000), (0, 1000)],
        weights=[1, math.sqrt(0.5), 1],
        degree=2,
        dxfattribs={"layer": "F"},
    )
    assert spline.construction_tool().is_rational
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    assert chords[0][:2] == (1000, 0) and chords[-1][2:] == (0, 1000)
    assert_within(chords, circle_points(0, 0, 1000, 0, math.pi / 2))


def test_a_spline_given_by_fit_points_passes_through_them():
    doc = new_drawing()
    fit = [(0, 0), (1000, 500), (2000, 0), (3000, 500)]
    doc.modelspace().add_spline(fit, dxfattribs={"layer": "F"})
    chords = ends(plan_of(doc, mapping={"F": "fence"}).segments)
    points = {c[:2] for c in chords} | {chords[-1][2:]}
    assert {(0, 0), (1000, 500), (2000, 0), (3000, 500)} <= points


def test_arcs_of_a_closed_polyline_close_it():
    # A slot: two straight sides and two half circles of radius 500.
    doc = new_drawing()
    doc.modelspace().add_lwpolyline(
        [(0, 0, 0), (3000, 0, 1), (3000, 1000, 0), (0, 1000, 1)],
        format="xyb",
        close=True,
        dxfattribs={"layer": "F"},
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    chords = ends(plan.segments)
    assert chords[0] == (0, 0, 3000, 0)
    # Counter-clockwise round (3000, 500) from its bottom to its top.
    right = [c for c in chords if min(c[0], c[2]) >= 3000]
    assert right[0][:2] == (3000, 0) and right[-1][2:] == (3000, 1000)
    assert max(max(c[0], c[2]) for c in right) == 3500
    assert_within(right, circle_points(3000, 500, 500, -math.pi / 2, math.pi))
    assert chords[-1][2:] == (0, 0)
    for a, b in itertools.pairwise(chords):
        assert a[2:] == b[:2]  # one line, no gap
    assert plan.notes == {"curves_flattened": 1}


# --- bounds ------------------------------------------------------------------


def test_a_circle_of_a_radius_of_1e12_makes_no_more_chords_than_the_cap():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_circle((0, 0), 1e12, dxfattribs={"layer": "HALL"})
    msp.add_line((0, 0), (1000, 0), dxfattribs={"layer": "HALL"})
    started = time.monotonic()
    plan = plan_of(doc)
    assert plan.underlay == [[0, 0, 1000, 0]]
    assert plan.skipped == {("off_the_plan", "CIRCLE"): reading.MAX_CHORDS_PER_CURVE}
    assert time.monotonic() - started < 5


def test_a_pathological_spline_makes_no_more_chords_than_the_cap():
    doc = new_drawing()
    wild = [(i * 1e15, (-1) ** i * 1e300) for i in range(50)]
    doc.modelspace().add_open_spline(wild, degree=3, dxfattribs={"layer": "HALL"})
    doc.modelspace().add_line((0, 0), (1000, 0), dxfattribs={"layer": "HALL"})
    started = time.monotonic()
    plan = plan_of(doc)
    skipped = (
        plan.skipped[("off_the_plan", "SPLINE")]
        + plan.skipped[("zero_length", "SPLINE")]
    )
    assert 0 < skipped <= reading.MAX_CHORDS_PER_CURVE + 50
    assert time.monotonic() - started < 5


def test_curves_cut_finer_than_the_pieces_allow_are_refused(monkeypatch):
    monkeypatch.setattr(reading, "MAX_PIECES", 100)
    doc = new_drawing(insunits=6)
    for i in range(4):
        doc.modelspace().add_circle((10 * i, 0), 1)  # 1 m: 32 chords each
    contents = read_dxf(to_bytes(doc))  # one piece each, before the units
    with pytest.raises(DxfError) as caught:
        interpret(contents)
    assert caught.value.code == "too_many_pieces"
    # Read as millimetres, the same circles are small: 4 chords each.
    assert len(interpret(contents, units="mm").underlay) == 16


def test_a_spline_of_too_many_fit_points_or_too_high_a_degree_is_skipped(monkeypatch):
    monkeypatch.setattr(entities, "MAX_FIT_POINTS", 10)
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_spline(
        [(i * 100, i % 2 * 100) for i in range(11)], dxfattribs={"layer": "H"}
    )
    steep = msp.add_open_spline([(i * 100, i % 3) for i in range(31)], degree=30)
    steep.dxf.layer = "H"
    msp.add_line((0, 0), (1000, 0), dxfattribs={"layer": "H"})
    plan = plan_of(doc)
    assert plan.skipped == {("curve_too_complex", "SPLINE"): 2}
    assert plan.underlay == [[0, 0, 1000, 0]]


# --- seen from above -----------------------------------------------------------


def test_a_sloping_line_is_projected_onto_the_floor_and_says_so():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0, 500), (3000, 4000, 2500), dxfattribs={"layer": "F"})
    msp.add_line((0, 0, 200), (1000, 0, 200), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [(0, 0, 3000, 4000), (0, 0, 1000, 0)]
    assert plan.notes == {"projected_3d": 1}


def test_a_polyline_in_a_wall_plane_is_seen_from_above():
    doc = new_drawing()
    # Extrusion +x: the OCS (x, y) of elevation 500 is the world's (500, x, y).
    doc.modelspace().add_lwpolyline(
        [(0, 0), (1000, 0), (1000, 2000)],
        dxfattribs={"layer": "F", "extrusion": (1, 0, 0), "elevation": 500},
    )
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [(500, 0, 500, 1000)]
    assert plan.skipped == {("zero_length", "LWPOLYLINE"): 1}  # seen end on
    assert plan.notes == {"projected_3d": 1}


def test_a_3dface_gives_its_visible_edges_seen_from_above():
    doc = new_drawing()
    msp = doc.modelspace()
    face = msp.add_3dface(
        [(0, 0, 0), (2000, 0, 0), (2000, 1000, 800), (0, 1000, 800)],
        dxfattribs={"layer": "F"},
    )
    face.set_edge_visibility(2, False)  # its top edge hidden
    msp.add_3dface([(0, 0), (1000, 0), (0, -1000)], dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert ends(plan.segments) == [
        (0, 0, 2000, 0),
        (2000, 0, 2000, 1000),
        (0, 1000, 0, 0),
        (0, 0, 1000, 0),
        (1000, 0, 0, -1000),
        (0, -1000, 0, 0),
    ]
    assert plan.notes == {"projected_3d": 1}  # the flat triangle is a plan


def test_solids_and_meshes_stay_unsupported():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (1000, 0), dxfattribs={"layer": "F"})
    mesh = msp.add_mesh(dxfattribs={"layer": "F"})
    with mesh.edit_data() as data:
        data.vertices = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
        data.faces = [(0, 1, 2)]
    msp.add_polyface(dxfattribs={"layer": "F"}).append_face(
        [(0, 0, 0), (1, 0, 0), (1, 1, 1)]
    )
    msp.add_point((0, 0), dxfattribs={"layer": "F"})
    plan = plan_of(doc, mapping={"F": "fence"})
    assert plan.skipped == {
        ("unsupported_entity", "MESH"): 1,
        ("unsupported_entity", "POLYLINE (mesh)"): 1,
        ("unsupported_entity", "POINT"): 1,
    }


def test_a_spline_evaluated_as_ezdxf_does_matches_the_chords_ends():
    # The chords' ends lie on the curve itself (ezdxf's evaluation).
    curve = BSpline([(0, 0), (1000, 2000), (2000, 0)], order=3)
    shape = reading.curves.Spline.of(curve)
    points = shape.points(TOLERANCE, reading.MAX_CHORDS_PER_CURVE)
    exact = {(round(p.x, 6), round(p.y, 6)) for p in curve.approximate(len(points) - 1)}
    assert {(round(x, 6), round(y, 6)) for x, y in points} == exact
