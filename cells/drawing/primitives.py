"""The drawing's data: the primitives a plan is made of, in millimetres.

Lines and labels, the shapes of guards, openings, stations and devices, the
safety engineer's marks (gaps, the reach past the guard, the distances S), the
words the labels use (``DrawingLabels``) and the whole ``Drawing``. Frozen
pydantic models, no Django; ``element_key`` names a drawn element the way
each shape's ``key`` does.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Prim(BaseModel):
    model_config = ConfigDict(frozen=True)


class Line(_Prim):
    x1: float
    y1: float
    x2: float
    y2: float


class Label(_Prim):
    x: float
    y: float
    text: str
    rotate_deg: float = 0.0
    sub: str = ""  # a second, smaller line under the first


class SegmentShape(_Prim):
    index: int
    label: str
    kind: str
    pieces: list[Line]  # the guard with its openings cut out
    caption: Label

    @property
    def key(self) -> str:
        return f"s{self.index}"


class OpeningShape(_Prim):
    segment_index: int
    index: int
    label: str
    purpose: str
    gap: Line
    caption: Label
    # The verdict of the rule that the opening is guarded, when it fails: an
    # opening no device closes is drawn in the fail colour.
    status: str = ""

    @property
    def key(self) -> str:
        return f"s{self.segment_index}o{self.index}"


class StationShape(_Prim):
    index: int
    label: str
    x: float
    y: float
    caption: Label

    @property
    def key(self) -> str:
        return f"t{self.index}"


class DeviceShape(_Prim):
    """A device placed on the plan; ``index`` is its place in the document."""

    index: int
    label: str
    kind: str
    caption: Label

    @property
    def key(self) -> str:
        return f"d{self.index}"


class CurtainShape(DeviceShape):
    """A light curtain or multi-beam grid: the line its beams span."""

    line: Line


class MatShape(DeviceShape):
    """A safety mat: its rectangle, top-left corner on screen and size."""

    x: float
    y: float
    width: float
    height: float


class ScannerShape(DeviceShape):
    """A safety laser scanner: where it stands, a ring with a cross in it."""

    x: float
    y: float
    radius: float
    marker: list[Line]  # the cross
    # Its protective field as the rules read it: the disc of this radius.
    field_radius: float | None = None


class DrawingLabels(_Prim):
    """The words of the labels drawn, in the reader's language: ``%(name)s``
    templates the caller translates (the page with Django's gettext, the PDF
    with its own shim) and the drawing fills in with grouped millimetres."""

    gap: str = "open %(width)s mm"
    gap_uncertain: str = "open (width uncertain)"
    reach_past: str = "zone reaches %(reach)s mm past the guard"
    required: str = "S ≥ %(distance)s mm"
    # The circle's radius as the robot's maximum space (ISO 10218-2): its
    # reach, then the tool beyond the flange, then the largest workpiece.
    zone_sum: str = "reach %(reach)s + tool %(tool)s + workpiece %(workpiece)s mm"
    ring_reach: str = "robot reach"
    ring_tool: str = "with the tool"
    # Approaches no protective field covers from S out.
    uncovered: str = "no field to S %(distance)s mm"


class Ring(_Prim):
    """A circle inside the hazard circle drawn from the robot's figures: the
    robot's reach, then the reach with the tool; the hazard circle itself adds
    the largest workpiece. ``title`` names it, in the reader's language."""

    radius: float
    title: str


class Requirement(_Prim):
    """A device's required minimum distance from the hazard zone (from the
    findings of ISO 13855), for the device at ``device_index`` in the document.
    ``status`` is the finding's (pass, fail ...), to colour the line."""

    device_index: int
    required_mm: int
    status: str = ""


class GapShape(_Prim):
    """An unguarded gap of the perimeter: the line between two free ends."""

    index: int
    line: Line
    width_mm: float
    ambiguous: bool  # which ends face each other is uncertain
    caption: Label

    @property
    def key(self) -> str:
        return f"g{self.index}"


