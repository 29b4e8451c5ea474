"""The plan drawing: to scale, openings cut out of their guards, labels right."""

from __future__ import annotations

import math
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from cells import geometry
from cells.drawing import DrawingLabels, Requirement, _text_box, layout_drawing
from cells.drawing_perimeter import offset_polygon
from cells.exchange import CellDocument

ROOT = Path(__file__).resolve().parents[2]


def document(**overrides) -> CellDocument:
    data = {
        "name": "Cell",
        "robot": {
            "manufacturer": "Acme",
            "model": "R",
            "kind": "industrial",
            "payload_kg": Decimal("10"),
            "reach_mm": 1000,
            "max_tcp_speed_mm_s": 1000,
            "moving_mass_kg": Decimal("50"),
        },
        "robot_base": {"x_mm": 2000, "y_mm": 1000},
        "hazard_zone": {"shape": "circle"},
        "guard_segments": [
            {
                "label": "F1",
                "start": {"x_mm": 0, "y_mm": 0},
                "end": {"x_mm": 4000, "y_mm": 0},
                "height_mm": 1400,
                "kind": "fence",
                "openings": [
                    {
                        "offset_mm": 1000,
                        "width_mm": 500,
                        "lower_edge_mm": 0,
                        "upper_edge_mm": 1000,
                        "purpose": "material_entry",
                    }
                ],
            }
        ],
        **overrides,
    }
    return CellDocument.model_validate(data)


def test_opening_is_cut_out_of_its_guard():
    drawing = layout_drawing(document())
    pieces = [(p.x1, p.x2) for p in drawing.segments[0].pieces]
    assert pieces == [(0, 1000), (1500, 4000)]
    gap = drawing.openings[0].gap
    assert (gap.x1, gap.x2) == (1000, 1500)


def test_plan_y_points_up_on_screen():
    drawing = layout_drawing(document(robot_base={"x_mm": 2000, "y_mm": 1000}))
    assert drawing.robot_base == (2000, -1000)


def test_hazard_circle_defaults_to_the_reach():
    drawing = layout_drawing(document())
    assert drawing.hazard_circle == (2000, -1000, 1000)
    explicit = layout_drawing(
        document(hazard_zone={"shape": "circle", "radius_mm": 1300})
    )
    assert explicit.hazard_circle[2] == 1300


def test_labels_give_length_and_height():
    caption = layout_drawing(document()).segments[0].caption
    assert caption.text == "F1 · 4,000 mm"
    assert caption.sub == "h 1,400 mm"


def test_everything_fits_in_the_view():
    drawing = layout_drawing(
        document(operator_stations=[{"label": "Far", "x_mm": 9000, "y_mm": -3000}])
    )
    assert drawing.view_min_x < 0 < 9000 < drawing.view_min_x + drawing.view_width
    assert drawing.view_min_y < 3000 < drawing.view_min_y + drawing.view_height


def test_scale_bar_is_a_round_length_drawn_to_scale():
    drawing = layout_drawing(document())
    bar = drawing.scale_bar
    assert bar.x2 - bar.x1 == 1000
    assert drawing.scale_bar_label.text == "1,000 mm"


def test_hazard_circle_is_the_robots_maximum_space():
    drawing = layout_drawing(
        document(
            robot={
                "manufacturer": "Acme",
                "model": "R",
                "kind": "industrial",
                "payload_kg": Decimal("10"),
                "reach_mm": 1700,
                "end_effector_mm": 250,
                "workpiece_mm": 400,
                "max_tcp_speed_mm_s": 1000,
                "moving_mass_kg": Decimal("50"),
            }
        )
    )
    assert drawing.hazard_circle == (2000, -1000, 2350)
    assert drawing.hazard_label.text == "r 2,350 mm"
    # The whole circle is in view.
    assert drawing.view_min_x < 2000 - 2350


