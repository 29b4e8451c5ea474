"""What the plan's SVG template needs besides the drawing. Pure Python, no
Django.

The template ``templates/cells/partials/plan_svg.html`` writes a ``Drawing``
as the SVG the cell page, the DXF import's preview and the plan's download
show; ``plan_svg_context`` hands it the drawing with the few figures a
template cannot write as the plan shows them: whole millimetres rounded half
up (the download's size, a ring's radius with its thousands grouped as the
plan's other labels are), a scanner field's radius in six significant digits,
the grid labels' font size.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from cells.drawing.primitives import Drawing


class UnderlayImageLike(Protocol):
    """A floor-plan image drawn under the plan (``cells.layout_image``)."""

    href: str
    x: float
    y: float
    width: float
    height: float
    opacity: float


def whole(value: float, *, grouped: bool = False) -> str:
    """A number rounded half up to a whole one: "1,700" when ``grouped``."""
    number = int(Decimal(repr(float(value))).quantize(Decimal(1), ROUND_HALF_UP))
    return f"{number:,}" if grouped else str(number)


# The shapes drawn with a ``key`` (the element the editor selects; a
# clearance is highlighted with its device), and those drawn with an outline
# of ``points``.
_KEYED = (
    "segments",
    "openings",
    "stations",
    "curtains",
    "mats",
    "scanners",
    "clearances",
)
_OUTLINED = ("clearances", "approaches")


def plain_drawing(drawing: Drawing) -> dict:
    """The drawing as plain dicts and lists, with what its models work out
    (each element's ``key``, outlines' ``points``, the ``view_box``, the
    ``grid_labels``) and the figures written as the plan shows them (a
    ring's ``radius_text``, a scanner's ``field_r``). A template reads a
    dict's key at its first try, a model's attribute at its second: a third
    of a large plan's time."""
    plain = drawing.model_dump()
    for name in _KEYED:
        for shape, dumped in zip(getattr(drawing, name), plain[name], strict=True):
            dumped["key"] = shape.key
    for name in _OUTLINED:
        for shape, dumped in zip(getattr(drawing, name), plain[name], strict=True):
            dumped["points"] = shape.points
    for ring in plain["hazard_rings"]:
        ring["radius_text"] = whole(ring["radius"], grouped=True)
    for scanner in plain["scanners"]:
        field = scanner["field_radius"]
        scanner["field_r"] = f"{field:g}" if field else ""
    plain["view_box"] = drawing.view_box
    plain["grid_labels"] = [label.model_dump() for label in drawing.grid_labels]
    return plain


def plan_svg_context(
    drawing: Drawing,
    *,
    name: str,
    title_id: str,
    selected_key: str = "",
    image: UnderlayImageLike | None = None,
    standalone: bool = False,
    stylesheet: str = "",
    nonce: str = "",
) -> dict:
    """The template's context for ``drawing``, the plan of the cell named
    ``name``: plain values only.

    ``title_id``: the id of its title (one per page); ``selected_key``: the
    element highlighted (being edited); ``image``: a floor-plan image drawn
    under the plan (not in a standalone file); ``standalone``: a file of its
    own, sized in whole millimetres and carrying ``stylesheet`` under the
    CSP ``nonce``."""
    return {
        "drawing": plain_drawing(drawing),
        "name": name,
        "title_id": title_id,
        "selected_key": selected_key,
        "image": None if standalone else image,
        "standalone": standalone,
        "stylesheet": stylesheet,
        "nonce": nonce,
        "width_mm": whole(drawing.view_width) if standalone else "",
        "height_mm": whole(drawing.view_height) if standalone else "",
        "grid_font_size": round(drawing.font_mm / 4.0 * 3),
    }
