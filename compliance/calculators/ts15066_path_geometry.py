"""Plan geometry for judging a robot program's path (``ts15066_path``).

Distances on the cell's plan, in mm, between a path segment (its start and end
projected on the plan: z is dropped), a point (an operator's station), a line
segment (a guard, a machine body, a wall) and a protective field's boundary (a
polygon or a circle). Plain floats, no models: the path calculator calls these
a few times per segment for programs of up to 200,000 segments. Pure Python,
no Django; no figure from a standard lives here.
"""

from __future__ import annotations

import math

Point = tuple[float, float]


def point_segment_distance(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """Distance from the point P to the segment AB (A when AB is a point)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / length2
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def _orientation(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float
) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _within(a: float, b: float, c: float) -> bool:
    return min(a, b) <= c <= max(a, b)


def segments_intersect(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    dx: float,
    dy: float,
) -> bool:
    """Whether the segments AB and CD meet (touching counts)."""
    o1 = _orientation(ax, ay, bx, by, cx, cy)
    o2 = _orientation(ax, ay, bx, by, dx, dy)
    o3 = _orientation(cx, cy, dx, dy, ax, ay)
    o4 = _orientation(cx, cy, dx, dy, bx, by)
    if ((o1 > 0 and o2 < 0) or (o1 < 0 and o2 > 0)) and (
        (o3 > 0 and o4 < 0) or (o3 < 0 and o4 > 0)
    ):
        return True
    # Collinear or touching: an end lies on the other segment.
    return (
        (o1 == 0 and _within(ax, bx, cx) and _within(ay, by, cy))
        or (o2 == 0 and _within(ax, bx, dx) and _within(ay, by, dy))
        or (o3 == 0 and _within(cx, dx, ax) and _within(cy, dy, ay))
        or (o4 == 0 and _within(cx, dx, bx) and _within(cy, dy, by))
    )


def segment_segment_distance(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    dx: float,
    dy: float,
) -> float:
    """Shortest distance between the segments AB and CD (0 where they meet)."""
    if segments_intersect(ax, ay, bx, by, cx, cy, dx, dy):
        return 0.0
    return min(
        point_segment_distance(ax, ay, cx, cy, dx, dy),
        point_segment_distance(bx, by, cx, cy, dx, dy),
        point_segment_distance(cx, cy, ax, ay, bx, by),
        point_segment_distance(dx, dy, ax, ay, bx, by),
    )


def point_in_polygon(px: float, py: float, polygon: tuple[Point, ...]) -> bool:
    """Whether P lies inside the polygon (even-odd rule; the boundary is the
    caller's concern)."""
    inside = False
    count = len(polygon)
    for i in range(count):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % count]
        if (y1 > py) != (y2 > py):
            x_cross = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if px < x_cross:
                inside = not inside
    return inside


def depth_inside_polygon(
    ax: float, ay: float, bx: float, by: float, polygon: tuple[Point, ...]
) -> float | None:
    """How far the segment AB keeps from the polygon's boundary while wholly
    inside it: the least distance from AB to any edge. None where AB is outside,
    crosses or touches the boundary."""
    least = math.inf
    for i, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[i - 1]
        if segments_intersect(ax, ay, bx, by, x1, y1, x2, y2):
            return None
        # Edges that do not meet AB: their least distance is from an end of
        # one to the other; each corner is measured to AB once, as x1, y1.
        least = min(
            least,
            point_segment_distance(ax, ay, x1, y1, x2, y2),
            point_segment_distance(bx, by, x1, y1, x2, y2),
            point_segment_distance(x1, y1, ax, ay, bx, by),
        )
    # No edge is met, so AB lies on one side of the boundary: its start says which.
    return least if point_in_polygon(ax, ay, polygon) else None


def depth_inside_circle(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    radius: float,
) -> float | None:
    """How far the segment AB keeps from the circle's boundary while wholly
    inside it (a disc is convex: the farther end is the nearest to the
    boundary). None where AB reaches the boundary or beyond."""
    depth = radius - max(math.hypot(ax - cx, ay - cy), math.hypot(bx - cx, by - cy))
    return depth if depth > 0 else None
