"""What the perimeter analysis reads: guard segments, openings and the hazard
zone of one plan (a circle or a polygon, with its height range), and the
distances from the zone. Pure Python with pydantic, no Django."""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cells import geometry

Point = tuple[float, float]
GuardKind = Literal["fence", "wall", "machine_body"]

JOIN_TOLERANCE_MM = 10.0
"""Segment ends closer than this (strictly) are joined."""

CONTACT_MM = 1e-6
"""A distance at or below this is contact: floating-point noise, not a gap."""

REACH_PAST_BOUND_MM = 0.01
"""How close the bound on the reach past a non-convex loop is worked to."""

# Edge measurements the bound may take; past this it stops where it is, still an
# upper bound, and says how far it may be too high.
_MAX_WORK = 1_000_000


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation without translating it (no Django here)."""
    return message


class _Frozen(BaseModel):
    """Base of every model here: frozen, unknown fields and NaN refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


# --- What goes in ------------------------------------------------------------


class Segment(_Frozen):
    """A straight piece of the perimeter guard on the plan, from start to end
    (``cells.models.GuardSegment``): a fence run, a wall or a machine body."""

    key: str = Field(min_length=1)
    start: Point
    end: Point
    height_mm: float = Field(gt=0)
    lower_edge_mm: float = Field(default=0, ge=0)  # the gap under the guard
    kind: GuardKind = "fence"

    @model_validator(mode="after")
    def _has_length(self) -> Segment:
        if self.start == self.end:
            raise ValueError(f"segment {self.key} has zero length")
        return self

    @property
    def length_mm(self) -> float:
        return geometry.distance_mm(self.start, self.end)


class Opening(_Frozen):
    """A gap left in a guard segment on purpose (a door, a conveyor infeed),
    measured along the segment from its start (``cells.models.Opening``)."""

    key: str = Field(min_length=1)
    segment_key: str
    offset_mm: float = Field(ge=0)
    width_mm: float = Field(gt=0)
    lower_edge_mm: float = Field(default=0, ge=0)
    upper_edge_mm: float = Field(gt=0)

    @model_validator(mode="after")
    def _edges_in_order(self) -> Opening:
        if self.upper_edge_mm <= self.lower_edge_mm:
            raise ValueError(f"opening {self.key}: upper edge not above lower edge")
        return self


class Distance(_Frozen):
    """The shortest horizontal distance from the hazard zone to a thing on the
    plan. ``inside_zone`` is true when the thing reaches into or touches the
    zone; ``mm`` is then 0, which is not a measured clearance."""

    mm: float = Field(ge=0)
    inside_zone: bool


def _distance(gap_mm: float) -> Distance:
    """A measured gap as a ``Distance``: contact (within ``CONTACT_MM``) is
    inside the zone."""
    if gap_mm <= CONTACT_MM:
        return Distance(mm=0.0, inside_zone=True)
    return Distance(mm=gap_mm, inside_zone=False)


def rectangle(corner: Point, opposite_corner: Point) -> tuple[Point, ...]:
    """The four corners, anticlockwise, of the axis-aligned rectangle with these
    two opposite corners (a safety mat, say)."""
    (x1, y1), (x2, y2) = corner, opposite_corner
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return ((lo_x, lo_y), (hi_x, lo_y), (hi_x, hi_y), (lo_x, hi_y))


