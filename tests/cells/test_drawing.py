"""The plan drawing: to scale, openings cut out of their guards, labels right."""

from __future__ import annotations

from decimal import Decimal

from cells.drawing import layout_drawing
from cells.exchange import CellDocument


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