def _robot(**figures) -> dict:
    return {
        "manufacturer": "Acme",
        "model": "R",
        "kind": "industrial",
        "payload_kg": Decimal("10"),
        "reach_mm": 1700,
        "max_tcp_speed_mm_s": 1000,
        "moving_mass_kg": Decimal("50"),
        **figures,
    }


def test_the_maximum_space_is_drawn_as_reach_then_tool_then_workpiece():
    drawing = layout_drawing(
        document(robot=_robot(end_effector_mm=250, workpiece_mm=400))
    )
    # Inside the hazard circle (2,350): the reach, then the reach with the tool.
    assert [(r.radius, r.title) for r in drawing.hazard_rings] == [
        (1700, "robot reach"),
        (1950, "with the tool"),
    ]
    assert drawing.hazard_label.text == "r 2,350 mm"
    assert drawing.hazard_label.sub == "reach 1,700 + tool 250 + workpiece 400 mm"


def test_a_tool_without_a_workpiece_draws_the_reach_ring_only():
    drawing = layout_drawing(document(robot=_robot(end_effector_mm=250)))
    assert [r.radius for r in drawing.hazard_rings] == [1700]
    assert drawing.hazard_label.sub == "reach 1,700 + tool 250 + workpiece 0 mm"


def test_no_rings_for_a_bare_robot_a_typed_radius_or_a_polygon():
    bare = layout_drawing(document(robot=_robot()))
    assert bare.hazard_rings == [] and bare.hazard_label.sub == ""
    typed = layout_drawing(
        document(
            robot=_robot(end_effector_mm=250, workpiece_mm=400),
            hazard_zone={"shape": "circle", "radius_mm": 3000},
        )
    )
    # A typed radius is not the sum of the robot's figures: nothing to split.
    assert typed.hazard_rings == [] and typed.hazard_label.text == "r 3,000 mm"
    polygon = layout_drawing(
        document(
            robot=_robot(end_effector_mm=250, workpiece_mm=400),
            hazard_zone={
                "shape": "polygon",
                "polygon_mm": [(0, 0), (3000, 0), (3000, 2000)],
            },
        )
    )
    assert polygon.hazard_rings == [] and polygon.hazard_label is None


def test_the_zones_words_are_drawn_in_the_words_given():
    words = DrawingLabels(
        zone_sum="도달 %(reach)s + 공구 %(tool)s + 공작물 %(workpiece)s mm",
        ring_reach="로봇 도달",
        ring_tool="공구 포함",
    )
    drawing = layout_drawing(
        document(robot=_robot(end_effector_mm=250, workpiece_mm=400)), labels=words
    )
    assert drawing.hazard_label.sub == "도달 1,700 + 공구 250 + 공작물 400 mm"
    assert [r.title for r in drawing.hazard_rings] == ["로봇 도달", "공구 포함"]


def test_placed_devices_are_drawn_by_kind():
    drawing = layout_drawing(
        document(
            devices=[
                {
                    "label": "LC1",
                    "kind": "light_curtain",
                    "x1_mm": 1000,
                    "y1_mm": 0,
                    "x2_mm": 1500,
                    "y2_mm": 0,
                    "detection_lower_mm": 300,
                    "detection_upper_mm": 1800,
                },
                {"label": "E-stop", "kind": "emergency_stop"},
                {
                    "label": "Mat",
                    "kind": "safety_mat",
                    "x1_mm": 3000,
                    "y1_mm": -1500,
                    "x2_mm": 2000,
                    "y2_mm": -300,
                },
                {
                    "label": "Scan",
                    "kind": "laser_scanner",
                    "x1_mm": 3800,
                    "y1_mm": 2000,
                    "field_height_mm": 200,
                },
                {"label": "Unplaced", "kind": "multibeam"},
            ]
        )
    )

    (curtain,) = drawing.curtains
    assert (curtain.key, curtain.label) == ("d0", "LC1")
    line = curtain.line
    assert (line.x1, line.y1, line.x2, line.y2) == (1000, 0, 1500, 0)
    assert curtain.caption.sub == "300–1,800 mm"

    (mat,) = drawing.mats
    assert mat.key == "d2"
    # Top-left corner on screen (y down), whichever corners were given.
    assert (mat.x, mat.y, mat.width, mat.height) == (2000, 300, 1000, 1200)
    assert mat.caption.sub == "1,000 × 1,200 mm"

    (scanner,) = drawing.scanners
    assert (scanner.key, scanner.x, scanner.y) == ("d3", 3800, -2000)
    assert len(scanner.marker) == 2 and scanner.radius > 0
    assert scanner.caption.sub == "h 200 mm"


