"""The placement (pure): two points, their real distance and where the first
lies on the plan give the scale and the image's rectangle."""

from __future__ import annotations

import math

from cells.layout_image.placement import Placement


def placement(**changes) -> Placement:
    values = {
        "width_px": 200,
        "height_px": 100,
        "point1_x_px": 20,
        "point1_y_px": 10,
        "point2_x_px": 120,
        "point2_y_px": 10,
        "distance_mm": 5000,
        "plan_x_mm": 1000,
        "plan_y_mm": 2000,
    }
    return Placement(**(values | changes))


def test_two_points_100_px_apart_and_5_m_give_50_mm_per_pixel():
    assert placement().mm_per_px == 50


def test_the_rectangle_puts_point_1_where_it_was_placed():
    rectangle = placement().rectangle()
    # Point 1 is 20 px from the left, 10 px from the top: 1,000 and 500 mm.
    assert rectangle.min_x_mm == 0
    assert rectangle.max_x_mm == 10_000
    assert rectangle.max_y_mm == 2500
    assert rectangle.min_y_mm == -2500
    assert (rectangle.width_mm, rectangle.height_mm) == (10_000, 5000)


def test_in_the_drawing_y_is_minus_the_plan_y():
    assert placement().rectangle().svg() == (0, -2500, 10_000, 5000)


def test_points_apart_on_a_slant_measure_along_the_slant():
    slanted = placement(point2_x_px=80, point2_y_px=90)  # 60, 80: 100 px
    assert math.isclose(slanted.mm_per_px, 50)


def test_within_the_plan_means_every_corner():
    assert placement().rectangle().within(100_000)
    assert not placement(distance_mm=200_000).rectangle().within(100_000)
