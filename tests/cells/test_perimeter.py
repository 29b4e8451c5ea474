from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from cells import geometry, perimeter
from cells.perimeter import (
    CircleZone,
    Distance,
    Layout,
    Opening,
    PolygonZone,
    Segment,
    analyse_perimeter,
)

ROOT = Path(__file__).resolve().parents[2]


def seg(key, start, end, **fields):
    return Segment(key=key, start=start, end=end, height_mm=1400, **fields)


def square(half=2500, prefix="s", centre=(0, 0)):
    """Four sides anticlockwise from the bottom: s:1 bottom, s:2 right, s:3 top,
    s:4 left."""
    cx, cy = centre
    corners = [
        (cx - half, cy - half),
        (cx + half, cy - half),
        (cx + half, cy + half),
        (cx - half, cy + half),
    ]
    return [
        seg(f"{prefix}:{i + 1}", corners[i], corners[(i + 1) % 4]) for i in range(4)
    ]


def analyse(zone, segments=(), openings=()):
    return analyse_perimeter(
        Layout(zone=zone, segments=tuple(segments), openings=tuple(openings))
    )


def distances(result):
    return {s.key: s.distance.mm for s in result.segments}


# --- Loops and enclosure -----------------------------------------------------


def test_square_fence_entered_out_of_order_and_reversed_is_one_enclosing_loop():
    bottom, right, top, left = square()
    # Out of order, and the right and top sides drawn the other way round.
    segments = [
        top.model_copy(update={"start": top.end, "end": top.start}),
        bottom,
        left,
        right.model_copy(update={"start": right.end, "end": right.start}),
    ]
    zone = CircleZone(centre=(500, 0), radius_mm=1500)

    result = analyse(zone, segments)

    assert len(result.loops) == 1 and result.chains == () and result.gaps == ()
    loop = result.loops[0]
    assert loop.key == "loop:s:1"
    assert loop.segment_keys == ("s:1", "s:2", "s:3", "s:4")  # anticlockwise
    assert loop.points == ((-2500, -2500), (2500, -2500), (2500, 2500), (-2500, 2500))
    assert loop.area_mm2 == 25e6 and loop.convex and loop.simple
    assert result.enclosure.enclosed
    assert result.enclosure.reason == "enclosed"
    assert result.enclosure.loop_key == "loop:s:1"
    assert result.enclosure.clearance_mm == 500  # to the right side
    assert result.safeguarded_space == loop.points
    # Right side: 2500 - 500 - 1500; left: 3000 - 1500; top and bottom: 2500 - 1500.
    assert distances(result) == {"s:1": 1000, "s:2": 500, "s:3": 1000, "s:4": 1500}
    assert {s.part_of for s in result.segments} == {"loop:s:1"}
    assert len(result.joins) == 4
    assert all(j.width_mm == 0 for j in result.joins)
    assert result.join_tolerance_mm == perimeter.JOIN_TOLERANCE_MM == 10


def test_square_with_one_side_missing_leaves_one_gap_that_closes_it():
    zone = CircleZone(centre=(0, 0), radius_mm=2000)

    result = analyse(zone, square()[:3])  # no left side

    assert result.loops == ()
    assert not result.enclosure.enclosed
    assert result.enclosure.reason == "no_closed_loop"
    (chain,) = result.chains
    assert chain.segment_keys == ("s:1", "s:2", "s:3")
    assert [e.point for e in chain.ends] == [(-2500, -2500), (-2500, 2500)]
    (gap,) = result.gaps
    assert gap.key == "gap:s:1-s:3"
    assert gap.width_mm == 5000
    assert gap.distance == Distance(mm=500, inside_zone=False)
    assert not gap.ambiguous
    assert {e.segment_key for e in gap.ends} == {"s:1", "s:3"}
    assert result.locate((0, 0)) == "no_safeguarded_space"


def test_a_single_fence_segment_encloses_nothing_and_its_ends_make_a_gap():
    zone = CircleZone(centre=(500, 2000), radius_mm=1500)

    result = analyse(zone, [seg("a", (0, 0), (1000, 0))])

    assert result.enclosure.reason == "no_closed_loop"
    assert result.safeguarded_space == ()
    (gap,) = result.gaps
    assert gap.key == "gap:a-a" and gap.width_mm == 1000
    assert gap.distance.mm == 500
    assert [n.text for n in result.notes] == [perimeter.NOTE_STRAIGHT_GAP]


