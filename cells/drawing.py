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
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from cells import drawing_perimeter, geometry, perimeter
from cells.exchange import CellDocument, DeviceDoc

NICE_STEPS_MM = (100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)
MAX_GRID_LINES = 14


class _Prim(BaseModel):
    model_config = ConfigDict(frozen=True)


class Line(_Prim):
    x1: float
    y1: float
    x2: float
    y2: float


class Label(_Prim):
    x: float
    y: float
    text: str
    rotate_deg: float = 0.0
    sub: str = ""  # a second, smaller line under the first


class SegmentShape(_Prim):
    index: int
    label: str
    kind: str
    pieces: list[Line]  # the guard with its openings cut out
    caption: Label

    @property
    def key(self) -> str:
        return f"s{self.index}"


class OpeningShape(_Prim):
    segment_index: int
    index: int
    label: str
    purpose: str
    gap: Line
    caption: Label

    @property
    def key(self) -> str:
        return f"s{self.segment_index}o{self.index}"


class StationShape(_Prim):
    index: int
    label: str
    x: float
    y: float
    caption: Label

    @property
    def key(self) -> str:
        return f"t{self.index}"


class DeviceShape(_Prim):
    """A device placed on the plan; ``index`` is its place in the document."""

    index: int
    label: str
    kind: str
    caption: Label

    @property
    def key(self) -> str:
        return f"d{self.index}"


class CurtainShape(DeviceShape):
    """A light curtain or multi-beam grid: the line its beams span."""

    line: Line


class MatShape(DeviceShape):
    """A safety mat: its rectangle, top-left corner on screen and size."""

    x: float
    y: float
    width: float
    height: float


class ScannerShape(DeviceShape):
    """A safety laser scanner: where it stands, a ring with a cross in it."""

    x: float
    y: float
    radius: float
    marker: list[Line]  # the cross


class DrawingLabels(_Prim):
    """The words of the labels drawn, in the reader's language: ``%(name)s``
    templates the caller translates (the page with Django's gettext, the PDF
    with its own shim) and the drawing fills in with grouped millimetres."""

    gap: str = "open %(width)s mm"
    gap_uncertain: str = "open (width uncertain)"
    reach_past: str = "zone reaches %(reach)s mm past the guard"
    required: str = "S ≥ %(distance)s mm"
    # The circle's radius as the robot's maximum space (ISO 10218-2): its
    # reach, then the tool beyond the flange, then the largest workpiece.
    zone_sum: str = "reach %(reach)s + tool %(tool)s + workpiece %(workpiece)s mm"
    ring_reach: str = "robot reach"
    ring_tool: str = "with the tool"


class Ring(_Prim):
    """A circle inside the hazard circle drawn from the robot's figures: the
    robot's reach, then the reach with the tool; the hazard circle itself adds
    the largest workpiece. ``title`` names it, in the reader's language."""

    radius: float
    title: str


class Requirement(_Prim):
    """A device's required minimum distance from the hazard zone (from the
    findings of ISO 13855), for the device at ``device_index`` in the document.
    ``status`` is the finding's (pass, fail ...), to colour the line."""

    device_index: int
    required_mm: int
    status: str = ""


class GapShape(_Prim):
    """An unguarded gap of the perimeter: the line between two free ends."""

    index: int
    line: Line
    width_mm: float
    ambiguous: bool  # which ends face each other is uncertain
    caption: Label

    @property
    def key(self) -> str:
        return f"g{self.index}"


class ReachShape(_Prim):
    """Where the hazard zone reaches furthest past the guarding it crosses:
    from the guard's outline to the zone's point."""

    line: Line
    reach_mm: float
    dot_radius: float  # the mark on the zone's point
    leader: Line  # from the zone's point to its caption
    caption: Label


class ClearanceShape(_Prim):
    """A device's required minimum distance S drawn round the hazard zone:
    the device must stand outside this outline. A circle round a circular zone
    (exact); round a polygon its outward offset (see
    ``drawing_perimeter.offset_polygon``). ``tick`` measures S from the zone."""

    device_index: int
    label: str  # the device's
    required_mm: int
    status: str
    circle: tuple[float, float, float] | None  # cx, cy, r
    outline: list[tuple[float, float]]  # for a polygon zone, else empty
    tick: Line
    caption: Label

    @property
    def key(self) -> str:
        return f"d{self.device_index}"  # highlighted with its device

    @property
    def points(self) -> str:
        """The outline as an SVG points attribute."""
        return " ".join(f"{x:g},{y:g}" for x, y in self.outline)


