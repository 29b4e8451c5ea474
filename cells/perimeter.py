"""The safeguarded space, from the geometry. Pure Python with pydantic, no Django.

From the guard segments, openings and hazard zone of one cell's plan (in
millimetres, as in ``cells.models``) this works out which segments close a loop
round the hazard zone, where the perimeter is open, and how far each thing on
the plan is from the zone, so that the compliance rules can cite every item by
its key. All distances are horizontal, on the plan, and exact (closed formulas
for circles and polygons); heights are carried through for the rules.

The choices a safety engineer signs along with the verdicts:

- Joins. Two segment ends closer than ``JOIN_TOLERANCE_MM`` (10 mm, strictly
  closer) are joined, in whatever order the segments come and whichever way
  each runs. The short step between two joined ends counts as guard, and is
  reported as a ``Join`` with its width so that a rule can still judge it.
  Only ends join: an end resting against the side of another segment, or a
  segment overshooting a corner by more than the tolerance, leaves a free end.
  Where three or more ends lie within the tolerance of one another the nearest
  pairs are joined first (ties go by segment key, start before end); an end
  left over is free and reported as part of a gap, and the place is reported
  as a ``Junction``.
- Loops. Joined segments form chains; a chain whose ends meet is a closed
  loop. Its outline runs along its segments and across its joins. A point is
  inside a loop when the outline winds round it (non-zero winding), so a loop
  that crosses itself still encloses what it winds round; anything it does not
  wind round counts as outside. That can only miss an enclosure, never invent
  one. Two segments there and back enclose nothing. Openings do not break a
  loop: they are reported, with their distances, for their own rules.
- Gaps. The free ends of the open chains are paired into unguarded gaps,
  nearest pair first over the whole plan (ties go by segment key). The two
  ends of a straight chain (a single panel, say) are not paired with each
  other while any other free end is left, since that "gap" would lie along the
  guard itself. Every free end ends up in exactly one gap, whatever else is
  unsure: a gap whose pairing is in doubt (another free end is about as near,
  or the end was left over at a junction) is flagged ``ambiguous``, and a rule
  should treat its width as unknown.
- Enclosure. The zone is enclosed when it lies inside a loop without touching
  it: every point of the zone more than ``CONTACT_MM`` from the loop's outline.
  When several loops enclose it, the safeguarded space is the smallest. Touching
  counts as crossing. For a zone that crosses a loop the result says how far it
  reaches past it: the largest distance from a point of the zone to the area
  inside the loop. That figure is exact for a convex loop; for any other loop
  it is found by bisecting the plan and is an upper bound, normally within
  ``REACH_PAST_BOUND_MM`` of the true figure; the result says it is a bound and
  how far it may be too high.
- A distance is never a bare 0: each comes as a ``Distance`` whose
  ``inside_zone`` says the thing reaches into or touches the zone.

Joining, pairing and the loop checks use grids, so a plan of a thousand
segments takes a fraction of a second.
"""

from __future__ import annotations

