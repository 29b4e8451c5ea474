"""One entity of a drawing (in the model space, or inside a block already
placed in world coordinates) as what the plan reads of it: straight pieces,
curves, or a text. Pure (ezdxf), no Django.

Seen from above: x and y in world coordinates; z is read for the elevation
of a piece, and a piece whose z varies or whose extrusion is tilted off the
vertical is projected onto the floor and says so (``projected``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ezdxf.math import ConstructionEllipse, Vec3, bulge_to_arc

from cells.layout_dxf.reading.contents import Curve, DxfError, Piece, TextAt
from cells.layout_dxf.reading.curves import Arc, Spline

LINE_TYPES = frozenset({"LINE", "LWPOLYLINE", "POLYLINE"})
CURVE_TYPES = frozenset({"ARC", "CIRCLE", "ELLIPSE", "SPLINE"})
TEXT_TYPES = frozenset({"TEXT", "MTEXT", "ATTRIB"})
# What gives pieces (an INSERT gives those of its block).
READ_TYPES = LINE_TYPES | CURVE_TYPES | {"3DFACE", "INSERT"}

# AutoCAD draws splines up to order 26; past it a "spline" is no drawing's.
MAX_SPLINE_DEGREE = 25
# A spline given by fit points alone is solved for its control points, in
# time growing with the square of their number (ezdxf: 0.1 s for 1,000).
MAX_FIT_POINTS = 1_000
_FLAT = 1e-9


@dataclass
class Shapes:
    """What one entity gives: its pieces and curves, whether it was
    projected onto the floor, and ``skip``: why it gave nothing, if the
    reading left it out (``curve_too_complex``)."""

    pieces: list[Piece | Curve] = field(default_factory=list)
    projected: bool = False
    skip: str | None = None


def entity_type(entity) -> str:
    kind = entity.dxftype()
    if kind == "POLYLINE" and not (entity.is_2d_polyline or entity.is_3d_polyline):
        return "POLYLINE (mesh)"  # a polygon or polyface mesh: a surface
    return kind


def weight(entity, kind: str) -> int:
    """The pieces ``entity`` gives at the least, known before it is read
    (a spline is costly to build: counted by its points first)."""
    if kind == "LWPOLYLINE":
        return len(entity)
    if kind == "POLYLINE":
        return len(entity.vertices)
    if kind == "SPLINE":
        return len(entity.control_points) + len(entity.fit_points)
    if kind == "3DFACE":
        return 4
    return 1


def shapes(entity, kind: str, *, handle: str, layer: str, block: str) -> Shapes:
    """The pieces of a LINE, polyline, curve or 3DFACE (``READ_TYPES`` but
    INSERT). Raises DxfError (not_a_number) for a coordinate that is not a
    finite number."""

    def finite(values: Iterable[float]) -> None:
        if not all(math.isfinite(v) for v in values):
            raise DxfError("not_a_number", entity=kind, handle=handle, layer=layer)

    thickness = float(_attribute(entity, "thickness", 0.0) or 0.0)
    extrusion = Vec3(_attribute(entity, "extrusion", (0, 0, 1)))
    finite((thickness, *extrusion))
    up, tilted = _upright(extrusion)
    common = {"entity": kind, "handle": handle, "block": block}
    if kind == "LINE":
        start, end = Vec3(entity.dxf.start), Vec3(entity.dxf.end)
        finite((*start, *end))
        piece = Piece(
            start.x,
            start.y,
            end.x,
            end.y,
            elevation=min(start.z, end.z),
            thickness=thickness * up,
            **common,
        )
        return Shapes([piece], projected=tilted or _varies((start.z, end.z)))
    if kind in ("LWPOLYLINE", "POLYLINE"):
        return _polyline(entity, kind, finite, thickness * up, tilted, common)
    if kind == "3DFACE":
        corners = [Vec3(entity.dxf.get(f"vtx{i}", (0, 0, 0))) for i in range(4)]
        finite(c for corner in corners for c in corner)
        pieces: list[Piece | Curve] = [
            Piece(a.x, a.y, b.x, b.y, elevation=min(a.z, b.z), **common)
            for i, (a, b) in enumerate(
                zip(corners, corners[1:] + corners[:1], strict=True)
            )
            if not a.isclose(b) and not entity.is_invisible_edge(i)
        ]
        return Shapes(pieces, projected=_varies(c.z for c in corners))
    if kind == "SPLINE":
        return _spline(entity, finite, common)
    if kind == "ELLIPSE":
        ellipse = entity.construction_tool()
        up, tilted = _upright(ellipse.extrusion)
        thickness = 0.0
    else:  # ARC or CIRCLE, in its OCS
        center, radius = Vec3(entity.dxf.center), float(entity.dxf.radius)
        angles = (0.0, 360.0)
        if kind == "ARC":
            angles = (float(entity.dxf.start_angle), float(entity.dxf.end_angle))
        finite((*center, radius, *angles))
        ellipse = ConstructionEllipse.from_arc(center, radius, extrusion, *angles)
    shape = Arc.of(ellipse)
    finite(_fields(shape))
    lowest = ellipse.center.z - math.hypot(ellipse.major_axis.z, ellipse.minor_axis.z)
    curve = Curve(shape, elevation=lowest, thickness=thickness * up, **common)
    return Shapes([curve], projected=tilted)


def _polyline(entity, kind, finite, thickness, tilted, common) -> Shapes:
    """A LWPOLYLINE or 2D POLYLINE (in its OCS, with bulges) or a 3D POLYLINE
    (in world coordinates): a piece per straight segment, an arc per bulge;
    a closed one's closing segment too."""
    if kind == "POLYLINE" and entity.is_3d_polyline:
        points = [Vec3(p) for p in entity.points_in_wcs()]
        finite(c for p in points for c in p)
        flat: list[tuple[float, float, float]] = [(p.x, p.y, 0.0) for p in points]
        closed = bool(entity.is_closed)
        tilted = tilted or _varies(p.z for p in points)
        ocs, elevation = None, 0.0  # no bulges: a 3D polyline is straight
    else:
        ocs = entity.ocs()
        if kind == "LWPOLYLINE":
            elevation = float(entity.dxf.get("elevation", 0.0) or 0.0)
            flat = [(x, y, b) for x, y, b in entity.get_points("xyb")]
            closed = bool(entity.closed)
        else:
            elevation = Vec3(entity.dxf.get("elevation", (0, 0, 0))).z
            flat = [
                (v.dxf.location.x, v.dxf.location.y, v.dxf.get("bulge", 0.0) or 0.0)
                for v in entity.vertices
            ]
            closed = bool(entity.is_closed)
        flat = [(float(x), float(y), float(b)) for x, y, b in flat]
        finite([elevation, *(c for p in flat for c in p)])
        points = [ocs.to_wcs(Vec3(x, y, elevation)) for x, y, _b in flat]
    count = len(points)
    ends = count if closed and count > 2 else count - 1
    pieces: list[Piece | Curve] = []
    for i in range(max(ends, 0)):
        a, b = points[i], points[(i + 1) % count]
        bulge = flat[i][2]
        if abs(bulge) > _FLAT and not a.isclose(b):
            shape = _bulge_arc(ocs, flat[i], flat[(i + 1) % count], elevation)
            finite(_fields(shape))
            elevation_wcs = min(a.z, b.z)
            pieces.append(
                Curve(shape, elevation=elevation_wcs, thickness=thickness, **common)
            )
        else:
            pieces.append(
                Piece(
                    a.x,
                    a.y,
                    b.x,
                    b.y,
                    elevation=min(a.z, b.z),
                    thickness=thickness,
                    **common,
                )
            )
    return Shapes(pieces, projected=tilted)


