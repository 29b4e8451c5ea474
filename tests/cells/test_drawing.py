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
