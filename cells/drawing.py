"""The plan drawing of a cell: what to draw where, in millimetres.

Pure Python with pydantic, no Django. ``layout_drawing`` turns a cell's exchange
document into primitives (lines, gaps, circles, labels) that a template renders
as inline SVG. Placed devices are drawn too: a light curtain or grid as its
detection line, a safety mat as its rectangle, a laser scanner as a marked
point. Labels are plain text here; whoever renders them escapes them. Plan y points up as on a drawing; SVG y points down, so every
plan point (x, y) is drawn at (x, -y).
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from cells import geometry
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
    robot_base: tuple[float, float]
    segments: list[SegmentShape]
    openings: list[OpeningShape]
    stations: list[StationShape]
    curtains: list[CurtainShape] = []
    mats: list[MatShape] = []
    scanners: list[ScannerShape] = []

    @property
    def view_box(self) -> str:
        return (
            f"{self.view_min_x:g} {self.view_min_y:g} "
            f"{self.view_width:g} {self.view_height:g}"
        )


def _mm(value: float) -> str:
    return f"{round(value):,} mm"


def _nice_step(span_mm: float, target_count: int) -> int:
    for step in NICE_STEPS_MM:
        if span_mm / step <= target_count:
            return step
    return NICE_STEPS_MM[-1]


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
            cx, cy = _caption_point(a, b, centre, -font * 4.2)
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


def layout_drawing(document: CellDocument) -> Drawing:
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
    min_x, min_y, max_x, max_y = geometry.bounding_box(extent_points)
    span = max(max_x - min_x, max_y - min_y, 1000.0)
    font = span / 45
    margin = span * 0.12 + font * 3
    centre = ((min_x + max_x) / 2, (min_y + max_y) / 2)

    view_min_x, view_max_x = min_x - margin, max_x + margin
    view_min_y, view_max_y = -(max_y + margin), -(min_y - margin) + font * 3

    step = _nice_step(span + 2 * margin, MAX_GRID_LINES)
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
        label = seg.label or f"S{s_index + 1}"
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
                    label=op.label or f"O{o_index + 1}",
                    purpose=op.purpose,
                    gap=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                    caption=Label(
                        x=ix,
                        y=-iy,
                        text=f"{op.label or f'O{o_index + 1}'} · {_mm(op.width_mm)}",
                        sub=f"{op.lower_edge_mm:,}–{op.upper_edge_mm:,} mm",
                        rotate_deg=_readable_angle(start, end),
                    ),
                )
            )

    stations = [
        StationShape(
            index=i,
            label=st.label,
            x=st.x_mm,
            y=-st.y_mm,
            caption=Label(x=st.x_mm, y=-st.y_mm + font * 2.2, text=st.label),
        )
        for i, st in enumerate(document.operator_stations)
    ]
    curtains, mats, scanners = _device_shapes(document, centre, font)
    hazard_label = (
        None
        if use_polygon
        else Label(
            x=base[0], y=-(base[1] + radius) + font * 1.6, text=f"r {_mm(radius)}"
        )
    )

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
        robot_base=(base[0], -base[1]),
        segments=segments,
        openings=openings,
        stations=stations,
        curtains=curtains,
        mats=mats,
        scanners=scanners,
    )
