"""Reading a DXF drawing into a cell's layout. Pure (ezdxf), no Django.

Two steps, so that a page can show what a file holds before anything is
decided: ``read_dxf`` parses the file into the straight pieces of each layer
(in the drawing's own units) and counts every entity; ``interpret`` then
applies a choice of units and a layer → kind mapping, giving the guard
segments per kind in whole millimetres, the underlay (every other line, in
millimetres) and what was skipped, counted per reason and entity type.

What becomes what:

- LINE, LWPOLYLINE and POLYLINE (2D and 3D) give straight pieces; a closed
  polyline gives its closing piece too.
- An arc inside a polyline (a vertex with a bulge) is not straight. On a guard
  layer it is **skipped** (reason ``polyline_arc``): a guard segment is a
  straight piece of guard, and a chord would put it where it is not, on the
  hazard side of the drawn curve. Draw the curve as straight pieces. On an
  underlay layer, which is only a picture, it is drawn as its chord.
- Every other entity type (CIRCLE, ARC, TEXT, INSERT, SPLINE, HATCH...) is
  skipped with its type named (reason ``unsupported_entity``), on any layer.
- Heights: a piece with a thickness (its extrusion, as CAD programs model a
  wall) stands from its elevation to elevation + thickness: the top is the
  guard's height, the elevation the gap under it. A piece without a
  thickness has no height in the file; the caller gives one.
- Units: the header's ``$INSUNITS`` (inch, foot, mm, cm, m), unless the
  caller gives units; a unitless drawing is read as millimetres and says so.

Everything is bounded: the file's size, the entities read, the pieces they
give and the underlay kept (``MAX_*`` below); the coordinates' own bound (100
m) is the models' to check for guard segments, and underlay lines past it are
skipped (``off_the_plan``).
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import ezdxf
import ezdxf.math
from ezdxf import recover
from ezdxf.document import Drawing
from ezdxf.filemanagement import dxf_stream_info
from ezdxf.lldxf.const import DXFError, acad_release
from ezdxf.lldxf.tagger import binary_tags_loader
from ezdxf.lldxf.validator import is_dxf_stream

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_dxf.layers import DERIVED, GUARD_LAYERS, MAX_UNDERLAY_LINES

MAX_FILE_BYTES = 5 * 1024 * 1024
# Entities in the model space: a cell's drawing has hundreds, a hall's
# thousands. Past this the file is refused rather than half read (ezdxf
# reads some 5,000 a second).
MAX_ENTITIES = 10_000
# Straight pieces those entities give (a polyline gives one per vertex).
MAX_PIECES = 20_000
MAX_LAYERS = 1_000

UnitName = Literal["mm", "cm", "m", "inch", "foot"]
UNIT_NAMES: tuple[str, ...] = get_args(UnitName)
MM_PER_UNIT: dict[str, float] = {
    "mm": 1.0,
    "cm": 10.0,
    "m": 1000.0,
    "inch": 25.4,
    "foot": 304.8,
}
# $INSUNITS codes (DXF reference, HEADER section) of the units read.
INSUNITS: dict[int, str] = {1: "inch", 2: "foot", 4: "mm", 5: "cm", 6: "m"}
UNITLESS = 0

GuardKind = Literal["fence", "wall", "machine_body"]
GUARD_KINDS: tuple[str, ...] = get_args(GuardKind)
Target = Literal["fence", "wall", "machine_body", "underlay", "ignore"]
TARGETS: tuple[str, ...] = get_args(Target)
UnitsFrom = Literal["request", "header", "assumed"]

SkipReason = Literal[
    "unsupported_entity",  # not a line: CIRCLE, ARC, TEXT, INSERT...
    "polyline_arc",  # an arc inside a polyline, on a guard layer
    "zero_length",  # a piece whose ends round to the same millimetre
    "layer_ignored",  # on a layer mapped to "ignore"
    "off_the_plan",  # an underlay line reaching past 100 m from the origin
    "underlay_full",  # past MAX_UNDERLAY_LINES
]
SKIP_REASONS: tuple[str, ...] = get_args(SkipReason)

LINE_TYPES = frozenset({"LINE", "LWPOLYLINE", "POLYLINE"})
# How a binary DXF file begins (the DXF reference, "Binary DXF Files").
BINARY_DXF = b"AutoCAD Binary DXF\r\n\x1a\x00"


class DxfError(ValueError):
    """The file cannot be read as a drawing of a cell. ``code`` names why
    (the caller words it in the reader's language, with ``params``)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {params}" if params else code)


@dataclass(frozen=True, slots=True)
class Piece:
    """A straight piece of a LINE or polyline, in the drawing's units and
    world coordinates (x, y; the drawing's z is its elevation)."""

    x1: float
    y1: float
    x2: float
    y2: float
    entity: str  # LINE, LWPOLYLINE or POLYLINE
    handle: str
    elevation: float = 0.0
    thickness: float = 0.0
    arc: bool = False  # the chord of an arc inside a polyline


@dataclass
class LayerContents:
    """What one layer of the model space holds."""

    name: str
    entities: Counter[str] = field(default_factory=Counter)  # by DXF type
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class DxfContents:
    """A parsed drawing: its header's units code and its layers in the order
    first met (the layer table's own layers without entities are left out)."""

    units_code: int
    layers: list[LayerContents]

    @property
    def entity_count(self) -> int:
        return sum(sum(layer.entities.values()) for layer in self.layers)


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """A guard segment to create, in whole millimetres. ``height_mm`` and
    ``bottom_gap_mm`` come from the piece's thickness and elevation; None
    when the file gives no height."""

    kind: str
    start_x_mm: int
    start_y_mm: int
    end_x_mm: int
    end_y_mm: int
    height_mm: int | None
    bottom_gap_mm: int
    layer: str
    entity: str
    handle: str


@dataclass(frozen=True)
class LayerPlan:
    name: str
    entities: dict[str, int]
    target: str


@dataclass
class DxfPlan:
    """What an import would do: the guard segments, the underlay lines
    ([x1, y1, x2, y2] in mm) and what it skips, by (reason, entity type)."""

    units: str
    units_from: str
    layers: list[LayerPlan]
    segments: list[SegmentLine]
    underlay: list[list[int]]
    skipped: Counter[tuple[str, str]]

    def segments_by_kind(self) -> dict[str, int]:
        counts = Counter(s.kind for s in self.segments)
        return {kind: counts.get(kind, 0) for kind in GUARD_KINDS}


# --- reading the file --------------------------------------------------------


def read_dxf(data: bytes) -> DxfContents:
    """Parse ``data`` (a DXF file, text or binary) into its layers' pieces.

    Raises DxfError: empty, too large, not a DXF file ezdxf can read, too many
    entities or pieces, or a coordinate that is not a finite number."""
    if not data:
        raise DxfError("empty")
    if len(data) > MAX_FILE_BYTES:
        raise DxfError("too_large", limit=MAX_FILE_BYTES, size=len(data))
    try:
        # Anything the readers raise means "not a drawing we can read"
        # (ezdxf raises more than DXFStructureError on malformed input).
        doc = _load(data)
        units_code = int(doc.header.get("$INSUNITS", UNITLESS) or UNITLESS)
        entities = list(doc.modelspace())
    except DxfError:
        raise
    except Exception as exc:
        raise DxfError("unreadable", detail=str(exc)[:200]) from exc
    if len(entities) > MAX_ENTITIES:
        raise DxfError("too_many_entities", limit=MAX_ENTITIES, count=len(entities))
    layers: dict[str, LayerContents] = {}
    piece_count = 0
    for entity in entities:
        name = str(entity.dxf.get("layer", "0") or "0")
        key = name.casefold()
        if key not in layers:
            if len(layers) >= MAX_LAYERS:
                raise DxfError("too_many_layers", limit=MAX_LAYERS)
            layers[key] = LayerContents(name=name)
        layer = layers[key]
        kind = _entity_type(entity)
        layer.entities[kind] += 1
        if kind not in LINE_TYPES:
            continue
        try:
            pieces = list(_pieces(entity, kind, name))
        except DxfError:
            raise
        except Exception as exc:  # a malformed entity (an extrusion of 0, ...)
            detail = f"{kind} on layer {name}: {exc}"[:200]
            raise DxfError("unreadable", detail=detail) from exc
        piece_count += len(pieces)
        if piece_count > MAX_PIECES:
            raise DxfError("too_many_pieces", limit=MAX_PIECES)
        layer.pieces.extend(pieces)
    return DxfContents(units_code=units_code, layers=list(layers.values()))


def _load(data: bytes) -> Drawing:
    """The drawing: binary, or text read by the plain reader (twice as fast),
    and when that refuses it by the recovering one, which mends what CAD
    programs commonly get wrong.

    Text is read with universal newlines: AutoCAD writes CRLF, and given
    "SECTION\\r" the plain reader finds no section and answers with an empty
    drawing rather than an error. And a text file must begin as a DXF file
    does (comments, then a SECTION) before the recovering reader sees it: it
    mends anything, random bytes, a PDF or a DWG file included, into an
    empty drawing, which an import would take as "no underlay"."""
    if data.startswith(BINARY_DXF):
        return Drawing.load(binary_tags_loader(data))
    if data[:6].decode("ascii", errors="ignore") in acad_release:
        raise DxfError("dwg")
    sniffed = data.decode("utf-8", errors="ignore").removeprefix("\ufeff")
    if not is_dxf_stream(io.StringIO(sniffed, newline=None)):
        raise DxfError("not_dxf")
    try:
        # The header names the encoding of older files (R2007+ are UTF-8).
        info = dxf_stream_info(io.StringIO(sniffed, newline=None))
        text = data.decode(info.encoding, errors="surrogateescape")
        return ezdxf.read(io.StringIO(text.removeprefix("\ufeff"), newline=None))
    except (DXFError, LookupError, UnicodeError):
        doc, _auditor = recover.read(io.BytesIO(data))
        return doc


def _entity_type(entity) -> str:
    kind = entity.dxftype()
    if kind == "POLYLINE" and not (entity.is_2d_polyline or entity.is_3d_polyline):
        return "POLYLINE (mesh)"  # a polygon or polyface mesh: a surface
    return kind


def _finite(values: Iterable[float], entity: str, handle: str, layer: str) -> None:
    if not all(math.isfinite(v) for v in values):
        raise DxfError("not_a_number", entity=entity, handle=handle, layer=layer)


def _pieces(entity, kind: str, layer: str) -> Iterable[Piece]:
    handle = str(entity.dxf.get("handle", "") or "")
    thickness = float(entity.dxf.get("thickness", 0.0) or 0.0)
    if kind == "LINE":
        start, end = entity.dxf.start, entity.dxf.end
        _finite((*start, *end, thickness), kind, handle, layer)
        yield Piece(
            start.x,
            start.y,
            end.x,
            end.y,
            kind,
            handle,
            elevation=min(start.z, end.z),
            thickness=thickness,
        )
        return
    if kind == "LWPOLYLINE":
        ocs = entity.ocs()
        elevation = float(entity.dxf.get("elevation", 0.0) or 0.0)
        raw = list(entity.get_points("xyb"))
        points = [ocs.to_wcs(ezdxf.math.Vec3(x, y, elevation)) for x, y, _b in raw]
        bulges = [float(b) for _x, _y, b in raw]
        closed = bool(entity.closed)
    else:  # a 2D or 3D POLYLINE
        points = list(entity.points_in_wcs())
        bulges = [
            float(v.dxf.get("bulge", 0.0) or 0.0) if entity.is_2d_polyline else 0.0
            for v in entity.vertices
        ]
        closed = bool(entity.is_closed)
    _finite(
        [c for p in points for c in (p.x, p.y, p.z)] + [thickness, *bulges],
        kind,
        handle,
        layer,
    )
    count = len(points)
    ends = count if closed and count > 2 else count - 1
    for i in range(max(ends, 0)):
        a, b = points[i], points[(i + 1) % count]
        yield Piece(
            a.x,
            a.y,
            b.x,
            b.y,
            kind,
            handle,
            elevation=min(a.z, b.z),
            thickness=thickness,
            arc=abs(bulges[i]) > 1e-9,
        )


# --- deciding what becomes what ------------------------------------------------


# What a factory drawing calls its layers, in English, German and Korean
# (issue 31): a layer whose name holds one of these words is suggested as
# that kind of guard; the user confirms or changes it.
LAYER_WORDS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    # kind: (whole words of a Latin name, parts of a Korean one)
    "fence": (
        frozenset(
            {
                "fence",
                "fences",
                "fencing",
                "guard",
                "guards",
                "guarding",
                "safety",
                "zaun",
                "schutzzaun",
            }
        ),
        ("펜스", "울타리", "방호울"),
    ),
    "wall": (
        frozenset({"wall", "walls", "wand", "wände", "waende", "mauer"}),
        ("벽",),
    ),
    "machine_body": (
        frozenset({"machine", "machines", "maschine", "maschinen", "equipment"}),
        ("설비", "기계"),
    ),
}
_WORD_SPLIT = re.compile(r"[^a-z0-9à-öø-ÿ]+")