class Drawing(_Prim):
    """Everything the SVG shows, in SVG user units (1 unit = 1 mm)."""

    view_min_x: float
    view_min_y: float
    view_width: float
    view_height: float
    font_mm: float
    grid_step_mm: int
    grid: list[Line]
    scale_bar: Line
    scale_bar_label: Label
    hazard_circle: tuple[float, float, float] | None  # cx, cy, r
    hazard_polygon: str  # SVG points attribute, empty for a circle
    hazard_label: Label | None = None  # the circle's radius
    # Where the circle is the robot's maximum space (no radius typed): the
    # robot's reach and the reach with its tool, inside it (innermost first).
    hazard_rings: list[Ring] = []
    robot_base: tuple[float, float]
    segments: list[SegmentShape]
    openings: list[OpeningShape]
    stations: list[StationShape]
    curtains: list[CurtainShape] = []
    mats: list[MatShape] = []
    scanners: list[ScannerShape] = []
    gaps: list[GapShape] = []
    reach: ReachShape | None = None
    clearances: list[ClearanceShape] = []
    # Lines of an imported CAD drawing (cells.layout_dxf), drawn faintly behind.
    underlay: list[Line] = []

    @property
    def view_box(self) -> str:
        return (
            f"{self.view_min_x:g} {self.view_min_y:g} "
            f"{self.view_width:g} {self.view_height:g}"
        )

    @property
    def grid_labels(self) -> list[Label]:
        """The grid's coordinates in mm (plan y, up), along the top edge for
        x and the left edge for y, so a point can be read off the plan."""
        size = self.font_mm * 0.75
        top, left = self.view_min_y + size * 1.1, self.view_min_x + size * 0.3
        labels = []
        for line in self.grid:
            if line.x1 == line.x2 and line.x1 > left + size * 2:
                labels.append(
                    Label(x=line.x1 + size * 0.25, y=top, text=f"{round(line.x1):,}")
                )
            elif line.y1 == line.y2 and line.y1 > top + size:
                labels.append(
                    Label(x=left, y=line.y1 - size * 0.25, text=f"{round(-line.y1):,}")
                )
        return labels


def segment_label(segment, index: int) -> str:
    """A guard segment's name on the plan: its label, else S and its number."""
    return segment.label or f"S{index + 1}"


def opening_label(opening, index: int) -> str:
    """An opening's name on the plan: its label, else O and its number along
    its segment."""
    return opening.label or f"O{index + 1}"


def _mm(value: float) -> str:
    return f"{round(value):,} mm"


def _nice_step(span_mm: float, target_count: int) -> int:
    """The smallest round step that divides ``span_mm`` into at most
    ``target_count`` parts. Past the table it grows tenfold, so a grid never
    has more than ``target_count`` + 1 lines a side, however wide the plan
    (a document keeps within 100 m; the drawing does not rely on it)."""
    for step in NICE_STEPS_MM:
        if span_mm / step <= target_count:
            return step
    step = NICE_STEPS_MM[-1]
    while span_mm / step > target_count:
        step *= 10
    return step


def _readable_angle(start: geometry.Point, end: geometry.Point) -> float:
    """Angle of the segment on screen, turned so text never reads upside down."""
    angle = math.degrees(math.atan2(-(end[1] - start[1]), end[0] - start[0]))
    if angle > 90:
        angle -= 180
    elif angle <= -90:
        angle += 180
    return angle


def _caption_point(
    start: geometry.Point, end: geometry.Point, centre: geometry.Point, gap_mm: float
) -> geometry.Point:
    """Midpoint of the segment pushed ``gap_mm`` away from the layout's centre."""
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    length = geometry.distance_mm(start, end)
    nx, ny = -(end[1] - start[1]) / length, (end[0] - start[0]) / length
    if (mid[0] - centre[0]) * nx + (mid[1] - centre[1]) * ny < 0:
        nx, ny = -nx, -ny
    return (mid[0] + nx * gap_mm, mid[1] + ny * gap_mm)


def element_key(kind: str, index: int, opening_index: int | None = None) -> str:
    """The key of a drawn element: its kind and position in the document."""
    if kind == "station":
        return f"t{index}"
    if kind == "device":
        return f"d{index}"
    return f"s{index}" if opening_index is None else f"s{index}o{opening_index}"


LINE_KINDS = frozenset({"light_curtain", "multibeam"})


