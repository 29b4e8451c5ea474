from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cells import geometry


def test_distance_is_euclidean():
    assert geometry.distance_mm((0, 0), (3000, 4000)) == 5000


def test_point_along_a_segment():
    assert geometry.point_along((0, 0), (0, 2000), 500) == (0, 500)


def test_touching_intervals_do_not_overlap():
    assert geometry.overlapping_intervals([(0, 100), (100, 200)]) == []
    assert geometry.overlapping_intervals([(0, 101), (100, 200), (500, 600)]) == [
        (0, 1)
    ]


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        ([(0, 0), (1, 0)], "too_few_points"),
        ([(0, 0), (1, 0), (0, 0)], "repeated_point"),
        ([(0, 0), (1, 0), (2, 0)], "zero_area"),
        ([(0, 0), (2, 2), (2, 0), (0, 2)], "self_intersecting"),
        ([(0, 0), (2, 0), (2, 2), (0, 2)], None),
        ([(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)], None),  # concave is fine
    ],
)
def test_polygon_problems(points, problem):
    assert geometry.polygon_problem(points) == problem


def test_shoelace_area():
    assert (
        geometry.polygon_area_mm2([(0, 0), (2000, 0), (2000, 1500), (0, 1500)]) == 3e6
    )


def test_distance_from_a_fence_to_a_circular_zone():
    # Fence along y = 0, zone of radius 1,700 mm around (2,000, 1,750): 50 mm apart.
    assert geometry.distance_to_circle((0, 0), (4000, 0), (2000, 1750), 1700) == 50


def test_a_fence_inside_the_zone_is_at_distance_zero():
    assert geometry.distance_to_circle((0, 0), (4000, 0), (2000, 1000), 1700) == 0


def test_distance_to_a_polygonal_zone():
    square = [(1000, 1000), (3000, 1000), (3000, 3000), (1000, 3000)]
    assert geometry.distance_to_polygon((0, 0), (4000, 0), square) == 1000
    assert geometry.distance_to_polygon((2000, 2000), (5000, 2000), square) == 0


# --- Outlines, windings and distances between areas ----------------------------

SQUARE = [(0, 0), (2000, 0), (2000, 2000), (0, 2000)]  # anticlockwise
BOWTIE = [(0, 0), (2000, 2000), (2000, 0), (0, 2000)]  # crosses itself at (1000, 1000)


def test_signed_area_is_positive_anticlockwise():
    assert geometry.signed_area_mm2(SQUARE) == 4e6
    assert geometry.signed_area_mm2(SQUARE[::-1]) == -4e6
    assert geometry.signed_area_mm2(BOWTIE) == 0  # its two lobes cancel


def test_winding_number_counts_turns_round_a_point():
    assert geometry.winding_number((500, 500), SQUARE) == 1
    assert geometry.winding_number((500, 500), SQUARE[::-1]) == -1
    assert geometry.winding_number((2500, 500), SQUARE) == 0
    # Each lobe of the bowtie is enclosed, turned opposite ways.
    assert geometry.winding_number((300, 1000), BOWTIE) == 1
    assert geometry.winding_number((1700, 1000), BOWTIE) == -1
    assert geometry.winding_number((1000, 300), BOWTIE) == 0


polygons = st.lists(
    st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=3, max_size=8
)


@given(polygons, st.tuples(st.floats(-60, 60), st.floats(-60, 60)))
def test_the_winding_index_agrees_with_the_winding_number(polygon, point):
    assume(len({y for _, y in polygon}) > 1)

    assert geometry.WindingIndex(polygon)(point) == geometry.winding_number(
        point, polygon
    )


def test_distances_to_an_outline_and_to_an_area():
    assert geometry.outline_distance((1000, 500), SQUARE) == 500
    assert geometry.point_polygon_distance((1000, 500), SQUARE) == 0  # inside
    assert geometry.point_polygon_distance((5000, 6000), SQUARE) == 5000


def test_gap_between_a_disc_and_a_polygon():
    assert geometry.circle_polygon_distance((5000, 1000), 1000, SQUARE) == 2000
    assert geometry.circle_polygon_distance((1000, 1000), 5000, SQUARE) == 0
    assert geometry.circle_polygon_distance((1000, 1000), 10, SQUARE) == 0  # within


def test_gap_between_two_polygons():
    far = [(5000, 0), (6000, 0), (6000, 1000)]
    inner = [(500, 500), (600, 500), (600, 600)]
    assert geometry.polygon_polygon_distance(SQUARE, far) == 3000
    assert geometry.polygon_polygon_distance(SQUARE, inner) == 0
    assert geometry.polygon_polygon_distance(inner, SQUARE) == 0


@pytest.mark.parametrize(
    ("points", "convex"),
    [
        (SQUARE, True),
        (SQUARE[::-1], True),
        ([(0, 0), (1000, 0), (2000, 0), (2000, 2000), (0, 2000)], True),  # straight
        ([(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)], False),  # a notch
        ([(0, 0), (2, 0), (1, 0), (1, 1)], False),  # doubles back
        (BOWTIE, False),
        # A pentagram turns one way at every corner but goes round twice.
        ([(0, 100), (59, -81), (-95, 31), (95, 31), (-59, -81)], False),
        ([(0, 0), (1, 0), (2, 0)], False),
    ],
)
def test_convex_polygons(points, convex):
    assert geometry.polygon_is_convex(points) is convex


@given(polygons)
def test_polygon_is_simple_agrees_with_the_problem_check(points):
    assert geometry.polygon_is_simple(points) == (
        geometry.polygon_problem(points) is None
    )


