"""A robot program's path drawn over the cell's plan (issue 32), coloured by
each segment's verdict, with each operator station's contact zone: plain
shapes in the plan's SVG frame (x right, y down: the plan's y negated), for
``templates/compliance/motion/partials/path_overlay.html``. Pure Python, no
Django.

A program may hold 200,000 segments; the drawing holds a bounded number of
points whatever its length. Consecutive segments are drawn in groups of
equal size, each from its first segment's start to its last one's end and
coloured by the worst verdict in it (a failing segment is never drawn
better than it is), and consecutive groups of one verdict that meet make
one polyline. Up to ``MAX_PIECES`` segments each piece is one segment.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# At most this many pieces drawn (so at most twice as many points).
MAX_PIECES = 2500
# The verdicts, best first, as ``ts15066_path`` ranks them.
RANK = {"pass": 0, "not_checked": 1, "measure": 2, "fail": 3}
# Where two pieces meet closer than this (mm), they are one polyline.
JOIN_MM = 0.5

# (line, x1, y1, z1, x2, y2, z2, speed) on the plan, as the snapshot has it.
PlanSegment = tuple[int, float, float, float, float, float, float, float | None]


@dataclass(frozen=True)
class PathRun:
    """Consecutive segments of one verdict that meet, drawn as one polyline
    (``points`` as SVG writes them), the program's lines they span."""

    verdict: str
    points: str
    first_line: int
    last_line: int


@dataclass(frozen=True)
class Zone:
    """A station's contact zone on the plan (SVG frame): a circle."""

    label: str
    x: float
    y: float
    r: float


@dataclass(frozen=True)
class PathDrawing:
    runs: tuple[PathRun, ...]
    zones: tuple[Zone, ...]
    start: tuple[float, float] | None  # where the path starts (SVG frame)
    # The extent of what is drawn (SVG frame): min x, min y, max x, max y.
    extent: tuple[float, float, float, float] | None
    grouped_by: int  # segments per piece: 1, unless the program is long
    point_count: int


def _number(value: float) -> str:
    return f"{round(value, 1):g}"


def path_drawing(
    segments: Sequence[PlanSegment],
    verdicts: Sequence[str],
    zones: Sequence[tuple[str, float, float, float]] = (),
) -> PathDrawing:
    """The path of ``segments`` (on the plan, mm) coloured by ``verdicts``
    (one per segment), and the contact zones (label, x, y, reach in mm)."""
    drawn_zones = tuple(
        Zone(label=label, x=round(x, 1), y=round(-y, 1), r=round(r, 1))
        for label, x, y, r in zones
    )
    count = min(len(segments), len(verdicts))
    xs = [z.x - z.r for z in drawn_zones] + [z.x + z.r for z in drawn_zones]
    ys = [z.y - z.r for z in drawn_zones] + [z.y + z.r for z in drawn_zones]
    if not count:
        extent = (min(xs), min(ys), max(xs), max(ys)) if xs else None
        return PathDrawing((), drawn_zones, None, extent, 1, 0)
    step = max(1, math.ceil(count / MAX_PIECES))
    runs: list[PathRun] = []
    points: list[tuple[float, float]] = []
    verdict, first_line, last_line = "", 0, 0

    def close() -> None:
        if points:
            runs.append(
                PathRun(
                    verdict=verdict,
                    points=" ".join(f"{_number(x)},{_number(y)}" for x, y in points),
                    first_line=first_line,
                    last_line=last_line,
                )
            )

    point_count = 0
    for begin in range(0, count, step):
        end = min(begin + step, count)
        first, last = segments[begin], segments[end - 1]
        worst = max(verdicts[begin:end], key=lambda v: RANK.get(v, 3))
        start = (first[1], -first[2])
        finish = (last[4], -last[5])
        xs += [start[0], finish[0]]
        ys += [start[1], finish[1]]
        joined = (
            points
            and worst == verdict
            and abs(points[-1][0] - start[0]) <= JOIN_MM
            and abs(points[-1][1] - start[1]) <= JOIN_MM
        )
        if joined:
            points.append(finish)
            point_count += 1
        else:
            close()
            points = [start, finish]
            point_count += 2
            verdict, first_line = worst, first[0]
        last_line = last[0]
    close()
    return PathDrawing(
        runs=tuple(runs),
        zones=drawn_zones,
        start=(round(segments[0][1], 1), round(-segments[0][2], 1)),
        extent=(min(xs), min(ys), max(xs), max(ys)),
        grouped_by=step,
        point_count=point_count,
    )


def widened_view_box(
    view_box: tuple[float, float, float, float],
    extent: tuple[float, float, float, float] | None,
    margin_mm: float,
) -> tuple[float, float, float, float]:
    """The plan's view box (min x, min y, width, height) grown to hold
    ``extent`` with ``margin_mm`` round it, where it does not already."""
    if extent is None:
        return view_box
    x, y, width, height = view_box
    min_x, min_y, max_x, max_y = extent
    if x <= min_x and y <= min_y and x + width >= max_x and y + height >= max_y:
        return view_box
    new_x = min(x, min_x - margin_mm)
    new_y = min(y, min_y - margin_mm)
    return (
        new_x,
        new_y,
        max(x + width, max_x + margin_mm) - new_x,
        max(y + height, max_y + margin_mm) - new_y,
    )