def _placed_points(device: DeviceDoc) -> list[geometry.Point]:
    """The device's points on the plan, as far as its kind uses them and they
    are complete; none for a device that is not drawn."""
    first = (device.x1_mm, device.y1_mm)
    second = (device.x2_mm, device.y2_mm)
    if device.kind == "laser_scanner" and None not in first:
        return [(float(first[0]), float(first[1]))]
    if device.kind in LINE_KINDS | {"safety_mat"} and None not in (*first, *second):
        a = (float(first[0]), float(first[1]))
        b = (float(second[0]), float(second[1]))
        if device.kind in LINE_KINDS and a != b:
            return [a, b]
        if device.kind == "safety_mat" and a[0] != b[0] and a[1] != b[1]:
            return [a, b]
    return []


def _device_shapes(
    document: CellDocument, centre: geometry.Point, font: float
) -> tuple[list[CurtainShape], list[MatShape], list[ScannerShape]]:
    curtains: list[CurtainShape] = []
    mats: list[MatShape] = []
    scanners: list[ScannerShape] = []
    for index, device in enumerate(document.devices):
        points = _placed_points(device)
        common = {"index": index, "label": device.label, "kind": device.kind}
        if device.kind in LINE_KINDS and points:
            a, b = points
            lower, upper = device.detection_lower_mm, device.detection_upper_mm
            heights = f"{lower:,}–{upper:,} mm" if None not in (lower, upper) else ""
            # Inside the guard, beyond the caption of the opening it may stand in.
            cx, cy = _caption_point(a, b, centre, -font * 4.6)
            curtains.append(
                CurtainShape(
                    **common,
                    line=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                    caption=Label(
                        x=cx,
                        y=-cy,
                        text=device.label,
                        sub=heights,
                        rotate_deg=_readable_angle(a, b),
                    ),
                )
            )
        elif device.kind == "safety_mat" and points:
            (x1, y1), (x2, y2) = points
            width, depth = abs(x2 - x1), abs(y2 - y1)
            mid = ((x1 + x2) / 2, (y1 + y2) / 2)
            mats.append(
                MatShape(
                    **common,
                    x=min(x1, x2),
                    y=-max(y1, y2),
                    width=width,
                    height=depth,
                    caption=Label(
                        x=mid[0],
                        y=-mid[1],
                        text=device.label,
                        sub=f"{round(width):,} × {round(depth):,} mm",
                    ),
                )
            )
        elif device.kind == "laser_scanner" and points:
            ((x, y),) = points
            height = device.field_height_mm
            r = font * 0.9
            scanners.append(
                ScannerShape(
                    **common,
                    x=x,
                    y=-y,
                    radius=r,
                    marker=[
                        Line(x1=x - r, y1=-y, x2=x + r, y2=-y),
                        Line(x1=x, y1=-y - r, x2=x, y2=-y + r),
                    ],
                    caption=Label(
                        x=x,
                        y=-y + font * 2.2,
                        text=device.label,
                        sub=f"h {_mm(height)}" if height is not None else "",
                    ),
                )
            )
    return curtains, mats, scanners


# --- what the safety engineer checks first ----------------------------------------

Box = tuple[float, float, float, float]  # min x, min y, max x, max y on screen


def _text_box(label: Label, font: float) -> Box:
    """Roughly where a caption's text lies on screen, turned with it: wide
    enough for its longer line at about 0.58 em a character."""
    w = 0.58 * font * max(len(label.text), 0.85 * len(label.sub))
    h = font * (2.3 if label.sub else 1.2)
    a = math.radians(label.rotate_deg)
    half_w = (abs(math.cos(a)) * w + abs(math.sin(a)) * h) / 2
    half_h = (abs(math.sin(a)) * w + abs(math.cos(a)) * h) / 2
    return (label.x - half_w, label.y - half_h, label.x + half_w, label.y + half_h)


def _overlaps(box: Box, boxes: list[Box]) -> bool:
    return any(
        box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
        for b in boxes
    )


def _crosses(box: Box, lines: list[Line]) -> bool:
    """Whether any of the lines (on screen) passes through the box: each line
    clipped to the box's slab in x, then tested against its span in y."""
    x1, y1, x2, y2 = box
    for line in lines:
        (ax, ay), (bx, by) = (line.x1, line.y1), (line.x2, line.y2)
        t0, t1 = 0.0, 1.0
        for p, q in (
            (-(bx - ax), ax - x1),
            (bx - ax, x2 - ax),
            (-(by - ay), ay - y1),
            (by - ay, y2 - ay),
        ):
            if p == 0:
                if q < 0:
                    break
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
        else:
            if t0 <= t1:
                return True
    return False