def test_a_large_simple_polygon_is_checked_without_comparing_every_pair():
    n = 2000
    points = [
        (
            round(1e6 * math.cos(2 * math.pi * k / n)),
            round(1e6 * math.sin(2 * math.pi * k / n)),
        )
        for k in range(n)
    ]
    assert geometry.polygon_is_simple(points)
    points[1000] = (0, 0)  # a spike in to the centre crosses nothing
    assert geometry.polygon_is_simple(points)
    points[500] = (-2_000_000, 0)  # from the top out to the far left: crosses
    assert not geometry.polygon_is_simple(points)


@given(
    st.lists(st.tuples(st.integers(-100, 100), st.integers(-100, 100)), max_size=30),
    st.integers(1, 60),
)
def test_close_pairs_finds_exactly_the_pairs_closer_than_the_radius(points, radius):
    expected = {
        (i, j)
        for i in range(len(points))
        for j in range(i + 1, len(points))
        if math.dist(points[i], points[j]) < radius
    }

    assert set(geometry.close_pairs(points, radius)) == expected


def test_squared_distance_is_exact_for_whole_millimetres():
    assert geometry.squared_distance_mm2((0, 0), (3, 4)) == 25
    assert geometry.squared_distance_mm2((-100_000, 0), (100_000, 1)) == 4e10 + 1


def test_clipping_a_polygon_to_a_box():
    clipped = geometry.clip_polygon_to_box(SQUARE, 1000, 1000, 3000, 3000)
    assert sorted(clipped) == [(1000, 1000), (1000, 2000), (2000, 1000), (2000, 2000)]
    assert geometry.clip_polygon_to_box(SQUARE, 3000, 3000, 4000, 4000) == []
    triangle = [(0, 0), (4000, 0), (0, 4000)]
    assert sorted(geometry.clip_polygon_to_box(triangle, 1000, 1000, 5000, 5000)) == [
        (1000, 1000),
        (1000, 3000),
        (3000, 1000),
    ]


def _convex_hull(points):
    points = sorted(set(points))

    def half(run):
        hull = []
        for p in run:
            while (
                len(hull) >= 2
                and (
                    (hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1])
                    - (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])
                )
                <= 0
            ):
                hull.pop()
            hull.append(p)
        return hull[:-1]

    return half(points) + half(points[::-1])


def test_clipping_a_concave_polygon_may_link_its_pieces_outside_it():
    arrow = [(-1, 0), (0, 1), (-2, 0), (0, -1)]  # touches x = 0 at two points

    clipped = geometry.clip_polygon_to_box(arrow, 0, 0, 1, 1)

    assert (0, 1) in clipped  # the one point of the arrow in the box
    assert (0, 0) in clipped  # on the link, outside the arrow


@given(
    polygons,
    st.tuples(st.integers(-60, 60), st.integers(-60, 60), st.integers(1, 60)),
    st.tuples(st.floats(0, 1), st.floats(0, 1)),
)
def test_clipped_corners_hold_the_part_of_the_polygon_in_the_box(points, box, where):
    assume(geometry.polygon_problem(points) is None)
    x, y, size = box

    corners = geometry.clip_polygon_to_box(points, x, y, x + size, y + size)

    for corner in corners:
        assert x - 1e-9 <= corner[0] <= x + size + 1e-9
        assert y - 1e-9 <= corner[1] <= y + size + 1e-9
    for p in points:
        if x <= p[0] <= x + size and y <= p[1] <= y + size:
            assert p in corners
    probe = (x + where[0] * size, y + where[1] * size)
    if geometry.point_in_polygon(probe, points):
        hull = _convex_hull(corners)
        assert len(hull) >= 3
        assert geometry.point_polygon_distance(probe, hull) < 1e-9


# --- Self-intersection by a sweep, not by every pair ----------------------------


def _crosses_pairwise(points):
    """The definition: two edges that are not neighbours cross or touch."""
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    return any(
        geometry.segments_intersect(*edges[i], *edges[j])
        for i in range(n)
        for j in range(i + 1, n)
        if j != i + 1 and not (i == 0 and j == n - 1)
    )


# A small grid makes touching corners, collinear edges and verticals common.
crowded_polygons = st.lists(
    st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
    min_size=3,
    max_size=12,
    unique=True,
)


@given(crowded_polygons)
def test_the_sweep_agrees_with_comparing_every_pair(points):
    assert geometry.polygon_self_intersects(points) == _crosses_pairwise(points)


@given(polygons.filter(lambda p: len(set(p)) == len(p)))
def test_the_sweep_agrees_on_wider_polygons(points):
    assert geometry.polygon_self_intersects(points) == _crosses_pairwise(points)


def test_the_sweep_compares_far_fewer_pairs_than_every_pair(monkeypatch):
    n = 2000
    points = [
        (
            round(1e6 * math.cos(2 * math.pi * k / n)),
            round(1e6 * math.sin(2 * math.pi * k / n)),
        )
        for k in range(n)
    ]
    calls = 0
    real = geometry.segments_intersect

    def counting(*args):
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(geometry, "segments_intersect", counting)

    assert not geometry.polygon_self_intersects(points)
    # Every pair would be about n²/2 = 2,000,000 tests; the sweep tests
    # neighbours in its order only: a few per corner.
    assert calls < 10 * n


@given(
    polygons,
    st.tuples(st.integers(-80, 80), st.integers(-80, 80)),
    st.tuples(st.integers(-80, 80), st.integers(-80, 80)),
)
def test_the_pruned_distance_to_a_polygon_is_the_least_over_every_edge(polygon, a, b):
    n = len(polygon)
    every_edge = min(
        geometry.segment_segment_distance(a, b, polygon[i], polygon[(i + 1) % n])
        for i in range(n)
    )

    assert geometry._nearest_edge_distance(a, b, polygon) == every_edge
