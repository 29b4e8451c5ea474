"""The space limits (ISO 12100:2010, 5.3.2) as the app writes them from the
layout, to start the engineer's text from.

The text is stored in English whoever opened the assessment, so the register
reads the same in both languages, with its source beside it; it is shown in
the reader's language from that source (the figures as they were written,
``compliance.calculators.written``). A text the engineer typed or edited is
not the app's and is shown as typed.
"""

from __future__ import annotations

from compliance.calculators import written
from compliance.calculators.base import gettext_noop

TEXT = gettext_noop(
    "Robot base at x %(x)s, y %(y)s mm; hazard zone %(zone)s. Perimeter guard: "
    "%(segments)s segments, %(length)s m, with %(openings)s openings."
)
ZONE_CIRCLE = gettext_noop("a circle of radius %(r)s mm")
ZONE_POLYGON = gettext_noop("a polygon of %(n)s corners")


def _number(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def source(
    *,
    base_x_mm: float,
    base_y_mm: float,
    zone_corners: int | None,
    zone_radius_mm: float | None,
    segments: int,
    perimeter_mm: float,
    openings: int,
) -> written.Source:
    """The space limits of a layout as the app writes them (message ids and
    the figures, ``compliance.calculators.written``); ``zone_corners`` for a
    drawn polygon, else ``zone_radius_mm`` for the reach circle."""
    if zone_corners is not None:
        zone = written.source(ZONE_POLYGON, {"n": _number(zone_corners)})
    else:
        zone = written.source(ZONE_CIRCLE, {"r": _number(zone_radius_mm or 0)})
    return written.source(
        TEXT,
        {
            "x": _number(base_x_mm),
            "y": _number(base_y_mm),
            "zone": zone,
            "segments": _number(segments),
            "length": _number(perimeter_mm / 1000, 1),
            "openings": _number(openings),
        },
    )
