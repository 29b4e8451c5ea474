"""Whether a device linked to an opening closes it: what the openings' rule
and ISO 13855's reach over read before they trust the device. Pure Python, no
Django.

A device guards an opening only where its detection zone closes it: on the
plan it spans the opening's width and no way round it is open
(``cells.perimeter.closure``, on the device's facts), and its beams cover the
opening's height range. What it leaves open is said in lines the verdict
shows in its working; none when it closes the opening, or when it is not
drawn (its own rules say so, and the opening's verdict relies on them).
"""

from __future__ import annotations

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855_tables import PARALLEL_CRAWL_UNDER_H_MM
from compliance.rules.facts import DeviceFacts, OpeningFacts
from compliance.rules.findings import mm

# Devices drawn as a detection line across an opening.
LINE_KINDS = ("light_curtain", "multibeam")
# ISO 13855 treats a detection zone more than 300 mm above the floor as one a
# person may crawl under (``iso13855.json``, the parallel approach's note):
# the same figure for the gap between an opening's lower edge and the lowest
# beam across it.
CRAWL_UNDER_MM = PARALLEL_CRAWL_UNDER_H_MM


def in_plane(device: DeviceFacts) -> bool:
    """The device stands in the plane of the guard its opening is cut in."""
    return device.closure is not None and device.closure.in_plane


def not_closing(device: DeviceFacts, opening: OpeningFacts) -> tuple[Line, ...]:
    """What ``device`` leaves of ``opening`` open, one line each; none when
    it closes it (or is not a line device drawn on the plan)."""
    closure = device.closure
    if device.kind not in LINE_KINDS or closure is None:
        return ()
    values = {"device": device.label, "opening": opening.label}
    lines = []
    if not closure.spans:
        lines.append(
            Line(
                text=gettext_noop(
                    "%(device)s covers %(from)s to %(to)s mm along the guard, but "
                    "%(opening)s runs from %(o_from)s to %(o_to)s mm: part of the "
                    "opening is open beside it."
                ),
                values={
                    **values,
                    "from": mm(closure.covered_from_mm),
                    "to": mm(closure.covered_to_mm),
                    "o_from": mm(closure.opening_from_mm),
                    "o_to": mm(closure.opening_to_mm),
                },
            )
        )
    if not closure.in_plane and closure.open_sides_mm:
        lines.append(
            Line(
                text=gettext_noop(
                    "%(device)s stands %(offset)s mm in front of the guard of "
                    "%(opening)s, and the side between its end and the guard is "
                    "open (%(sides)s mm): a person can go round it."
                ),
                values={
                    **values,
                    "offset": mm(closure.offset_mm),
                    "sides": " / ".join(mm(w) for w in closure.open_sides_mm),
                },
            )
        )
    top, bottom = device.detection_upper_mm, device.detection_lower_mm
    if top is not None and top < opening.upper_edge_mm:
        lines.append(
            Line(
                text=gettext_noop(
                    "The highest beam of %(device)s is at %(top)s mm, below the "
                    "upper edge of %(opening)s at %(upper)s mm: the opening is "
                    "open above it."
                ),
                values={
                    **values,
                    "top": mm(top),
                    "upper": mm(opening.upper_edge_mm),
                },
            )
        )
    if bottom is not None and bottom - opening.lower_edge_mm > CRAWL_UNDER_MM:
        lines.append(
            Line(
                text=gettext_noop(
                    "The lowest beam of %(device)s is %(gap)s mm above the lower "
                    "edge of %(opening)s: more than the %(limit)s mm above which "
                    "ISO 13855 expects a person may crawl under."
                ),
                values={
                    **values,
                    "gap": mm(bottom - opening.lower_edge_mm),
                    "limit": mm(CRAWL_UNDER_MM),
                },
            )
        )
    return tuple(lines)
