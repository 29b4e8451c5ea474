"""What ``read_dxf`` finds in a drawing, layer by layer, in the drawing's own
units and world coordinates: straight pieces, curves still to be cut into
chords, and texts. Pure, no Django."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cells.layout_dxf.reading.curves import Arc, Spline


class DxfError(ValueError):
    """The file cannot be read as a drawing of a cell. ``code`` names why
    (the caller words it in the reader's language, with ``params``)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}" if params else code)


@dataclass(frozen=True, slots=True)
class Piece:
    """A straight piece of a LINE, a polyline or a 3DFACE's edge, in the
    drawing's units and world coordinates seen from above (x, y; the lower
    end's z is its elevation, its extrusion upwards its thickness)."""

    x1: float
    y1: float
    x2: float
    y2: float
    entity: str  # LINE, LWPOLYLINE, POLYLINE, 3DFACE
    handle: str  # the entity's; for one inside a block, the INSERT's in the model space
    elevation: float = 0.0
    thickness: float = 0.0
    block: str = ""  # the block it was drawn in; "" for the model space


@dataclass(frozen=True, slots=True, eq=False)
class Curve:
    """An ARC, CIRCLE, ELLIPSE, SPLINE or an arc of a polyline (a vertex with
    a bulge), seen from above; ``interpret`` cuts it into chords."""

    shape: Arc | Spline
    entity: str
    handle: str
    elevation: float = 0.0
    thickness: float = 0.0
    block: str = ""


@dataclass(frozen=True, slots=True)
class TextAt:
    """A TEXT, MTEXT or ATTRIB: its plain words (stripped, on one line, at
    most ``NAME_MAX_CHARS``) at its insertion point seen from above."""

    x: float
    y: float
    text: str


@dataclass
class LayerContents:
    """What one layer of the model space holds (with the blocks inserted in
    it). ``entities`` counts every entity met, by DXF type; ``skipped`` what
    the reading itself had to leave out, by (reason, type); ``notes`` what it
    did that the user should know (``NOTE_KEYS``)."""

    name: str
    entities: Counter[str] = field(default_factory=Counter)
    pieces: list[Piece | Curve] = field(default_factory=list)
    texts: list[TextAt] = field(default_factory=list)
    skipped: Counter[tuple[str, str]] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)


@dataclass
class DxfContents:
    """A parsed drawing: its header's units code and its layers in the order
    first met (the layer table's own layers without entities are left out)."""

    units_code: int
    layers: list[LayerContents]

    @property
    def entity_count(self) -> int:
        return sum(sum(layer.entities.values()) for layer in self.layers)