def _crosses_circle(box: Box, circle: tuple[float, float, float]) -> bool:
    """Whether the circle's outline (on screen) passes through the box."""
    cx, cy, r = circle
    near_x, near_y = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    far_x = max(abs(cx - box[0]), abs(cx - box[2]))
    far_y = max(abs(cy - box[1]), abs(cy - box[3]))
    return math.hypot(cx - near_x, cy - near_y) <= r <= math.hypot(far_x, far_y)


class _Grid:
    """Boxes and lines on screen, filed by the square cells of side ``size``
    their extent covers, so that what may meet a box is looked up in the
    cells the box covers rather than in all of them: the same answers as
    ``_overlaps`` and ``_crosses`` over the whole list (two shapes that meet
    share a point, and that point's cell), in time that grows with the
    drawing rather than with its square."""

    def __init__(self, size: float, boxes=(), lines=()) -> None:
        self.size = size if size > 0 else 1.0
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.lines: dict[tuple[int, int], list[Line]] = {}
        for box in boxes:
            self.add_box(box)
        for line in lines:
            self.add_line(line)

    def _cells(self, x1: float, y1: float, x2: float, y2: float):
        s = self.size
        xs = range(math.floor(x1 / s), math.floor(x2 / s) + 1)
        return [
            (i, j)
            for i in xs
            for j in range(math.floor(y1 / s), math.floor(y2 / s) + 1)
        ]

    def add_box(self, box: Box) -> None:
        for cell in self._cells(*box):
            self.boxes.setdefault(cell, []).append(box)

    def add_line(self, line: Line) -> None:
        extent = (
            min(line.x1, line.x2),
            min(line.y1, line.y2),
            max(line.x1, line.x2),
            max(line.y1, line.y2),
        )
        for cell in self._cells(*extent):
            self.lines.setdefault(cell, []).append(line)

    def with_lines(self, lines) -> _Grid:
        """A grid of this one's lines and ``lines`` (no boxes)."""
        grid = _Grid(self.size)
        grid.lines = {cell: list(found) for cell, found in self.lines.items()}
        for line in lines:
            grid.add_line(line)
        return grid

    def overlaps(self, box: Box) -> bool:
        return any(
            _overlaps(box, self.boxes[cell])
            for cell in self._cells(*box)
            if cell in self.boxes
        )

    def covers(self, x: float, y: float) -> bool:
        """Whether a box holds the point (x, y) inside it: ``overlaps`` of
        the point's empty box, without the list of cells."""
        s = self.size
        found = self.boxes.get((math.floor(x / s), math.floor(y / s)))
        return found is not None and any(
            b[0] < x < b[2] and b[1] < y < b[3] for b in found
        )

    def crosses(self, box: Box) -> bool:
        return any(
            _crosses(box, self.lines[cell])
            for cell in self._cells(*box)
            if cell in self.lines
        )


def _free(
    box: Box,
    taken: _Grid,
    guards: _Grid,
    circles: Sequence[tuple[float, float, float]] = (),
) -> bool:
    return (
        not taken.overlaps(box)
        and not guards.crosses(box)
        and not any(_crosses_circle(box, c) for c in circles)
    )


def _unit(a: geometry.Point, b: geometry.Point) -> geometry.Point:
    length = geometry.distance_mm(a, b) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length


def _gap_shapes(
    result: perimeter.PerimeterResult,
    labels: DrawingLabels,
    centre: geometry.Point,
    font: float,
) -> list[GapShape]:
    gaps = []
    for index, gap in enumerate(result.gaps):
        a, b = gap.ends[0].point, gap.ends[1].point
        if geometry.distance_mm(a, b) > 0:
            # Outside the guarding, where a segment's caption would be.
            cx, cy = _caption_point(a, b, centre, font * 1.9)
            angle = _readable_angle(a, b)
        else:
            cx, cy, angle = a[0], a[1] + font * 1.9, 0.0
        text = (
            labels.gap_uncertain
            if gap.ambiguous
            else labels.gap % {"width": f"{round(gap.width_mm):,}"}
        )
        gaps.append(
            GapShape(
                index=index,
                line=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                width_mm=gap.width_mm,
                ambiguous=gap.ambiguous,
                caption=Label(x=cx, y=-cy, text=text, rotate_deg=angle),
            )
        )
    return gaps


