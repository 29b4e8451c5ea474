"""Plane geometry of a cell layout, in millimetres. Pure Python, no Django.

Used to validate layouts (segment lengths, openings along a segment, hazard-zone
polygons) and to draw them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]


def distance_mm(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def point_along(start: Point, end: Point, offset_mm: float) -> Point:
    """The point ``offset_mm`` from ``start`` towards ``end``."""
    length = distance_mm(start, end)
    if length == 0:
        return start
    t = offset_mm / length
    return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)


def overlapping_intervals(
    intervals: Sequence[tuple[float, float]],
) -> list[tuple[int, int]]:
    """Index pairs of half-open intervals [start, end) that overlap.

    Intervals that only touch (one ends where the next starts) do not overlap.
    """
    order = sorted(range(len(intervals)), key=lambda i: intervals[i][0])
    pairs = []
    for pos, i in enumerate(order):
        for j in order[pos + 1 :]:
            if intervals[j][0] >= intervals[i][1]:
                break
            pairs.append((min(i, j), max(i, j)))
    return pairs


def polygon_area_mm2(points: Sequence[Point]) -> float:
    """Unsigned area by the shoelace formula."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(points, [*points[1:], points[0]], strict=True):
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def _orientation(a: Point, b: Point, c: Point) -> int:
    cross = (b[1] - a[1]) * (c[0] - b[0]) - (b[0] - a[0]) * (c[1] - b[1])
    return 0 if cross == 0 else (1 if cross > 0 else 2)


def _on_segment(a: Point, b: Point, c: Point) -> bool:
    return min(a[0], c[0]) <= b[0] <= max(a[0], c[0]) and min(a[1], c[1]) <= b[
        1
    ] <= max(a[1], c[1])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    o1, o2 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    o3, o4 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(p1, q1, p2))
        or (o2 == 0 and _on_segment(p1, q2, p2))
        or (o3 == 0 and _on_segment(q1, p1, q2))
        or (o4 == 0 and _on_segment(q1, p2, q2))
    )


def polygon_self_intersects(points: Sequence[Point]) -> bool:
    """True when two non-adjacent edges of the closed polygon cross or touch."""
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # neighbours share a vertex by construction
            if segments_intersect(*edges[i], *edges[j]):
                return True
    return False


def polygon_problem(points: Sequence[Point]) -> str | None:
    """Why ``points`` is not a usable zone outline, or None when it is."""
    if len(points) < 3:
        return "too_few_points"
    if len(set(points)) != len(points):
        return "repeated_point"
    if polygon_self_intersects(points):
        return "self_intersecting"
    if polygon_area_mm2(points) == 0:
        return "zero_area"
    return None


def bounding_box(points: Sequence[Point]) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of the points."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Shortest distance from point ``p`` to the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length_sq = dx * dx + dy * dy
    if length_sq == 0:
        return distance_mm(p, a)
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length_sq))
    return distance_mm(p, (a[0] + t * dx, a[1] + t * dy))


def segment_segment_distance(a1: Point, a2: Point, b1: Point, b2: Point) -> float:
    if segments_intersect(a1, a2, b1, b2):
        return 0.0
    return min(
        point_segment_distance(a1, b1, b2),
        point_segment_distance(a2, b1, b2),
        point_segment_distance(b1, a1, a2),
        point_segment_distance(b2, a1, a2),
    )


def point_in_polygon(p: Point, polygon: Sequence[Point]) -> bool:
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]):
            x_cross = x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1)
            if p[0] < x_cross:
                inside = not inside
    return inside


def distance_to_circle(a: Point, b: Point, centre: Point, radius: float) -> float:
    """Horizontal distance from the segment a–b to a circular zone (0 if it enters)."""
    return max(0.0, point_segment_distance(centre, a, b) - radius)


def distance_to_polygon(a: Point, b: Point, polygon: Sequence[Point]) -> float:
    """Horizontal distance from the segment a–b to a polygonal zone (0 if it enters)."""
    if point_in_polygon(a, polygon) or point_in_polygon(b, polygon):
        return 0.0
    n = len(polygon)
    return min(
        segment_segment_distance(a, b, polygon[i], polygon[(i + 1) % n])
        for i in range(n)
    )