def test_no_segments_at_all_encloses_nothing():
    result = analyse(CircleZone(centre=(0, 0), radius_mm=1000))

    assert result.enclosure.enclosed is False
    assert result.enclosure.reason == "no_closed_loop"
    assert result.loops == result.chains == result.gaps == result.segments == ()
    assert result.locate((0, 0)) == "no_safeguarded_space"


def _square_with_corner_apart(gap_mm):
    bottom, right, top, left = square()
    # The left side stops short of the bottom-left corner.
    return [
        bottom,
        right,
        top,
        left.model_copy(update={"end": (-2500, -2500 + gap_mm)}),
    ]


def test_ends_closer_than_the_tolerance_are_joined():
    zone = CircleZone(centre=(0, 0), radius_mm=1000)

    result = analyse(zone, _square_with_corner_apart(9))

    assert result.enclosure.enclosed
    (join,) = [j for j in result.joins if j.width_mm > 0]
    assert join.key == "join:s:1-s:4"
    assert join.width_mm == 9
    assert join.distance.mm == pytest.approx(math.hypot(2500, 2491) - 1000)
    # The outline crosses the 9 mm step: both ends are corners.
    assert (-2500, -2491) in result.loops[0].points


@pytest.mark.parametrize("gap_mm", [10, 11])
def test_ends_at_or_beyond_the_tolerance_leave_a_gap(gap_mm):
    zone = CircleZone(centre=(0, 0), radius_mm=1000)

    result = analyse(zone, _square_with_corner_apart(gap_mm))

    assert not result.enclosure.enclosed
    assert result.enclosure.reason == "no_closed_loop"
    (gap,) = result.gaps
    assert gap.key == "gap:s:1-s:4"
    assert gap.width_mm == gap_mm


def test_zone_reaching_600_mm_past_a_square_fence_is_crossing_by_600_mm():
    # Regression: r = 3100 mm, centred, the sides 2500 mm from the centre.
    result = analyse(CircleZone(centre=(0, 0), radius_mm=3100), square())

    enclosure = result.enclosure
    assert not enclosure.enclosed
    assert enclosure.reason == "zone_crosses_perimeter"
    assert enclosure.loop_key == "loop:s:1"
    assert enclosure.reach_past_mm == 600
    assert enclosure.reach_past_exact
    assert result.safeguarded_space == ()
    assert all(s.distance == Distance(mm=0, inside_zone=True) for s in result.segments)


def test_zone_touching_the_fence_from_inside_counts_as_crossing_by_0_mm():
    result = analyse(CircleZone(centre=(0, 0), radius_mm=2500), square())

    assert result.enclosure.reason == "zone_crosses_perimeter"
    assert result.enclosure.reach_past_mm == 0
    assert result.segments[0].distance.inside_zone


def test_zone_centred_off_the_fence_reaches_past_its_nearest_side():
    # 2000 mm from the right side, radius 2300: 300 mm past it.
    result = analyse(CircleZone(centre=(500, 0), radius_mm=2300), square())

    assert result.enclosure.reach_past_mm == pytest.approx(300)


def test_polygon_zone_inside_a_square_fence():
    zone = PolygonZone(
        points=((-1000, -500), (1500, -500), (1500, 2000), (-1000, 1000))
    )

    result = analyse(zone, square())

    assert result.enclosure.enclosed
    assert result.enclosure.clearance_mm == 500  # the top corner to the top side
    assert distances(result) == {"s:1": 2000, "s:2": 1000, "s:3": 500, "s:4": 1500}


def test_polygon_zone_crossing_a_square_fence():
    zone = PolygonZone(
        points=((-3000, -1000), (1000, -1000), (1000, 1000), (-3000, 1000))
    )

    result = analyse(zone, square())

    assert result.enclosure.reason == "zone_crosses_perimeter"
    assert result.enclosure.reach_past_mm == 500
    assert result.enclosure.reach_past_exact