def test_placed_devices_are_in_view():
    drawing = layout_drawing(
        document(
            devices=[
                {"label": "Far", "kind": "laser_scanner", "x1_mm": 12000, "y1_mm": 0}
            ]
        )
    )
    assert drawing.view_min_x + drawing.view_width > 12000


def test_device_labels_are_kept_as_text_for_the_renderer_to_escape():
    label = '<b>"LC" & co</b>'
    drawing = layout_drawing(
        document(
            devices=[
                {
                    "label": label,
                    "kind": "multibeam",
                    "x1_mm": 0,
                    "y1_mm": 0,
                    "x2_mm": 0,
                    "y2_mm": 900,
                }
            ]
        )
    )
    assert drawing.curtains[0].caption.text == label
    assert drawing.curtains[0].caption.rotate_deg == 90


# What the safety engineer checks first: gaps, the zone's reach, distances S -----


def square_fence(*, leave_out: str = "") -> list[dict]:
    """A 6 m square of fence round (3000, 3000), F1 along the bottom."""
    corners = [(0, 0), (6000, 0), (6000, 6000), (0, 6000)]
    sides = []
    for i, label in enumerate(("F1", "F2", "F3", "F4")):
        (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 4]
        if label != leave_out:
            sides.append(
                {
                    "label": label,
                    "start": {"x_mm": x1, "y_mm": y1},
                    "end": {"x_mm": x2, "y_mm": y2},
                    "height_mm": 1800,
                    "kind": "fence",
                }
            )
    return sides


CURTAIN_ON_F1 = {
    "label": "LC1",
    "kind": "light_curtain",
    "x1_mm": 2500,
    "y1_mm": 0,
    "x2_mm": 3500,
    "y2_mm": 0,
}


def in_view(drawing, label) -> bool:
    """Whether the label's text lies wholly in the drawing's view."""
    x1, y1, x2, y2 = _text_box(label, drawing.font_mm)
    return (
        drawing.view_min_x <= x1
        and x2 <= drawing.view_min_x + drawing.view_width
        and drawing.view_min_y <= y1
        and y2 <= drawing.view_min_y + drawing.view_height
    )


def test_an_open_side_is_drawn_as_a_gap_between_the_free_ends_with_its_width():
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            guard_segments=square_fence(leave_out="F4"),
        )
    )
    (gap,) = drawing.gaps
    ends = {(gap.line.x1, gap.line.y1), (gap.line.x2, gap.line.y2)}
    assert ends == {(0, 0), (0, -6000)}  # y down on screen
    assert gap.width_mm == 6000 and not gap.ambiguous
    assert gap.caption.text == "open 6,000 mm"
    # Outside the guarding, beside the open side, and read along it.
    assert gap.caption.x < 0 and gap.caption.rotate_deg == 90
    assert in_view(drawing, gap.caption)


def test_a_closed_perimeter_has_no_gap_and_no_reach():
    drawing = layout_drawing(
        document(robot_base={"x_mm": 3000, "y_mm": 3000}, guard_segments=square_fence())
    )
    assert drawing.gaps == [] and drawing.reach is None


