"""Whether a loop encloses the hazard zone, and how far the zone reaches past
it (exact for convex loops, a bound for others). Pure Python, no Django."""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from cells import geometry
from cells.perimeter.inputs import (
    _MAX_WORK,
    CONTACT_MM,
    REACH_PAST_BOUND_MM,
    CircleZone,
    Point,
    PolygonZone,
    _Zone,
)
from cells.perimeter.joins import NOTE_BOUND
from cells.perimeter.results import Crossing, Enclosure, Loop, Note


def _outside_distance(p: Point, outline: Sequence[Point]) -> float:
    """Distance from ``p`` to the area a loop's outline winds round."""
    if geometry.winding_number(p, outline):
        return 0.0
    return geometry.outline_distance(p, outline)


def _crossing(zone: _Zone, loop: Loop) -> Crossing:
    """How far the zone reaches past a loop: the largest distance from a point
    of the zone to the area inside the loop. Exact for a convex loop, otherwise
    an upper bound with the most it may be too high."""
    outline = loop.points
    if loop.convex and isinstance(zone, CircleZone):
        # For a convex area, the disc reaches past it by its radius less the
        # centre's signed distance from the outline (positive inside).
        depth = geometry.outline_distance(zone.centre, outline)
        if not geometry.winding_number(zone.centre, outline):
            depth = -depth
        reach = max(0.0, zone.radius_mm - depth)
        return Crossing(loop_key=loop.key, reach_past_mm=reach, exact=True)
    if loop.convex and isinstance(zone, PolygonZone):
        # The distance to a convex area is convex: greatest at a corner.
        reach = max(_outside_distance(p, outline) for p in zone.points)
        return Crossing(loop_key=loop.key, reach_past_mm=reach, exact=True)
    upper, lower = _reach_past_bound(zone, outline)
    return Crossing(
        loop_key=loop.key,
        reach_past_mm=upper,
        exact=False,
        uncertainty_mm=upper - lower,
    )


Edge = tuple[Point, Point, float]  # an edge, and the farthest the zone gets from it


def _reach_past_bound(zone: _Zone, outline: Sequence[Point]) -> tuple[float, float]:
    """Branch and bound over squares covering the zone, largest bound first:
    (upper bound, lower bound) of how far the zone reaches past the loop.

    No point of a square is farther than its centre's distance plus its
    half-diagonal (the distance changes by no more than the distance moved).
    Nor farther from an edge than the corners of the part of the zone within
    the square (the distance to an edge is convex), give or take the bulge of
    a circle's arc; nor farther than the zone ever gets from that edge. Each
    square keeps only the edges that can be nearest to a point in it, so small
    squares are cheap.
    """
    winding = geometry.WindingIndex(outline)
    n = len(outline)
    every_edge: list[Edge] = []
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        every_edge.append((a, b, zone._farthest_from_segment(a, b)))
    work = 0

    def measure(
        q: Point, edges: Sequence[Edge], rho: float
    ) -> tuple[float, list[Edge]]:
        """An upper bound for the square of half-diagonal ``rho`` round ``q``
        from ``q``'s distance alone, and the edges that can be nearest to a
        point within ``rho`` of ``q``."""
        nonlocal work
        work += len(edges)
        ds = [geometry.point_segment_distance(q, a, b) for a, b, _ in edges]
        nearest = min(ds)
        keep = [e for e, d in zip(edges, ds, strict=True) if d <= nearest + 2 * rho]
        # From inside, a point must first cross the outline to get out.
        bound = max(0.0, rho - nearest) if winding(q) else nearest + rho
        return bound, keep

    def outside(p: Point, edges: Sequence[Edge]) -> float:
        nonlocal work
        work += len(edges)
        if winding(p):
            return 0.0
        return min(geometry.point_segment_distance(p, a, b) for a, b, _ in edges)

    best = max(outside(p, every_edge) for p in zone._samples())
    min_x, min_y, max_x, max_y = zone._bounding_box()
    half = max(max_x - min_x, max_y - min_y) / 2
    centre = ((min_x + max_x) / 2, (min_y + max_y) / 2)
    root_bound, edges = measure(centre, every_edge, half * math.sqrt(2))
    heap = [(-root_bound, centre, half, edges)]
    pruned = 0.0  # the highest bound of any square set aside
    while heap:
        upper = -heap[0][0]
        if upper <= best + REACH_PAST_BOUND_MM or work >= _MAX_WORK:
            return max(best, pruned, upper), best
        _, (x, y), half, edges = heapq.heappop(heap)
        half /= 2
        rho = half * math.sqrt(2)
        for q in (
            (x - half, y - half),
            (x + half, y - half),
            (x - half, y + half),
            (x + half, y + half),
        ):
            clipped = zone._clip_square(q, half)
            if clipped is None:  # too coarse to clip: use the whole square
                gap = zone._gap_to_point(q)
                if gap > rho:
                    continue  # the square misses the zone
                qx, qy = q
                corners: Sequence[Point] = (
                    (qx - half, qy - half),
                    (qx + half, qy - half),
                    (qx - half, qy + half),
                    (qx + half, qy + half),
                )
                bulge = 0.0
                probes = [q] if gap == 0 else []
            else:
                corners, bulge = clipped
                if not corners:
                    continue  # the square misses the zone
                probes = []
            bound, kept = measure(q, edges, rho)
            work += len(corners) * len(kept)
            far = [
                [geometry.point_segment_distance(c, a, b) for a, b, _ in kept]
                for c in corners
            ]
            bound = min(
                bound,
                min(
                    min(edge[2], bulge + max(row[k] for row in far))
                    for k, edge in enumerate(kept)
                ),
            )
            if clipped is not None:
                # Try the corner farthest from every edge that is in the zone
                # (clipping a concave polygon can add corners that are not).
                order = sorted(range(len(far)), key=lambda i: -min(far[i]))
                probes = [corners[i] for i in order if zone.contains(corners[i])][:1]
            # Points of the zone in or near the square give the lower bound.
            for p in probes:
                best = max(best, outside(p, kept))
            if bound > best + REACH_PAST_BOUND_MM:
                heapq.heappush(heap, (-bound, q, half, kept))
            else:
                pruned = max(pruned, bound)
    return max(best, pruned), best


