"""The plan of the cell to scale, as a vector reportlab drawing: guards,
openings, the devices at their openings, the hazard zone, operator stations,
each device's minimum distance and a scale bar.

It reuses ``cells.drawing.layout_drawing`` (the primitives the web page draws
as SVG, in millimetres, y pointing down) and maps them onto the page at a
standard scale (1:50, 1:100 ...).
"""

from __future__ import annotations

import math

from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    Rect,
    mmult,
    rotate,
    translate,
)
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from cells.drawing import Label, layout_drawing
from compliance.proposals.pdf import theme
from compliance.proposals.pdf.charts import (
    GUARD_STYLE,
    Point,
    arrow_head,
    draw_device,
    new_drawing,
    text_shape,
)
from compliance.proposals.pdf.data import CellSection, DeviceDistance
from compliance.proposals.pdf.i18n import gettext as _
from compliance.proposals.pdf.theme import BOLD, REGULAR

PT_PER_MM = 72 / 25.4
SCALES = (10, 20, 25, 50, 75, 100, 125, 150, 200, 250, 300, 400, 500, 750, 1000)
SCALES += (1500, 2000, 2500, 5000, 10000, 20000, 50000)


class _Plan:
    """Maps the drawing's millimetres (y down) to points on the page."""

    def __init__(self, min_x: float, min_y: float, height: float, scale: int):
        self.min_x, self.min_y, self.height = min_x, min_y, height
        self.k = PT_PER_MM / scale

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.min_x) * self.k, (self.min_y + self.height - y) * self.k


def _rotated_label(
    label: Label, at: tuple[float, float], size: float, colour: Color = theme.INK
) -> Group:
    """A caption centred on ``at``, turned like its segment, with its second
    line under it."""
    group = Group(text_shape(0, 0, label.text, size, colour=colour, anchor="middle"))
    if label.sub:
        group.add(
            text_shape(0, -size * 1.1, label.sub, size * 0.85, colour=theme.MUTED)
        )
        group.contents[-1].textAnchor = "middle"
    # The drawing's angle is on screen with y down; reportlab's y points up.
    group.transform = mmult(translate(*at), rotate(-label.rotate_deg))
    return group


def choose_scale(width_mm: float, height_mm: float, width: float, height: float) -> int:
    """The largest standard scale (1:N) at which the plan fits the space."""
    for scale in SCALES:
        k = PT_PER_MM / scale
        if width_mm * k <= width and height_mm * k <= height:
            return scale
    return SCALES[-1]