L_SHAPE = [(0, 0), (6000, 0), (6000, 3000), (3000, 3000), (3000, 6000), (0, 6000)]


def l_shaped_fence():
    return [seg(f"l:{i}", L_SHAPE[i], L_SHAPE[(i + 1) % 6]) for i in range(6)]


def test_zone_reaching_into_the_corner_of_an_l_shaped_fence_is_bounded_closely():
    # The disc pokes past the inner corner (3000, 3000): its farthest point,
    # at 45 degrees, is 1500/sqrt(2) - 1000 mm from both inner sides. A convex
    # formula would say 1500 - 1000 * sqrt(2) = 85.8 mm.
    true_reach = 1500 / math.sqrt(2) - 1000

    result = analyse(CircleZone(centre=(2000, 2000), radius_mm=1500), l_shaped_fence())

    enclosure = result.enclosure
    assert enclosure.reason == "zone_crosses_perimeter"
    assert not result.loops[0].convex and result.loops[0].simple
    assert not enclosure.reach_past_exact
    assert true_reach <= enclosure.reach_past_mm <= true_reach + 0.01
    (crossing,) = enclosure.crossings
    assert crossing.reach_past_mm - crossing.uncertainty_mm <= true_reach
    assert [n.text for n in result.notes] == [perimeter.NOTE_BOUND]


def test_polygon_zone_reaching_into_the_corner_of_an_l_shaped_fence():
    # Its corner (3500, 3500) is 500 mm from both inner sides of the cut-out.
    zone = PolygonZone(points=((2000, 2000), (3500, 2000), (3500, 3500), (2000, 3500)))

    result = analyse(zone, l_shaped_fence())

    crossing = result.enclosure.crossings[0]
    assert not crossing.exact
    assert 500 <= crossing.reach_past_mm <= 500 + perimeter.REACH_PAST_BOUND_MM
    assert crossing.reach_past_mm - crossing.uncertainty_mm <= 500


def test_zone_inside_an_l_shaped_fence_is_enclosed():
    result = analyse(CircleZone(centre=(1500, 1500), radius_mm=1000), l_shaped_fence())

    assert result.enclosure.enclosed
    assert result.enclosure.clearance_mm == 500
    assert result.locate((5000, 1000)) == "inside"
    assert result.locate((5000, 5000)) == "outside"  # the cut-out corner
    assert result.locate((3000, 4000)) == "on_perimeter"


def test_zone_outside_every_loop():
    result = analyse(CircleZone(centre=(10_000, 0), radius_mm=1000), square())

    assert result.enclosure.reason == "zone_outside_every_loop"
    assert result.enclosure.reach_past_mm is None


def test_a_small_loop_inside_the_zone_is_crossed_not_enclosing():
    # A fenced pallet place within the robot's reach.
    result = analyse(CircleZone(centre=(0, 0), radius_mm=10_000), square(half=500))

    assert result.enclosure.reason == "zone_crosses_perimeter"
    assert result.enclosure.reach_past_mm == pytest.approx(10_000 - 500)


def test_nested_fences_the_safeguarded_space_is_the_inner_one():
    segments = square(half=2500, prefix="in") + square(half=5000, prefix="out")

    result = analyse(CircleZone(centre=(0, 0), radius_mm=1000), segments)

    assert result.enclosure.loop_key == "loop:in:1"
    assert result.enclosure.enclosing_loop_keys == ("loop:in:1", "loop:out:1")
    assert result.enclosure.clearance_mm == 1500
    assert result.locate((4000, 0)) == "outside"  # between the two fences


def test_a_loop_crossing_itself_encloses_only_what_it_winds_round():
    bowtie = [(0, 0), (2000, 2000), (2000, 0), (0, 2000)]
    segments = [seg(f"b:{i}", bowtie[i], bowtie[(i + 1) % 4]) for i in range(4)]

    inside_a_lobe = analyse(CircleZone(centre=(400, 1000), radius_mm=100), segments)
    at_the_crossing = analyse(CircleZone(centre=(1000, 1000), radius_mm=100), segments)

    assert not inside_a_lobe.loops[0].simple
    assert inside_a_lobe.enclosure.enclosed
    assert perimeter.NOTE_NOT_SIMPLE in [n.text for n in inside_a_lobe.notes]
    assert at_the_crossing.enclosure.reason == "zone_crosses_perimeter"