def _reach_shape(
    result: perimeter.PerimeterResult,
    labels: DrawingLabels,
    font: float,
    taken: _Grid,
    guards: _Grid,
) -> ReachShape | None:
    where = drawing_perimeter.reach_past(result)
    reach_mm = result.enclosure.reach_past_mm
    if where is None or reach_mm is None:
        return None
    guard, far = where
    ux, uy = _unit(guard, far)
    text = labels.reach_past % {"reach": f"{round(reach_mm):,}"}
    # Beyond the zone's point, outwards, clear of it however the text lies;
    # slid sideways (along the guard) where that covers a caption or a guard.
    half_w = 0.58 * font * len(text) / 2
    push = font * 1.2 + abs(ux) * half_w + abs(uy) * font * 0.6
    first = None
    for slide in (0, 1, -1, 2, -2, 3, -3, 4, -4):
        x = far[0] + ux * push - uy * slide * font * 1.4
        y = far[1] + uy * push + ux * slide * font * 1.4
        caption = Label(x=x, y=-y, text=text)
        first = first or caption
        if _free(_text_box(caption, font), taken, guards):
            break
    else:
        caption = first
    x1, y1, x2, y2 = _text_box(caption, font)
    end = (min(max(far[0], x1), x2), min(max(-far[1], y1), y2))
    return ReachShape(
        line=Line(x1=guard[0], y1=-guard[1], x2=far[0], y2=-far[1]),
        reach_mm=reach_mm,
        dot_radius=round(font * 0.5, 1),
        leader=Line(x1=far[0], y1=-far[1], x2=end[0], y2=end[1]),
        caption=caption,
    )


def _anchor(document: CellDocument, device: DeviceDoc) -> geometry.Point | None:
    """Where the device is on the plan: the middle of where it is drawn, else
    of the opening it guards; None when neither is known."""
    points = _placed_points(device)
    if points:
        return (
            sum(p[0] for p in points) / len(points),
            sum(p[1] for p in points) / len(points),
        )
    ref = device.opening
    if ref is None or ref.segment >= len(document.guard_segments):
        return None
    seg = document.guard_segments[ref.segment]
    if ref.opening >= len(seg.openings):
        return None
    op = seg.openings[ref.opening]
    start, end = (seg.start.x_mm, seg.start.y_mm), (seg.end.x_mm, seg.end.y_mm)
    return geometry.point_along(start, end, op.offset_mm + op.width_mm / 2)


def _place_dimension(
    candidates: list[tuple[geometry.Point, geometry.Point]],
    probe: Label,
    font: float,
    taken: _Grid,
    guards: _Grid,
    circles: list[tuple[float, float, float]],
    outlined: _Grid,
) -> tuple[geometry.Point, geometry.Point, Label]:
    """Where to dimension S, nearest the device first: the dimension line from
    the zone out to S, its label beside it halfway along. The first place where
    the line crosses no caption and the label covers no caption and crosses
    no guard and no outline (of the zone or of any S); failing that, one where
    it may cross an outline; failing that, the first place."""
    box = _text_box(probe, font)
    w, h = box[2] - box[0], box[3] - box[1]
    places = []
    for outer, inner in candidates:
        ux, uy = _unit(inner, outer)
        mid = ((outer[0] + inner[0]) / 2, (outer[1] + inner[1]) / 2)
        aside = abs(uy) * w / 2 + abs(ux) * h / 2 + font * 0.5
        for side in (1, -1):
            x, y = mid[0] - uy * aside * side, mid[1] + ux * aside * side
            # The probe's box moved to the label's place (on screen).
            moved = (x + box[0], -y + box[1], x + box[2], -y + box[3])
            places.append((outer, inner, (x, -y), moved))
    # Whether a dimension line crosses no caption, worked out for a line
    # only when one of its places is looked at (most never are).
    clear: dict[tuple[geometry.Point, geometry.Point], bool] = {}

    def tick_clear(outer: geometry.Point, inner: geometry.Point) -> bool:
        found = clear.get((outer, inner))
        if found is None:
            (x0, y0), (x1, y1) = inner, outer
            found = clear[(outer, inner)] = not any(
                taken.covers(x0 + (x1 - x0) * t / 8, -(y0 + (y1 - y0) * t / 8))
                for t in range(9)
            )
        return found

    # ``outlined``: the guards and the outlines.
    strict = (outlined, circles)
    chosen = places[0]
    for lines, rings in (strict, (guards, ())):
        found = next(
            (
                place
                for place in places
                if tick_clear(place[0], place[1])
                and _free(place[3], taken, lines, rings)
            ),
            None,
        )
        if found is not None:
            chosen = found
            break
    outer, inner, (x, y), _box = chosen
    return outer, inner, probe.model_copy(update={"x": x, "y": y})


