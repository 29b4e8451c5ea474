"""What a safety engineer checks first, drawn (from ``cells.drawing_perimeter``):
every unguarded gap of the perimeter, where the hazard zone reaches past the
guarding, and each device's required minimum distance S round the hazard zone,
each with its caption put where it covers no other."""

from __future__ import annotations

from collections.abc import Sequence

from cells import drawing_perimeter, geometry, perimeter
from cells.drawing.devices import _placed_points
from cells.drawing.labels import (
    _caption_point,
    _free,
    _Grid,
    _readable_angle,
    _text_box,
)
from cells.drawing.primitives import (
    ClearanceShape,
    DrawingLabels,
    GapShape,
    Label,
    Line,
    ReachShape,
    Requirement,
)
from cells.exchange import CellDocument, DeviceDoc


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