def layout_figure(
    cell: CellSection, width: float, max_height: float
) -> tuple[Drawing, int]:
    """The cell's plan to scale, with guards, openings, the devices at their
    openings, the hazard zone, stations, each device's minimum distance and a
    scale bar. Returns the drawing and N of the scale 1:N."""
    document = cell.layout
    prims = layout_drawing(document)
    scale = choose_scale(prims.view_width, prims.view_height, width, max_height)
    to = _Plan(prims.view_min_x, prims.view_min_y, prims.view_height, scale)
    k = to.k
    size = max(5.5, min(7.0, prims.font_mm * k))
    drawing = new_drawing(prims.view_width * k, prims.view_height * k)

    drawing.add(
        Rect(
            0,
            0,
            drawing.width,
            drawing.height,
            fillColor=theme.WHITE,
            strokeColor=theme.RULE,
            strokeWidth=0.5,
        )
    )
    for line in prims.grid:
        (x1, y1), (x2, y2) = to(line.x1, line.y1), to(line.x2, line.y2)
        drawing.add(Line(x1, y1, x2, y2, strokeColor=theme.FAINT, strokeWidth=0.3))

    zone = {"fillColor": theme.HAZARD_FILL, "strokeColor": theme.CRITICAL}
    zone |= {"strokeWidth": 0.6, "strokeDashArray": [3, 2]}
    if prims.hazard_circle is not None:
        cx, cy, radius = prims.hazard_circle
        drawing.add(Circle(*to(cx, cy), radius * k, **zone))
    else:
        points: list[float] = []
        for x, y in document.hazard_zone.polygon_mm:
            points.extend(to(x, -y))
        drawing.add(Polygon(points, **zone))
    bx, by = to(*prims.robot_base)
    drawing.add(Circle(bx, by, 2.4, fillColor=theme.INK, strokeColor=None))
    drawing.add(Line(bx - 4, by, bx + 4, by, strokeColor=theme.INK, strokeWidth=0.5))
    drawing.add(Line(bx, by - 4, bx, by + 4, strokeColor=theme.INK, strokeWidth=0.5))
    drawing.add(text_shape(bx + 4, by + 3, _("Robot"), size, colour=theme.INK))

    for segment in prims.segments:
        stroke, colour = GUARD_STYLE.get(segment.kind, GUARD_STYLE["fence"])
        for piece in segment.pieces:
            (x1, y1), (x2, y2) = to(piece.x1, piece.y1), to(piece.x2, piece.y2)
            drawing.add(
                Line(
                    x1,
                    y1,
                    x2,
                    y2,
                    strokeColor=colour,
                    strokeWidth=stroke,
                    strokeLineCap=0,
                )
            )
        drawing.add(
            _rotated_label(
                segment.caption, to(segment.caption.x, segment.caption.y), size
            )
        )

    devices_at: dict[tuple[int, int], list[int]] = {}
    for index, device in enumerate(document.devices):
        if device.opening is not None:
            key = (device.opening.segment, device.opening.opening)
            devices_at.setdefault(key, []).append(index)
    distances = {
        d.device_index: d for d in cell.distances if d.device_index is not None
    }
    centre = prims.robot_base

    for opening in prims.openings:
        gap = opening.gap
        a, b = to(gap.x1, gap.y1), to(gap.x2, gap.y2)
        drawing.add(
            Line(
                *a,
                *b,
                strokeColor=theme.MUTED,
                strokeWidth=0.4,
                strokeDashArray=[1, 1.5],
            )
        )
        indices = devices_at.get((opening.segment_index, opening.index), [])
        names = ", ".join(document.devices[i].label for i in indices)
        caption = opening.caption
        if names:
            caption = caption.model_copy(update={"sub": f"{caption.sub} · {names}"})
        drawing.add(_rotated_label(caption, to(caption.x, caption.y), size))
        for index in indices:
            draw_device(drawing, document.devices[index].kind, a, b)
        measured = [distances[i] for i in indices if i in distances]
        if measured:
            segment = document.guard_segments[opening.segment_index]
            seg_mid = to(
                (segment.start.x_mm + segment.end.x_mm) / 2,
                -(segment.start.y_mm + segment.end.y_mm) / 2,
            )
            caption_half = (
                max(
                    stringWidth(caption.text, REGULAR, size),
                    stringWidth(caption.sub, REGULAR, size * 0.85),
                )
                / 2
            )
            _draw_distances(
                drawing,
                measured,
                a,
                b,
                inward_towards=to(*centre),
                roomy_side=seg_mid,
                caption_half=caption_half,
                k=k,
                size=size,
            )

    for station in prims.stations:
        sx, sy = to(station.x, station.y)
        drawing.add(
            Polygon(
                [sx, sy + 3.2, sx + 3, sy - 2, sx - 3, sy - 2],
                fillColor=theme.ACCENT,
                strokeColor=None,
            )
        )
        drawing.add(
            text_shape(sx, sy - 2 - size * 1.2, station.label, size, anchor="middle")
        )

    _scale_bar(drawing, prims.scale_bar, prims.scale_bar_label.text, to, size, scale)
    return drawing, scale