def test_two_segments_there_and_back_close_a_loop_round_nothing():
    segments = [seg("a", (0, 0), (3000, 0)), seg("b", (3000, 0), (0, 0))]

    result = analyse(CircleZone(centre=(1500, 0), radius_mm=500), segments)

    assert [loop.segment_keys for loop in result.loops] == [("a", "b")]
    assert result.enclosure.reason == "no_closed_loop"
    assert [j.key for j in result.joins] == ["join:a-b", "join:a-b#2"]


# --- Gaps --------------------------------------------------------------------


def test_two_opposite_sides_give_two_gaps_across_not_along_the_fences():
    bottom, _, top, _ = square()

    result = analyse(CircleZone(centre=(0, 0), radius_mm=1000), [bottom, top])

    assert [g.key for g in result.gaps] == ["gap:s:1-s:3", "gap:s:1-s:3#2"]
    assert [g.width_mm for g in result.gaps] == [5000, 5000]
    assert all(g.distance.mm == 1500 for g in result.gaps)
    assert not any(g.ambiguous for g in result.gaps)


def test_free_ends_pair_with_the_nearest_across_the_plan():
    # Two L-shaped halves of a box; the gaps are 100 mm and 300 mm wide.
    halves = [
        seg("a:1", (0, 0), (2000, 0)),
        seg("a:2", (2000, 0), (2000, 1900)),
        seg("b:1", (2000, 2000), (0, 2000)),
        seg("b:2", (0, 2000), (0, 300)),
    ]

    result = analyse(CircleZone(centre=(1000, 1000), radius_mm=500), halves)

    assert [(g.key, g.width_mm) for g in result.gaps] == [
        ("gap:a:1-b:2", 300),
        ("gap:a:2-b:1", 100),
    ]
    assert [g.distance.mm for g in result.gaps] == [
        pytest.approx(math.hypot(1000, 700) - 500),  # from (0, 300)
        pytest.approx(math.hypot(1000, 900) - 500),  # from (2000, 1900)
    ]


def test_a_third_end_at_a_joint_is_free_and_its_gap_is_ambiguous():
    # A short spur fence starts at the bottom-right corner of a closed square.
    segments = [*square(), seg("spur", (2500, -2500), (4000, -2500))]

    result = analyse(CircleZone(centre=(0, 0), radius_mm=1000), segments)

    (junction,) = result.junctions
    assert junction.key == "junction:s:1-s:2-spur"
    assert junction.point == (2500, -2500)
    assert junction.segment_keys == ("s:1", "s:2", "spur")
    assert result.notes[0].render() == (
        "3 segment ends meet within 10.0 mm of one another near (2500.0, -2500.0), "
        "segments s:1, s:2, spur: the nearest ends were joined, any end left over "
        "counts as free."
    )
    # The nearest ends (s:1 with s:2, at 0 mm; key order on the tie) close the
    # square; the spur is an open chain apart from it, which opens no gap in
    # a loop that already encloses the zone (issue 31).
    assert result.enclosure.enclosed
    assert [c.segment_keys for c in result.chains] == [("spur",)]
    assert [e.at_junction for e in result.chains[0].ends] == [True, False]
    assert result.gaps == ()
    assert result.notes[-1].text == perimeter.NOTE_APART


def test_every_free_end_is_in_exactly_one_gap():
    segments = [
        seg(f"p:{k:02d}", (k * 3000, 0), (k * 3000 + 1000, 0)) for k in range(7)
    ]

    result = analyse(CircleZone(centre=(0, 10_000), radius_mm=1000), segments)

    ends = [(e.segment_key, e.point) for g in result.gaps for e in g.ends]
    assert len(ends) == len(set(ends)) == 14


# --- Openings ----------------------------------------------------------------


