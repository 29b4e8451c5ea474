"""The plan of the cell to scale, as a vector reportlab drawing: guards,
openings, the devices where they are placed (a light curtain or grid as its
detection line, a mat as its rectangle, a scanner as a ringed point) or else
at the opening they guard, the hazard zone, operator stations, a scale bar,
and what a safety engineer checks first: every unguarded gap of the
perimeter ("open 1,000 mm"), where the hazard zone reaches past the guarding,
and each device's required minimum distance S drawn round the hazard zone
("S ≥ 544 mm"), which the device must stand outside.

It reuses ``cells.drawing.layout_drawing`` (the primitives the web page draws
as SVG, in millimetres, y pointing down, with the same perimeter analysis and
the same outline of S: a circle round a circular zone, the outward offset of a
polygon zone, exact for a convex one) and maps them onto the page at a
standard scale (1:50, 1:100 ...). Its labels come through the PDF's own
translation shim.

With robot programs (issue 32), each program's path is drawn on the plan by
verdict (failing moves red, moves where a person could be clamped amber, the
rest quiet) with each operator station's contact zone round it.

On a large cell the guards' captions would lie on top of one another at the
scale that fits A4; a label that would cover one already placed is left out
(the figure says how many, and the section then tables every guard).
"""

from __future__ import annotations

import math

from django.utils.translation import gettext as _
from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
    mmult,
    rotate,
    translate,
)
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from cells.drawing import (
    ClearanceShape,
    DrawingLabels,
    Label,
    Requirement,
    StationShape,
    layout_drawing,
)
from cells.drawing import Drawing as PlanDrawing
from compliance.documents import theme
from compliance.documents.fonts import register_fonts
from compliance.documents.theme import BOLD, REGULAR
from compliance.proposals.pdf.charts import (
    GUARD_STYLE,
    PATH_SWATCHES,
    arrow_head,
    draw_device,
    new_drawing,
    text_shape,
)
from compliance.proposals.pdf.data import CellSection
from compliance.proposals.pdf.program_data import PathVerdict
from compliance.proposals.pdf.underlay_image import underlay_shape

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


Box = tuple[float, float, float, float]  # x1, y1, x2, y2 on the page
ASCENT, DESCENT = 0.8, 0.25  # of the font size, round a line's baseline


def _turned_box(local: Box, at: tuple[float, float], rotate_deg: float) -> Box:
    """The page box holding ``local`` (round a caption's own origin) turned
    as the caption is (``rotate(-rotate_deg)``) and moved to ``at``."""
    a = math.radians(-rotate_deg)
    c, s = math.cos(a), math.sin(a)
    corners = [(x, y) for x in (local[0], local[2]) for y in (local[1], local[3])]
    xs = [at[0] + x * c - y * s for x, y in corners]
    ys = [at[1] + x * s + y * c for x, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _caption_box(label: Label, at: tuple[float, float], size: float) -> Box:
    """Where ``_rotated_label`` draws ``label``, with a point of margin above
    and below and three at the ends."""
    half = stringWidth(label.text, REGULAR, size) / 2
    bottom = -DESCENT * size
    if label.sub:
        half = max(half, stringWidth(label.sub, REGULAR, size * 0.85) / 2)
        bottom = -size * 1.1 - DESCENT * size * 0.85
    # Room to spare at the ends, so that captions in a row read apart.
    local = (-half - 3, bottom - 1, half + 3, ASCENT * size + 1)
    return _turned_box(local, at, label.rotate_deg)


def _mark_box(label: Label, at: tuple[float, float], size: float) -> Box:
    """Where ``_mark_label`` draws ``label`` (its white ground)."""
    width, height = _mark_size(_mark_lines(label, size), size)
    local = (-width / 2, -height / 2, width / 2, height / 2)
    return _turned_box(local, at, label.rotate_deg)


def _string_box(shape: String) -> Box:
    """Where a one-line ``text_shape`` stands, a point of margin round it."""
    size, x = shape.fontSize, shape.x
    width = stringWidth(shape.text, shape.fontName, size)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[shape.textAnchor]
    y = shape.y
    return (left - 1, y - DESCENT * size - 1, left + width + 1, y + ASCENT * size + 1)


class _Room:
    """The boxes of the captions already on the figure, filed by where they
    are, to say whether another would cover one."""

    CELL = 24.0  # points

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [
            (i, j)
            for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1)
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)
        ]

    def free(self, box: Box) -> bool:
        return not any(
            box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
            for key in self._keys(box)
            for b in self.cells.get(key, ())
        )

    def take(self, box: Box) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)