def _mid(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _draw_distances(
    drawing: Drawing,
    measured: list[DeviceDistance],
    a: Point,
    b: Point,
    *,
    inward_towards: Point,
    roomy_side: Point,
    caption_half: float,
    k: float,
    size: float,
) -> None:
    """The minimum distance S of the devices at the opening a-b, drawn
    inwards as a dashed line parallel to the opening (the hazard zone must lie
    beyond it) with a dimension arrow beside the opening's caption, on the
    side with more of the segment. Coloured by each distance's status."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    mid = _mid(a, b)
    if (inward_towards[0] - mid[0]) * nx + (inward_towards[1] - mid[1]) * ny < 0:
        nx, ny = -nx, -ny
    if (roomy_side[0] - mid[0]) * ux + (roomy_side[1] - mid[1]) * uy < 0:
        ux, uy = -ux, -uy
    aside = max(length / 2, caption_half) + 3.5
    for distance in sorted(measured, key=lambda d: d.required_mm):
        colour = theme.STATUS_COLOURS[distance.status]
        depth = distance.required_mm * k
        near = (mid[0] - ux * length / 2, mid[1] - uy * length / 2)
        far = (mid[0] + ux * length / 2, mid[1] + uy * length / 2)
        line = {
            "strokeColor": colour,
            "strokeWidth": 1.0,
            "strokeDashArray": [2.5, 1.5],
        }
        drawing.add(
            Line(
                near[0] + nx * depth,
                near[1] + ny * depth,
                far[0] + nx * depth,
                far[1] + ny * depth,
                **line,
            )
        )
        # The dimension: an extension of the line to the arrow, and the arrow.
        p1 = (mid[0] + ux * aside, mid[1] + uy * aside)
        p2 = (p1[0] + nx * depth, p1[1] + ny * depth)
        drawing.add(
            Line(
                far[0] + nx * depth,
                far[1] + ny * depth,
                p2[0] + ux * 2,
                p2[1] + uy * 2,
                strokeColor=colour,
                strokeWidth=0.35,
            )
        )
        drawing.add(Line(*p1, *p2, strokeColor=colour, strokeWidth=0.6))
        for tip, back in ((p1, p2), (p2, p1)):
            arrow_head(drawing, tip, back, colour)
        # The label upright beside the arrow, on the side away from the caption.
        text = f"S {theme.number(distance.required_mm)} mm"
        cx, cy = p1[0] + nx * depth / 2, p1[1] + ny * depth / 2
        if abs(ny) >= abs(nx):  # an upright arrow: the label to its side
            label = text_shape(cx + ux * 3, cy - size * 0.35, text, size, colour=colour)
            label.textAnchor = "start" if ux >= 0 else "end"
        else:  # a lying arrow: the label above or under it
            y = cy + 2.5 if uy >= 0 else cy - size - 1.5
            label = text_shape(cx, y, text, size, colour=colour, anchor="middle")
        label.fontName = BOLD
        drawing.add(label)


def _scale_bar(
    drawing: Drawing, bar, text: str, to: _Plan, size: float, scale: int
) -> None:
    (x1, y1), (x2, _y2) = to(bar.x1, bar.y1), to(bar.x2, bar.y2)
    half = (x2 - x1) / 2
    drawing.add(
        Rect(
            x1,
            y1,
            half,
            2.6,
            fillColor=theme.INK,
            strokeColor=theme.INK,
            strokeWidth=0.4,
        )
    )
    drawing.add(
        Rect(
            x1 + half,
            y1,
            half,
            2.6,
            fillColor=theme.WHITE,
            strokeColor=theme.INK,
            strokeWidth=0.4,
        )
    )
    drawing.add(
        text_shape(x1, y1 + 4.5, "0", size * 0.9, colour=theme.MUTED, anchor="middle")
    )
    drawing.add(
        text_shape(x2, y1 + 4.5, text, size * 0.9, colour=theme.MUTED, anchor="middle")
    )
    drawing.add(
        text_shape(
            x2 + stringWidth(text, REGULAR, size * 0.9) / 2 + 8,
            y1,
            f"1:{scale:,}",
            size,
            bold=True,
        )
    )
