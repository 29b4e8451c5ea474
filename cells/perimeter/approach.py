"""How a person walks up to the hazard zone on the plan, and whether a
protective field stops them in time. Pure Python, no Django.

An approach is the straight way in to one point of the zone's outline, along
the outline's outward normal, from S out (``Approach.outer``) to the zone
(``Approach.zone_point``). Round a circle the normals are its radii; round a
polygon they are each edge's normal, fanned out at each convex corner, so
that the outer ends together trace the zone grown by S. An approach is taken
at every ``STEP_MM`` of the outline.

An approach whose line, followed out from the zone, crosses a guard (outside
an opening of that guard, or through an opening another device guards) is
left to the guard's own rules: a person must pass the guard to start on it:
the fence's height and distance, the opening's door or curtain. Every other
approach must run inside a protective field all the way from S out to the
zone, or a person reaches the zone before the scanner sees them. A
protective field is taken as the disc of its radius round the scanner, as it
is drawn on the plan; a field configured smaller in some direction must be
drawn as a scanner of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from cells import geometry
from cells.perimeter.inputs import CircleZone, PolygonZone, _Frozen

Point = tuple[float, float]

# One approach every so much of the zone's outline.
STEP_MM = 100.0
# The eight sides a person can come from, by the compass of the plan (+y
# north), each 45° wide round its direction.
SIDES = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


class Approach(_Frozen):
    angle_deg: float  # the approach's direction out from the zone, 0 = east
    zone_point: Point
    outer: Point

    @property
    def side(self) -> str:
        return side_of(self.angle_deg)


class Field(_Frozen):
    """A protective field on the plan: the disc round a scanner."""

    key: str
    centre: Point
    radius_mm: float

    def contains(self, p: Point) -> bool:
        return geometry.distance_mm(self.centre, p) <= self.radius_mm + 1e-6


class Barrier(_Frozen):
    """A guard on the plan, with the parts of it an approach may pass through
    (openings no other device guards), from and to along it in mm and the
    key of what the approach then passes through."""

    start: Point
    end: Point
    passable: tuple[tuple[float, float, str], ...] = ()


class Uncovered(_Frozen):
    """Approaches of one side, or through one opening, that no field covers
    all the way: where they run (``through``: an opening key, else None), the
    sides they come from, their direction range, and how far the fields reach
    out along them at the least."""

    through: str | None
    side: str
    from_deg: float
    to_deg: float
    reach_mm: float
    outer: tuple[Point, ...]


def side_of(angle_deg: float) -> str:
    return SIDES[int(((angle_deg % 360) + 22.5) // 45) % 8]


def approaches(zone: CircleZone | PolygonZone, s_mm: float) -> list[Approach]:
    """The approaches to the zone from ``s_mm`` out, every STEP_MM of its
    outline, in order round it."""
    if isinstance(zone, CircleZone):
        cx, cy = zone.centre
        count = max(72, int(2 * math.pi * zone.radius_mm // STEP_MM) + 1)
        found = []
        for i in range(count):
            a = 2 * math.pi * i / count
            ux, uy = math.cos(a), math.sin(a)
            q = (cx + ux * zone.radius_mm, cy + uy * zone.radius_mm)
            found.append(
                Approach(
                    angle_deg=math.degrees(a),
                    zone_point=q,
                    outer=(q[0] + ux * s_mm, q[1] + uy * s_mm),
                )
            )
        return found
    points = list(zone.points)
    if geometry.signed_area_mm2(points) < 0:
        points.reverse()  # counter-clockwise: the outward normal is to the right
    found = []
    n = len(points)
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        length = geometry.distance_mm(a, b)
        if length == 0:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        nx, ny = uy, -ux
        normal = math.atan2(ny, nx)
        # Fanned round the corner at ``a`` from the previous edge's normal.
        p = points[i - 1]
        before = geometry.distance_mm(p, a)
        if before:
            px, py = (a[0] - p[0]) / before, (a[1] - p[1]) / before
            previous = math.atan2(-px, py)
            turn = (normal - previous) % (2 * math.pi)
            if 0 < turn < math.pi:  # a convex corner
                steps = max(1, int(turn * s_mm // STEP_MM) + 1)
                for k in range(1, steps):
                    t = previous + turn * k / steps
                    found.append(
                        Approach(
                            angle_deg=math.degrees(t) % 360,
                            zone_point=a,
                            outer=(
                                a[0] + math.cos(t) * s_mm,
                                a[1] + math.sin(t) * s_mm,
                            ),
                        )
                    )
        count = max(1, int(length // STEP_MM) + 1)
        for k in range(count + 1):
            q = (a[0] + ux * length * k / count, a[1] + uy * length * k / count)
            found.append(
                Approach(
                    angle_deg=math.degrees(normal) % 360,
                    zone_point=q,
                    outer=(q[0] + nx * s_mm, q[1] + ny * s_mm),
                )
            )
    return found


# How far out an approach is followed to find the guards a person must pass
# to start on it: past any plan (coordinates are bounded far below).
FAR_MM = 10_000_000.0


def _crossing(approach: Approach, barrier: Barrier) -> float | None:
    """Where along the barrier the approach, followed out from the zone as far
    as a person could come from, crosses it, or None."""
    q, o = approach.zone_point, approach.outer
    depth = geometry.distance_mm(q, o) or 1.0
    o = (q[0] + (o[0] - q[0]) / depth * FAR_MM, q[1] + (o[1] - q[1]) / depth * FAR_MM)
    a, b = barrier.start, barrier.end
    if not geometry.segments_intersect(q, o, a, b):
        return None
    dx, dy = b[0] - a[0], b[1] - a[1]
    ex, ey = o[0] - q[0], o[1] - q[1]
    denominator = dx * ey - dy * ex
    length = math.hypot(dx, dy)
    if abs(denominator) < 1e-9 or length == 0:
        # Along the guard: where it meets the approach's nearer end.
        return geometry.distance_mm(a, q)
    t = ((q[0] - a[0]) * ey - (q[1] - a[1]) * ex) / denominator
    return max(0.0, min(1.0, t)) * length


def passes_through(
    approach: Approach, barriers: Sequence[Barrier]
) -> tuple[bool, str | None]:
    """Whether the approach is open (crosses no guard, or only where it may be
    passed), and the opening it passes through, if any."""
    through = None
    for barrier in barriers:
        at = _crossing(approach, barrier)
        if at is None:
            continue
        gap = next((k for lo, hi, k in barrier.passable if lo <= at <= hi), None)
        if gap is None:
            return False, None
        through = gap
    return True, through


def _inside(q: Point, o: Point, field: Field) -> tuple[float, float] | None:
    """The part of the segment from ``q`` (t = 0) to ``o`` (t = 1) inside
    the field's disc, as (t from, t to), or None."""
    dx, dy = o[0] - q[0], o[1] - q[1]
    fx, fy = q[0] - field.centre[0], q[1] - field.centre[1]
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    c = fx * fx + fy * fy - field.radius_mm**2
    if a == 0:
        return (0.0, 1.0) if c <= 0 else None
    root = b * b - 4 * a * c
    if root < 0:
        return None
    root = math.sqrt(root)
    t0, t1 = (-b - root) / (2 * a), (-b + root) / (2 * a)
    if t1 < 0 or t0 > 1:
        return None
    return max(0.0, t0), min(1.0, t1)


