"""The space limits (ISO 12100:2010, 5.3.2) as the app writes them from the
layout, to start the engineer's text from.

The text is stored in English whoever opened the assessment, so the register
reads the same in both languages; ``localise`` shows such a stored text in the
reader's language (the figures as they were written). A text the engineer
typed or edited is not the app's and comes back unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from compliance.calculators.base import gettext_noop

TEXT = gettext_noop(
    "Robot base at x %(x)s, y %(y)s mm; hazard zone %(zone)s. Perimeter guard: "
    "%(segments)s segments, %(length)s m, with %(openings)s openings."
)
ZONE_CIRCLE = gettext_noop("a circle of radius %(r)s mm")
ZONE_POLYGON = gettext_noop("a polygon of %(n)s corners")

Translate = Callable[[str], str]


def _number(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def write(
    *,
    base_x_mm: float,
    base_y_mm: float,
    zone_corners: int | None,
    zone_radius_mm: float | None,
    segments: int,
    perimeter_mm: float,
    openings: int,
    translate: Translate = str,
) -> str:
    """The space limits of a layout; ``zone_corners`` for a drawn polygon, else
    ``zone_radius_mm`` for the reach circle. In English unless ``translate``
    says otherwise."""
    if zone_corners is not None:
        zone = translate(ZONE_POLYGON) % {"n": _number(zone_corners)}
    else:
        zone = translate(ZONE_CIRCLE) % {"r": _number(zone_radius_mm or 0)}
    return translate(TEXT) % {
        "x": _number(base_x_mm),
        "y": _number(base_y_mm),
        "zone": zone,
        "segments": _number(segments),
        "length": _number(perimeter_mm / 1000, 1),
        "openings": _number(openings),
    }


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(msgid: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(msgid)
    return re.compile(
        "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
            for i, part in enumerate(parts)
        ),
        re.DOTALL,
    )


@functools.cache
def _patterns() -> tuple[re.Pattern[str], tuple[tuple[re.Pattern[str], str], ...]]:
    return _pattern(TEXT), (
        (_pattern(ZONE_CIRCLE), ZONE_CIRCLE),
        (_pattern(ZONE_POLYGON), ZONE_POLYGON),
    )


def localise(text: str, translate: Translate) -> str:
    """A stored space-limits text in the reader's language, if the app wrote
    it in English; any other text unchanged."""
    if not text:
        return text
    whole, zones = _patterns()
    found = whole.fullmatch(text.strip())
    if not found:
        return text
    values = found.groupdict()
    for pattern, msgid in zones:
        zone = pattern.fullmatch(values["zone"])
        if zone:
            values["zone"] = translate(msgid) % zone.groupdict()
            break
    else:
        return text
    try:
        return translate(TEXT) % values
    except (KeyError, ValueError, TypeError):
        return text