import bisect
import heapq
import math
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

    # Each shape provides these.
    def _gap_to_point(self, p: Point) -> float:
        """Distance from the zone to a point (0 inside)."""
        raise NotImplementedError

    def _gap_to_segment(self, a: Point, b: Point) -> float:
        """Distance from the zone to a line segment (0 where it enters)."""
        raise NotImplementedError

    def _gap_to_polygon(self, points: Sequence[Point]) -> float:
        """Distance from the zone to a polygon's area (0 where they overlap)."""
        raise NotImplementedError

    def _farthest_from_segment(self, a: Point, b: Point) -> float:
        """The greatest distance from a point of the zone to a line segment."""
        raise NotImplementedError

    def _clip_square(
        self, centre: Point, half: float
    ) -> tuple[list[Point], float] | None:
        """The corners of the part of the zone within the square (empty if
        none), and how far the zone may bulge beyond the straight lines between
        them; None when the square is too large to tell."""
        raise NotImplementedError

    def _reference_point(self) -> Point:
        """A point of the zone: on the same side of any outline it keeps clear of."""
        raise NotImplementedError

    def _bounding_box(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the zone."""
        raise NotImplementedError

    def _samples(self) -> list[Point]:
        """A few points of the zone where it is likely to reach farthest."""
        raise NotImplementedError


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


# --- What comes out ----------------------------------------------------------


class Note(_Frozen):
    """A conservative choice made for this plan, for the engineer who signs.

    ``text`` is an English template marked for translation; ``%(name)s``
    placeholders are filled from ``values``.
    """

    text: str
    values: dict[str, str | int | float] = {}

    def render(self) -> str:
        return self.text % self.values if self.values else self.text


class FreeEnd(_Frozen):
    """An end of an open chain: the guard stops here, joined to nothing."""

    segment_key: str
    point: Point
    at_junction: bool = False  # left over where three or more ends met


class Join(_Frozen):
    """Two segment ends closer than the tolerance, counted as joined. The
    width of what is left between them is kept for the rules to judge."""

    key: str  # "join:<segment>-<segment>"
    segment_keys: tuple[str, str]
    points: tuple[Point, Point]
    width_mm: float
    distance: Distance


class Junction(_Frozen):
    """A place where three or more segment ends lie within the tolerance of one
    another: the nearest were joined, any end left over is free."""

    key: str  # "junction:<segment>-<segment>-..."
    point: Point  # the middle of the ends
    segment_keys: tuple[str, ...]


class Loop(_Frozen):
    """A chain of joined segments whose ends meet: a closed perimeter."""

    key: str  # "loop:<smallest segment key>"
    segment_keys: tuple[str, ...]  # in order round the loop, anticlockwise
    points: tuple[Point, ...]  # the outline: along the segments and across joins
    area_mm2: float
    convex: bool
    simple: bool  # the outline neither crosses nor touches itself
    opening_keys: tuple[str, ...]  # in order round the loop


class Chain(_Frozen):
    """A run of joined segments that does not close: the guard is open at its
    two free ends."""

    key: str  # "chain:<smallest segment key>"
    segment_keys: tuple[str, ...]
    points: tuple[Point, ...]
    ends: tuple[FreeEnd, FreeEnd]
    opening_keys: tuple[str, ...]


class Gap(_Frozen):
    """An unguarded gap: the straight line between two free ends, which is not
    an opening."""

    key: str  # "gap:<segment>-<segment>", "#2" added if that pair recurs
    ends: tuple[FreeEnd, FreeEnd]
    width_mm: float
    distance: Distance  # from the hazard zone to the line between the ends
    ambiguous: bool  # which ends face each other is uncertain: width unknown


class SegmentReport(_Frozen):
    """A guard segment with its place in the perimeter and its distance from
    the hazard zone (the horizontal distance c of ISO 13857 reaching over)."""

    key: str
    kind: GuardKind
    start: Point
    end: Point
    length_mm: float
    height_mm: float
    lower_edge_mm: float
    part_of: str  # key of its loop or chain
    distance: Distance


class OpeningReport(_Frozen):
    """An opening as a gap in its loop or chain, with its ends on the plan and
    its horizontal distance from the hazard zone."""

    key: str
    segment_key: str
    start: Point
    end: Point
    width_mm: float
    lower_edge_mm: float
    upper_edge_mm: float
    part_of: str
    distance: Distance


class Crossing(_Frozen):
    """A loop that the hazard zone crosses or touches, and how far the zone
    reaches past it (0: it touches)."""

    loop_key: str
    reach_past_mm: float  # exact, or an upper bound
    exact: bool
    uncertainty_mm: float = 0.0  # the true figure is at most this much lower


EnclosureReason = Literal[
    "enclosed", "no_closed_loop", "zone_crosses_perimeter", "zone_outside_every_loop"
]


class Enclosure(_Frozen):
    """Whether a closed loop holds the whole hazard zone, and if not why.

    - ``enclosed``: ``loop_key`` is the safeguarded space, ``clearance_mm`` the
      shortest distance from the zone to it;
    - ``no_closed_loop``: no segments close a loop (none at all, one, an open
      run);
    - ``zone_crosses_perimeter``: the zone touches or crosses a loop;
      ``loop_key`` is the one it reaches least past, by ``reach_past_mm``;
      ``crossings`` lists every loop it crosses;
    - ``zone_outside_every_loop``: there are loops, the zone is outside them.
    """

    enclosed: bool
    reason: EnclosureReason
    loop_key: str | None = None
    clearance_mm: float | None = None
    reach_past_mm: float | None = None
    reach_past_exact: bool | None = None
    crossings: tuple[Crossing, ...] = ()  # least reach first; only when not enclosed
    enclosing_loop_keys: tuple[str, ...] = ()  # smallest first


Place = Literal["inside", "on_perimeter", "outside", "no_safeguarded_space"]


class PerimeterResult(_Frozen):
    """The perimeter worked out from one plan: loops, chains, gaps, the
    enclosure verdict and every distance to the hazard zone, each item keyed."""

    join_tolerance_mm: float
    zone: HazardZone
    segments: tuple[SegmentReport, ...]  # by key
    openings: tuple[OpeningReport, ...]  # by key
    loops: tuple[Loop, ...]  # by key
    chains: tuple[Chain, ...]  # by key
    joins: tuple[Join, ...]
    junctions: tuple[Junction, ...]
    gaps: tuple[Gap, ...]  # by key
    enclosure: Enclosure
    safeguarded_space: tuple[Point, ...]  # the enclosing loop's outline; () if none
    notes: tuple[Note, ...]

    def locate(self, point: Point) -> Place:
        """Where a point (an operator station, say) is relative to the
        safeguarded space. "outside" is certain: guarding separates the point
        from the zone. "inside" may include a separately fenced pocket within
        the space. "no_safeguarded_space" when the zone is not enclosed."""
        outline = self.safeguarded_space
        if not outline:
            return "no_safeguarded_space"
        if geometry.outline_distance(point, outline) <= CONTACT_MM:
            return "on_perimeter"
        return "inside" if geometry.winding_number(point, outline) else "outside"


# --- The working -------------------------------------------------------------

NOTE_JUNCTION = gettext_noop(
    "%(count)s segment ends meet within %(tolerance)s mm of one another near "
    "(%(x)s, %(y)s), segments %(segments)s: the nearest ends were joined, any "
    "end left over counts as free."
)
NOTE_AMBIGUOUS_GAP = gettext_noop(
    "Gap %(gap)s: another free end is about as near, so which ends face each "
    "other is uncertain; its width is not a measurement."
)
NOTE_STRAIGHT_GAP = gettext_noop(
    "Gap %(gap)s joins the two ends of a straight run of guard: nothing else "
    "is there to close it."
)
NOTE_NOT_SIMPLE = gettext_noop(
    "Loop %(loop)s crosses or touches itself: only what it winds round counts "
    "as inside it."
)
NOTE_BOUND = gettext_noop(
    "Loop %(loop)s is not convex: the reach past it is an upper bound, at most "
    "%(uncertainty)s mm above the true figure."
)


def _unique_keys(base_keys: list[str]) -> list[str]:
    """The keys, with "#2", "#3"... added to the second and later of a kind."""
    seen: dict[str, int] = {}
    keys = []
    for key in base_keys:
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return keys


def _pair_key(prefix: str, a: str, b: str) -> str:
    """The key of an item between two segments, the same either way round."""
    first, second = sorted((a, b))
    return f"{prefix}:{first}-{second}"


Steps = list[tuple[int, bool]]  # a run of segments: (index, run end to start)


def _join_ends(
    segments: Sequence[Segment],
) -> tuple[list[int], list[list[int]]]:
    """Which segment end is joined to which: end ``2i`` is segment i's start,
    ``2i + 1`` its end; -1 where free. Also the groups of three or more ends
    within the tolerance of one another."""
    ends = [p for s in segments for p in (s.start, s.end)]
    candidates = sorted(
        (geometry.squared_distance_mm2(ends[i], ends[j]), i, j)
        for i, j in geometry.close_pairs(ends, JOIN_TOLERANCE_MM)
        if i // 2 != j // 2
    )
    partner = [-1] * len(ends)
    parent = list(range(len(ends)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _, i, j in candidates:
        parent[root(i)] = root(j)
        if partner[i] < 0 and partner[j] < 0:
            partner[i], partner[j] = j, i
    groups: dict[int, list[int]] = {}
    for _, i, j in candidates:
        for e in (i, j):
            groups.setdefault(root(e), [])
            if e not in groups[root(e)]:
                groups[root(e)].append(e)
    junctions = [sorted(g) for g in groups.values() if len(g) >= 3]
    return partner, sorted(junctions)


def _runs(count: int, partner: Sequence[int]) -> list[tuple[Steps, bool]]:
    """Follow the joins from segment to segment: open chains first (from a free
    end), then what is left, which can only be closed loops."""
    visited = [False] * count
    runs = []

    def follow(i: int, entry: int) -> tuple[Steps, bool]:
        steps: Steps = []
        while True:
            visited[i] = True
            steps.append((i, entry == 1))
            nxt = partner[2 * i + 1 - entry]
            if nxt < 0:
                return steps, False
            i, entry = divmod(nxt, 2)
            if visited[i]:
                return steps, True

    for i in range(count):
        if not visited[i] and partner[2 * i] < 0:
            runs.append(follow(i, 0))
        elif not visited[i] and partner[2 * i + 1] < 0:
            runs.append(follow(i, 1))
    for i in range(count):
        if not visited[i]:
            runs.append(follow(i, 0))
    return runs


def _oriented(segment: Segment, reverse: bool) -> tuple[Point, Point]:
    """The segment's two ends in the order a run passes them."""
    return (segment.end, segment.start) if reverse else (segment.start, segment.end)


def _outline(segments: Sequence[Segment], steps: Steps) -> list[Point]:
    """The corners a run passes: each segment's ends, a shared end once."""
    points: list[Point] = []
    for i, reverse in steps:
        for p in _oriented(segments[i], reverse):
            if not points or points[-1] != p:
                points.append(p)
    return points


def _reversed_steps(steps: Steps) -> Steps:
    """The same run walked the other way."""
    return [(i, not reverse) for i, reverse in reversed(steps)]


def _canonical_loop(segments: Sequence[Segment], steps: Steps) -> Steps:
    """The loop run anticlockwise from its smallest segment key, so the same
    loop comes out the same however its segments were entered."""

    def from_smallest(s: Steps) -> Steps:
        k = min(range(len(s)), key=lambda n: s[n][0])
        return s[k:] + s[:k]

    steps = from_smallest(steps)
    points = _outline(segments, steps)
    if points[0] == points[-1]:
        points.pop()
    area = geometry.signed_area_mm2(points)
    if area < 0 or (area == 0 and len(steps) > 1 and steps[-1][0] < steps[1][0]):
        steps = from_smallest(_reversed_steps(steps))
    return steps


def _opening_keys(
    steps: Steps,
    segments: Sequence[Segment],
    by_segment: dict[str, list[Opening]],
) -> tuple[str, ...]:
    """The openings of a run in the order it passes them."""
    keys = []
    for i, reverse in steps:
        along = sorted(by_segment.get(segments[i].key, []), key=lambda o: o.offset_mm)
        keys.extend(o.key for o in (reversed(along) if reverse else along))
    return tuple(keys)


def _is_straight(points: Sequence[Point]) -> bool:
    """Whether a run's corners all lie on one line (a single panel, say)."""
    a = points[0]
    b = next((p for p in points if p != a), a)
    return all(
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) == 0
        for p in points
    )


