"""Which opening a safety device drawn on the plan stands across: the link a
light curtain, grid or mat placed with the drawing tools gets to the opening
it guards (``Device.opening``), found by geometry (``cells.geometry``)."""

from __future__ import annotations

from cells import geometry
from cells.models import Cell, Opening
from cells.models.devices import DeviceKind

# A light curtain or grid is mounted in the guard's plane or on posts just in
# front of or behind it, a safety mat laid up to the guard: a detection line
# (or a mat) within this distance of an opening's span on the plan is taken
# as drawn for that opening and linked to it. It decides only the link, never
# a verdict: whether the device closes the opening (spans it, stands in the
# plane or has its sides closed) is judged afterwards by
# ``cells.perimeter.closure``. Two metres off, it is drawn for something else.
OPENING_LINK_TOLERANCE_MM = 300.0

# The devices linked to the opening they are drawn across (a scanner guards
# by its field, which its form describes).
LINKED_BY_PLACE = frozenset(
    {DeviceKind.LIGHT_CURTAIN, DeviceKind.MULTIBEAM, DeviceKind.SAFETY_MAT}
)

Span = tuple[geometry.Point, geometry.Point]


def guarded_opening(
    *, cell: Cell, kind: str, points: list[tuple[int, int]]
) -> Opening | None:
    """The opening of ``cell`` a device of ``kind`` placed at ``points`` stands
    across: its detection line (a mat: its rectangle) covers the opening's span
    on its guard, within ``OPENING_LINK_TOLERANCE_MM``; of several, the one it
    covers most. None for a scanner, or a device across no opening."""
    if kind not in LINKED_BY_PLACE or len(points) != 2:
        return None
    openings = list(
        Opening.objects.filter(segment__cell=cell)
        .select_related("segment")
        .order_by("segment_id", "offset_mm", "pk")
    )
    spans: list[Span] = [
        (
            geometry.point_along(o.segment.start, o.segment.end, o.offset_mm),
            geometry.point_along(
                o.segment.start, o.segment.end, o.offset_mm + o.width_mm
            ),
        )
        for o in openings
    ]
    a, b = points

    def cover(span: Span) -> float:
        if kind == DeviceKind.SAFETY_MAT:
            return geometry.span_covered_by_box(span, a, b, OPENING_LINK_TOLERANCE_MM)
        return geometry.span_covered_by_line(span, (a, b), OPENING_LINK_TOLERANCE_MM)

    index = geometry.most_covered_span(spans, cover)
    return None if index is None else openings[index]