def choose_scale(width_mm: float, height_mm: float, width: float, height: float) -> int:
    """The largest standard scale (1:N) at which the plan fits the space."""
    for scale in SCALES:
        k = PT_PER_MM / scale
        if width_mm * k <= width and height_mm * k <= height:
            return scale
    return SCALES[-1]


def _labels() -> DrawingLabels:
    """The words drawn on the plan, in the language of the build."""
    return DrawingLabels(
        gap=_("open %(width)s mm"),
        gap_uncertain=_("open (width uncertain)"),
        reach_past=_("zone reaches %(reach)s mm past the guard"),
        required=_("S ≥ %(distance)s mm"),
        zone_sum=_("reach %(reach)s + tool %(tool)s + workpiece %(workpiece)s mm"),
        ring_reach=_("robot reach"),
        ring_tool=_("with the tool"),
        uncovered=_("no field to S %(distance)s mm"),
    )


def plan_of(cell: CellSection) -> PlanDrawing:
    """The primitives of the cell's plan, with its devices' minimum distances."""
    required = [
        Requirement(
            device_index=d.device_index, required_mm=d.required_mm, status=d.status
        )
        for d in cell.distances
        if d.device_index is not None
    ]
    return layout_drawing(
        cell.layout,
        labels=_labels(),
        required=required,
        opening_status=dict.fromkeys(cell.failing_openings, "fail"),
        uncovered=cell.uncovered,
        underlay=_held(cell),
    )


def _held(cell: CellSection) -> list[tuple[float, float, float, float]]:
    """The box of the programs' paths and the stations' contact zones, as an
    underlay's line: the drawing's view holds its underlay, which this
    figure does not draw; so the paths and zones are in the view."""
    xs: list[float] = []
    ys: list[float] = []
    for path in cell.programs:
        for piece in path.pieces:
            xs += [x for x, _y in piece.points_mm]
            ys += [y for _x, y in piece.points_mm]
    for zone in cell.contact_zones:
        xs += [zone.x_mm - zone.radius_mm, zone.x_mm + zone.radius_mm]
        ys += [zone.y_mm - zone.radius_mm, zone.y_mm + zone.radius_mm]
    if not xs:
        return []
    return [(min(xs), min(ys), max(xs), max(ys))]


# How each verdict of a program's path is drawn (the legend's swatches): the
# quiet ones first, the failing ones on top.
PATH_STYLE: dict[PathVerdict, tuple[Color, float]] = {
    "other": PATH_SWATCHES["path"],
    "measure": PATH_SWATCHES["path_measure"],
    "fail": PATH_SWATCHES["path_fail"],
}
ZONE_STYLE = {
    "fillColor": None,
    "strokeColor": theme.ACCENT,
    "strokeWidth": 0.6,
    "strokeDashArray": [1.2, 1.8],
}


def _program_paths(drawing: Drawing, cell: CellSection, to: _Plan) -> None:
    """Each station's contact zone, then the programs' paths by verdict."""
    for zone in cell.contact_zones:
        # The document's y points away from the viewer; the drawing's down.
        drawing.add(
            Circle(*to(zone.x_mm, -zone.y_mm), zone.radius_mm * to.k, **ZONE_STYLE)
        )
    for verdict in ("other", "measure", "fail"):
        colour, width = PATH_STYLE[verdict]
        for path in cell.programs:
            for piece in path.pieces:
                if piece.verdict != verdict:
                    continue
                points: list[float] = []
                for x, y in piece.points_mm:
                    points.extend(to(x, -y))
                drawing.add(
                    PolyLine(
                        points,
                        strokeColor=colour,
                        strokeWidth=width,
                        strokeLineCap=1,
                        strokeLineJoin=1,
                    )
                )