def _pair_free_ends(
    ends: Sequence[Point], chain_of: Sequence[int], straight: Sequence[bool]
) -> list[tuple[int, int]]:
    """Pair the free ends, nearest pair first over the whole plan.

    Exactly the greedy pairing over every pair, but found in rounds of
    doubling radius so that only near pairs are ever compared: a round
    settles every pair closer than its radius, in order of distance.
    """

    def allowed(i: int, j: int) -> bool:
        return chain_of[i] != chain_of[j] or not straight[chain_of[i]]

    remaining = list(range(len(ends)))
    pairs = []
    radius = JOIN_TOLERANCE_MM
    while len(remaining) >= 2:
        if len(remaining) == 2 and not allowed(*remaining):
            pairs.append((remaining[0], remaining[1]))  # nothing else left
            break
        subset = [ends[k] for k in remaining]
        candidates = sorted(
            (
                geometry.squared_distance_mm2(subset[a], subset[b]),
                remaining[a],
                remaining[b],
            )
            for a, b in geometry.close_pairs(subset, radius)
            if allowed(remaining[a], remaining[b])
        )
        taken: set[int] = set()
        for _, i, j in candidates:
            if i not in taken and j not in taken:
                taken.update((i, j))
                pairs.append((i, j))
        remaining = [k for k in remaining if k not in taken]
        radius *= 2
    return pairs