def _bulge_arc(ocs, start, end, elevation: float) -> Arc:
    """The arc from ``start`` to ``end`` (x, y, bulge in the OCS): the bulge
    is tan(a/4) of the angle a it turns, counter-clockwise when positive."""
    center, _a, _b, radius = bulge_to_arc(start[:2], end[:2], start[2])
    begin = math.atan2(start[1] - center.y, start[0] - center.x)
    c = ocs.to_wcs(Vec3(center.x, center.y, elevation))
    # The OCS turns no lengths: its x and y axes of length r in the WCS.
    a, b = ocs.to_wcs(Vec3(radius, 0, 0)), ocs.to_wcs(Vec3(0, radius, 0))
    return Arc(c.x, c.y, a.x, a.y, b.x, b.y, begin, 4 * math.atan(start[2]))


def _spline(entity, finite, common) -> Shapes:
    control, fit = list(entity.control_points), list(entity.fit_points)
    degree = int(entity.dxf.get("degree", 3))
    if degree > MAX_SPLINE_DEGREE or (not control and len(fit) > MAX_FIT_POINTS):
        return Shapes(skip="curve_too_complex")
    finite(c for p in control + fit for c in p)
    finite([*entity.knots, *entity.weights])
    curve = entity.construction_tool()
    heights = [p.z for p in curve.control_points]
    piece = Curve(Spline.of(curve), elevation=min(heights, default=0.0), **common)
    return Shapes([piece], projected=_varies(heights))


def text_of(entity, kind: str, max_chars: int) -> TextAt | None:
    """The words of a TEXT, MTEXT or ATTRIB on one line, stripped and cut to
    ``max_chars``, at its insertion point seen from above; None when it has
    none (or is an invisible ATTRIB)."""
    if kind == "MTEXT":
        words = entity.plain_text(split=False)
        point = Vec3(entity.dxf.get("insert", (0, 0, 0)))
    else:
        if kind == "ATTRIB" and entity.is_invisible:
            return None
        words = entity.plain_text()
        # The point the text is aligned on (its insert, for left-aligned text;
        # the middle of its baseline for an aligned or fitted one).
        _align, first, second = entity.get_placement()
        point = entity.ocs().to_wcs(first if second is None else first.lerp(second))
    words = " ".join(str(words).split())[:max_chars].strip()
    if not words or not (math.isfinite(point.x) and math.isfinite(point.y)):
        return None
    return TextAt(point.x, point.y, words)


def _attribute(entity, name: str, default):
    """The DXF attribute ``name`` of ``entity``, or ``default`` when unset or
    not one of its type's (an ELLIPSE has no thickness)."""
    if not entity.dxf.is_supported(name):
        return default
    return entity.dxf.get(name, default)


def _upright(extrusion: Vec3) -> tuple[float, bool]:
    """(the vertical part of the unit extrusion, whether it is tilted off the
    vertical). Raises ZeroDivisionError for an extrusion of 0."""
    up = extrusion.normalize().z
    return up, abs(abs(up) - 1.0) > _FLAT


def _varies(heights: Iterable[float]) -> bool:
    values = list(heights)
    return bool(values) and max(values) - min(values) > _FLAT * max(
        1.0, max(abs(v) for v in values)
    )


def _fields(shape: Arc) -> tuple[float, ...]:
    return (
        shape.cx,
        shape.cy,
        shape.ax,
        shape.ay,
        shape.bx,
        shape.by,
        shape.start,
        shape.span,
    )
