"""Plane geometry of a cell layout, in millimetres. Pure Python, no Django.

Used to validate layouts (segment lengths, openings along a segment, hazard-zone
polygons) and to draw them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

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
    """True when two non-adjacent edges of the closed polygon cross or touch.

    A sweep from left to right (Shamos and Hoey), n log n comparisons: an
    edge is compared only with its neighbours above and below as the sweep
    meets it, and two edges become neighbours when one between them ends.
    The first crossing is always found so, because just before it the two
    edges are neighbours. Exact for whole millimetres (every test is a sign
    of products of differences of coordinates).

    The corners must be distinct (``polygon_problem`` checks that first); a
    repeated corner counts as touching.
    """
    n = len(points)
    if n < 4:
        return False  # every pair of a triangle's edges are neighbours
    if len(set(points)) != n:
        return True
    # Each edge from its left end to its right end (lower end when vertical).
    left: list[Point] = []
    right: list[Point] = []
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        left.append(min(a, b))
        right.append(max(a, b))

    def adjacent(i: int, j: int) -> bool:
        return (i - j) % n in (1, n - 1)

    def meet(i: int, j: int) -> bool:
        """Whether edges i and j, now neighbours in the sweep, meet where
        they must not: anywhere for non-adjacent edges; beyond their shared
        corner, folded back along one line, for adjacent ones (which with
        four or more corners always touches a third edge too)."""
        if not adjacent(i, j):
            return segments_intersect(left[i], right[i], left[j], right[j])
        shared = {left[i], right[i]} & {left[j], right[j]}
        (corner,) = shared
        far_i = right[i] if left[i] == corner else left[i]
        far_j = right[j] if left[j] == corner else left[j]
        return (
            _orientation(corner, far_i, far_j) == 0
            and (
                (far_i[0] - corner[0]) * (far_j[0] - corner[0])
                + (far_i[1] - corner[1]) * (far_j[1] - corner[1])
            )
            > 0
        )

    def below(p: Point, i: int) -> bool:
        """Whether ``p`` lies strictly below edge i (which spans p's x)."""
        return _cross(left[i], right[i], p) < 0

    # Events in sweep order; at one point, edges end before others start.
    events = sorted(
        [(left[i], 1, i) for i in range(n)] + [(right[i], 0, i) for i in range(n)]
    )
    active: list[int] = []  # the edges the sweep line crosses, bottom to top
    for p, starts, i in events:
        if not starts:
            k = active.index(i)
            if 0 < k < len(active) - 1 and meet(active[k - 1], active[k + 1]):
                return True
            del active[k]
            continue
        # The first edge that p is not above: an edge through p comes first.
        lo, hi = 0, len(active)
        while lo < hi:
            mid = (lo + hi) // 2
            j = active[mid]
            if below(p, j) or _cross(left[j], right[j], p) == 0:
                hi = mid
            else:
                lo = mid + 1
        if lo < len(active):
            j = active[lo]
            if _cross(left[j], right[j], p) == 0:
                # p lies on edge j: the other edge from this corner, just
                # inserted, goes below or above it by its far end; any other
                # edge through p touches this one.
                if left[j] != p or not adjacent(i, j):
                    return True
                turn = _cross(left[j], right[j], right[i])
                if turn == 0:
                    return True  # the two edges fold back along one line
                if turn > 0:
                    lo += 1
        active.insert(lo, i)
        if lo > 0 and meet(active[lo - 1], i):
            return True
        if lo + 1 < len(active) and meet(i, active[lo + 1]):
            return True
    return False


def _cross(a: Point, b: Point, c: Point) -> float:
    """Twice the signed area of a, b, c: positive when c is left of a→b."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


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
    return _nearest_edge_distance(a, b, polygon)


def _nearest_edge_distance(a: Point, b: Point, polygon: Sequence[Point]) -> float:
    """The least distance from the segment a–b to an edge of the outline.

    Edges are measured nearest-first by the gap between their bounding boxes,
    a lower bound of their distance, and the search stops once that bound is
    no less than the best found: the same minimum as measuring every edge,
    for a few exact measurements instead of all of them (a cell of 200
    guard pieces round a zone of 200 corners took seconds)."""
    n = len(polygon)
    lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0])
    lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1])
    bounds = []
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        dx = max(0.0, min(x1, x2) - hi_x, lo_x - max(x1, x2))
        dy = max(0.0, min(y1, y2) - hi_y, lo_y - max(y1, y2))
        bounds.append((dx * dx + dy * dy, i))
    bounds.sort()
    best = math.inf
    for bound_sq, i in bounds:
        if bound_sq >= best * best:
            break
        best = min(
            best, segment_segment_distance(a, b, polygon[i], polygon[(i + 1) % n])
        )
    return best


def signed_area_mm2(points: Sequence[Point]) -> float:
    """Area of the closed outline by the shoelace formula, positive when the
    points run anticlockwise (x to the right, y up) and negative when clockwise."""
    n = len(points)
    total = 0.0
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        total += x1 * y2 - x2 * y1
    return total / 2


def _edge_winding(p: Point, a: Point, b: Point) -> int:
    """+1 where the edge a–b crosses the level of ``p`` upwards to its right,
    -1 downwards, else 0 (each edge counted half-open, so corners count once)."""
    (px, py), (x1, y1), (x2, y2) = p, a, b
    cross = (x2 - x1) * (py - y1) - (px - x1) * (y2 - y1)
    if y1 <= py < y2 and cross > 0:
        return 1
    if y2 <= py < y1 and cross < 0:
        return -1
    return 0


def winding_number(p: Point, polygon: Sequence[Point]) -> int:
    """How many times the closed outline winds anticlockwise around ``p``.

    Non-zero means ``p`` is enclosed by the outline, even one that crosses
    itself. Meaningless for a point on the outline: measure that first.
    """
    n = len(polygon)
    return sum(_edge_winding(p, polygon[i], polygon[(i + 1) % n]) for i in range(n))


class WindingIndex:
    """``winding_number`` round one outline for many points: the edges are
    filed by the band of y they span, so each point looks at a few edges."""

    def __init__(self, polygon: Sequence[Point]) -> None:
        n = len(polygon)
        ys = [p[1] for p in polygon]
        self._y0, count = min(ys), max(1, n)
        self._band = (max(ys) - self._y0) / count or 1.0
        self._bands: list[list[tuple[Point, Point]]] = [[] for _ in range(count)]
        for i in range(n):
            a, b = polygon[i], polygon[(i + 1) % n]
            if a[1] == b[1]:
                continue  # a level edge never changes the winding
            first = int((min(a[1], b[1]) - self._y0) // self._band)
            last = int((max(a[1], b[1]) - self._y0) // self._band)
            for k in range(max(0, first), min(count - 1, last) + 1):
                self._bands[k].append((a, b))

    def __call__(self, p: Point) -> int:
        k = int((p[1] - self._y0) // self._band)
        if not 0 <= k < len(self._bands):
            return 0  # above or below the whole outline
        return sum(_edge_winding(p, a, b) for a, b in self._bands[k])


def outline_distance(p: Point, polygon: Sequence[Point]) -> float:
    """Shortest distance from ``p`` to the closed outline (its edges only)."""
    n = len(polygon)
    return min(
        point_segment_distance(p, polygon[i], polygon[(i + 1) % n]) for i in range(n)
    )


def point_polygon_distance(p: Point, polygon: Sequence[Point]) -> float:
    """Distance from ``p`` to a simple polygon's area (0 inside or on its outline)."""
    if point_in_polygon(p, polygon):
        return 0.0
    return outline_distance(p, polygon)


def circle_polygon_distance(
    centre: Point, radius: float, polygon: Sequence[Point]
) -> float:
    """Gap between a disc and a simple polygon's area (0 when they overlap or touch)."""
    return max(0.0, point_polygon_distance(centre, polygon) - radius)


def polygon_polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Gap between two simple polygons' areas (0 when they overlap or touch)."""
    if point_in_polygon(a[0], b) or point_in_polygon(b[0], a):
        return 0.0  # one lies inside the other, or their outlines cross
    n, m = len(a), len(b)
    return min(
        segment_segment_distance(a[i], a[(i + 1) % n], b[j], b[(j + 1) % m])
        for i in range(n)
        for j in range(m)
    )


def polygon_is_convex(points: Sequence[Point]) -> bool:
    """True when the closed outline bounds a convex area: it turns one way only
    (straight runs allowed, no doubling back) and goes round exactly once."""
    n = len(points)
    if n < 3 or signed_area_mm2(points) == 0:
        return False
    sign = 0
    turning = 0.0
    for i in range(n):
        a, b, c = points[i - 1], points[i], points[(i + 1) % n]
        ux, uy = b[0] - a[0], b[1] - a[1]
        vx, vy = c[0] - b[0], c[1] - b[1]
        cross, dot = ux * vy - uy * vx, ux * vx + uy * vy
        if (ux == 0 and uy == 0) or (vx == 0 and vy == 0):
            return False  # a repeated corner
        if cross == 0:
            if dot < 0:
                return False  # the outline doubles back on itself
            continue
        turn = 1 if cross > 0 else -1
        if sign and turn != sign:
            return False
        sign = turn
        turning += math.atan2(cross, dot)
    # A star (a pentagram) turns one way too, but goes round twice.
    return abs(abs(turning) - 2 * math.pi) < 1e-6


def polygon_is_simple(points: Sequence[Point]) -> bool:
    """True when the closed outline has three or more distinct corners, encloses
    an area, and neither crosses nor touches itself (``polygon_problem``, whose
    self-crossing check is a sweep: n log n however the outline runs)."""
    return polygon_problem(points) is None


def squared_distance_mm2(a: Point, b: Point) -> float:
    """The square of the distance: exact for whole millimetres (below 2**26 mm),
    so comparing two of them is never thrown by rounding."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return dx * dx + dy * dy


def close_pairs(points: Sequence[Point], radius: float) -> Iterator[tuple[int, int]]:
    """Index pairs (i, j), i < j, of the points strictly closer than ``radius``
    to each other. A grid of cells ``radius`` wide: near-linear, not n²."""
    grid: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(points):
        grid.setdefault((math.floor(x / radius), math.floor(y / radius)), []).append(i)
    limit = radius * radius
    for (gx, gy), members in grid.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((gx + dx, gy + dy), ()):
                    for i in members:
                        if i < j and squared_distance_mm2(points[i], points[j]) < limit:
                            yield i, j


def clip_polygon_to_box(
    polygon: Sequence[Point], min_x: float, min_y: float, max_x: float, max_y: float
) -> list[Point]:
    """The corners of the part of the polygon that lies in the box, empty if
    none (Sutherland–Hodgman: cut by each side of the box in turn). Every corner
    lies in the box, and that part of the polygon lies within their convex hull.
    Where a concave polygon leaves the box and comes back, the pieces are linked
    along the box's sides, so a corner there may lie outside the polygon."""

    def cut(
        points: list[Point],
        inside: Callable[[Point], bool],
        crossing: Callable[[Point, Point], Point],
    ) -> list[Point]:
        kept: list[Point] = []
        for i, p in enumerate(points):
            prev = points[i - 1]
            if inside(p):
                if not inside(prev):
                    kept.append(crossing(prev, p))
                kept.append(p)
            elif inside(prev):
                kept.append(crossing(prev, p))
        return kept

    def at_x(x: float) -> Callable[[Point, Point], Point]:
        return lambda a, b: (x, a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]))

    def at_y(y: float) -> Callable[[Point, Point], Point]:
        return lambda a, b: (a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]), y)

    sides: list[tuple[Callable[[Point], bool], Callable[[Point, Point], Point]]] = [
        (lambda p: p[0] >= min_x, at_x(min_x)),
        (lambda p: p[0] <= max_x, at_x(max_x)),
        (lambda p: p[1] >= min_y, at_y(min_y)),
        (lambda p: p[1] <= max_y, at_y(max_y)),
    ]
    points = list(polygon)
    for inside, crossing in sides:
        if not points:
            break
        points = cut(points, inside, crossing)
    return points