def test_a_gap_whose_ends_are_uncertain_says_its_width_is_uncertain():
    # A spur starts at a corner of the square, whose left side is missing:
    # three ends meet at the corner, so a gap pairs an end left over at the
    # junction. (With the square closed round the zone, the spur opens no
    # gap at all: issue 31.)
    spur = {
        "label": "Spur",
        "start": {"x_mm": 6000, "y_mm": 0},
        "end": {"x_mm": 7500, "y_mm": 0},
        "height_mm": 1800,
        "kind": "fence",
    }
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            guard_segments=[*square_fence(leave_out="F4"), spur],
        )
    )
    gap = next(g for g in drawing.gaps if g.ambiguous)
    assert gap.caption.text == "open (width uncertain)"


def test_where_the_zone_reaches_past_the_guard_is_marked_with_how_far():
    # r 1,000 mm round (300, 3000): 700 mm past the fence F4 along x = 0.
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 300, "y_mm": 3000},
            guard_segments=square_fence(),
        )
    )
    reach = drawing.reach
    assert reach is not None and reach.reach_mm == pytest.approx(700)
    assert reach.caption.text == "zone reaches 700 mm past the guard"
    # From the fence to the zone's furthest point past it.
    assert (reach.line.x1, reach.line.y1) == pytest.approx((0, -3000), abs=1)
    assert (reach.line.x2, reach.line.y2) == pytest.approx((-700, -3000), abs=1)
    assert in_view(drawing, reach.caption)


def test_a_required_distance_is_drawn_round_a_circular_zone():
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            guard_segments=square_fence(),
            devices=[CURTAIN_ON_F1],
        ),
        required=[Requirement(device_index=0, required_mm=1062, status="pass")],
    )
    (clearance,) = drawing.clearances
    assert clearance.key == "d0"  # highlighted with its device
    assert clearance.circle == (3000, -3000, 1000 + 1062)
    assert clearance.outline == []
    assert (clearance.caption.text, clearance.caption.sub) == ("S ≥ 1,062 mm", "LC1")
    assert clearance.status == "pass"
    # The dimension runs from the zone's edge out to S, to scale.
    tick = clearance.tick
    inner, outer = (tick.x1, tick.y1), (tick.x2, tick.y2)
    assert math.dist(inner, (3000, -3000)) == pytest.approx(1000)
    assert math.dist(inner, outer) == pytest.approx(1062)
    assert in_view(drawing, clearance.caption)


def test_a_required_distance_round_a_polygon_zone_is_its_offset():
    square_zone = [(2000, 2000), (4000, 2000), (4000, 4000), (2000, 4000)]
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            hazard_zone={"shape": "polygon", "polygon_mm": square_zone},
            guard_segments=square_fence(),
            devices=[CURTAIN_ON_F1],
        ),
        required=[Requirement(device_index=0, required_mm=500)],
    )
    (clearance,) = drawing.clearances
    assert clearance.circle is None
    # Convex: every point of the outline is exactly S from the zone.
    for x, y in clearance.outline:
        assert geometry.point_polygon_distance((x, -y), square_zone) == (
            pytest.approx(500)
        )
    assert clearance.points.startswith(
        f"{clearance.outline[0][0]:g},{clearance.outline[0][1]:g} "
    )


def test_a_concave_zones_offset_meets_at_its_reflex_corner():
    # An L: the corner at (1000, 1000) turns inwards.
    ell = [(0, 0), (2000, 0), (2000, 1000), (1000, 1000), (1000, 2000), (0, 2000)]
    outline = offset_polygon(ell, 200)
    assert (1200, 1200) in [(round(x), round(y)) for x, y in outline]
    assert min(geometry.point_polygon_distance(p, ell) for p in outline) == (
        pytest.approx(200)
    )


def test_distances_of_devices_not_in_the_document_are_left_out():
    drawing = layout_drawing(
        document(devices=[CURTAIN_ON_F1]),
        required=[
            Requirement(device_index=3, required_mm=800),
            Requirement(device_index=0, required_mm=0),
        ],
    )
    assert drawing.clearances == []


