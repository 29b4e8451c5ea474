"""What the perimeter analysis gives: loops, chains, joins, gaps, the
enclosure verdict and every distance, each item keyed so that the rules can
cite it. Pure Python with pydantic, no Django."""

from __future__ import annotations

from typing import Literal

from cells import geometry
from cells.perimeter.inputs import (
    CONTACT_MM,
    Distance,
    GuardKind,
    HazardZone,
    Point,
    _Frozen,
)

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