def _contested(
    pairs: Sequence[tuple[int, int]],
    ends: Sequence[Point],
    chain_of: Sequence[int],
    straight: Sequence[bool],
) -> set[tuple[int, int]]:
    """The pairs for which some other free end is within the gap's width (plus
    the tolerance) of one of its ends: the pairing could have gone otherwise."""
    order = sorted(range(len(ends)), key=lambda k: ends[k][0])
    xs = [ends[k][0] for k in order]
    contested = set()
    for i, j in pairs:
        reach = (
            math.sqrt(geometry.squared_distance_mm2(ends[i], ends[j]))
            + JOIN_TOLERANCE_MM
        )
        for here in (i, j):
            lo = bisect.bisect_left(xs, ends[here][0] - reach)
            for k in order[lo:]:
                if ends[k][0] > ends[here][0] + reach:
                    break
                if k in (i, j):
                    continue
                if chain_of[k] == chain_of[here] and straight[chain_of[k]]:
                    continue
                if geometry.squared_distance_mm2(ends[here], ends[k]) < reach * reach:
                    contested.add((i, j))
    return contested


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


def _end_point(segments: Sequence[Segment], end: int) -> Point:
    """Where segment end ``end`` (``2i`` start, ``2i + 1`` end) lies."""
    segment = segments[end // 2]
    return segment.end if end % 2 else segment.start


def _junctions(
    segments: Sequence[Segment], groups: Sequence[Sequence[int]]
) -> tuple[list[Junction], list[Note]]:
    """The places where three or more ends met, each with its note."""
    junctions, notes = [], []
    for group in groups:
        points = [_end_point(segments, e) for e in group]
        middle = (
            sum(p[0] for p in points) / len(points),
            sum(p[1] for p in points) / len(points),
        )
        keys = tuple(sorted({segments[e // 2].key for e in group}))
        junctions.append(
            Junction(key="junction:" + "-".join(keys), point=middle, segment_keys=keys)
        )
        values = {
            "count": len(group),
            "tolerance": JOIN_TOLERANCE_MM,
            "x": round(middle[0], 1),
            "y": round(middle[1], 1),
            "segments": ", ".join(keys),
        }
        notes.append(Note(text=NOTE_JUNCTION, values=values))
    unique = _unique_keys([j.key for j in junctions])
    return [
        j.model_copy(update={"key": k}) for j, k in zip(junctions, unique, strict=True)
    ], notes


def _joins(
    segments: Sequence[Segment], partner: Sequence[int], zone: _Zone
) -> list[Join]:
    """Every join, with the width left between its two ends."""
    pairs = sorted({(min(e, p), max(e, p)) for e, p in enumerate(partner) if p >= 0})
    keys = _unique_keys(
        [
            _pair_key("join", segments[a // 2].key, segments[b // 2].key)
            for a, b in pairs
        ]
    )
    joins = []
    for key, (a, b) in zip(keys, pairs, strict=True):
        pa, pb = _end_point(segments, a), _end_point(segments, b)
        joins.append(
            Join(
                key=key,
                segment_keys=(segments[a // 2].key, segments[b // 2].key),
                points=(pa, pb),
                width_mm=geometry.distance_mm(pa, pb),
                distance=zone.distance_to_segment(pa, pb),
            )
        )
    return joins


def _loop(
    segments: Sequence[Segment], run: Steps, by_segment: dict[str, list[Opening]]
) -> Loop:
    """A closed run as a ``Loop``: anticlockwise from its smallest key."""
    steps = _canonical_loop(segments, run)
    points = _outline(segments, steps)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return Loop(
        key=f"loop:{segments[steps[0][0]].key}",
        segment_keys=tuple(segments[i].key for i, _ in steps),
        points=tuple(points),
        area_mm2=abs(geometry.signed_area_mm2(points)),
        convex=geometry.polygon_is_convex(points),
        simple=geometry.polygon_is_simple(points),
        opening_keys=_opening_keys(steps, segments, by_segment),
    )


def _chain(
    segments: Sequence[Segment],
    run: Steps,
    by_segment: dict[str, list[Opening]],
    junction_ends: set[int],
) -> Chain:
    """An open run as a ``Chain`` with its two free ends."""
    flipped = _reversed_steps(run)
    # From the end with the smaller key; a single segment runs its own way.
    steps = (
        flipped if (flipped[0][0], flipped[-1][0]) < (run[0][0], run[-1][0]) else run
    )
    points = _outline(segments, steps)
    (first, first_reversed), (last, last_reversed) = steps[0], steps[-1]
    first_end = 2 * first + (1 if first_reversed else 0)
    last_end = 2 * last + (0 if last_reversed else 1)
    return Chain(
        key=f"chain:{min(segments[i].key for i, _ in steps)}",
        segment_keys=tuple(segments[i].key for i, _ in steps),
        points=tuple(points),
        ends=(
            FreeEnd(
                segment_key=segments[first].key,
                point=points[0],
                at_junction=first_end in junction_ends,
            ),
            FreeEnd(
                segment_key=segments[last].key,
                point=points[-1],
                at_junction=last_end in junction_ends,
            ),
        ),
        opening_keys=_opening_keys(steps, segments, by_segment),
    )


def _gaps(chains: Sequence[Chain], zone: _Zone) -> tuple[list[Gap], list[Note]]:
    """The unguarded gaps between the free ends of the open chains."""
    free_ends = [end for chain in chains for end in chain.ends]
    chain_of = [k // 2 for k in range(len(free_ends))]
    straight = [_is_straight(chain.points) for chain in chains]
    points = [end.point for end in free_ends]
    pairs = _pair_free_ends(points, chain_of, straight)
    contested = _contested(pairs, points, chain_of, straight)

    def names(pair: tuple[int, int]) -> list[str]:
        return sorted(free_ends[k].segment_key for k in pair)

    pairs.sort(key=lambda pair: (names(pair), pair))
    keys = _unique_keys([_pair_key("gap", *names(pair)) for pair in pairs])
    gaps, notes = [], []
    for key, (i, j) in zip(keys, pairs, strict=True):
        a, b = free_ends[i], free_ends[j]
        ambiguous = (i, j) in contested or a.at_junction or b.at_junction
        gaps.append(
            Gap(
                key=key,
                ends=(a, b),
                width_mm=geometry.distance_mm(a.point, b.point),
                distance=zone.distance_to_segment(a.point, b.point),
                ambiguous=ambiguous,
            )
        )
        if ambiguous:
            notes.append(Note(text=NOTE_AMBIGUOUS_GAP, values={"gap": key}))
        elif chain_of[i] == chain_of[j] and straight[chain_of[i]]:
            notes.append(Note(text=NOTE_STRAIGHT_GAP, values={"gap": key}))
    return gaps, notes


def _opening_report(
    opening: Opening, segment: Segment, part_of: str, zone: _Zone
) -> OpeningReport:
    """An opening placed on the plan and measured from the zone."""
    a = geometry.point_along(segment.start, segment.end, opening.offset_mm)
    b = geometry.point_along(
        segment.start, segment.end, opening.offset_mm + opening.width_mm
    )
    return OpeningReport(
        key=opening.key,
        segment_key=opening.segment_key,
        start=a,
        end=b,
        width_mm=opening.width_mm,
        lower_edge_mm=opening.lower_edge_mm,
        upper_edge_mm=opening.upper_edge_mm,
        part_of=part_of,
        distance=zone.distance_to_segment(a, b),
    )


def analyse_perimeter(layout: Layout) -> PerimeterResult:
    """Work out the perimeter of one plan: the loops and open chains its guard
    segments form, the unguarded gaps, whether a loop encloses the hazard zone
    (the safeguarded space), and the distance from the zone to every segment,
    opening, join and gap. The choices made are in the module docstring."""
    zone = layout.zone
    # Sorted by key, so the input order cannot matter and ties go by key.
    segments = sorted(layout.segments, key=lambda s: s.key)
    by_segment: dict[str, list[Opening]] = {}
    for opening in layout.openings:
        by_segment.setdefault(opening.segment_key, []).append(opening)
    partner, junction_groups = _join_ends(segments)
    junctions, notes = _junctions(segments, junction_groups)
    junction_ends = {e for group in junction_groups for e in group}

    loops: list[Loop] = []
    chains: list[Chain] = []
    for run, closed in _runs(len(segments), partner):
        if closed:
            loops.append(_loop(segments, run, by_segment))
        else:
            chains.append(_chain(segments, run, by_segment, junction_ends))
    loops.sort(key=lambda loop: loop.key)
    chains.sort(key=lambda chain: chain.key)
    notes += [
        Note(text=NOTE_NOT_SIMPLE, values={"loop": loop.key})
        for loop in loops
        if not loop.simple and len(loop.points) >= 3
    ]
    gaps, gap_notes = _gaps(chains, zone)
    enclosure, space, enclosure_notes = _enclosure(zone, loops)
    notes += gap_notes + enclosure_notes

    part_of = {key: run.key for run in (*loops, *chains) for key in run.segment_keys}
    by_key = {s.key: s for s in segments}
    return PerimeterResult(
        join_tolerance_mm=JOIN_TOLERANCE_MM,
        zone=zone,
        segments=tuple(
            SegmentReport(
                key=s.key,
                kind=s.kind,
                start=s.start,
                end=s.end,
                length_mm=s.length_mm,
                height_mm=s.height_mm,
                lower_edge_mm=s.lower_edge_mm,
                part_of=part_of[s.key],
                distance=zone.distance_to_segment(s.start, s.end),
            )
            for s in segments
        ),
        openings=tuple(
            _opening_report(o, by_key[o.segment_key], part_of[o.segment_key], zone)
            for o in sorted(layout.openings, key=lambda o: o.key)
        ),
        loops=tuple(loops),
        chains=tuple(chains),
        joins=tuple(_joins(segments, partner, zone)),
        junctions=tuple(junctions),
        gaps=tuple(gaps),
        enclosure=enclosure,
        safeguarded_space=space,
        notes=tuple(notes),
    )
