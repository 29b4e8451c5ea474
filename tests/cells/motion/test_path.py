"""The straight pieces of a program's path (issue 32): where it breaks, arcs
in chords within ARC_TOLERANCE_MM of the circle through their three points,
and the base frame put on the plan."""

from __future__ import annotations

import itertools
import math

import pytest

from cells.motion.errors import ProgramError
from cells.motion.path import (
    ARC_TOLERANCE_MM,
    MAX_CHORDS_PER_ARC,
    Move,
    Point,
    Program,
    Segment,
    arc_points,
    segments,
    to_plan,
)
from tests.cells.motion.support import line_of, program_text, read

A = Point(0.0, 0.0, 300.0)
B = Point(500.0, 0.0, 300.0)
C = Point(500.0, 400.0, 300.0)


def move(line: int, target: Point, **fields) -> Move:
    values = {"kind": "linear", "via": None, "speed_mm_s": 250.0, "text": "m"}
    return Move(line=line, target=target, **(values | fields))


def program(*moves: Move) -> Program:
    return Program(format="csv", moves=moves, not_checked=(), skipped=())


def test_two_consecutive_placed_moves_give_one_segment():
    found = segments(program(move(1, A), move(2, B, speed_mm_s=1000.0)))

    assert found == [Segment(0, 2, A, B, 1000.0, "linear")]


def test_the_first_move_only_places_the_robot():
    assert segments(program(move(1, A))) == []


def test_segments_are_numbered_along_the_program():
    found = segments(program(move(1, A), move(2, B), move(3, C)))

    assert [(s.index, s.line, s.start, s.end) for s in found] == [
        (0, 2, A, B),
        (1, 3, B, C),
    ]


def test_a_move_after_a_break_starts_a_new_path():
    moves = (move(1, A), move(3, B, after_break=True), move(4, C))

    assert [(s.start, s.end) for s in segments(program(*moves))] == [(B, C)]


def test_a_joint_values_move_breaks_the_path():
    text = program_text(
        """
        def main():
          movel(p[0, 0, 0.3, 0, 3.14, 0])
          movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)
          movel(p[0.5, 0, 0.3, 0, 3.14, 0])
          movel(p[0.5, 0.4, 0.3, 0, 3.14, 0])
        end
        """
    )
    read_in = read(text, "urscript")

    found = segments(read_in)

    assert [(s.line, s.start, s.end) for s in found] == [
        (line_of(text, "p[0.5, 0.4"), B, C)
    ]
    assert [m.after_break for m in read_in.moves] == [False, True, False]


def test_a_move_to_where_the_robot_stands_gives_no_segment():
    assert segments(program(move(1, A), move(2, A), move(3, B))) == [
        Segment(0, 3, A, B, 250.0, "linear")
    ]


def test_a_joint_move_keeps_its_kind_and_unknown_speed():
    found = segments(program(move(1, A), move(2, B, kind="joint", speed_mm_s=None)))

    assert (found[0].kind, found[0].speed_mm_s) == ("joint", None)


def test_more_segments_than_the_bound_are_refused_with_the_line():
    with pytest.raises(ProgramError) as raised:
        segments(
            program(move(1, A), move(2, B), move(3, C), move(7, A)), max_segments=2
        )

    assert (raised.value.code, raised.value.line) == ("too_many_segments", 7)
    assert raised.value.params == {"limit": 2}


def xyz(p: Point) -> tuple[float, float, float]:
    return (p.x_mm, p.y_mm, p.z_mm)


def dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# A circle of 800 mm radius in a plane tilted 45 degrees: centre, axes u, w.
CENTRE, RADIUS = (300.0, -200.0, 500.0), 800.0
U, W = (1 / math.sqrt(2), 0.0, 1 / math.sqrt(2)), (0.0, 1.0, 0.0)


def on_circle(degrees: float) -> Point:
    t = math.radians(degrees)
    return Point(
        *(
            c + RADIUS * (math.cos(t) * a + math.sin(t) * b)
            for c, a, b in zip(CENTRE, U, W, strict=True)
        )
    )


def angle_on_circle(p: Point) -> float:
    offset = [a - c for a, c in zip(xyz(p), CENTRE, strict=True)]
    return math.degrees(math.atan2(dot(offset, W), dot(offset, U))) % 360