def layout_figure(
    cell: CellSection, width: float, max_height: float, *, scale: int | None = None
) -> tuple[Drawing, int]:
    """The cell's plan to scale, with guards, openings, devices, the hazard
    zone, stations, the unguarded gaps, the zone's reach past the guarding,
    each device's minimum distance and a scale bar. Returns the drawing and N
    of the scale 1:N. ``scale``: draw at 1:``scale`` rather than the largest
    that fits, so that several plans share one (the caller has chosen it to
    fit, e.g. with ``choose_scale`` over the largest plan)."""
    register_fonts()  # its captions are measured in the bundled face
    document = cell.layout
    prims = plan_of(cell)
    if scale is None:
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
    if cell.underlay_image is not None:
        # Under everything, the grid too: faded over white, it is opaque here.
        # Cut to the figure (cells.layout_image).
        view = (prims.view_min_x, prims.view_min_y, prims.view_width, prims.view_height)
        picture = underlay_shape(cell.underlay_image, view, to)
        if picture is not None:
            drawing.add(picture)
    for line in prims.grid:
        (x1, y1), (x2, y2) = to(line.x1, line.y1), to(line.x2, line.y2)
        drawing.add(Line(x1, y1, x2, y2, strokeColor=theme.FAINT, strokeWidth=0.3))

    zone = {"fillColor": theme.HAZARD_FILL, "strokeColor": theme.CRITICAL}
    zone |= {"strokeWidth": 0.6, "strokeDashArray": [3, 2]}
    if prims.hazard_circle is not None:
        cx, cy, radius = prims.hazard_circle
        drawing.add(Circle(*to(cx, cy), radius * k, **zone))
        for ring in prims.hazard_rings:
            drawing.add(
                Circle(
                    *to(cx, cy),
                    ring.radius * k,
                    fillColor=None,
                    strokeColor=theme.CRITICAL,
                    strokeWidth=0.4,
                    strokeDashArray=[1, 2],
                )
            )
        if prims.hazard_label is not None and prims.hazard_rings:
            label = prims.hazard_label
            drawing.add(
                _rotated_label(label, to(label.x, label.y), size, theme.CRITICAL)
            )
    else:
        points: list[float] = []
        for x, y in document.hazard_zone.polygon_mm:
            points.extend(to(x, -y))
        drawing.add(Polygon(points, **zone))
    for clearance in prims.clearances:
        _clearance_outline(drawing, clearance, to)
    bx, by = to(*prims.robot_base)
    drawing.add(Circle(bx, by, 2.4, fillColor=theme.INK, strokeColor=None))
    drawing.add(Line(bx - 4, by, bx + 4, by, strokeColor=theme.INK, strokeWidth=0.5))
    drawing.add(Line(bx, by - 4, bx, by + 4, strokeColor=theme.INK, strokeWidth=0.5))
    drawing.add(_robot_label(prims, to, size))

    placed = {d.index for d in (*prims.curtains, *prims.mats, *prims.scanners)}
    devices_at: dict[tuple[int, int], list[int]] = {}
    for index, device in enumerate(document.devices):
        if device.opening is not None:
            key = (device.opening.segment, device.opening.opening)
            devices_at.setdefault(key, []).append(index)
    opening_captions = {}
    for opening in prims.openings:
        indices = devices_at.get((opening.segment_index, opening.index), [])
        names = ", ".join(document.devices[i].label for i in indices)
        caption = opening.caption
        if names:
            caption = caption.model_copy(update={"sub": f"{caption.sub} · {names}"})
        opening_captions[(opening.segment_index, opening.index)] = caption
    named = {i for indices in devices_at.values() for i in indices}
    shown, left_out, room = _captions_shown(
        prims, to, size, scale, opening_captions, named
    )
    drawing.left_out_captions = left_out

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
        if ("segment", segment.index) in shown:
            caption = segment.caption
            drawing.add(_rotated_label(caption, to(caption.x, caption.y), size))

    for opening in prims.openings:
        gap = opening.gap
        a, b = to(gap.x1, gap.y1), to(gap.x2, gap.y2)
        failing = opening.status == "fail"
        drawing.add(
            Line(
                *a,
                *b,
                strokeColor=theme.CRITICAL if failing else theme.MUTED,
                strokeWidth=1.2 if failing else 0.4,
                strokeDashArray=[1, 1.5],
            )
        )
        where = (opening.segment_index, opening.index)
        if ("opening", *where) in shown:
            caption = opening_captions[where]
            drawing.add(_rotated_label(caption, to(caption.x, caption.y), size))
        for index in devices_at.get(where, []):
            if index not in placed:  # else drawn where it is placed, below
                draw_device(drawing, document.devices[index].kind, a, b)

    _placed_devices(drawing, prims, to, size, shown)
    _program_paths(drawing, cell, to)
    _path_labels(drawing, cell, to, size, room)

    for station in prims.stations:
        sx, sy = to(station.x, station.y)
        drawing.add(
            Polygon(
                [sx, sy + 3.2, sx + 3, sy - 2, sx - 3, sy - 2],
                fillColor=theme.ACCENT,
                strokeColor=None,
            )
        )
        if ("station", station.index) in shown:
            drawing.add(_station_label(station, to, size))

    _safety_marks(drawing, prims, to, size, shown)
    _scale_bar(drawing, prims, to, size, scale)
    return drawing, scale