def _clearance_shapes(
    document: CellDocument,
    zone: perimeter.CircleZone | perimeter.PolygonZone,
    required: list[Requirement],
    labels: DrawingLabels,
    font: float,
    taken: _Grid,
    guards: _Grid,
) -> list[ClearanceShape]:
    """Each required distance round the zone, its label put where it covers
    no other caption (``taken`` grows with each one placed)."""
    # The outlines the labels keep off: the zone's and every S's, on screen.
    circles: list[tuple[float, float, float]] = []
    lines: list[Line] = []
    for distance in (0, *(req.required_mm for req in required)):
        if isinstance(zone, perimeter.CircleZone):
            (cx, cy), r = zone.centre, zone.radius_mm
            circles.append((cx, -cy, r + distance))
        else:
            points = (
                drawing_perimeter.offset_polygon(zone.points, distance)
                if distance
                else list(zone.points)
            )
            lines += [
                Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1])
                for a, b in zip(points, (*points[1:], points[0]), strict=True)
            ]
    outlined = guards.with_lines(lines)
    shapes = []
    for req in required:
        device = document.devices[req.device_index]
        circle, outline = drawing_perimeter.clearance_outline(zone, req.required_mm)
        text = labels.required % {"distance": f"{req.required_mm:,}"}
        candidates = drawing_perimeter.clearance_candidates(
            zone, req.required_mm, _anchor(document, device)
        )
        probe = Label(x=0, y=0, text=text, sub=device.label)
        chosen = _place_dimension(
            candidates, probe, font, taken, guards, circles, outlined
        )
        outer, inner, label = chosen
        taken.add_box(_text_box(label, font))
        shapes.append(
            ClearanceShape(
                device_index=req.device_index,
                label=device.label,
                required_mm=req.required_mm,
                status=req.status,
                circle=(circle[0], -circle[1], circle[2]) if circle else None,
                outline=[(x, -y) for x, y in outline],
                tick=Line(x1=inner[0], y1=-inner[1], x2=outer[0], y2=-outer[1]),
                caption=label,
            )
        )
    return shapes


def _usable(
    document: CellDocument, required: Sequence[Requirement]
) -> list[Requirement]:
    """The requirements of devices in the document, one per device (the
    largest), largest distance first so the outer lines are labelled first."""
    largest: dict[int, Requirement] = {}
    for req in required:
        if not 0 <= req.device_index < len(document.devices) or req.required_mm <= 0:
            continue
        kept = largest.get(req.device_index)
        if kept is None or req.required_mm > kept.required_mm:
            largest[req.device_index] = req
    return sorted(largest.values(), key=lambda r: (-r.required_mm, r.device_index))


def _hazard_circle_parts(
    document: CellDocument,
    base: geometry.Point,
    radius: float,
    labels: DrawingLabels,
    font: float,
    use_polygon: bool,
) -> tuple[Label | None, list[Ring]]:
    """The hazard circle's caption (its radius, and what it is made of where it
    is the robot's maximum space) and the rings inside it."""
    if use_polygon:
        return None, []
    label = Label(
        x=base[0], y=-(base[1] + radius) + font * 1.6, text=f"r {_mm(radius)}"
    )
    robot = document.robot
    if document.hazard_zone.radius_mm or not (
        robot.end_effector_mm or robot.workpiece_mm
    ):
        return label, []
    # Under the robot's base, where the circle is free of the guards' captions.
    label = label.model_copy(
        update={
            "y": -base[1] + font * 3,
            "sub": labels.zone_sum
            % {
                "reach": f"{robot.reach_mm:,}",
                "tool": f"{robot.end_effector_mm:,}",
                "workpiece": f"{robot.workpiece_mm:,}",
            },
        }
    )
    rings = [Ring(radius=float(robot.reach_mm), title=labels.ring_reach)]
    if robot.end_effector_mm and robot.workpiece_mm:
        rings.append(
            Ring(
                radius=float(robot.reach_mm + robot.end_effector_mm),
                title=labels.ring_tool,
            )
        )
    return label, rings


