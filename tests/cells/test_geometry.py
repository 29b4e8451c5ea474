from __future__ import annotations

import pytest

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