class _Zone(_Frozen):
    """What both zone shapes share: the height range and the distance helpers."""

    lower_mm: float = Field(default=0, ge=0)  # lowest point of the zone above the floor
    upper_mm: float | None = Field(default=None, ge=0)  # highest; None: not known

    @model_validator(mode="after")
    def _heights_in_order(self) -> _Zone:
        if self.upper_mm is not None and self.upper_mm < self.lower_mm:
            raise ValueError("the zone's upper height is below its lower height")
        return self

    def distance_to_point(self, point: Point) -> Distance:
        """From the zone to a point (an operator station, a scanner)."""
        return _distance(self._gap_to_point(point))

    def distance_to_segment(self, a: Point, b: Point) -> Distance:
        """From the zone to the straight line from ``a`` to ``b`` (a light
        curtain between its two posts, a guard, an opening)."""
        return _distance(self._gap_to_segment(a, b))

    def distance_to_polygon(self, points: Sequence[Point]) -> Distance:
        """From the zone to the area of a simple polygon (a mat, a platform)."""
        if geometry.polygon_problem(list(points)) is not None:
            raise ValueError("not a simple polygon")
        return _distance(self._gap_to_polygon(points))

    def distance_to_rectangle(self, corner: Point, opposite_corner: Point) -> Distance:
        """From the zone to the area of an axis-aligned rectangle."""
        return self.distance_to_polygon(rectangle(corner, opposite_corner))

    def contains(self, point: Point) -> bool:
        """Whether the point lies in the zone (its boundary included)."""
        return self._gap_to_point(point) <= CONTACT_MM

    # Each shape provides these (pydantic's model class is an ABC).
    @abstractmethod
    def _gap_to_point(self, p: Point) -> float:
        """Distance from the zone to a point (0 inside)."""

    @abstractmethod
    def _gap_to_segment(self, a: Point, b: Point) -> float:
        """Distance from the zone to a line segment (0 where it enters)."""

    @abstractmethod
    def _gap_to_polygon(self, points: Sequence[Point]) -> float:
        """Distance from the zone to a polygon's area (0 where they overlap)."""

    @abstractmethod
    def _farthest_from_segment(self, a: Point, b: Point) -> float:
        """The greatest distance from a point of the zone to a line segment."""

    @abstractmethod
    def _clip_square(
        self, centre: Point, half: float
    ) -> tuple[list[Point], float] | None:
        """The corners of the part of the zone within the square (empty if
        none), and how far the zone may bulge beyond the straight lines between
        them; None when the square is too large to tell."""

    @abstractmethod
    def _reference_point(self) -> Point:
        """A point of the zone: on the same side of any outline it keeps clear of."""

    @abstractmethod
    def _bounding_box(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the zone."""

    @abstractmethod
    def _samples(self) -> list[Point]:
        """A few points of the zone where it is likely to reach farthest."""


class CircleZone(_Zone):
    """A hazard zone swept by a robot: a circle round its base whose radius is
    the reach plus the end effector plus the workpiece."""

    shape: Literal["circle"] = "circle"
    centre: Point
    radius_mm: float = Field(gt=0)

    @classmethod
    def from_reach(
        cls,
        centre: Point,
        *,
        reach_mm: float,
        end_effector_mm: float = 0,
        workpiece_mm: float = 0,
        lower_mm: float = 0,
        upper_mm: float | None = None,
    ) -> CircleZone:
        """The circle the robot's reach, end effector and workpiece sweep together."""
        return cls(
            centre=centre,
            radius_mm=reach_mm + end_effector_mm + workpiece_mm,
            lower_mm=lower_mm,
            upper_mm=upper_mm,
        )

    def _gap_to_point(self, p: Point) -> float:
        return max(0.0, geometry.distance_mm(self.centre, p) - self.radius_mm)

    def _gap_to_segment(self, a: Point, b: Point) -> float:
        return geometry.distance_to_circle(a, b, self.centre, self.radius_mm)

    def _gap_to_polygon(self, points: Sequence[Point]) -> float:
        return geometry.circle_polygon_distance(self.centre, self.radius_mm, points)

    def _farthest_from_segment(self, a: Point, b: Point) -> float:
        return geometry.point_segment_distance(self.centre, a, b) + self.radius_mm

    def _clip_square(
        self, centre: Point, half: float
    ) -> tuple[list[Point], float] | None:
        r, rho = self.radius_mm, half * math.sqrt(2)
        if 2 * rho >= r:
            return None  # the square could hold more than a short arc
        (cx, cy), (qx, qy) = self.centre, centre
        lo_x, hi_x, lo_y, hi_y = qx - half, qx + half, qy - half, qy + half
        points = [
            (x, y)
            for x in (lo_x, hi_x)
            for y in (lo_y, hi_y)
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        ]
        # Where the circle crosses the square's sides.
        for y in (lo_y, hi_y):
            room = r * r - (y - cy) ** 2
            if room >= 0:
                for x in (cx - math.sqrt(room), cx + math.sqrt(room)):
                    if lo_x <= x <= hi_x:
                        points.append((x, y))
        for x in (lo_x, hi_x):
            room = r * r - (x - cx) ** 2
            if room >= 0:
                for y in (cy - math.sqrt(room), cy + math.sqrt(room)):
                    if lo_y <= y <= hi_y:
                        points.append((x, y))
        # An arc within the square spans a chord no longer than its diagonal.
        return points, r - math.sqrt(r * r - rho * rho)

    def _reference_point(self) -> Point:
        return self.centre

    def _bounding_box(self) -> tuple[float, float, float, float]:
        (cx, cy), r = self.centre, self.radius_mm
        return (cx - r, cy - r, cx + r, cy + r)

    def _samples(self) -> list[Point]:
        (cx, cy), r = self.centre, self.radius_mm
        turns = [k * math.pi / 36 for k in range(72)]  # every 5 degrees
        return [self.centre] + [
            (cx + r * math.cos(t), cy + r * math.sin(t)) for t in turns
        ]


class PolygonZone(_Zone):
    """A hazard zone drawn as a simple polygon (a machine's danger area)."""

    shape: Literal["polygon"] = "polygon"
    points: tuple[Point, ...]

    @model_validator(mode="after")
    def _is_simple(self) -> PolygonZone:
        problem = geometry.polygon_problem(list(self.points))
        if problem is not None:
            raise ValueError(f"the zone polygon is unusable: {problem}")
        return self

    def _gap_to_point(self, p: Point) -> float:
        return geometry.point_polygon_distance(p, self.points)

    def _gap_to_segment(self, a: Point, b: Point) -> float:
        return geometry.distance_to_polygon(a, b, self.points)

    def _gap_to_polygon(self, points: Sequence[Point]) -> float:
        return geometry.polygon_polygon_distance(self.points, points)

    def _farthest_from_segment(self, a: Point, b: Point) -> float:
        # The distance to a segment is convex: greatest at a corner.
        return max(geometry.point_segment_distance(p, a, b) for p in self.points)

    def _clip_square(
        self, centre: Point, half: float
    ) -> tuple[list[Point], float] | None:
        (qx, qy) = centre
        return geometry.clip_polygon_to_box(
            self.points, qx - half, qy - half, qx + half, qy + half
        ), 0.0

    def _reference_point(self) -> Point:
        return self.points[0]

    def _bounding_box(self) -> tuple[float, float, float, float]:
        return geometry.bounding_box(self.points)

    def _samples(self) -> list[Point]:
        return list(self.points)


HazardZone = Annotated[CircleZone | PolygonZone, Field(discriminator="shape")]


def hazard_zone(
    *,
    shape: str,
    polygon_mm: Sequence[Sequence[float]],
    centre_mm: Point,
    radius_mm: float,
    lower_mm: float | None,
    upper_mm: float | None,
) -> CircleZone | PolygonZone:
    """The robot's maximum space on the plan, however the cell is held (its
    rows, its exchange document): the drawn polygon when ``shape`` is
    "polygon" with three points or more, else the circle of ``radius_mm``
    round ``centre_mm`` (the robot's base); from ``lower_mm`` (none: the
    floor) up to ``upper_mm`` (none: not recorded)."""
    lower = float(lower_mm or 0)
    heights = {
        "lower_mm": min(lower, upper_mm) if upper_mm is not None else lower,
        "upper_mm": float(upper_mm) if upper_mm is not None else None,
    }
    if shape == "polygon" and len(polygon_mm) >= 3:
        points = tuple((float(x), float(y)) for x, y in polygon_mm)
        return PolygonZone(points=points, **heights)
    return CircleZone(
        centre=(float(centre_mm[0]), float(centre_mm[1])),
        radius_mm=float(radius_mm),
        **heights,
    )


class Layout(_Frozen):
    """One cell's plan as this module needs it: the zone, the guards, the
    openings. Keys must be unique; each opening must fit on its segment."""

    zone: HazardZone
    segments: tuple[Segment, ...] = ()
    openings: tuple[Opening, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Layout:
        lengths = {s.key: s.length_mm for s in self.segments}
        if len(lengths) != len(self.segments):
            raise ValueError("segment keys must be unique")
        if len({o.key for o in self.openings}) != len(self.openings):
            raise ValueError("opening keys must be unique")
        for opening in self.openings:
            if opening.segment_key not in lengths:
                raise ValueError(f"opening {opening.key}: no such segment")
            if (
                opening.offset_mm + opening.width_mm
                > lengths[opening.segment_key] + 1e-6
            ):
                raise ValueError(f"opening {opening.key} runs past its segment's end")
        return self