def layout_drawing(
    document: CellDocument,
    *,
    labels: DrawingLabels | None = None,
    required: Sequence[Requirement] = (),
    underlay: Sequence[Sequence[float]] = (),
) -> Drawing:
    """The plan of ``document``. ``labels``: the words drawn, translated;
    ``required``: the devices' required minimum distances, drawn round the
    hazard zone; ``underlay``: lines [x1, y1, x2, y2] of an imported drawing,
    drawn behind the plan (the view holds them too)."""
    labels = labels or DrawingLabels()
    result = drawing_perimeter.analyse(document)
    # Without an analysable zone (a polygon that crosses itself) there is no
    # distance to draw round it.
    wanted = _usable(document, required) if result is not None else []
    base = (float(document.robot_base.x_mm), float(document.robot_base.y_mm))
    zone = document.hazard_zone
    # The radius given, else the robot's maximum space (reach, tool, workpiece).
    radius = float(document.hazard_zone_radius_mm)
    polygon = [(float(x), float(y)) for x, y in zone.polygon_mm]
    use_polygon = zone.shape == "polygon" and len(polygon) >= 3

    extent_points: list[geometry.Point] = [base]
    if use_polygon:
        extent_points += polygon
    else:
        extent_points += [(base[0] - radius, base[1] - radius)]
        extent_points += [(base[0] + radius, base[1] + radius)]
    for seg in document.guard_segments:
        extent_points += [
            (seg.start.x_mm, seg.start.y_mm),
            (seg.end.x_mm, seg.end.y_mm),
        ]
    extent_points += [(s.x_mm, s.y_mm) for s in document.operator_stations]
    for device in document.devices:
        extent_points += _placed_points(device)
    for x1, y1, x2, y2 in underlay:
        extent_points += [(x1, y1), (x2, y2)]
    if result is not None:
        for req in wanted:
            circle, outline = drawing_perimeter.clearance_outline(
                result.zone, req.required_mm
            )
            if circle is not None:
                cx, cy, r = circle
                extent_points += [(cx - r, cy - r), (cx + r, cy + r)]
            extent_points += outline
    min_x, min_y, max_x, max_y = geometry.bounding_box(extent_points)
    span = max(max_x - min_x, max_y - min_y, 1000.0)
    font = span / 45
    margin = span * 0.12 + font * 3
    centre = ((min_x + max_x) / 2, (min_y + max_y) / 2)

    view_min_x, view_max_x = min_x - margin, max_x + margin
    view_min_y, view_max_y = -(max_y + margin), -(min_y - margin) + font * 3

    segments: list[SegmentShape] = []
    openings: list[OpeningShape] = []
    for s_index, seg in enumerate(document.guard_segments):
        start = (float(seg.start.x_mm), float(seg.start.y_mm))
        end = (float(seg.end.x_mm), float(seg.end.y_mm))
        length = geometry.distance_mm(start, end)
        cuts = sorted((o.offset_mm, o.offset_mm + o.width_mm) for o in seg.openings)
        pieces, cursor = [], 0.0
        for cut_start, cut_end in [*cuts, (length, length)]:
            if cut_start > cursor:
                a = geometry.point_along(start, end, cursor)
                b = geometry.point_along(start, end, min(cut_start, length))
                pieces.append(Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]))
            cursor = max(cursor, cut_end)
        label = segment_label(seg, s_index)
        cx, cy = _caption_point(start, end, centre, font * 1.9)
        segments.append(
            SegmentShape(
                index=s_index,
                label=label,
                kind=seg.kind,
                pieces=pieces,
                caption=Label(
                    x=cx,
                    y=-cy,
                    text=f"{label} · {_mm(length)}",
                    sub=f"h {_mm(seg.height_mm)}",
                    rotate_deg=_readable_angle(start, end),
                ),
            )
        )
        for o_index, op in enumerate(seg.openings):
            a = geometry.point_along(start, end, op.offset_mm)
            b = geometry.point_along(start, end, op.offset_mm + op.width_mm)
            ix, iy = _caption_point(a, b, centre, -font * 2.1)
            openings.append(
                OpeningShape(
                    segment_index=s_index,
                    index=o_index,
                    label=opening_label(op, o_index),
                    purpose=op.purpose,
                    gap=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                    caption=Label(
                        x=ix,
                        y=-iy,
                        text=f"{opening_label(op, o_index)} · {_mm(op.width_mm)}",
                        sub=f"{op.lower_edge_mm:,}–{op.upper_edge_mm:,} mm",
                        rotate_deg=_readable_angle(start, end),
                    ),
                )
            )

    guard_boxes = [_text_box(shape.caption, font) for shape in (*segments, *openings)]
    stations = []
    for i, st in enumerate(document.operator_stations):
        # Under the station, or over it where a guard's caption is under it.
        # (The text stands on its baseline: its middle is 0.35 em higher.)
        caption = Label(x=st.x_mm, y=-st.y_mm + font * 2.2, text=st.label)
        middle = caption.model_copy(update={"y": caption.y - font * 0.35})
        if _overlaps(_text_box(middle, font), guard_boxes):
            caption = caption.model_copy(update={"y": -st.y_mm - font * 1.5})
        stations.append(
            StationShape(
                index=i, label=st.label, x=st.x_mm, y=-st.y_mm, caption=caption
            )
        )
    curtains, mats, scanners = _device_shapes(document, centre, font)
    hazard_label, rings = _hazard_circle_parts(
        document, base, radius, labels, font, use_polygon
    )
    gaps: list[GapShape] = []
    reach = None
    clearances: list[ClearanceShape] = []
    if result is not None:
        gaps = _gap_shapes(result, labels, centre, font)
        captions = [
            *(s.caption for s in segments),
            *(o.caption for o in openings),
            *(d.caption for d in (*curtains, *mats, *scanners)),
            *(t.caption for t in stations),
            *(g.caption for g in gaps),
            *([hazard_label] if hazard_label else []),
        ]
        # Filed by where they are: cells of about a caption's height.
        taken = _Grid(font * 2, boxes=(_text_box(c, font) for c in captions))
        guards = _Grid(
            font * 2, lines=(piece for seg in segments for piece in seg.pieces)
        )
        reach = _reach_shape(result, labels, font, taken, guards)
        if reach is not None:
            taken.add_box(_text_box(reach.caption, font))
        clearances = _clearance_shapes(
            document, result.zone, wanted, labels, font, taken, guards
        )
        # The view grows to hold these labels whole.
        for caption in [
            *(g.caption for g in gaps),
            *([reach.caption] if reach else []),
            *(c.caption for c in clearances),
        ]:
            x1, y1, x2, y2 = _text_box(caption, font)
            pad = font * 0.5
            view_min_x, view_max_x = (
                min(view_min_x, x1 - pad),
                max(view_max_x, x2 + pad),
            )
            view_min_y = min(view_min_y, y1 - pad)
            view_max_y = max(view_max_y, y2 + font * 3)  # the scale bar below

    view_span = max(view_max_x - view_min_x, view_max_y - view_min_y - font * 3)
    step = _nice_step(view_span, MAX_GRID_LINES)
    grid = [
        Line(x1=x, y1=view_min_y, x2=x, y2=view_max_y)
        for x in range(
            math.ceil(view_min_x / step) * step, math.floor(view_max_x) + 1, step
        )
    ] + [
        Line(x1=view_min_x, y1=y, x2=view_max_x, y2=y)
        for y in range(
            math.ceil(view_min_y / step) * step, math.floor(view_max_y) + 1, step
        )
    ]

    bar_mm = _nice_step(span, 4)
    bar_y = view_max_y - font * 1.5
    bar_x = view_min_x + font * 2
    scale_bar = Line(x1=bar_x, y1=bar_y, x2=bar_x + bar_mm, y2=bar_y)
    scale_label = Label(x=bar_x + bar_mm / 2, y=bar_y - font * 0.6, text=_mm(bar_mm))

    return Drawing(
        view_min_x=round(view_min_x, 1),
        view_min_y=round(view_min_y, 1),
        view_width=round(view_max_x - view_min_x, 1),
        view_height=round(view_max_y - view_min_y, 1),
        font_mm=round(font, 1),
        grid_step_mm=step,
        grid=grid,
        scale_bar=scale_bar,
        scale_bar_label=scale_label,
        hazard_circle=None if use_polygon else (base[0], -base[1], radius),
        hazard_polygon=" ".join(f"{x:g},{-y:g}" for x, y in polygon)
        if use_polygon
        else "",
        hazard_label=hazard_label,
        hazard_rings=rings,
        robot_base=(base[0], -base[1]),
        segments=segments,
        openings=openings,
        stations=stations,
        curtains=curtains,
        mats=mats,
        scanners=scanners,
        gaps=gaps,
        reach=reach,
        clearances=clearances,
        underlay=[Line(x1=x1, y1=-y1, x2=x2, y2=-y2) for x1, y1, x2, y2 in underlay],
    )
