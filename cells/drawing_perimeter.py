"""The geometry the plan drawing shows beyond the drawn elements: where the
perimeter is open, where the hazard zone reaches past the guarding, and the
minimum distance S around the zone. Pure Python with pydantic, no Django.

The plan's ``Layout`` comes from ``perimeter.plan_layout`` and its analysis
from ``perimeter.analysed``, as the rules take theirs: a drawing of a saved
cell is handed the rules' own analysis (``cells.selectors.plan_of``); one of
a document alone (an import being previewed) builds it from the document,
keyed by place instead of by id.

Plan coordinates throughout: millimetres, y pointing up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import ValidationError

from cells import geometry, perimeter
from cells.exchange import CellDocument

Point = tuple[float, float]

# A circle's outline is sampled this finely to find where it reaches furthest
# past a loop, then refined round the best sample.
CIRCLE_SAMPLES = 360
REFINE_SAMPLES = 24
# Sampling of a polygon zone's edges for the same search.
EDGE_SAMPLES = 16
# Arcs of an offset outline are drawn as chords no longer than this angle.
ARC_STEP_DEG = 10.0


def hazard_zone(document: CellDocument) -> perimeter.CircleZone | perimeter.PolygonZone:
    """The robot's maximum space: the drawn polygon, or the circle its reach,
    end effector and workpiece sweep round its base (``perimeter.hazard_zone``,
    as ``cell_facts`` builds it from the rows)."""
    zone, base = document.hazard_zone, document.robot_base
    return perimeter.hazard_zone(
        shape=zone.shape,
        polygon_mm=zone.polygon_mm,
        centre_mm=(base.x_mm, base.y_mm),
        radius_mm=document.hazard_zone_radius_mm,
        lower_mm=zone.lower_mm,
        upper_mm=zone.height_mm,
    )


def perimeter_layout(document: CellDocument) -> perimeter.Layout | None:
    """The plan of an exchange document as ``cells.perimeter`` analyses it
    (``perimeter.plan_layout``, as for the rows), its elements keyed by their
    place in the document; None when its geometry cannot be analysed (a
    hazard polygon that crosses itself)."""
    try:
        return perimeter.plan_layout(
            hazard_zone(document),
            (
                perimeter.PlanSegment(
                    key=f"segment:{s_index:05d}",
                    start=(seg.start.x_mm, seg.start.y_mm),
                    end=(seg.end.x_mm, seg.end.y_mm),
                    height_mm=seg.height_mm,
                    bottom_gap_mm=seg.bottom_gap_mm,
                    kind=seg.kind,
                    openings=[
                        perimeter.PlanOpening(
                            key=f"opening:{s_index:05d}.{o_index:03d}",
                            offset_mm=op.offset_mm,
                            width_mm=op.width_mm,
                            lower_edge_mm=op.lower_edge_mm,
                            upper_edge_mm=op.upper_edge_mm,
                        )
                        for o_index, op in enumerate(seg.openings)
                    ],
                )
                for s_index, seg in enumerate(document.guard_segments)
            ),
        )
    except (ValidationError, ValueError):
        return None


def analyse(document: CellDocument) -> perimeter.PerimeterResult | None:
    """The perimeter of the document's plan (``perimeter.analysed``), or None."""
    layout = perimeter_layout(document)
    return perimeter.analysed(layout) if layout is not None else None


def nearest_on_outline(p: Point, outline: Sequence[Point]) -> Point:
    """The point of the closed outline nearest to ``p``."""
    best, best_d = outline[0], math.inf
    n = len(outline)
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length_sq = dx * dx + dy * dy
        t = 0.0
        if length_sq:
            t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length_sq
            t = max(0.0, min(1.0, t))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = geometry.squared_distance_mm2(p, q)
        if d < best_d:
            best, best_d = q, d
    return best


def _past(p: Point, outline: Sequence[Point]) -> float:
    """How far ``p`` lies outside the area the outline winds round."""
    if geometry.winding_number(p, outline):
        return 0.0
    return geometry.outline_distance(p, outline)


def reach_past(result: perimeter.PerimeterResult) -> tuple[Point, Point] | None:
    """Where the hazard zone reaches furthest past the guarding that it
    crosses: (the nearest point of the guard's outline, the zone's point), or
    None when it crosses none. The figure to print is the analysis's own
    ``enclosure.reach_past_mm``; this only finds where to mark it, by
    sampling the zone's outline (within a few hundredths of a millimetre for
    the circle)."""
    enclosure = result.enclosure
    if enclosure.reason != "zone_crosses_perimeter" or enclosure.loop_key is None:
        return None
    loop = next((lp for lp in result.loops if lp.key == enclosure.loop_key), None)
    if loop is None or len(loop.points) < 3:
        return None
    outline = loop.points
    zone = result.zone
    if isinstance(zone, perimeter.CircleZone):
        (cx, cy), r = zone.centre, zone.radius_mm

        def at(angle: float) -> Point:
            return (cx + r * math.cos(angle), cy + r * math.sin(angle))

        step = 2 * math.pi / CIRCLE_SAMPLES
        best = max(range(CIRCLE_SAMPLES), key=lambda i: _past(at(i * step), outline))
        angles = [
            (best + (j / REFINE_SAMPLES - 0.5) * 2) * step
            for j in range(REFINE_SAMPLES + 1)
        ]
        candidates = [at(a) for a in angles]
    else:
        points = zone.points
        candidates = [
            geometry.point_along(a, b, geometry.distance_mm(a, b) * k / EDGE_SAMPLES)
            for a, b in zip(points, (*points[1:], points[0]), strict=True)
            for k in range(EDGE_SAMPLES)
        ]
    far = max(candidates, key=lambda p: _past(p, outline))
    if _past(far, outline) <= perimeter.CONTACT_MM:
        return None  # it only touches: nothing to point at
    return nearest_on_outline(far, outline), far