def _line_words(lines: tuple[int, ...], more: bool) -> str:
    """ "line 6", "lines 6, 9, …": a failing piece's lines."""
    numbers = ", ".join(f"{line:,}" for line in lines) + (", …" if more else "")
    if len(lines) > 1 or more:
        return _("lines %(lines)s") % {"lines": numbers}
    return _("line %(lines)s") % {"lines": numbers}


def _path_labels(
    drawing: Drawing, cell: CellSection, to: _Plan, size: float, room: _Room
) -> None:
    """Each failing piece of a path named by its lines, beside its middle
    move, where it covers no other caption (the table lists them all)."""
    several = len(cell.programs) > 1
    for path in cell.programs:
        for piece in path.pieces:
            if piece.verdict != "fail" or not piece.lines:
                continue
            text = _line_words(piece.lines, piece.more_lines)
            if several:
                text = f"{path.label}, {text}"
            points = [to(x, -y) for x, y in piece.points_mm]
            middle = (len(points) - 1) // 2
            (ax, ay), (bx, by) = points[middle], points[middle + 1]
            length = math.hypot(bx - ax, by - ay)
            nx, ny = ((ay - by) / length, (bx - ax) / length) if length else (0, 1)
            width = stringWidth(text, BOLD, size) + 2
            height = size * 1.15 + 1
            # Beside the move, on either side, clear of it.
            away = abs(nx) * width / 2 + abs(ny) * height / 2 + 2
            for side in (1, -1):
                cx = (ax + bx) / 2 + side * nx * away
                cy = (ay + by) / 2 + side * ny * away
                box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
                inside = box[0] >= 0 and box[1] >= 0
                inside = inside and box[2] <= drawing.width
                inside = inside and box[3] <= drawing.height
                if inside and room.free(box):
                    room.take(box)
                    label = Label(x=0, y=0, text=text)
                    drawing.add(_mark_label(label, (cx, cy), size, theme.CRITICAL))
                    break


def _robot_label(prims: PlanDrawing, to: _Plan, size: float) -> String:
    bx, by = to(*prims.robot_base)
    return text_shape(bx + 4, by + 3, _("Robot"), size, colour=theme.INK)


def _station_label(station: StationShape, to: _Plan, size: float) -> String:
    """Under the station, or over it where a guard's caption is under it."""
    sx, sy = to(station.x, station.y)
    above = station.caption.y < station.y
    y = sy + 3.2 + size * 0.5 if above else sy - 2 - size * 1.2
    return text_shape(sx, y, station.label, size, anchor="middle")


