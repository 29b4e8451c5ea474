"""Where the doors of a DXF drawing go: each line on a door layer becomes an
opening in the guard it lies on. Pure, no Django.

A factory drawing shows a door in one of two ways, and both are read:

- drawn over the fence line (the fence runs through, the door's line lies
  on it): an opening in that guard segment, spanning the door's line;
- drawn in a gap of the fence line (the fence stops on each side of it):
  a new guard segment across the gap, of the neighbouring guard's kind and
  height, with an opening its whole width: the door is part of the
  perimeter, and an opening in it is what the rules judge (its interlock).

A door line that lies on no guard and bridges no gap (a door of the hall,
far from the cell) is left out and counted: it never creates a guard.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cells import geometry

# How far a door line may lie from the guard's line and still be read as on
# it (drawing noise: a door drawn on its own layer a few mm off the fence).
DOOR_TOLERANCE_MM = 50


@dataclass(frozen=True, slots=True)
class Guard:
    """A guard segment a door may lie on: its ends in mm and height."""

    start: geometry.Point
    end: geometry.Point
    height_mm: int | None
    kind: str


@dataclass(frozen=True, slots=True)
class DoorPlace:
    """Where a door goes: on ``guards[guard]`` at ``offset_mm`` along it, or
    (``guard`` None) across a gap, as a new guard from ``start`` to ``end``
    of ``kind`` and ``height_mm``, opened over its whole width."""

    door: int  # its index in the doors given
    guard: int | None
    offset_mm: int
    width_mm: int
    start: geometry.Point
    end: geometry.Point
    kind: str = "fence"
    height_mm: int | None = None


def _along(guard: Guard, point: geometry.Point) -> tuple[float, float]:
    """(distance along the guard from its start, distance off its line)."""
    (ax, ay), (bx, by) = guard.start, guard.end
    length = geometry.distance_mm(guard.start, guard.end)
    ux, uy = (bx - ax) / length, (by - ay) / length
    px, py = point[0] - ax, point[1] - ay
    return px * ux + py * uy, abs(px * uy - py * ux)


def _on(guard: Guard, a: geometry.Point, b: geometry.Point) -> tuple[int, int] | None:
    """(offset, width) of the door a–b on ``guard``, or None when it is not
    on it (off its line, or past its ends, beyond the tolerance)."""
    length = geometry.distance_mm(guard.start, guard.end)
    ta, da = _along(guard, a)
    tb, db = _along(guard, b)
    if max(da, db) > DOOR_TOLERANCE_MM:
        return None
    low, high = min(ta, tb), max(ta, tb)
    if low < -DOOR_TOLERANCE_MM or high > length + DOOR_TOLERANCE_MM:
        return None
    low, high = max(low, 0.0), min(high, length)
    offset = math.floor(low)
    width = math.ceil(high) - offset
    if width <= 0 or offset + width > length:
        width = math.floor(length) - offset
    return (offset, width) if width > 0 else None


def _touching(
    guards: Sequence[Guard], point: geometry.Point
) -> tuple[float, Guard] | None:
    """The guard nearest ``point`` within the tolerance, with its distance."""
    best: tuple[float, Guard] | None = None
    for guard in guards:
        distance = geometry.point_segment_distance(point, guard.start, guard.end)
        if distance <= DOOR_TOLERANCE_MM and (best is None or distance < best[0]):
            best = (distance, guard)
    return best


def place_doors(
    doors: Sequence[tuple[geometry.Point, geometry.Point]], guards: Sequence[Guard]
) -> tuple[list[DoorPlace], list[int]]:
    """(where each door goes, the indexes of the doors left out)."""
    placed: list[DoorPlace] = []
    left_out: list[int] = []
    for index, (a, b) in enumerate(doors):
        on = [
            (g, spot)
            for g, guard in enumerate(guards)
            if (spot := _on(guard, a, b)) is not None
        ]
        if on:
            g, (offset, width) = max(on, key=lambda item: item[1][1])
            placed.append(DoorPlace(index, g, offset, width, a, b))
            continue
        ends = [_touching(guards, a), _touching(guards, b)]
        if all(ends) and geometry.distance_mm(a, b) >= 1:
            # The door bridges a gap: the new guard takes the nearer side's
            # kind and the lower side's height (no door makes a guard taller).
            nearest = min(ends, key=lambda e: e[0])[1]  # type: ignore[index]
            heights = [e[1].height_mm for e in ends if e and e[1].height_mm]
            length = math.floor(geometry.distance_mm(a, b))
            placed.append(
                DoorPlace(
                    index,
                    None,
                    0,
                    length,
                    a,
                    b,
                    kind=nearest.kind,
                    height_mm=min(heights) if heights else None,
                )
            )
            continue
        left_out.append(index)
    return placed, left_out
