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

from cells.perimeter.analysis import analyse_perimeter
from cells.perimeter.inputs import (
    CONTACT_MM,
    JOIN_TOLERANCE_MM,
    REACH_PAST_BOUND_MM,
    CircleZone,
    Distance,
    GuardKind,
    HazardZone,
    Layout,
    Opening,
    Point,
    PolygonZone,
    Segment,
    hazard_zone,
    rectangle,
)
from cells.perimeter.joins import (
    NOTE_AMBIGUOUS_GAP,
    NOTE_APART,
    NOTE_BOUND,
    NOTE_JUNCTION,
    NOTE_NOT_SIMPLE,
    NOTE_STRAIGHT_GAP,
)
from cells.perimeter.plan import PlanOpening, PlanSegment, analysed, plan_layout
from cells.perimeter.results import (
    Chain,
    Crossing,
    Enclosure,
    EnclosureReason,
    FreeEnd,
    Gap,
    Join,
    Junction,
    Loop,
    Note,
    OpeningReport,
    PerimeterResult,
    Place,
    SegmentReport,
)

__all__ = [
    "CONTACT_MM",
    "JOIN_TOLERANCE_MM",
    "NOTE_AMBIGUOUS_GAP",
    "NOTE_APART",
    "NOTE_BOUND",
    "NOTE_JUNCTION",
    "NOTE_NOT_SIMPLE",
    "NOTE_STRAIGHT_GAP",
    "REACH_PAST_BOUND_MM",
    "Chain",
    "CircleZone",
    "Crossing",
    "Distance",
    "Enclosure",
    "EnclosureReason",
    "FreeEnd",
    "Gap",
    "GuardKind",
    "HazardZone",
    "Join",
    "Junction",
    "Layout",
    "Loop",
    "Note",
    "Opening",
    "OpeningReport",
    "PerimeterResult",
    "Place",
    "PlanOpening",
    "PlanSegment",
    "Point",
    "PolygonZone",
    "Segment",
    "SegmentReport",
    "analyse_perimeter",
    "analysed",
    "hazard_zone",
    "plan_layout",
    "rectangle",
]
