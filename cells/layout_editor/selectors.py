"""What the plan's drawing tools read: every element's id, drawing key and
points in mm, from a cell already loaded by ``selectors.cell_with_layout``
(no queries of its own), and where a new cell's plan opens."""

from __future__ import annotations

import json
import math

from django.urls import reverse

from cells.drawing import element_key
from cells.links import ID, link_for
from cells.models import Cell
from compliance.calculators.iso13857_tables import ROBOT_FENCE_CLEARANCE

# A new cell's plan opens on the robot with room round it for the perimeter
# still to be drawn: this many times the robot's reach (or its hazard zone,
# when that is larger) ...
FRAME_REACH_FACTOR = 1.5
# ... and the clearance the reference asks between the robot's space and the
# fence on top: the larger figure of "Keep 120-200 mm clearance"
# (``ROBOT_FENCE_CLEARANCE``), so a fence drawn at it still shows whole.
DEFAULT_CLEARANCE_MM = ROBOT_FENCE_CLEARANCE.range_mm[1]


def new_cell_frame(cell: Cell) -> list[float]:
    """The box a cell's plan opens on before any guard is drawn, as an SVG
    viewBox (x, y, width, height; y flipped): centred on the robot's base,
    ``FRAME_REACH_FACTOR`` × its reach (or the zone's extent, if larger) plus
    ``DEFAULT_CLEARANCE_MM`` each way."""
    bx, by = cell.robot_base_x_mm, cell.robot_base_y_mm
    if cell.hazard_zone_is_polygon:
        zone = max(math.dist((bx, by), p) for p in cell.hazard_zone_polygon_mm)
    else:
        zone = cell.hazard_zone_effective_radius_mm
    half = FRAME_REACH_FACTOR * max(cell.reach_mm, zone) + DEFAULT_CLEARANCE_MM
    return [bx - half, -by - half, 2 * half, 2 * half]


def plan_model(cell: Cell, segments: list, stations: list, devices: list) -> dict:
    """The plan as the editor's script hit-tests it, JSON-able. Keys are the
    drawing's (``s0``, ``s0o1``, ``d2``, ``t0``), ids the database's."""

    links = {
        kind: link_for("cells:element_edit", cell.pk, kind, ID)
        for kind in ("segment", "opening", "station", "device")
    }

    def edit(kind: str, pk: int) -> str:
        return links[kind](pk)

    model: dict = {"segments": [], "openings": [], "devices": [], "stations": []}
    for s_index, segment in enumerate(segments):
        model["segments"].append(
            {
                "key": element_key("segment", s_index),
                "id": segment.pk,
                "kind": segment.kind,
                "a": list(segment.start),
                "b": list(segment.end),
                "height_mm": segment.height_mm,
                "edit": edit("segment", segment.pk),
            }
        )
        for o_index, opening in enumerate(segment.openings.all()):
            model["openings"].append(
                {
                    "key": element_key("opening", s_index, o_index),
                    "id": opening.pk,
                    "segment": segment.pk,
                    "offset_mm": opening.offset_mm,
                    "width_mm": opening.width_mm,
                    "edit": edit("opening", opening.pk),
                }
            )
    for t_index, station in enumerate(stations):
        model["stations"].append(
            {
                "key": element_key("station", t_index),
                "id": station.pk,
                "at": [station.x_mm, station.y_mm],
                "edit": edit("station", station.pk),
            }
        )
    for d_index, device in enumerate(devices):
        points = [
            [x, y]
            for x, y in ((device.x1_mm, device.y1_mm), (device.x2_mm, device.y2_mm))
            if x is not None and y is not None
        ]
        model["devices"].append(
            {
                "key": element_key("device", d_index),
                "id": device.pk,
                "kind": device.kind,
                "points": points,
                "edit": edit("device", device.pk),
            }
        )
    model["zone"] = {
        "key": "zone",
        "id": 0,
        "base": [cell.robot_base_x_mm, cell.robot_base_y_mm],
        "polygon": (cell.hazard_zone_polygon_mm or [])
        if cell.hazard_zone_shape == "polygon"
        else [],
        "edit": reverse("cells:hazard_zone_edit", args=[cell.pk]),
    }
    # Before the first guard is drawn, the view to open on (else the plan's).
    model["frame"] = [] if segments else new_cell_frame(cell)
    model["heights"] = sorted({s.height_mm for s in segments})
    model["ops"] = reverse("cells:plan_edit", args=[cell.pk, "OP"])
    # As an attribute, not a <script>: htmx drops script elements it swaps in.
    model["json"] = json.dumps(model, separators=(",", ":"))
    return model
