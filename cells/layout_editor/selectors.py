"""What the plan's drawing tools read: every element's id, drawing key and
points in mm, from a cell already loaded by ``selectors.cell_with_layout``
(no queries of its own)."""

from __future__ import annotations

import json

from django.urls import reverse

from cells.drawing import element_key
from cells.links import ID, link_for
from cells.models import Cell


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
    model["heights"] = sorted({s.height_mm for s in segments})
    model["ops"] = reverse("cells:plan_edit", args=[cell.pk, "OP"])
    # As an attribute, not a <script>: htmx drops script elements it swaps in.
    model["json"] = json.dumps(model, separators=(",", ":"))
    return model