def suggested_kind(layer_name: str) -> str | None:
    """The guard kind a layer's name suggests ("A-FENCE-01", "Zaun", "안전펜스"),
    or None."""
    key = layer_name.casefold()
    words = set(_WORD_SPLIT.split(key))
    for kind, (latin, korean) in LAYER_WORDS.items():
        if words & latin or any(part in key for part in korean):
            return kind
    return None


def default_target(layer_name: str) -> str:
    """A guard layer this app's export wrote reads back as its kind, and its
    other layers (openings, devices, labels...: drawn from the cell) are left
    out; any other layer is underlay until mapped."""
    key = layer_name.casefold()
    for kind, name in GUARD_LAYERS.items():
        if key == name.casefold():
            return kind
    if key in {name.casefold() for name in DERIVED}:
        return "ignore"
    return "underlay"


def suggested_target(layer_name: str) -> str:
    """What the import form offers first for a layer: its default, or the
    guard kind its name suggests, for the user to confirm. A layer never
    becomes a guard unless the user confirms it (the form sends what it
    shows; the API maps only what it is told)."""
    target = default_target(layer_name)
    if target != "underlay":
        return target
    return suggested_kind(layer_name) or "underlay"


def resolve_units(units_code: int, units: str | None) -> tuple[str, str]:
    """(units, where they came from): the caller's, else the header's, else
    millimetres for a unitless drawing. Raises DxfError for a header unit
    this import does not read (miles, microns...) when none is given."""
    if units is not None:
        return units, "request"
    if units_code in INSUNITS:
        return INSUNITS[units_code], "header"
    if units_code == UNITLESS:
        return "mm", "assumed"
    raise DxfError("unknown_units", code=units_code)