class ReachShape(_Prim):
    """Where the hazard zone reaches furthest past the guarding it crosses:
    from the guard's outline to the zone's point."""

    line: Line
    reach_mm: float
    dot_radius: float  # the mark on the zone's point
    leader: Line  # from the zone's point to its caption
    caption: Label


class ClearanceShape(_Prim):
    """A device's required minimum distance S drawn round the hazard zone:
    the device must stand outside this outline. A circle round a circular zone
    (exact); round a polygon its outward offset (see
    ``drawing_perimeter.offset_polygon``). ``tick`` measures S from the zone."""

    device_index: int
    label: str  # the device's
    required_mm: int
    status: str
    circle: tuple[float, float, float] | None  # cx, cy, r
    outline: list[tuple[float, float]]  # for a polygon zone, else empty
    tick: Line
    caption: Label

    @property
    def key(self) -> str:
        return f"d{self.device_index}"  # highlighted with its device

    @property
    def points(self) -> str:
        """The outline as an SVG points attribute."""
        return " ".join(f"{x:g},{y:g}" for x, y in self.outline)


class ApproachShape(_Prim):
    """Approaches to the hazard zone that no guard closes and no protective
    field covers from S out (``cells.perimeter.approach``): the line S out
    from the zone along them, drawn as failing."""

    outline: list[tuple[float, float]]
    caption: Label

    @property
    def points(self) -> str:
        """The outline as an SVG points attribute."""
        return " ".join(f"{x:g},{y:g}" for x, y in self.outline)


class Drawing(_Prim):
    """Everything the SVG shows, in SVG user units (1 unit = 1 mm)."""

    view_min_x: float
    view_min_y: float
    view_width: float
    view_height: float
    font_mm: float
    grid_step_mm: int
    grid: list[Line]
    scale_bar: Line
    scale_bar_label: Label
    hazard_circle: tuple[float, float, float] | None  # cx, cy, r
    hazard_polygon: str  # SVG points attribute, empty for a circle
    hazard_label: Label | None = None  # the circle's radius
    # Where the circle is the robot's maximum space (no radius typed): the
    # robot's reach and the reach with its tool, inside it (innermost first).
    hazard_rings: list[Ring] = []
    robot_base: tuple[float, float]
    segments: list[SegmentShape]
    openings: list[OpeningShape]
    stations: list[StationShape]
    curtains: list[CurtainShape] = []
    mats: list[MatShape] = []
    scanners: list[ScannerShape] = []
    gaps: list[GapShape] = []
    reach: ReachShape | None = None
    clearances: list[ClearanceShape] = []
    approaches: list[ApproachShape] = []
    # Lines of an imported CAD drawing (cells.layout_dxf), drawn faintly behind.
    underlay: list[Line] = []

    @property
    def view_box(self) -> str:
        return (
            f"{self.view_min_x:g} {self.view_min_y:g} "
            f"{self.view_width:g} {self.view_height:g}"
        )

    @property
    def grid_labels(self) -> list[Label]:
        """The grid's coordinates in mm (plan y, up), along the top edge for
        x and the left edge for y, so a point can be read off the plan."""
        size = self.font_mm * 0.75
        top, left = self.view_min_y + size * 1.1, self.view_min_x + size * 0.3
        labels = []
        for line in self.grid:
            if line.x1 == line.x2 and line.x1 > left + size * 2:
                labels.append(
                    Label(x=line.x1 + size * 0.25, y=top, text=f"{round(line.x1):,}")
                )
            elif line.y1 == line.y2 and line.y1 > top + size:
                labels.append(
                    Label(x=left, y=line.y1 - size * 0.25, text=f"{round(-line.y1):,}")
                )
        return labels


def element_key(kind: str, index: int, opening_index: int | None = None) -> str:
    """The key of a drawn element: its kind and position in the document."""
    if kind == "station":
        return f"t{index}"
    if kind == "device":
        return f"d{index}"
    return f"s{index}" if opening_index is None else f"s{index}o{opening_index}"