def _captions_shown(
    prims: PlanDrawing,
    to: _Plan,
    size: float,
    scale: int,
    opening_captions: dict[tuple[int, int], Label],
    named: set[int],
) -> tuple[set[tuple], int, _Room]:
    """Which captions of guards, openings and devices to draw, how many are
    left out, and the room they take: one that would cover another caption is not drawn (on a
    large cell at 1:250 the guards' captions lay on top of each other, and
    none could be read). The open gaps, the zone's reach past the guard, the
    robot, the zone and the scale bar are always drawn and placed first; then
    the operator stations' names, each S (largest first), the devices'
    captions, the openings' (which name the devices at them), the guards'. A
    device named at its opening has no caption of its own. An S whose label would cover another keeps its
    outline but not its dimension line and label (the table of minimum
    distances gives every S)."""
    room = _Room()
    for gap in prims.gaps:
        room.take(_mark_box(gap.caption, to(gap.caption.x, gap.caption.y), size))
    if prims.reach is not None:
        caption = prims.reach.caption
        room.take(_mark_box(caption, to(caption.x, caption.y), size))
    room.take(_string_box(_robot_label(prims, to, size)))
    if prims.hazard_label is not None and prims.hazard_rings:
        label = prims.hazard_label
        room.take(_caption_box(label, to(label.x, label.y), size))
    (x1, y1), (x2, _y2) = (
        to(prims.scale_bar.x1, prims.scale_bar.y1),
        to(prims.scale_bar.x2, prims.scale_bar.y2),
    )
    room.take((x1, y1, x2, y1 + BAR_HEIGHT))
    for shape in _scale_bar_texts(prims, to, size, scale):
        room.take(_string_box(shape))

    candidates: list[tuple[tuple, Box]] = []
    for station in prims.stations:
        box = _string_box(_station_label(station, to, size))
        candidates.append((("station", station.index), box))
    # Each S, largest first (the outer outlines), with its dimension line.
    candidates += [
        (
            ("clearance", clearance.device_index),
            _mark_box(
                clearance.caption, to(clearance.caption.x, clearance.caption.y), size
            ),
        )
        for clearance in prims.clearances
    ]
    for device in (*prims.curtains, *prims.mats):
        if device.index not in named:
            at = to(device.caption.x, device.caption.y)
            candidates.append(
                (("device", device.index), _caption_box(device.caption, at, size))
            )
    for scanner in prims.scanners:
        if scanner.index not in named:
            sx, sy = to(scanner.x, scanner.y)
            label = scanner.caption.model_copy(update={"x": scanner.x})
            at = (sx, sy - 3.2 - size * 0.9)
            candidates.append(
                (("device", scanner.index), _caption_box(label, at, size))
            )
    for (segment_index, index), caption in opening_captions.items():
        at = to(caption.x, caption.y)
        candidates.append(
            (("opening", segment_index, index), _caption_box(caption, at, size))
        )
    for segment in prims.segments:
        at = to(segment.caption.x, segment.caption.y)
        candidates.append(
            (("segment", segment.index), _caption_box(segment.caption, at, size))
        )
    shown: set[tuple] = set()
    for key, box in candidates:
        if room.free(box):
            room.take(box)
            shown.add(key)
    return shown, len(candidates) - len(shown), room