def interpret(
    contents: DxfContents,
    *,
    mapping: Mapping[str, str] | None = None,
    units: str | None = None,
) -> DxfPlan:
    """Apply ``mapping`` (layer name → a guard kind, "underlay" or "ignore";
    names compared without regard to case; layers not named keep
    ``default_target``) and ``units`` (None: from the header)."""
    units_name, units_from = resolve_units(contents.units_code, units)
    scale = MM_PER_UNIT[units_name]
    chosen = {name.casefold(): target for name, target in (mapping or {}).items()}
    layers: list[LayerPlan] = []
    segments: list[SegmentLine] = []
    underlay: list[list[int]] = []
    skipped: Counter[tuple[str, str]] = Counter()
    for layer in contents.layers:
        target = chosen.get(layer.name.casefold()) or default_target(layer.name)
        layers.append(LayerPlan(layer.name, dict(layer.entities), target))
        if target == "ignore":
            for kind, count in layer.entities.items():
                skipped["layer_ignored", kind] += count
            continue
        for kind, count in layer.entities.items():
            if kind not in LINE_TYPES:
                skipped["unsupported_entity", kind] += count
        for piece in layer.pieces:
            coords = [_mm(v, scale) for v in (piece.x1, piece.y1, piece.x2, piece.y2)]
            if coords[:2] == coords[2:]:
                skipped["zero_length", piece.entity] += 1
            elif target in GUARD_KINDS:
                if piece.arc:
                    skipped["polyline_arc", piece.entity] += 1
                    continue
                height, gap = _heights(piece, scale)
                segments.append(
                    SegmentLine(
                        target,
                        *coords,
                        height,
                        gap,
                        layer.name,
                        piece.entity,
                        piece.handle,
                    )
                )
            elif any(abs(c) > COORDINATE_LIMIT_MM for c in coords):
                skipped["off_the_plan", piece.entity] += 1
            elif len(underlay) >= MAX_UNDERLAY_LINES:
                skipped["underlay_full", piece.entity] += 1
            else:
                underlay.append(coords)
    return DxfPlan(units_name, units_from, layers, segments, underlay, skipped)


def _heights(piece: Piece, scale: float) -> tuple[int | None, int]:
    """(height, gap under the guard) in mm from the piece's extrusion: it
    stands from its elevation to elevation + thickness (a negative thickness
    extrudes downwards). No thickness, or nothing above the floor: no height."""
    if not piece.thickness:
        return None, 0
    low = min(piece.elevation, piece.elevation + piece.thickness)
    high = max(piece.elevation, piece.elevation + piece.thickness)
    height = _mm(high, scale)
    if height <= 0:
        return None, 0
    return height, max(_mm(low, scale), 0)


# Far past any bound the models check: a figure this large is refused there,
# by name, rather than overflowing here (1e306 inches is no float in mm).
_CLAMP_MM = 1e12


def _mm(value: float, scale: float) -> int:
    """``value`` in the drawing's units as whole millimetres."""
    return round(max(min(value * scale, _CLAMP_MM), -_CLAMP_MM))