def test_an_opening_is_a_gap_in_its_loop_with_its_ends_and_distance():
    openings = [
        Opening(
            key="o:1",
            segment_key="s:2",
            offset_mm=1000,
            width_mm=1000,
            upper_edge_mm=800,
        )
    ]

    result = analyse(CircleZone(centre=(500, 0), radius_mm=1500), square(), openings)

    (opening,) = result.openings
    assert (opening.start, opening.end) == ((2500, -1500), (2500, -500))
    assert opening.part_of == "loop:s:1"
    assert result.loops[0].opening_keys == ("o:1",)
    # Nearest end (2500, -500) is hypot(2000, 500) from the centre.
    assert opening.distance.mm == pytest.approx(math.hypot(2000, 500) - 1500)
    assert (opening.lower_edge_mm, opening.upper_edge_mm) == (0, 800)
    assert result.enclosure.enclosed  # an opening does not break the loop


def test_an_opening_must_fit_on_its_segment():
    with pytest.raises(ValidationError, match="runs past"):
        Layout(
            zone=CircleZone(centre=(0, 0), radius_mm=1),
            segments=(seg("a", (0, 0), (1000, 0)),),
            openings=(
                Opening(
                    key="o",
                    segment_key="a",
                    offset_mm=500,
                    width_mm=600,
                    upper_edge_mm=2000,
                ),
            ),
        )


@pytest.mark.parametrize(
    "build",
    [
        lambda: seg("a", (0, 0), (0, 0)),
        lambda: Layout(
            zone=CircleZone(centre=(0, 0), radius_mm=1),
            segments=(seg("a", (0, 0), (1, 0)), seg("a", (5, 0), (6, 0))),
        ),
        lambda: PolygonZone(points=((0, 0), (2, 2), (2, 0), (0, 2))),
        lambda: CircleZone(centre=(0, 0), radius_mm=1, lower_mm=500, upper_mm=100),
        lambda: Opening(
            key="o",
            segment_key="a",
            offset_mm=0,
            width_mm=1,
            lower_edge_mm=9,
            upper_edge_mm=9,
        ),
    ],
)
def test_unusable_input_is_refused(build):
    with pytest.raises(ValidationError):
        build()


# --- Distances ---------------------------------------------------------------


def test_distances_from_a_circular_zone():
    zone = CircleZone.from_reach(
        (0, 0), reach_mm=800, end_effector_mm=150, workpiece_mm=50
    )

    assert zone.radius_mm == 1000
    assert zone.distance_to_point((3000, 4000)) == Distance(mm=4000, inside_zone=False)
    assert zone.distance_to_point((100, 100)) == Distance(mm=0, inside_zone=True)
    assert zone.distance_to_point((1000, 0)).inside_zone  # on the boundary
    # A light curtain from (2000, -5000) to (2000, 5000).
    assert zone.distance_to_segment((2000, -5000), (2000, 5000)).mm == 1000
    assert zone.distance_to_segment((-5000, 0), (5000, 0)) == Distance(
        mm=0, inside_zone=True
    )
    # A mat from (3000, -500) to (4000, 500), and one the zone stands on.
    assert zone.distance_to_rectangle((3000, -500), (4000, 500)).mm == 2000
    assert zone.distance_to_rectangle((-5000, -5000), (5000, 5000)).inside_zone
    assert zone.contains((0, 999)) and not zone.contains((0, 1001))


def test_distances_from_a_polygonal_zone():
    zone = PolygonZone(points=((0, 0), (2000, 0), (2000, 1000), (0, 1000)))

    assert zone.distance_to_point((5000, 5000)).mm == 5000
    assert zone.distance_to_point((1000, 500)) == Distance(mm=0, inside_zone=True)
    assert zone.distance_to_segment((3000, -100), (3000, 100)).mm == 1000
    assert zone.distance_to_segment((-100, 500), (3000, 500)).inside_zone
    assert zone.distance_to_polygon(((2500, 0), (3000, 0), (3000, 500))).mm == 500
    assert zone.distance_to_rectangle((500, 200), (600, 300)).inside_zone  # within


def test_zone_height_range_is_carried_through():
    zone = CircleZone(centre=(0, 0), radius_mm=1000, lower_mm=200, upper_mm=2100)

    result = analyse(zone, square())

    assert (result.zone.lower_mm, result.zone.upper_mm) == (200, 2100)