def _enclosure(
    zone: _Zone, loops: Sequence[Loop]
) -> tuple[Enclosure, tuple[Point, ...], list[Note]]:
    """The verdict on the zone against every loop, the safeguarded space's
    outline (empty if none) and the notes on how sure the figures are."""
    # Two segments there and back close a loop round nothing.
    loops = [loop for loop in loops if len(loop.points) >= 3]
    if not loops:
        return Enclosure(enclosed=False, reason="no_closed_loop"), (), []
    enclosing: list[tuple[float, str, float, Loop]] = []
    crossed: list[Loop] = []
    for loop in loops:
        outline = loop.points
        n = len(outline)
        clearance = min(
            zone._gap_to_segment(outline[i], outline[(i + 1) % n]) for i in range(n)
        )
        if clearance <= CONTACT_MM:
            crossed.append(loop)
        elif geometry.winding_number(zone._reference_point(), outline):
            enclosing.append((loop.area_mm2, loop.key, clearance, loop))
    if enclosing:
        enclosing.sort(key=lambda item: (item[0], item[1]))
        _, key, clearance, loop = enclosing[0]
        return (
            Enclosure(
                enclosed=True,
                reason="enclosed",
                loop_key=key,
                clearance_mm=clearance,
                enclosing_loop_keys=tuple(item[1] for item in enclosing),
            ),
            loop.points,
            [],
        )
    if not crossed:
        return Enclosure(enclosed=False, reason="zone_outside_every_loop"), (), []
    notes = []
    crossings = []
    for loop in crossed:
        crossing = _crossing(zone, loop)
        crossings.append(crossing)
        if not crossing.exact:
            notes.append(
                Note(
                    text=NOTE_BOUND,
                    values={
                        "loop": loop.key,
                        "uncertainty": math.ceil(crossing.uncertainty_mm * 1000) / 1000,
                    },
                )
            )
    crossings.sort(key=lambda c: (c.reach_past_mm, c.loop_key))
    first = crossings[0]
    return (
        Enclosure(
            enclosed=False,
            reason="zone_crosses_perimeter",
            loop_key=first.loop_key,
            reach_past_mm=first.reach_past_mm,
            reach_past_exact=first.exact,
            crossings=tuple(crossings),
        ),
        (),
        notes,
    )