def _placed_devices(
    drawing: Drawing,
    prims: PlanDrawing,
    to: _Plan,
    size: float,
    shown: set[tuple],
) -> None:
    """Devices where they are placed on the plan, as on the web page. A device
    at an opening is already named in the opening's caption; a caption that
    would cover another is left out (``shown``)."""
    for curtain in prims.curtains:
        line = curtain.line
        draw_device(drawing, curtain.kind, to(line.x1, line.y1), to(line.x2, line.y2))
        if ("device", curtain.index) in shown:
            caption = curtain.caption
            drawing.add(
                _rotated_label(caption, to(caption.x, caption.y), size, theme.DEVICE)
            )
    for mat in prims.mats:
        x, y = to(mat.x, mat.y + mat.height)  # its lower-left corner on the page
        drawing.add(
            Rect(
                x,
                y,
                mat.width * to.k,
                mat.height * to.k,
                fillColor=theme.PANEL,
                strokeColor=theme.DEVICE,
                strokeWidth=0.7,
            )
        )
        if ("device", mat.index) in shown:
            caption = mat.caption
            drawing.add(
                _rotated_label(caption, to(caption.x, caption.y), size, theme.DEVICE)
            )
    for scanner in prims.scanners:
        sx, sy = to(scanner.x, scanner.y)
        ring = {"strokeColor": theme.DEVICE, "strokeWidth": 0.8}
        if scanner.field_radius:
            drawing.add(
                Circle(
                    sx,
                    sy,
                    scanner.field_radius * to.k,
                    fillColor=None,
                    strokeColor=theme.DEVICE,
                    strokeWidth=0.5,
                    strokeDashArray=[2.5, 1.5],
                )
            )
        drawing.add(Circle(sx, sy, 3.2, fillColor=theme.WHITE, **ring))
        drawing.add(Line(sx - 3.2, sy, sx + 3.2, sy, **ring))
        drawing.add(Line(sx, sy - 3.2, sx, sy + 3.2, **ring))
        if ("device", scanner.index) in shown:
            label = scanner.caption.model_copy(update={"x": scanner.x})
            at = (sx, sy - 3.2 - size * 0.9)
            drawing.add(_rotated_label(label, at, size, theme.DEVICE))


def _clearance_outline(drawing: Drawing, clearance: ClearanceShape, to: _Plan) -> None:
    """The outline of S round the zone, dashed in its finding's colour."""
    colour = theme.STATUS_COLOURS.get(clearance.status, theme.SLATE)
    style = {"strokeColor": colour, "strokeWidth": 0.9, "strokeDashArray": [3, 1.8]}
    if clearance.circle is not None:
        cx, cy, r = clearance.circle
        drawing.add(Circle(*to(cx, cy), r * to.k, fillColor=None, **style))
    else:
        points: list[float] = []
        for x, y in (*clearance.outline, clearance.outline[0]):
            points.extend(to(x, y))
        drawing.add(PolyLine(points, **style))


def _safety_marks(
    drawing: Drawing, prims: PlanDrawing, to: _Plan, size: float, shown: set[tuple]
) -> None:
    """On top of everything: the open gaps, the zone's reach past the guard
    and the dimension of each S with its label, on a white ground."""
    red = theme.CRITICAL
    for approach in prims.approaches:
        points: list[float] = []
        for x, y in approach.outline:
            points.extend(to(x, y))
        drawing.add(
            PolyLine(points, strokeColor=red, strokeWidth=1.6, strokeDashArray=[2, 2])
        )
        caption = approach.caption
        drawing.add(_mark_label(caption, to(caption.x, caption.y), size, red))
    for gap in prims.gaps:
        line = gap.line
        a, b = to(line.x1, line.y1), to(line.x2, line.y2)
        drawing.add(
            Line(
                *a,
                *b,
                strokeColor=red,
                strokeWidth=1.6,
                strokeDashArray=[4, 2.5],
                strokeLineCap=0,
            )
        )
        for x, y in (a, b):  # the free ends
            drawing.add(Line(x - 2, y - 2, x + 2, y + 2, strokeColor=red))
            drawing.add(Line(x - 2, y + 2, x + 2, y - 2, strokeColor=red))
        caption = gap.caption
        drawing.add(_mark_label(caption, to(caption.x, caption.y), size, red))
    if prims.reach is not None:
        line = prims.reach.line
        guard, far = to(line.x1, line.y1), to(line.x2, line.y2)
        drawing.add(Line(*guard, *far, strokeColor=red, strokeWidth=1.0))
        leader = prims.reach.leader
        drawing.add(
            Line(
                *to(leader.x1, leader.y1),
                *to(leader.x2, leader.y2),
                strokeColor=red,
                strokeWidth=0.4,
            )
        )
        drawing.add(Circle(*far, 1.6, fillColor=red, strokeColor=None))
        arrow_head(drawing, far, guard, red)
        caption = prims.reach.caption
        drawing.add(_mark_label(caption, to(caption.x, caption.y), size, red))
    for clearance in prims.clearances:
        if ("clearance", clearance.device_index) not in shown:
            continue  # its outline is drawn; its S is in the table
        colour = theme.STATUS_COLOURS.get(clearance.status, theme.SLATE)
        tick = clearance.tick
        inner, outer = to(tick.x1, tick.y1), to(tick.x2, tick.y2)
        drawing.add(Line(*inner, *outer, strokeColor=colour, strokeWidth=0.6))
        if math.dist(inner, outer) > 7:
            arrow_head(drawing, inner, outer, colour)
            arrow_head(drawing, outer, inner, colour)
        caption = clearance.caption
        drawing.add(_mark_label(caption, to(caption.x, caption.y), size, colour))


