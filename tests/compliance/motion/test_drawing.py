"""The path drawn over the plan (issue 32): consecutive segments of one
verdict that meet make one polyline, the plan's y drawn down, a long program
drawn in a bounded number of points without ever drawing a fail better than
it is, and the view widened to hold what is drawn."""

from __future__ import annotations

from compliance.motion.drawing import MAX_PIECES, path_drawing, widened_view_box


def segment(line: int, x1: float, y1: float, x2: float, y2: float):
    return (line, x1, y1, 300.0, x2, y2, 300.0, 250.0)


def test_segments_of_one_verdict_that_meet_are_one_polyline():
    segments = [
        segment(2, 0, 0, 100, 0),
        segment(3, 100, 0, 100, 100),
        segment(4, 100, 100, 0, 100),
    ]
    drawing = path_drawing(segments, ["pass", "pass", "fail"])
    assert [(r.verdict, r.points) for r in drawing.runs] == [
        ("pass", "0,0 100,0 100,-100"),
        ("fail", "100,-100 0,-100"),
    ]
    assert [(r.first_line, r.last_line) for r in drawing.runs] == [(2, 3), (4, 4)]
    assert drawing.start == (0, 0)
    assert drawing.grouped_by == 1


def test_a_jump_in_the_path_starts_a_new_polyline():
    segments = [segment(2, 0, 0, 100, 0), segment(5, 500, 0, 600, 0)]
    drawing = path_drawing(segments, ["pass", "pass"])
    assert len(drawing.runs) == 2


def test_a_long_program_is_drawn_in_bounded_points_and_keeps_every_fail():
    count = 10 * MAX_PIECES + 3
    # No segment meets the next, and every other one fails: the worst case.
    segments = [segment(n + 2, n * 10, 0, n * 10 + 5, 0) for n in range(count)]
    verdicts = ["fail" if n % 2 else "pass" for n in range(count)]
    drawing = path_drawing(segments, verdicts)
    assert drawing.grouped_by == 11
    assert drawing.point_count <= 2 * MAX_PIECES
    assert sum(len(r.points.split()) for r in drawing.runs) == drawing.point_count


def test_one_failing_segment_among_thousands_is_drawn_failing():
    count = 10 * MAX_PIECES
    segments = [segment(n + 2, n, 0, n + 1, 0) for n in range(count)]
    verdicts = ["pass"] * count
    verdicts[12_345] = "fail"
    drawing = path_drawing(segments, verdicts)
    assert [r.verdict for r in drawing.runs] == ["pass", "fail", "pass"]
    failing = drawing.runs[1]
    assert failing.first_line <= 12_345 + 2 <= failing.last_line
    assert failing.last_line - failing.first_line == drawing.grouped_by - 1


def test_contact_zones_are_drawn_on_the_plan_and_widen_the_view():
    drawing = path_drawing([], [], [("Load", 400.0, -900.0, 850.0)])
    (zone,) = drawing.zones
    assert (zone.x, zone.y, zone.r) == (400.0, 900.0, 850.0)
    assert drawing.extent == (-450.0, 50.0, 1250.0, 1750.0)
    assert widened_view_box((0, 0, 2000, 2000), drawing.extent, 10) == (
        -460.0,
        0,
        2460.0,
        2000.0,
    )
    # Already inside: unchanged.
    assert widened_view_box((-500, 0, 2000, 2000), drawing.extent, 10) == (
        -500,
        0,
        2000,
        2000,
    )