def test_guard_heights_and_kinds_are_carried_through():
    segments = [
        s.model_copy(update={"lower_edge_mm": 180, "kind": "wall"}) for s in square()
    ]

    result = analyse(CircleZone(centre=(0, 0), radius_mm=1000), segments)

    assert {(s.kind, s.height_mm, s.lower_edge_mm) for s in result.segments} == {
        ("wall", 1400, 180)
    }


# --- Scale -------------------------------------------------------------------


def _regular_polygon(n, radius):
    return [
        (
            round(radius * math.cos(2 * math.pi * k / n)),
            round(radius * math.sin(2 * math.pi * k / n)),
        )
        for k in range(n)
    ]


def test_a_1000_segment_perimeter_is_found_as_one_loop():
    points = _regular_polygon(1000, 50_000)
    segments = [
        seg(f"p:{k:04d}", points[k], points[(k + 1) % 1000]) for k in range(1000)
    ]
    # Entered backwards, every other one reversed.
    segments = [
        s.model_copy(update={"start": s.end, "end": s.start}) if k % 2 else s
        for k, s in enumerate(reversed(segments))
    ]

    result = analyse(CircleZone(centre=(0, 0), radius_mm=40_000), segments)

    (loop,) = result.loops
    assert len(loop.segment_keys) == 1000 and loop.segment_keys[0] == "p:0000"
    assert loop.convex and loop.simple
    assert result.enclosure.enclosed


