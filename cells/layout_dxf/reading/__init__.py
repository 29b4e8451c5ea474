"""Reading a DXF drawing into a cell's layout. Pure (ezdxf), no Django.

Two steps, so that a page can show what a file holds before anything is
decided: ``read_dxf`` parses the file into what each layer holds (in the
drawing's own units) and counts every entity; ``interpret`` then applies a
choice of units and a layer → target mapping, giving the guard segments per
kind and the doors in whole millimetres, the underlay (every other line, in
millimetres), what was skipped, counted per reason and entity type, and
notes on what the reading did.

What becomes what:

- LINE, LWPOLYLINE and POLYLINE (2D and 3D) give straight pieces; a closed
  polyline gives its closing piece too; a 3DFACE its visible edges.
- Curves become straight chords, cut once the units are known so that every
  chord lies within ``FLATTEN_TOLERANCE_MM`` of the curve it stands for:
  ARC, CIRCLE, ELLIPSE, SPLINE and the arcs of polylines (vertices with a
  bulge), on every layer (``shapes``; note ``curves_flattened``).
- A block reference (INSERT, and a MINSERT's every copy) gives the pieces of
  its block placed as it is placed (insertion point, scales, rotation,
  extrusion: ezdxf's ``virtual_entities``), blocks within blocks too, down to
  ``MAX_BLOCK_DEPTH`` (note ``block_inserts``). What the block draws on layer
  "0" is on the INSERT's layer (the DXF convention), the rest on its own.
- Everything is seen from above: a piece whose z varies or whose extrusion
  is tilted off the vertical is projected onto the floor (note
  ``projected_3d``).
- TEXT, MTEXT and a block's visible ATTRIBs name the guard segment or door
  nearest to them (``NAME_DISTANCE_MM``); a line drawn in a block is named
  by its block when no text names it. The texts are skipped as ``text``.
- Every other entity type (POINT, HATCH, DIMENSION, 3DSOLID, MESH...) is
  skipped with its type named (reason ``unsupported_entity``), on any layer.
- Heights: a piece with a thickness (its extrusion, as CAD programs model a
  wall) stands from its elevation to elevation + thickness: the top is the
  guard's height, the elevation the gap under it. A piece without a
  thickness has no height in the file; the caller gives one.
- Units: the header's ``$INSUNITS`` (inch, foot, mm, cm, m), unless the
  caller gives units; a unitless drawing is read as millimetres and says so.

Everything is bounded: the file's size, the entities read (a block's
counted at each insert, as it is exploded: stopped at the limit, never
expanded first), the pieces they give and the underlay kept (``MAX_*``
below); the coordinates' own bound (100 m) is the models' to check for guard
segments, and underlay lines past it are skipped (``off_the_plan``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from ezdxf.math import Matrix44

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_dxf.layers import MAX_UNDERLAY_LINES
from cells.layout_dxf.reading import blocks, names
from cells.layout_dxf.reading.contents import (
    Curve,
    DxfContents,
    DxfError,
    LayerContents,
    Piece,
    TextAt,
)
from cells.layout_dxf.reading.entities import (
    LINE_TYPES,
    READ_TYPES,
    TEXT_TYPES,
    entity_type,
    shapes,
    text_of,
    weight,
)
from cells.layout_dxf.reading.files import BINARY_DXF, count_entities, load
from cells.layout_dxf.reading.layer_words import (
    LAYER_WORDS,
    default_target,
    suggested_kind,
    suggested_target,
)

__all__ = [
    "BINARY_DXF",
    "FLATTEN_TOLERANCE_MM",
    "GUARD_KINDS",
    "INSUNITS",
    "LAYER_WORDS",
    "LINE_TYPES",
    "MAX_BLOCK_DEPTH",
    "MAX_CHORDS_PER_CURVE",
    "MAX_ENTITIES",
    "MAX_FILE_BYTES",
    "MAX_LAYERS",
    "MAX_NAMED_LINES",
    "MAX_PIECES",
    "MAX_UNDERLAY_LINES",
    "MM_PER_UNIT",
    "NAME_DISTANCE_MM",
    "NAME_MAX_CHARS",
    "NOTE_KEYS",
    "SKIP_REASONS",
    "TARGETS",
    "UNITLESS",
    "UNIT_NAMES",
    "Curve",
    "DxfContents",
    "DxfError",
    "DxfPlan",
    "GuardKind",
    "LayerContents",
    "LayerPlan",
    "NoteKey",
    "Piece",
    "SegmentLine",
    "SkipReason",
    "Target",
    "TextAt",
    "UnitName",
    "UnitsFrom",
    "default_target",
    "interpret",
    "read_dxf",
    "resolve_units",
    "suggested_kind",
    "suggested_target",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
# Entities in the model space: a cell's drawing has hundreds, a hall's
# thousands. Past this the file is refused rather than half read (ezdxf
# reads some 5,000 a second). A block's entities count at each insert.
MAX_ENTITIES = 10_000
# Straight pieces those entities give (a polyline gives one per vertex, a
# curve one per chord).
MAX_PIECES = 20_000
MAX_LAYERS = 1_000
# Blocks within blocks: a drawing nests two or three deep; a block that
# holds itself would nest for ever. An INSERT deeper is skipped.
MAX_BLOCK_DEPTH = 8
# How far a chord may lie from the curve it stands for. Small against the
# distances the plan is judged by (ISO 13857:2019 Tables 1 and 2 give the
# horizontal distance c in steps of 100 mm; ISO 13855 minimum distances are
# hundreds of millimetres), and about a drawing's own precision for a fence.
FLATTEN_TOLERANCE_MM = 5.0
# Chords of one curve at most: within 5 mm for any circle up to 66 m of
# radius, past the plan's 100 m; a larger curve is cut more coarsely.
MAX_CHORDS_PER_CURVE = 256
# A text names the guard segment or door it lies within this distance of.
NAME_DISTANCE_MM = 500.0
NAME_MAX_CHARS = 60
# Texts are matched to the lines only up to this many guard segments and
# doors (each text is measured against every line: 10,000 texts against
# 1,000 lines take under a second). A cell holds at most 100 guard
# segments (``cells.exchange.MAX_GUARD_SEGMENTS``): a drawing of more is
# refused by the import whatever their names.
MAX_NAMED_LINES = 1_000

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
Target = Literal["fence", "wall", "machine_body", "door", "underlay", "ignore"]
TARGETS: tuple[str, ...] = get_args(Target)
UnitsFrom = Literal["request", "header", "assumed"]

SkipReason = Literal[
    "unsupported_entity",  # not read: POINT, HATCH, DIMENSION, 3DSOLID...
    "text",  # TEXT, MTEXT, ATTRIB: read as names only
    "zero_length",  # a piece whose ends round to the same millimetre
    "layer_ignored",  # on a layer mapped to "ignore"
    "off_the_plan",  # an underlay line reaching past 100 m from the origin
    "underlay_full",  # past MAX_UNDERLAY_LINES
    "block_too_deep",  # an INSERT nested past MAX_BLOCK_DEPTH (or in itself)
    "block_missing",  # an INSERT of a block the file does not define
    "curve_too_complex",  # a SPLINE past MAX_SPLINE_DEGREE or MAX_FIT_POINTS
]
SKIP_REASONS: tuple[str, ...] = get_args(SkipReason)
# What ``DxfPlan.notes`` counts: INSERTs exploded, curves cut into chords,
# entities projected onto the floor.
NoteKey = Literal["block_inserts", "curves_flattened", "projected_3d"]
NOTE_KEYS: tuple[str, ...] = get_args(NoteKey)


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """A guard segment (or a door) to create, in whole millimetres.
    ``height_mm`` and ``bottom_gap_mm`` come from the piece's thickness and
    elevation; None when the file gives no height (a door: always None).
    ``name``: what the drawing calls it, "" for nothing."""

    kind: str  # a guard kind, or "door"
    start_x_mm: int
    start_y_mm: int
    end_x_mm: int
    end_y_mm: int
    height_mm: int | None
    bottom_gap_mm: int
    layer: str
    entity: str
    handle: str
    name: str = ""


@dataclass(frozen=True)
class LayerPlan:
    name: str
    entities: dict[str, int]
    target: str


@dataclass
class DxfPlan:
    """What an import would do: the guard segments, the doors (lines on a
    layer mapped to "door", for the caller to place on the guards), the
    underlay lines ([x1, y1, x2, y2] in mm), what it skips, by (reason,
    entity type), and ``notes`` (``NOTE_KEYS``) on what the reading did."""

    units: str
    units_from: str
    layers: list[LayerPlan]
    segments: list[SegmentLine]
    underlay: list[list[int]]
    skipped: Counter[tuple[str, str]]
    doors: list[SegmentLine] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)

    def segments_by_kind(self) -> dict[str, int]:
        counts = Counter(s.kind for s in self.segments)
        return {kind: counts.get(kind, 0) for kind in GUARD_KINDS}


# --- reading the file --------------------------------------------------------


def read_dxf(data: bytes) -> DxfContents:
    """Parse ``data`` (a DXF file, text or binary) into its layers' pieces,
    curves and texts, its blocks exploded where they are inserted.

    Raises DxfError: empty, too large, not a DXF file ezdxf can read, too many
    entities (a block's counted at each insert) or pieces, too many layers,
    or a coordinate that is not a finite number."""
    if not data:
        raise DxfError("empty")
    if len(data) > MAX_FILE_BYTES:
        raise DxfError("too_large", limit=MAX_FILE_BYTES, size=len(data))
    counted = count_entities(data)
    if counted is not None and counted > MAX_ENTITIES:
        raise DxfError("too_many_entities", limit=MAX_ENTITIES, count=counted)
    try:
        # Anything the readers raise means "not a drawing we can read"
        # (ezdxf raises more than DXFStructureError on malformed input).
        doc = load(data)
        units_code = int(doc.header.get("$INSUNITS", UNITLESS) or UNITLESS)
        entities = list(doc.modelspace())
    except DxfError:
        raise
    except Exception as exc:
        raise DxfError("unreadable", detail=str(exc)[:200]) from exc
    if len(entities) > MAX_ENTITIES:
        raise DxfError("too_many_entities", limit=MAX_ENTITIES, count=len(entities))
    reader = _Reader(entity_count=len(entities))
    for entity in entities:
        handle = str(entity.dxf.get("handle", "") or "")
        try:
            reader.read(entity, handle=handle)
        except DxfError:
            raise
        except Exception as exc:  # a malformed entity (an extrusion of 0, ...)
            kind = entity.dxftype()
            layer = entity.dxf.get("layer", "0")
            detail = f"{kind} {handle} on layer {layer}: {exc}"[:200]
            raise DxfError("unreadable", detail=detail) from exc
    return DxfContents(units_code=units_code, layers=list(reader.layers.values()))


class _Reader:
    """The layers filled as the model space is read, and the running counts
    of entities and pieces that bound it."""

    def __init__(self, *, entity_count: int) -> None:
        self.layers: dict[str, LayerContents] = {}
        self.entity_count = entity_count
        self.piece_count = 0

    def layer(self, name: str) -> LayerContents:
        key = name.casefold()
        if key not in self.layers:
            if len(self.layers) >= MAX_LAYERS:
                raise DxfError("too_many_layers", limit=MAX_LAYERS)
            self.layers[key] = LayerContents(name=name)
        return self.layers[key]

    def count(self) -> None:
        """One more entity, from inside a block (the model space's are
        counted before reading)."""
        self.entity_count += 1
        if self.entity_count > MAX_ENTITIES:
            raise DxfError(
                "too_many_entities",
                limit=MAX_ENTITIES,
                count=self.entity_count,
                in_blocks=True,
            )

    def pieces(self, count: int) -> None:
        self.piece_count += count
        if self.piece_count > MAX_PIECES:
            raise DxfError("too_many_pieces", limit=MAX_PIECES)

    def read(
        self,
        entity,
        *,
        handle: str,
        outer: str | None = None,
        block: str = "",
        depth: int = 0,
        owner: Matrix44 | None = None,
    ) -> None:
        """Read ``entity``: of the model space, or (``outer``: the layer of
        the INSERT placing it) of the block named ``block``, ``depth`` blocks
        deep, placed in world coordinates; an INSERT inside a block is not,
        and ``owner`` places the block it is in."""
        name = str(entity.dxf.get("layer", "0") or "0")
        if outer is not None and name == "0":
            name = outer
        layer = self.layer(name)
        kind = entity_type(entity)
        layer.entities[kind] += 1
        if kind == "INSERT":
            self.explode(entity, layer, handle=handle, depth=depth, owner=owner)
        elif kind in TEXT_TYPES:
            text = text_of(entity, kind, NAME_MAX_CHARS)
            if text is not None:
                layer.texts.append(text)
        elif kind in READ_TYPES:
            least = weight(entity, kind)
            self.pieces(least)  # before a costly spline is built
            found = shapes(entity, kind, handle=handle, layer=name, block=block)
            if found.skip:
                layer.skipped[found.skip, kind] += 1
            made = sum(
                item.shape.least_chords if isinstance(item, Curve) else 1
                for item in found.pieces
            )
            self.pieces(made - least)
            layer.pieces.extend(found.pieces)
            if found.projected:
                layer.notes["projected_3d"] += 1
            if any(isinstance(item, Curve) for item in found.pieces):
                layer.notes["curves_flattened"] += 1

    def explode(
        self,
        insert,
        layer: LayerContents,
        *,
        handle: str,
        depth: int,
        owner: Matrix44 | None,
    ) -> None:
        """The entities of the block ``insert`` places (a MINSERT's at each of
        its copies), each counted as it comes, placed and read."""
        if depth >= MAX_BLOCK_DEPTH:
            layer.skipped["block_too_deep", "INSERT"] += 1
            return
        definition = insert.block()
        if definition is None:
            layer.skipped["block_missing", "INSERT"] += 1
            return
        layer.notes["block_inserts"] += 1
        inside = {
            "handle": handle,
            "outer": layer.name,
            "block": blocks.block_name(insert),
        }
        for attrib in insert.attribs:  # where the INSERT is: the owner's place
            self.count()
            self.read(
                attrib if owner is None else attrib.copy().transform(owner),
                **inside,
                depth=depth,
            )
        for index, single in enumerate(blocks.copies(insert)):
            if index:
                self.count()
            m = blocks.placement(single, owner)
            for entity in definition:
                kind = entity_type(entity)
                if kind == "ATTDEF":  # the template of the INSERT's ATTRIBs
                    continue
                self.count()
                if kind == "INSERT" or kind not in READ_TYPES | TEXT_TYPES:
                    # Another block, placed by m; or only counted, unread.
                    self.read(entity, **inside, depth=depth + 1, owner=m)
                    continue
                try:
                    parts = blocks.placed(entity, m)
                except blocks.Unplaced:
                    self.unplaced(entity, layer.name)
                    continue
                for number, part in enumerate(parts):
                    if number:
                        self.count()
                    self.read(part, **inside, depth=depth + 1)

    def unplaced(self, entity, outer: str) -> None:
        """An entity of a block that ezdxf cannot place: counted, unread."""
        name = str(entity.dxf.get("layer", "0") or "0")
        layer = self.layer(outer if name == "0" else name)
        kind = entity_type(entity)
        layer.entities[kind] += 1
        layer.skipped["unsupported_entity", kind] += 1


# --- deciding what becomes what ------------------------------------------------


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
    """Apply ``mapping`` (layer name → a guard kind, "door", "underlay" or
    "ignore"; names compared without regard to case; layers not named keep
    ``default_target``) and ``units`` (None: from the header).

    Raises DxfError: ``unknown_units``; ``too_many_pieces`` (the curves cut
    finer in these units); ``not_a_number``; ``nothing_usable`` when nothing
    becomes a guard segment, a door or an underlay line (``kinds``: the
    entity types the file holds with their counts, "CIRCLE 3, TEXT 2")."""
    units_name, units_from = resolve_units(contents.units_code, units)
    scale = MM_PER_UNIT[units_name]
    tolerance = FLATTEN_TOLERANCE_MM / scale  # in the drawing's units
    chosen = {name.casefold(): target for name, target in (mapping or {}).items()}
    plan = DxfPlan(units_name, units_from, [], [], [], Counter())
    drawn_in: dict[str, list[str]] = {"door": [], "guard": []}  # block names
    texts: list[TextAt] = []
    made = 0
    for layer in contents.layers:
        target = chosen.get(layer.name.casefold()) or default_target(layer.name)
        plan.layers.append(LayerPlan(layer.name, dict(layer.entities), target))
        if target == "ignore":
            for kind, count in layer.entities.items():
                plan.skipped["layer_ignored", kind] += count
            continue
        texts.extend(layer.texts)
        plan.notes.update(layer.notes)
        plan.skipped.update(layer.skipped)
        for kind, count in layer.entities.items():
            if kind in TEXT_TYPES:
                plan.skipped["text", kind] += count
            elif kind not in READ_TYPES:
                plan.skipped["unsupported_entity", kind] += count
        for item in layer.pieces:
            made += _chord_count(item, tolerance)
            if made > MAX_PIECES:
                raise DxfError("too_many_pieces", limit=MAX_PIECES)
            for ends in _chords(item, tolerance, layer.name):
                coords = [_mm(v, scale) for v in ends]
                if coords[:2] == coords[2:]:
                    plan.skipped["zero_length", item.entity] += 1
                elif target in GUARD_KINDS or target == "door":
                    height, gap = (
                        (None, 0) if target == "door" else _heights(item, scale)
                    )
                    line = SegmentLine(
                        target,
                        *coords,
                        height,
                        gap,
                        layer.name,
                        item.entity,
                        item.handle,
                    )
                    into = plan.doors if target == "door" else plan.segments
                    into.append(line)
                    drawn_in["door" if target == "door" else "guard"].append(item.block)
                elif any(abs(c) > COORDINATE_LIMIT_MM for c in coords):
                    plan.skipped["off_the_plan", item.entity] += 1
                elif len(plan.underlay) >= MAX_UNDERLAY_LINES:
                    plan.skipped["underlay_full", item.entity] += 1
                else:
                    plan.underlay.append(coords)
    if not (plan.segments or plan.doors or plan.underlay):
        raise DxfError("nothing_usable", kinds=_kinds(contents))
    _name(plan, drawn_in, texts, scale)
    return plan


def _chord_count(item: Piece | Curve, tolerance: float) -> int:
    if isinstance(item, Piece):
        return 1
    return item.shape.chord_count(tolerance, MAX_CHORDS_PER_CURVE)


def _chords(item: Piece | Curve, tolerance: float, layer: str):
    """(x1, y1, x2, y2) of the piece, or of each chord of the curve."""
    if isinstance(item, Piece):
        yield item.x1, item.y1, item.x2, item.y2
        return
    points = item.shape.points(tolerance, MAX_CHORDS_PER_CURVE)
    if not all(abs(c) < float("inf") for point in points for c in point):
        # A curve whose coordinates overflow (a spline's at 1e308).
        raise DxfError(
            "not_a_number", entity=item.entity, handle=item.handle, layer=layer
        )
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        yield x1, y1, x2, y2


def _name(
    plan: DxfPlan, drawn_in: dict[str, list[str]], texts: list[TextAt], scale: float
) -> None:
    """Name the doors and guard segments: the nearest text, else the block.
    Doors first, so that a text beside a door drawn over a fence names the
    door, not the fence under it."""
    lines = plan.doors + plan.segments
    by_text = [""] * len(lines)
    if len(lines) <= MAX_NAMED_LINES:
        by_text = names.text_names(
            [(s.start_x_mm, s.start_y_mm, s.end_x_mm, s.end_y_mm) for s in lines],
            [(_clamp(t.x * scale), _clamp(t.y * scale), t.text) for t in texts],
            NAME_DISTANCE_MM,
        )
    doors = len(plan.doors)
    door_names = names.block_names(by_text[:doors], drawn_in["door"], NAME_MAX_CHARS)
    guard_names = names.block_names(by_text[doors:], drawn_in["guard"], NAME_MAX_CHARS)
    plan.doors = [
        replace(d, name=n) for d, n in zip(plan.doors, door_names, strict=True)
    ]
    plan.segments = [
        replace(s, name=n) for s, n in zip(plan.segments, guard_names, strict=True)
    ]


def _kinds(contents: DxfContents) -> str:
    """The entity types the drawing holds, most first: "CIRCLE 3, TEXT 2"."""
    totals: Counter[str] = Counter()
    for layer in contents.layers:
        totals.update(layer.entities)
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{kind} {count}" for kind, count in ranked) or "none"


def _heights(piece: Piece | Curve, scale: float) -> tuple[int | None, int]:
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


def _clamp(value_mm: float) -> float:
    return max(min(value_mm, _CLAMP_MM), -_CLAMP_MM)


def _mm(value: float, scale: float) -> int:
    """``value`` in the drawing's units as whole millimetres."""
    return round(_clamp(value * scale))
