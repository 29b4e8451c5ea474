"""Writing a cell's plan as a DXF drawing. Pure (ezdxf), no Django.

``build_dxf`` turns the cell's exchange document (``cells.exchange``) into a
DXF R2010 file in millimetres (``$INSUNITS`` = 4), plan coordinates as they
are (x right, y up), with a layer per kind of element (``layers``):

- guard segments, one layer per kind: a LINE from start to end, whole (its
  openings are on their own layer), standing from the gap under the guard
  (its elevation) to the guard's height (elevation + thickness), as CAD
  programs extrude a wall; reading it back gives the same segment;
- openings: a LINE across each gap;
- devices placed on the plan: a light curtain or grid as its detection line,
  a safety mat as its rectangle, a laser scanner as a point in a ring;
- the hazard zone: its circle or polygon, and the robot base as a point;
- operator stations: a point each;
- minimum distances: each device's ISO 13855 distance S drawn round the
  hazard zone, the outline the page's plan draws (``cells.drawing``), with
  its dimension line;
- labels: TEXT, where the page's plan puts them, in the words it uses.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import ezdxf
from ezdxf import units
from ezdxf.enums import TextEntityAlignment

from cells import drawing as plan
from cells.exchange import CellDocument
from cells.layout_dxf import layers

DXF_VERSION = "R2010"
MEDIA_TYPE = "application/dxf"


def build_dxf(
    document: CellDocument,
    *,
    required: Sequence[plan.Requirement] = (),
    labels: plan.DrawingLabels | None = None,
) -> bytes:
    """The DXF file of ``document``. ``required``: the devices' minimum
    distances (from the findings), drawn round the hazard zone; ``labels``:
    the words of the labels, translated by the caller."""
    drawn = plan.layout_drawing(document, labels=labels, required=required)
    doc = ezdxf.new(DXF_VERSION, setup=False)
    doc.units = units.MM  # $INSUNITS = 4
    doc.header["$MEASUREMENT"] = 1  # metric
    for name, colour in layers.COLOURS.items():
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    font = drawn.font_mm

    def text(label: plan.Label) -> None:
        # The drawing's labels are placed on screen (y down, turned clockwise);
        # the DXF's y points up, so both the point and the angle flip. Its
        # second, smaller line goes under the first, as on the page.
        angle = -label.rotate_deg
        down = (math.sin(math.radians(angle)), -math.cos(math.radians(angle)))
        lines = [(label.text, -0.55, font)]
        if label.sub:
            lines.append((label.sub, 0.65, font * 0.85))
        for words, shift, height in lines:
            x = label.x + down[0] * shift * font
            y = -label.y + down[1] * shift * font
            entity = msp.add_text(
                words,
                height=height,
                rotation=angle,
                dxfattribs={"layer": layers.LABELS},
            )
            entity.set_placement((x, y), align=TextEntityAlignment.MIDDLE_CENTER)

    for seg, shape in zip(document.guard_segments, drawn.segments, strict=True):
        msp.add_line(
            (seg.start.x_mm, seg.start.y_mm, seg.bottom_gap_mm),
            (seg.end.x_mm, seg.end.y_mm, seg.bottom_gap_mm),
            dxfattribs={
                "layer": layers.GUARD_LAYERS[seg.kind],
                "thickness": seg.height_mm - seg.bottom_gap_mm,
            },
        )
        text(shape.caption)
    for opening in drawn.openings:
        _line(msp, opening.gap, layers.OPENINGS)
        text(opening.caption)

    for curtain in drawn.curtains:
        _line(msp, curtain.line, layers.DEVICES)
        text(curtain.caption)
    for mat in drawn.mats:
        corners = [
            (mat.x, -mat.y),
            (mat.x + mat.width, -mat.y),
            (mat.x + mat.width, -mat.y - mat.height),
            (mat.x, -mat.y - mat.height),
        ]
        msp.add_lwpolyline(corners, close=True, dxfattribs={"layer": layers.DEVICES})
        text(mat.caption)
    for scanner in drawn.scanners:
        centre = (scanner.x, -scanner.y)
        msp.add_point(centre, dxfattribs={"layer": layers.DEVICES})
        msp.add_circle(centre, scanner.radius, dxfattribs={"layer": layers.DEVICES})
        text(scanner.caption)

    zone = {"layer": layers.HAZARD_ZONE}
    if drawn.hazard_circle is not None:
        cx, cy, r = drawn.hazard_circle
        msp.add_circle((cx, -cy), r, dxfattribs=zone)
    else:
        corners = [(float(x), float(y)) for x, y in document.hazard_zone.polygon_mm]
        msp.add_lwpolyline(corners, close=True, dxfattribs=zone)
    if drawn.hazard_label is not None:
        text(drawn.hazard_label)
    msp.add_point((drawn.robot_base[0], -drawn.robot_base[1]), dxfattribs=zone)

    for station in drawn.stations:
        msp.add_point(
            (station.x, -station.y), dxfattribs={"layer": layers.OPERATOR_STATIONS}
        )
        text(station.caption)

    distances = {"layer": layers.MINIMUM_DISTANCES}
    for clearance in drawn.clearances:
        if clearance.circle is not None:
            cx, cy, r = clearance.circle
            msp.add_circle((cx, -cy), r, dxfattribs=distances)
        else:
            outline = [(x, -y) for x, y in clearance.outline]
            msp.add_lwpolyline(outline, close=True, dxfattribs=distances)
        _line(msp, clearance.tick, layers.MINIMUM_DISTANCES)
        text(clearance.caption)

    # Opened, the drawing shows the whole plan.
    doc.set_modelspace_vport(
        height=drawn.view_height,
        center=(
            drawn.view_min_x + drawn.view_width / 2,
            -(drawn.view_min_y + drawn.view_height / 2),
        ),
    )
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode(doc.output_encoding)


def _line(msp, line: plan.Line, layer: str) -> None:
    """A line of the drawing (screen y down) on the plan (y up)."""
    msp.add_line((line.x1, -line.y1), (line.x2, -line.y2), dxfattribs={"layer": layer})
