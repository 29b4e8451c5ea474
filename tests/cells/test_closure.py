"""Whether a light curtain closes the opening it is linked to, on the plan
(issue 27: a curtain moved 1.9 m in front of its opening still passed)."""

from __future__ import annotations

from cells.perimeter.closure import line_closure

FENCE = ((0.0, 0.0), (4000.0, 0.0))
# The opening runs 1,000 to 2,000 mm along the fence.
OPENING = {"opening_from_mm": 1000.0, "opening_to_mm": 2000.0}


def _closure(line, *extra):
    return line_closure(guard=FENCE, line=line, guards=[FENCE, *extra], **OPENING)


def test_a_curtain_in_the_opening_closes_it():
    closure = _closure(((1000.0, 0.0), (2000.0, 0.0)))
    assert closure.spans and closure.in_plane and closure.closes


def test_a_curtain_narrower_than_the_opening_does_not_close_it():
    closure = _closure(((1100.0, 0.0), (2000.0, 0.0)))
    assert not closure.spans and not closure.closes
    assert (closure.covered_from_mm, closure.covered_to_mm) == (1100.0, 2000.0)


def test_a_curtain_in_front_of_the_opening_with_open_sides_does_not_close_it():
    closure = _closure(((1000.0, -1900.0), (2000.0, -1900.0)))
    assert closure.spans and not closure.in_plane
    assert closure.open_sides_mm == (1900.0, 1900.0)
    assert closure.offset_mm == 1900.0
    assert not closure.closes


def test_side_guards_from_its_ends_to_the_fence_close_the_way_round():
    left = ((1000.0, -1900.0), (1000.0, 0.0))
    right = ((2000.0, 0.0), (2000.0, -1900.0))
    closure = _closure(((1000.0, -1900.0), (2000.0, -1900.0)), left, right)
    assert closure.closes and closure.open_sides_mm == ()
    one_side = _closure(((1000.0, -1900.0), (2000.0, -1900.0)), left)
    assert one_side.open_sides_mm == (1900.0,) and not one_side.closes


def test_a_side_guard_that_stops_short_of_the_fence_leaves_the_side_open():
    short = ((1000.0, -1900.0), (1000.0, -400.0))
    right = ((2000.0, 0.0), (2000.0, -1900.0))
    closure = _closure(((1000.0, -1900.0), (2000.0, -1900.0)), short, right)
    assert closure.open_sides_mm == (1900.0,) and not closure.closes


def test_a_curtain_a_few_mm_off_the_fence_line_is_in_its_plane():
    # Within the 10 mm at which two segment ends join.
    closure = _closure(((1000.0, 8.0), (2000.0, 8.0)))
    assert closure.in_plane and closure.closes
    off = _closure(((1000.0, 60.0), (2000.0, 60.0)))
    assert not off.in_plane and off.open_sides_mm == (60.0, 60.0)
