"""Whether a light curtain or grid closes the opening it is linked to, on the
plan. Pure Python, no Django.

A device guards an opening only where its detection zone closes it. On the
plan that means two things:

- it spans the opening's width: its detection line, seen along the guard the
  opening is cut in, runs from one side of the opening to the other;
- no way round it is open: either it stands in the plane of the guard (both
  ends within ``JOIN_TOLERANCE_MM`` of the guard's line, as two segment ends
  join), or each side between one of its ends and the guard is closed by a
  guard drawn from that end to a guard (each end within the same tolerance).

The heights (its beams against the opening's height range) are the rule's to
compare: they are figures on the device and the opening, not geometry.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import Field

from cells import geometry
from cells.perimeter.inputs import JOIN_TOLERANCE_MM, Point, _Frozen


class LineClosure(_Frozen):
    """How a detection line stands to the opening it is linked to.

    ``spans``: it runs across the opening's whole width; ``covered_from_mm``
    and ``covered_to_mm``: what it covers, measured along the guard from its
    start (the opening runs ``opening_from_mm`` to ``opening_to_mm``);
    ``in_plane``: it stands in the guard's plane; ``offset_mm``: how far its
    ends stand from that plane (the larger); ``open_sides_mm``: the width of
    each side left open between an end and the guard (none when it closes)."""

    spans: bool
    in_plane: bool
    covered_from_mm: float
    covered_to_mm: float
    opening_from_mm: float
    opening_to_mm: float
    offset_mm: float = Field(ge=0)
    open_sides_mm: tuple[float, ...] = ()

    @property
    def closes(self) -> bool:
        return self.spans and (self.in_plane or not self.open_sides_mm)


def _side_closed(
    end: Point, guards: Sequence[tuple[Point, Point]], tolerance: float
) -> bool:
    """A guard runs from ``end`` to another guard: from the device's end to
    the guard with the opening, or a wall the end rests against that runs on
    to the guarding. The side between the device and the guarding is then
    closed."""
    for i, (a, b) in enumerate(guards):
        if geometry.point_segment_distance(end, a, b) > tolerance:
            continue
        others = [g for j, g in enumerate(guards) if j != i]
        if any(
            geometry.point_segment_distance(tip, c, d) <= tolerance
            for tip in (a, b)
            if geometry.distance_mm(tip, end) > tolerance
            for c, d in others
        ):
            return True
    return False


def line_closure(
    *,
    guard: tuple[Point, Point],
    opening_from_mm: float,
    opening_to_mm: float,
    line: tuple[Point, Point],
    guards: Sequence[tuple[Point, Point]],
) -> LineClosure:
    """How the detection ``line`` stands to the opening running
    ``opening_from_mm`` to ``opening_to_mm`` along ``guard`` (start, end);
    ``guards``: every guard segment of the plan, ``guard`` among them."""
    (sx, sy), (ex, ey) = guard
    length = math.hypot(ex - sx, ey - sy)
    ux, uy = (ex - sx) / length, (ey - sy) / length
    along = [(px - sx) * ux + (py - sy) * uy for px, py in line]
    across = [abs(-(px - sx) * uy + (py - sy) * ux) for px, py in line]
    covered_from, covered_to = min(along), max(along)
    spans = (
        covered_from <= opening_from_mm + JOIN_TOLERANCE_MM
        and covered_to >= opening_to_mm - JOIN_TOLERANCE_MM
    )
    in_plane = max(across) <= JOIN_TOLERANCE_MM
    open_sides: tuple[float, ...] = ()
    if not in_plane:
        open_sides = tuple(
            round(offset, 1)
            for end, offset in zip(line, across, strict=True)
            if offset > JOIN_TOLERANCE_MM
            and not _side_closed(end, guards, JOIN_TOLERANCE_MM)
        )
    return LineClosure(
        spans=spans,
        in_plane=in_plane,
        covered_from_mm=round(covered_from, 1),
        covered_to_mm=round(covered_to, 1),
        opening_from_mm=opening_from_mm,
        opening_to_mm=opening_to_mm,
        offset_mm=round(max(across), 1),
        open_sides_mm=open_sides,
    )
