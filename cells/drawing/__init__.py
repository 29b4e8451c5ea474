"""The plan drawing of a cell: what to draw where, in millimetres.

Pure Python with pydantic, no Django. ``layout_drawing`` turns a cell's exchange
document into primitives (lines, gaps, circles, labels) that a template renders
as inline SVG and the proposal PDF as a reportlab drawing. Placed devices are
drawn too: a light curtain or grid as its detection line, a safety mat as its
rectangle, a laser scanner as a marked point. So is what a safety engineer
checks first (``cells.drawing_perimeter``): every unguarded gap of the
perimeter, where the hazard zone reaches past the guarding, and, for each
device given a required minimum distance, that distance S around the hazard
zone, which the device must stand outside.

Labels are plain text here; whoever renders them escapes them. The words of
the labels drawn come in ``DrawingLabels``, already translated by the caller.
Plan y points up as on a drawing; SVG y points down, so every plan point
(x, y) is drawn at (x, -y).

The parts: ``primitives`` (the shapes and the ``Drawing``), ``labels`` (the
names and texts of the labels and where captions go), ``devices`` (the placed
devices), ``checks`` (the safety engineer's marks) and ``plan``
(``layout_drawing``, which puts them together). Import from here; the
context of the SVG template (``templates/cells/partials/plan_svg.html``)
from ``svg``.
"""

from __future__ import annotations

from cells.drawing.devices import LINE_KINDS
from cells.drawing.labels import Box, _Grid, _text_box
from cells.drawing.plan import MAX_GRID_LINES, NICE_STEPS_MM, layout_drawing
from cells.drawing.primitives import (
    ApproachShape,
    ClearanceShape,
    CurtainShape,
    DeviceShape,
    Drawing,
    DrawingLabels,
    GapShape,
    Label,
    Line,
    MatShape,
    OpeningShape,
    ReachShape,
    Requirement,
    Ring,
    ScannerShape,
    SegmentShape,
    StationShape,
    element_key,
)

__all__ = [
    "LINE_KINDS",
    "MAX_GRID_LINES",
    "NICE_STEPS_MM",
    "ApproachShape",
    "Box",
    "ClearanceShape",
    "CurtainShape",
    "DeviceShape",
    "Drawing",
    "DrawingLabels",
    "GapShape",
    "Label",
    "Line",
    "MatShape",
    "OpeningShape",
    "ReachShape",
    "Requirement",
    "Ring",
    "ScannerShape",
    "SegmentShape",
    "StationShape",
    "_Grid",
    "_text_box",
    "element_key",
    "layout_drawing",
]