def test_chords_of_an_arc_lie_within_the_tolerance_of_the_circle_through_its_points():
    # Three points fix a circle: every chord end must lie on this one, every
    # chord within 5 mm of it.
    start, via, end = on_circle(0), on_circle(100), on_circle(250)

    points = arc_points(start, via, end)

    assert points[0] == start and points[-1] == end
    for p in points:
        assert math.dist(xyz(p), CENTRE) == pytest.approx(RADIUS)
    for p, q in itertools.pairwise(points):
        middle = [(a + b) / 2 for a, b in zip(xyz(p), xyz(q), strict=True)]
        assert RADIUS - math.dist(middle, CENTRE) <= ARC_TOLERANCE_MM
    # Through the via point: the long way round (250 degrees), not the short
    # way back from start to end.
    angles = [angle_on_circle(p) for p in points[1:]]
    assert angles == sorted(angles)
    assert angles[-1] == pytest.approx(250)


def test_an_arc_is_cut_no_finer_than_it_needs():
    # A quarter circle of 100 mm: a chord over a can lie within 5 mm when
    # 100 (1 - cos a/2) <= 5, so over 36.4 degrees: three chords.
    start, via, end = Point(100, 0, 0), Point(70.71, 70.71, 0), Point(0, 100, 0)

    assert len(arc_points(start, via, end)) == 4


def test_a_very_large_arc_is_cut_into_at_most_the_bound_of_chords():
    r = 90_000.0
    start, via, end = Point(r, 0, 0), Point(0, r, 0), Point(-r, 0, 0)

    assert len(arc_points(start, via, end)) == MAX_CHORDS_PER_ARC + 1


def test_three_points_in_a_line_are_no_arc_but_one_straight_segment():
    circular = move(2, C, kind="circular", via=Point(500.0, 200.0, 300.0))

    assert arc_points(B, circular.via, C) is None
    assert segments(program(move(1, B), circular)) == [
        Segment(0, 2, B, C, 250.0, "circular")
    ]


def test_each_chord_of_a_circular_move_keeps_its_line_and_speed():
    text = program_text(
        """
        movel(p[0.5, 0, 0.3, 0, 3.14, 0], v=0.5)
        movec(p[0.6, 0.1, 0.3, 0, 3.14, 0], p[0.5, 0.2, 0.3, 0, 3.14, 0], v=0.1)
        """
    )

    found = segments(read(text, "urscript"))

    assert len(found) > 1
    assert {(s.line, s.speed_mm_s, s.kind) for s in found} == {
        (line_of(text, "movec"), 100.0, "circular")
    }
    assert found[0].start == B and found[-1].end == Point(500.0, 200.0, 300.0)
    for s in found:  # the circle through the three points: centre (500, 100)
        for p in (s.start, s.end):
            assert math.dist((p.x_mm, p.y_mm), (500, 100)) == pytest.approx(100)


def test_to_plan_turns_the_base_frame_counter_clockwise_then_moves_it():
    on_plan = to_plan(
        Point(100.0, 0.0, 50.0), base_x_mm=1000, base_y_mm=2000, rotation_deg=90
    )

    assert on_plan == Point(1000.0, 2100.0, 50.0)
    assert to_plan(
        Point(0.0, 100.0, 0.0),
        base_x_mm=1000,
        base_y_mm=2000,
        base_z_mm=700,
        rotation_deg=90,
    ) == Point(900.0, 2000.0, 700.0)


@pytest.mark.parametrize(
    ("degrees", "expected"),
    [(0, (100, 0)), (180, (-100, 0)), (-90, (0, -100)), (270, (0, -100))],
)
def test_quarter_turns_are_exact(degrees, expected):
    on_plan = to_plan(
        Point(100.0, 0.0, 0.0), base_x_mm=0, base_y_mm=0, rotation_deg=degrees
    )

    assert (on_plan.x_mm, on_plan.y_mm) == expected


def test_any_other_angle_turns_by_its_cosine_and_sine():
    on_plan = to_plan(
        Point(100.0, 0.0, 0.0), base_x_mm=10, base_y_mm=20, rotation_deg=30
    )

    assert on_plan.x_mm == pytest.approx(10 + 100 * math.sqrt(3) / 2)
    assert on_plan.y_mm == pytest.approx(20 + 50)
