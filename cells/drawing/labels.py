"""The labels of the plan: their texts and where they go (the elements'
names are ``cells.naming``'s).

Lengths as grouped millimetres, the angle and point of a caption beside its
line, and the helpers that keep a caption off the others: its box on screen,
whether a box meets another box, a line or a circle, and ``_Grid``, which
files boxes and lines by where they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cells import geometry
from cells.drawing.primitives import Label, Line


def _mm(value: float) -> str:
    return f"{round(value):,} mm"


def _readable_angle(start: geometry.Point, end: geometry.Point) -> float:
    """Angle of the segment on screen, turned so text never reads upside down."""
    angle = math.degrees(math.atan2(-(end[1] - start[1]), end[0] - start[0]))
    if angle > 90:
        angle -= 180
    elif angle <= -90:
        angle += 180
    return angle


def _caption_point(
    start: geometry.Point, end: geometry.Point, centre: geometry.Point, gap_mm: float
) -> geometry.Point:
    """Midpoint of the segment pushed ``gap_mm`` away from the layout's centre."""
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    length = geometry.distance_mm(start, end)
    nx, ny = -(end[1] - start[1]) / length, (end[0] - start[0]) / length
    if (mid[0] - centre[0]) * nx + (mid[1] - centre[1]) * ny < 0:
        nx, ny = -nx, -ny
    return (mid[0] + nx * gap_mm, mid[1] + ny * gap_mm)


Box = tuple[float, float, float, float]  # min x, min y, max x, max y on screen


def _text_box(label: Label, font: float) -> Box:
    """Roughly where a caption's text lies on screen, turned with it: wide
    enough for its longer line at about 0.58 em a character."""
    w = 0.58 * font * max(len(label.text), 0.85 * len(label.sub))
    h = font * (2.3 if label.sub else 1.2)
    a = math.radians(label.rotate_deg)
    half_w = (abs(math.cos(a)) * w + abs(math.sin(a)) * h) / 2
    half_h = (abs(math.sin(a)) * w + abs(math.cos(a)) * h) / 2
    return (label.x - half_w, label.y - half_h, label.x + half_w, label.y + half_h)


def _overlaps(box: Box, boxes: list[Box]) -> bool:
    return any(
        box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
        for b in boxes
    )


def _crosses(box: Box, lines: list[Line]) -> bool:
    """Whether any of the lines (on screen) passes through the box: each line
    clipped to the box's slab in x, then tested against its span in y."""
    x1, y1, x2, y2 = box
    for line in lines:
        (ax, ay), (bx, by) = (line.x1, line.y1), (line.x2, line.y2)
        t0, t1 = 0.0, 1.0
        for p, q in (
            (-(bx - ax), ax - x1),
            (bx - ax, x2 - ax),
            (-(by - ay), ay - y1),
            (by - ay, y2 - ay),
        ):
            if p == 0:
                if q < 0:
                    break
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
        else:
            if t0 <= t1:
                return True
    return False


def _crosses_circle(box: Box, circle: tuple[float, float, float]) -> bool:
    """Whether the circle's outline (on screen) passes through the box."""
    cx, cy, r = circle
    near_x, near_y = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    far_x = max(abs(cx - box[0]), abs(cx - box[2]))
    far_y = max(abs(cy - box[1]), abs(cy - box[3]))
    return math.hypot(cx - near_x, cy - near_y) <= r <= math.hypot(far_x, far_y)


class _Grid:
    """Boxes and lines on screen, filed by the square cells of side ``size``
    their extent covers, so that what may meet a box is looked up in the
    cells the box covers rather than in all of them: the same answers as
    ``_overlaps`` and ``_crosses`` over the whole list (two shapes that meet
    share a point, and that point's cell), in time that grows with the
    drawing rather than with its square."""

    def __init__(self, size: float, boxes=(), lines=()) -> None:
        self.size = size if size > 0 else 1.0
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.lines: dict[tuple[int, int], list[Line]] = {}
        for box in boxes:
            self.add_box(box)
        for line in lines:
            self.add_line(line)

    def _cells(self, x1: float, y1: float, x2: float, y2: float):
        s = self.size
        xs = range(math.floor(x1 / s), math.floor(x2 / s) + 1)
        return [
            (i, j)
            for i in xs
            for j in range(math.floor(y1 / s), math.floor(y2 / s) + 1)
        ]

    def add_box(self, box: Box) -> None:
        for cell in self._cells(*box):
            self.boxes.setdefault(cell, []).append(box)

    def add_line(self, line: Line) -> None:
        extent = (
            min(line.x1, line.x2),
            min(line.y1, line.y2),
            max(line.x1, line.x2),
            max(line.y1, line.y2),
        )
        for cell in self._cells(*extent):
            self.lines.setdefault(cell, []).append(line)

    def with_lines(self, lines) -> _Grid:
        """A grid of this one's lines and ``lines`` (no boxes)."""
        grid = _Grid(self.size)
        grid.lines = {cell: list(found) for cell, found in self.lines.items()}
        for line in lines:
            grid.add_line(line)
        return grid

    def overlaps(self, box: Box) -> bool:
        return any(
            _overlaps(box, self.boxes[cell])
            for cell in self._cells(*box)
            if cell in self.boxes
        )

    def covers(self, x: float, y: float) -> bool:
        """Whether a box holds the point (x, y) inside it: ``overlaps`` of
        the point's empty box, without the list of cells."""
        s = self.size
        found = self.boxes.get((math.floor(x / s), math.floor(y / s)))
        return found is not None and any(
            b[0] < x < b[2] and b[1] < y < b[3] for b in found
        )

    def crosses(self, box: Box) -> bool:
        return any(
            _crosses(box, self.lines[cell])
            for cell in self._cells(*box)
            if cell in self.lines
        )


def _free(
    box: Box,
    taken: _Grid,
    guards: _Grid,
    circles: Sequence[tuple[float, float, float]] = (),
) -> bool:
    return (
        not taken.overlaps(box)
        and not guards.crosses(box)
        and not any(_crosses_circle(box, c) for c in circles)
    )