def test_1000_separate_panels_are_all_paired_into_gaps():
    segments = [
        seg(
            f"p:{k:04d}",
            (k % 40 * 2000, k // 40 * 2000),
            (k % 40 * 2000 + 900, k // 40 * 2000),
        )
        for k in range(1000)
    ]

    result = analyse(CircleZone(centre=(-10_000, -10_000), radius_mm=1000), segments)

    assert len(result.gaps) == 1000
    # Panel to panel along each of the 25 rows; the rows' outer ends pair up.
    assert sum(g.width_mm == 1100 for g in result.gaps) == 25 * 39


# --- Properties --------------------------------------------------------------


@st.composite
def star_polygons(draw, centre=(0, 0)):
    """Corners in order of angle round ``centre``: a simple polygon."""
    n = draw(st.integers(3, 8))
    angles = sorted(
        draw(st.lists(st.integers(0, 359), min_size=n, max_size=n, unique=True))
    )
    assume(
        all(
            b - a < 180
            for a, b in zip(angles, [*angles[1:], angles[0] + 360], strict=True)
        )
    )
    radii = draw(st.lists(st.integers(2000, 6000), min_size=n, max_size=n))
    points = [
        (
            centre[0] + round(r * math.cos(math.radians(a))),
            centre[1] + round(r * math.sin(math.radians(a))),
        )
        for a, r in zip(angles, radii, strict=True)
    ]
    assume(
        all(
            math.dist(p, q) > 100 for i, p in enumerate(points) for q in points[i + 1 :]
        )
    )
    return points


@st.composite
def layouts(draw):
    """A star-shaped fence with up to two sides missing, perhaps a square round
    it with up to one missing, and a circular zone near the middle."""
    points = draw(star_polygons())
    n = len(points)
    missing = draw(st.sets(st.integers(0, n - 1), max_size=2))
    segments = [
        seg(f"f:{i}", points[i], points[(i + 1) % n])
        for i in range(n)
        if i not in missing
    ]
    if draw(st.booleans()):
        gone = draw(st.sampled_from([None, 0, 1, 2, 3]))
        segments += [
            s for k, s in enumerate(square(half=20_000, prefix="o")) if k != gone
        ]
    centre = (draw(st.integers(-500, 500)), draw(st.integers(-500, 500)))
    zone = CircleZone(centre=centre, radius_mm=draw(st.integers(100, 7000)))
    return Layout(zone=zone, segments=tuple(segments))


def _turn(p, quarter_turns, shift):
    x, y = p
    for _ in range(quarter_turns):
        x, y = -y, x
    return (x + shift[0], y + shift[1])


def _moved(layout, quarter_turns, shift):
    def move(p):
        return _turn(p, quarter_turns, shift)

    zone = layout.zone.model_copy(update={"centre": move(layout.zone.centre)})
    segments = tuple(
        s.model_copy(update={"start": move(s.start), "end": move(s.end)})
        for s in layout.segments
    )
    return Layout(zone=zone, segments=segments)


def _same_reach(a, b):
    if a.reach_past_mm is None or b.reach_past_mm is None:
        return a.reach_past_mm == b.reach_past_mm
    # An exact figure, or two bounds that both hold the true figure.
    slack_a, slack_b = a.crossings[0].uncertainty_mm, b.crossings[0].uncertainty_mm
    return (
        a.reach_past_mm >= b.reach_past_mm - slack_b - 1e-6
        and b.reach_past_mm >= a.reach_past_mm - slack_a - 1e-6
    )


@settings(max_examples=60, deadline=None)
@given(
    layouts(),
    st.integers(0, 3),
    st.tuples(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6)),
)
def test_turning_or_moving_the_whole_plan_changes_no_verdict_or_distance(
    layout, quarter_turns, shift
):
    before = analyse_perimeter(layout)
    after = analyse_perimeter(_moved(layout, quarter_turns, shift))

    assert after.enclosure.reason == before.enclosure.reason
    assert after.enclosure.loop_key == before.enclosure.loop_key
    if before.enclosure.clearance_mm is not None:
        assert after.enclosure.clearance_mm == pytest.approx(
            before.enclosure.clearance_mm, abs=1e-6
        )
    assert _same_reach(before.enclosure, after.enclosure)
    assert [x.segment_keys for x in after.loops] == [
        x.segment_keys for x in before.loops
    ]
    for x, y in zip(before.segments, after.segments, strict=True):
        assert x.key == y.key and x.distance.inside_zone == y.distance.inside_zone
        assert y.distance.mm == pytest.approx(x.distance.mm, abs=1e-6)
    assert [g.key for g in after.gaps] == [g.key for g in before.gaps]
    for x, y in zip(before.gaps, after.gaps, strict=True):
        assert y.width_mm == pytest.approx(x.width_mm, abs=1e-6)
        assert y.distance.mm == pytest.approx(x.distance.mm, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_closing_a_gap_never_undoes_an_enclosure(layout):
    before = analyse_perimeter(layout)
    for k, gap in enumerate(before.gaps):
        closed = layout.model_copy(
            update={
                "segments": (
                    *layout.segments,
                    seg(f"z:{k}", gap.ends[0].point, gap.ends[1].point),
                )
            }
        )
        after = analyse_perimeter(closed)
        if before.enclosure.enclosed:
            assert after.enclosure.enclosed


@settings(max_examples=60, deadline=None)
@given(star_polygons())
def test_closing_the_only_gap_of_a_fence_round_the_zone_encloses_it(points):
    n = len(points)
    segments = [seg(f"f:{i}", points[i], points[(i + 1) % n]) for i in range(n - 1)]
    zone = CircleZone(centre=(0, 0), radius_mm=100)
    (gap,) = analyse(zone, segments).gaps
    # The missing side is the only gap.
    assert {gap.ends[0].point, gap.ends[1].point} == {points[-1], points[0]}

    closed = analyse(zone, [*segments, seg("z", points[-1], points[0])])

    clear = all(
        geometry.point_segment_distance((0, 0), points[i], points[(i + 1) % n]) > 100
        for i in range(n)
    )
    assert closed.enclosure.enclosed == clear


@settings(max_examples=100, deadline=None)
@given(
    st.tuples(st.integers(-(10**5), 10**5), st.integers(-(10**5), 10**5)),
    st.integers(1, 10**4),
    st.tuples(st.integers(-(10**5), 10**5), st.integers(-(10**5), 10**5)),
    st.floats(1, 100),
)
def test_moving_a_point_away_from_a_circular_zone_never_brings_it_closer(
    centre, radius, point, factor
):
    zone = CircleZone(centre=centre, radius_mm=radius)
    farther = (
        centre[0] + (point[0] - centre[0]) * factor,
        centre[1] + (point[1] - centre[1]) * factor,
    )

    assert zone.distance_to_point(farther).mm >= zone.distance_to_point(point).mm - 1e-9


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_shuffling_and_reversing_segments_never_changes_the_loops(data):
    segments = []
    for k in range(data.draw(st.integers(1, 3))):
        points = data.draw(star_polygons(centre=(k * 20_000, 0)))
        n = len(points)
        kept = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        segments += [
            seg(f"f{k}:{i}", points[i], points[(i + 1) % n])
            for i in range(n)
            if kept[i]
        ]
    assume(segments)
    zone = CircleZone(centre=(0, 0), radius_mm=500)
    shuffled = data.draw(st.permutations(segments))
    flips = data.draw(
        st.lists(st.booleans(), min_size=len(segments), max_size=len(segments))
    )
    shuffled = [
        s.model_copy(update={"start": s.end, "end": s.start}) if flip else s
        for s, flip in zip(shuffled, flips, strict=True)
    ]

    before, after = analyse(zone, segments), analyse(zone, shuffled)

    assert after.loops == before.loops
    assert [c.key for c in after.chains] == [c.key for c in before.chains]
    assert {frozenset(c.segment_keys) for c in after.chains} == {
        frozenset(c.segment_keys) for c in before.chains
    }
    assert after.enclosure == before.enclosure


# --- Purity ------------------------------------------------------------------


def test_perimeter_imports_no_django():
    code = (
        "import sys, cells.perimeter; "
        "print(any(m.startswith('django') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


# --- What is not the perimeter (issue 31) ------------------------------------


def test_a_building_wall_apart_from_a_closed_fence_is_no_gap_of_it():
    # The customer's DXF: a closed fence round the robot and, 2 m outside
    # it, a 6 m building wall on its own. Its free ends used to pair into
    # "an unguarded gap 6,000 mm wide between the free ends of #13 and #13".
    zone = CircleZone(centre=(0, 0), radius_mm=1500)
    wall = seg("w", (-3000, 4500), (3000, 4500), kind="wall")

    result = analyse(zone, [*square(), wall])

    assert result.enclosure.enclosed
    assert result.gaps == ()
    # The wall is still on the plan, an open chain apart from the loop, and
    # a note says it opens nothing.
    (chain,) = result.chains
    assert chain.segment_keys == ("w",)
    assert [n.text for n in result.notes] == [perimeter.NOTE_APART]
    assert result.notes[0].values == {"segments": "w"}


def test_an_open_fence_beside_a_wall_still_has_its_gaps():
    # Without a loop round the zone, the free ends are judged as before.
    zone = CircleZone(centre=(0, 0), radius_mm=1500)
    wall = seg("w", (-3000, 4500), (3000, 4500), kind="wall")

    result = analyse(zone, [*square()[:3], wall])

    assert not result.enclosure.enclosed
    assert result.gaps


def test_two_fences_and_two_building_walls_close_the_perimeter():
    zone = CircleZone(centre=(0, 0), radius_mm=1500)
    bottom, right, top, left = square()
    walls = [
        top.model_copy(update={"kind": "wall"}),
        left.model_copy(update={"kind": "wall"}),
    ]

    result = analyse(zone, [bottom, right, *walls])

    assert result.enclosure.enclosed
    assert result.gaps == () and result.chains == ()


def test_a_fence_ending_150_mm_short_of_a_wall_leaves_a_150_mm_gap_there():
    zone = CircleZone(centre=(0, 0), radius_mm=1500)
    bottom, right, top, _left = square()
    # The left side is the building's wall; the top fence stops 150 mm short.
    wall = seg("wall", (-2500, 2500), (-2500, -2500), kind="wall")
    short_top = top.model_copy(update={"end": (-2350, 2500)})

    result = analyse(zone, [bottom, right, short_top, wall])

    assert not result.enclosure.enclosed
    (gap,) = result.gaps
    assert gap.width_mm == 150
    assert {e.point for e in gap.ends} == {(-2350, 2500), (-2500, 2500)}
    assert {e.segment_key for e in gap.ends} == {"s:3", "wall"}