def test_the_labels_are_drawn_in_the_words_given():
    labels = DrawingLabels(
        gap="열림 %(width)s mm",
        gap_uncertain="?",
        reach_past="%(reach)s mm 초과",
        required="S ≥ %(distance)s mm (최소)",
    )
    open_side = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            guard_segments=square_fence(leave_out="F2"),
        ),
        labels=labels,
    )
    assert open_side.gaps[0].caption.text == "열림 6,000 mm"
    crossing = layout_drawing(
        document(
            robot_base={"x_mm": 300, "y_mm": 3000},
            guard_segments=square_fence(),
            devices=[CURTAIN_ON_F1],
        ),
        labels=labels,
        required=[Requirement(device_index=0, required_mm=900)],
    )
    assert crossing.reach.caption.text == "700 mm 초과"
    assert crossing.clearances[0].caption.text == "S ≥ 900 mm (최소)"


def test_a_distance_label_keeps_clear_of_the_other_captions():
    drawing = layout_drawing(
        document(
            robot_base={"x_mm": 3000, "y_mm": 3000},
            guard_segments=square_fence(),
            devices=[CURTAIN_ON_F1],
        ),
        required=[Requirement(device_index=0, required_mm=1062)],
    )
    font = drawing.font_mm
    label = _text_box(drawing.clearances[0].caption, font)
    others = [
        *(s.caption for s in drawing.segments),
        *(c.caption for c in drawing.curtains),
    ]
    for other in others:
        box = _text_box(other, font)
        assert not (
            label[0] < box[2]
            and box[0] < label[2]
            and label[1] < box[3]
            and box[1] < label[3]
        ), other.text


def test_a_zone_that_crosses_itself_is_drawn_without_the_analysis():
    bow_tie = [(0, 0), (2000, 2000), (2000, 0), (0, 2000)]
    drawing = layout_drawing(
        document(hazard_zone={"shape": "polygon", "polygon_mm": bow_tie}),
        required=[Requirement(device_index=0, required_mm=500)],
    )
    assert drawing.gaps == [] and drawing.clearances == [] and drawing.reach is None


def test_the_perimeter_helper_imports_no_django():
    code = (
        "import sys, cells.drawing_perimeter, cells.drawing; "
        "sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert done.returncode == 0


@pytest.mark.parametrize("radius", [10**9, 10**15, 10**300])
def test_the_grid_stays_a_few_lines_however_wide_the_plan(radius):
    # A document is bounded to 100 m; the drawing does not rely on it: a plan
    # of any width gets a grid of a bounded number of lines (before, 2e9 mm
    # drew 80,000 lines and a 20 MB SVG).
    wide = document().model_copy(
        update={
            "hazard_zone": document().hazard_zone.model_copy(
                update={"radius_mm": radius}
            )
        }
    )

    drawing = layout_drawing(wide)

    assert len(drawing.grid) <= 2 * 16
    assert drawing.grid_step_mm * 16 >= drawing.view_width


def test_the_grid_says_a_point_is_covered_as_the_point_s_empty_box_would():
    """``_Grid.covers`` (the dimension lines' check, issue 16) answers as
    ``overlaps`` of the point's box: inside a caption's box yes, on its edge
    or outside no, in any cell of the grid."""
    import random

    from cells.drawing import _Grid

    rng = random.Random(16)
    boxes = []
    for _ in range(60):
        x, y = rng.uniform(-5000, 5000), rng.uniform(-5000, 5000)
        boxes.append((x, y, x + rng.uniform(1, 900), y + rng.uniform(1, 300)))
    grid = _Grid(180.0, boxes=boxes)
    points = [(rng.uniform(-5200, 6000), rng.uniform(-5200, 5400)) for _ in range(4000)]
    points += [(b[0], (b[1] + b[3]) / 2) for b in boxes]  # on a left edge
    points += [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]  # inside
    answers = [grid.covers(x, y) for x, y in points]
    assert answers == [grid.overlaps((x, y, x, y)) for x, y in points]
    assert any(answers) and not all(answers)
    assert not any(answers[4000:4060]) and all(answers[4060:])