def _arc(centre: Point, radius: float, start: float, sweep: float) -> list[Point]:
    """Points of an arc from angle ``start`` through ``sweep`` (radians,
    anticlockwise), ends included."""
    steps = max(1, math.ceil(abs(math.degrees(sweep)) / ARC_STEP_DEG))
    return [
        (
            centre[0] + radius * math.cos(start + sweep * i / steps),
            centre[1] + radius * math.sin(start + sweep * i / steps),
        )
        for i in range(steps + 1)
    ]


def offset_polygon(points: Sequence[Point], distance_mm: float) -> list[Point]:
    """The outline of everything within ``distance_mm`` of a simple polygon:
    each edge pushed out by the distance, joined round each convex corner by
    an arc and at each reflex corner where the two pushed edges meet.

    Exact for a convex polygon. For a concave one it is an approximation: a
    pocket narrower than twice the distance would close up, and the outline
    drawn there folds over itself instead of filling it."""
    pts = list(points)
    if geometry.signed_area_mm2(pts) < 0:
        pts.reverse()  # anticlockwise, so the outward normal is to the right
    n = len(pts)
    normals = []
    for i in range(n):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        normals.append(((y2 - y1) / length, -(x2 - x1) / length))
    outline: list[Point] = []
    for i in range(n):
        corner = pts[i]
        before, after = normals[i - 1], normals[i]
        a_in = math.atan2(before[1], before[0])
        a_out = math.atan2(after[1], after[0])
        turn = (a_out - a_in + math.pi) % (2 * math.pi) - math.pi
        if turn >= 0:  # convex (or straight): round the corner
            outline += _arc(corner, distance_mm, a_in, turn)
        else:  # reflex: where the two pushed edges cross
            half = turn / 2
            mid = a_in + half
            reach = distance_mm / max(math.cos(half), 1e-6)
            outline.append(
                (corner[0] + reach * math.cos(mid), corner[1] + reach * math.sin(mid))
            )
    return outline


def clearance_outline(
    zone: perimeter.CircleZone | perimeter.PolygonZone, distance_mm: float
) -> tuple[tuple[float, float, float] | None, list[Point]]:
    """The outline ``distance_mm`` out from the zone: (cx, cy, r) of a circle
    round a circular zone, or the offset outline of a polygon zone."""
    if isinstance(zone, perimeter.CircleZone):
        (cx, cy), r = zone.centre, zone.radius_mm
        return (cx, cy, r + distance_mm), []
    return None, offset_polygon(zone.points, distance_mm)


def clearance_candidates(
    zone: perimeter.CircleZone | perimeter.PolygonZone,
    distance_mm: float,
    anchor: Point | None,
    *,
    step_deg: float = 6.0,
) -> list[tuple[Point, Point]]:
    """Places to dimension the distance, nearest the anchor (the device) first:
    (a point on the outline ``distance_mm`` out, the nearest point of the
    zone). With no anchor, from the top of the plan."""
    if isinstance(zone, perimeter.CircleZone):
        (cx, cy), r = zone.centre, zone.radius_mm
        if anchor is None or anchor == (cx, cy):
            base = math.pi / 2
        else:
            base = math.atan2(anchor[1] - cy, anchor[0] - cx)
        turns = [0.0]
        for k in range(1, int(180 / step_deg) + 1):
            turns += [k * step_deg, -k * step_deg]
        pairs = []
        for turn in turns:
            a = base + math.radians(turn)
            ux, uy = math.cos(a), math.sin(a)
            outer = (cx + (r + distance_mm) * ux, cy + (r + distance_mm) * uy)
            pairs.append((outer, (cx + r * ux, cy + r * uy)))
        return pairs
    _circle, corners = clearance_outline(zone, distance_mm)
    outline = [
        geometry.point_along(a, b, geometry.distance_mm(a, b) * k / EDGE_SAMPLES)
        for a, b in zip(corners, (*corners[1:], corners[0]), strict=True)
        for k in range(EDGE_SAMPLES)
    ]
    if anchor is None:
        ordered = sorted(outline, key=lambda p: -p[1])
    else:
        ordered = sorted(
            outline, key=lambda p: geometry.squared_distance_mm2(p, anchor)
        )
    return [(p, nearest_on_outline(p, zone.points)) for p in ordered[:120]]