def reach_along(approach: Approach, fields: Sequence[Field]) -> float:
    """How far out from the zone the fields cover the approach without a
    break, from the zone point out (the whole of S when they cover it all)."""
    q, o = approach.zone_point, approach.outer
    parts = sorted(p for f in fields if (p := _inside(q, o, f)) is not None)
    reached = 0.0
    for t0, t1 in parts:
        if t0 > reached + 1e-9:
            break
        reached = max(reached, t1)
    return reached * geometry.distance_mm(q, o)


def uncovered(
    zone: CircleZone | PolygonZone,
    s_mm: float,
    fields: Sequence[Field],
    barriers: Sequence[Barrier],
) -> list[Uncovered]:
    """The open approaches no field covers from ``s_mm`` out to the zone,
    grouped by the opening they pass through, else by the side they come
    from; in order round the zone."""
    groups: dict[tuple[str | None, str], list[tuple[Approach, float]]] = {}
    for approach in approaches(zone, s_mm):
        is_open, through = passes_through(approach, barriers)
        if not is_open:
            continue
        reach = reach_along(approach, fields)
        if reach < s_mm - 0.5:
            key = (through, "" if through else approach.side)
            groups.setdefault(key, []).append((approach, reach))
    found = []
    for (through, side), members in groups.items():
        angles = [a.angle_deg for a, _ in members]
        lo, hi = _angle_range(angles)
        found.append(
            Uncovered(
                through=through,
                side=side or members[len(members) // 2][0].side,
                from_deg=round(lo, 1),
                to_deg=round(hi, 1),
                reach_mm=math.floor(min(r for _, r in members) + 1e-6),
                outer=tuple(a.outer for a, _ in members),
            )
        )
    return found


def _angle_range(angles: Iterable[float]) -> tuple[float, float]:
    """The smallest arc holding every angle, as (from, to) counter-clockwise
    in degrees, ``to`` possibly past 360."""
    ordered = sorted(a % 360 for a in angles)
    if len(ordered) == 1:
        return ordered[0], ordered[0]
    gaps = [
        ((ordered[(i + 1) % len(ordered)] - ordered[i]) % 360, i)
        for i in range(len(ordered))
    ]
    widest, at = max(gaps)
    start = ordered[(at + 1) % len(ordered)]
    return start, start + (360 - widest)


def contour(
    zone: CircleZone | PolygonZone, s_mm: float, from_deg: float, to_deg: float
) -> list[Point]:
    """The line ``s_mm`` out from the zone along the approaches whose
    direction lies from ``from_deg`` to ``to_deg`` (counter-clockwise; ``to``
    may pass 360), in order round the zone: where ``uncovered`` found a side
    open, to draw it."""
    span = to_deg - from_deg
    found = []
    for approach in approaches(zone, s_mm):
        offset = (approach.angle_deg - from_deg) % 360
        if offset <= span + 1e-6:
            found.append((offset, approach.outer))
    return [outer for _, outer in sorted(found, key=lambda item: item[0])]