def _mark_lines(label: Label, size: float) -> list[tuple[str, str, float]]:
    lines = [(label.text, BOLD, size)]
    if label.sub:
        lines.append((label.sub, REGULAR, size * 0.85))
    return lines


def _mark_size(lines: list[tuple[str, str, float]], size: float) -> tuple[float, float]:
    """The width and height of a mark label's white ground."""
    width = max(stringWidth(text, font, s) for text, font, s in lines) + 2
    return width, size * 1.15 * len(lines) + 1


def _mark_label(label: Label, at: tuple[float, float], size: float, colour: Color):
    """A bold label centred on ``at`` (its second line under it, regular), on a
    white ground so it reads over the lines it crosses."""
    lines = _mark_lines(label, size)
    width, height = _mark_size(lines, size)
    top = height / 2
    group = Group(
        Rect(
            -width / 2,
            -top,
            width,
            height,
            fillColor=theme.WHITE,
            strokeColor=None,
            fillOpacity=0.85,
        )
    )
    y = top - size - 0.2
    for text, font, s in lines:
        shape = text_shape(0, y, text, s, colour=colour, anchor="middle")
        shape.fontName = font
        group.add(shape)
        y -= size * 1.15
    group.transform = mmult(translate(*at), rotate(-label.rotate_deg))
    return group


BAR_HEIGHT = 2.6  # points


def _scale_bar_texts(
    prims: PlanDrawing, to: _Plan, size: float, scale: int
) -> list[String]:
    """The scale bar's words: 0 at its start, its length at its end, and the
    scale beside it."""
    bar, text = prims.scale_bar, prims.scale_bar_label.text
    (x1, y1), (x2, _y2) = to(bar.x1, bar.y1), to(bar.x2, bar.y2)
    small = size * 0.9
    return [
        text_shape(x1, y1 + 4.5, "0", small, colour=theme.MUTED, anchor="middle"),
        text_shape(x2, y1 + 4.5, text, small, colour=theme.MUTED, anchor="middle"),
        text_shape(
            x2 + stringWidth(text, REGULAR, small) / 2 + 8,
            y1,
            f"1:{scale:,}",
            size,
            bold=True,
        ),
    ]


def _scale_bar(
    drawing: Drawing, prims: PlanDrawing, to: _Plan, size: float, scale: int
) -> None:
    bar = prims.scale_bar
    (x1, y1), (x2, _y2) = to(bar.x1, bar.y1), to(bar.x2, bar.y2)
    half = (x2 - x1) / 2
    for left, fill in ((x1, theme.INK), (x1 + half, theme.WHITE)):
        drawing.add(
            Rect(
                left,
                y1,
                half,
                BAR_HEIGHT,
                fillColor=fill,
                strokeColor=theme.INK,
                strokeWidth=0.4,
            )
        )
    for shape in _scale_bar_texts(prims, to, size, scale):
        drawing.add(shape)