# Which opening a device drawn on the plan stands across -----------------------


def span_covered_by_line(
    span: tuple[Point, Point], line: tuple[Point, Point], tolerance_mm: float
) -> float:
    """How much of ``span`` (a stretch of a guard, as an opening's width) the
    detection ``line`` covers, in mm: the part of the line within
    ``tolerance_mm`` of the guard's line through the span, seen along the
    span and within its ends. A line crossing the span at right angles covers
    none of it, nor does one farther from it than the tolerance."""
    (sx, sy), (ex, ey) = span
    length = distance_mm(span[0], span[1])
    if length == 0:
        return 0.0
    ux, uy = (ex - sx) / length, (ey - sy) / length
    (px, py), (qx, qy) = line
    along = ((px - sx) * ux + (py - sy) * uy, (qx - sx) * ux + (qy - sy) * uy)
    across = (-(px - sx) * uy + (py - sy) * ux, -(qx - sx) * uy + (qy - sy) * ux)
    # The stretch of the line, t in [0, 1], that lies within the tolerance.
    step = across[1] - across[0]
    if step == 0:
        if abs(across[0]) > tolerance_mm:
            return 0.0
        low, high = 0.0, 1.0
    else:
        t1 = (-tolerance_mm - across[0]) / step
        t2 = (tolerance_mm - across[0]) / step
        low, high = max(0.0, min(t1, t2)), min(1.0, max(t1, t2))
        if low > high:
            return 0.0
    a, b = sorted(along[0] + t * (along[1] - along[0]) for t in (low, high))
    return max(0.0, min(b, length) - max(a, 0.0))


