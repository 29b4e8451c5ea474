"""Where a floor-plan image lies on the plan: pure arithmetic, no Django.

The user picks two points on the image (pixel coordinates, x to the right
and y down from its top-left corner), types the real distance between them
and where the first one sits on the plan (mm, x to the right and y away from
the viewer). That gives one scale, millimetres per pixel, and the image's
rectangle on the plan. The image is not rotated: its rows run along the
plan's x axis (turn the picture before uploading it if they do not), so the
second point fixes the scale only, not a direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Placement:
    """Two points picked on an image of ``width_px`` × ``height_px`` pixels,
    ``distance_mm`` apart in reality; point 1 sits at (``plan_x_mm``,
    ``plan_y_mm``) on the plan."""

    width_px: int
    height_px: int
    point1_x_px: float
    point1_y_px: float
    point2_x_px: float
    point2_y_px: float
    distance_mm: float
    plan_x_mm: float
    plan_y_mm: float

    @property
    def pixel_distance(self) -> float:
        return math.hypot(
            self.point2_x_px - self.point1_x_px, self.point2_y_px - self.point1_y_px
        )

    @property
    def mm_per_px(self) -> float:
        """The scale; the two points must be distinct (see ``problems``)."""
        return self.distance_mm / self.pixel_distance

    def rectangle(self) -> Rectangle:
        """The image's rectangle on the plan, in plan millimetres."""
        scale = self.mm_per_px
        left = self.plan_x_mm - self.point1_x_px * scale
        # Down the image is towards the viewer on the plan (y falls).
        top = self.plan_y_mm + self.point1_y_px * scale
        return Rectangle(
            min_x_mm=left,
            max_y_mm=top,
            width_mm=self.width_px * scale,
            height_mm=self.height_px * scale,
        )


@dataclass(frozen=True)
class Rectangle:
    """An axis-aligned rectangle on the plan: its left edge, its far edge
    (the image's top) and its size, in mm."""

    min_x_mm: float
    max_y_mm: float
    width_mm: float
    height_mm: float

    @property
    def max_x_mm(self) -> float:
        return self.min_x_mm + self.width_mm

    @property
    def min_y_mm(self) -> float:
        return self.max_y_mm - self.height_mm

    def within(self, limit_mm: float) -> bool:
        """Whether every corner is within ``limit_mm`` of the origin on each axis."""
        return all(
            abs(v) <= limit_mm
            for v in (self.min_x_mm, self.max_x_mm, self.min_y_mm, self.max_y_mm)
        )

    def svg(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) in the drawing's coordinates, where y is -plan y:
        the top-left corner there is the image's top-left corner."""
        return (self.min_x_mm, -self.max_y_mm, self.width_mm, self.height_mm)