def span_covered_by_box(
    span: tuple[Point, Point], a: Point, b: Point, tolerance_mm: float
) -> float:
    """How much of ``span`` lies on the rectangle of opposite corners ``a`` and
    ``b`` (sides along the axes, as a safety mat is drawn) grown by
    ``tolerance_mm`` on every side, in mm (Liang–Barsky clipping)."""
    (sx, sy), (ex, ey) = span
    dx, dy = ex - sx, ey - sy
    low, high = 0.0, 1.0
    for step, room in (
        (-dx, sx - (min(a[0], b[0]) - tolerance_mm)),
        (dx, max(a[0], b[0]) + tolerance_mm - sx),
        (-dy, sy - (min(a[1], b[1]) - tolerance_mm)),
        (dy, max(a[1], b[1]) + tolerance_mm - sy),
    ):
        if step == 0:
            if room < 0:
                return 0.0
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    if low > high:
        return 0.0
    return (high - low) * distance_mm(span[0], span[1])


def most_covered_span(
    spans: Sequence[tuple[Point, Point]],
    cover: Callable[[tuple[Point, Point]], float],
    minimum_mm: float = 1.0,
) -> int | None:
    """The index of the span that ``cover`` (one of the two above, bound to a
    device's line or box) covers most, at least ``minimum_mm`` of it (less is
    a rounding, not a device across it); the first of equals; None if none."""
    best, best_cover = None, minimum_mm
    for index, span in enumerate(spans):
        covered = cover(span)
        if covered >= best_cover and (best is None or covered > best_cover):
            best, best_cover = index, covered
    return best
