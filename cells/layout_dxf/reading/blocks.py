"""Placing the entities of a block where an INSERT puts them. Pure (ezdxf),
no Django.

ezdxf's own ``Insert.virtual_entities`` places one level of a block; for the
blocks within it, it turns each inner INSERT into one placed in world
coordinates, which an INSERT cannot always be: under uneven scaling (x 2,
y 1) an inner block turned 30° is skewed, and ezdxf places it turned but
unskewed (20 mm off over 100 mm; ezdxf 1.4). So the placement of every level
is kept here as a matrix (ezdxf's ``Insert.matrix44``, chained), and only the
entities that draw are placed, by ezdxf's own ``transform`` with the same
fallbacks as ``virtual_entities`` (an arc scaled unevenly is an ellipse; a
polyline with arcs its lines and ellipses).
"""

from __future__ import annotations

from ezdxf.dynblkhelper import get_dynamic_block_definition
from ezdxf.entities import Ellipse
from ezdxf.entities.copy import CopyNotSupported
from ezdxf.math import Matrix44
from ezdxf.math.transformtools import NonUniformScalingError


class Unplaced(Exception):
    """An entity of a block that ezdxf cannot place (a type it does not
    transform, or not scaled unevenly)."""


def placement(insert, owner: Matrix44 | None) -> Matrix44:
    """The matrix from the block's coordinates to the world's: the INSERT's
    own (insertion point, scales, rotation, extrusion, less the block's base
    point), then ``owner``'s, the matrix placing the block the INSERT is in
    (None: it is in the model space)."""
    own = insert.matrix44()
    return own if owner is None else Matrix44.chain(own, owner)


def copies(insert) -> list:
    """The INSERTs a MINSERT stands for, row by row (ezdxf's
    ``multi_insert``), or the INSERT itself. A row or column spacing of 0
    puts every copy in one place: read once."""
    if insert.mcount <= 1:
        return [insert]
    grid = insert.copy()
    for count, spacing in (
        ("row_count", "row_spacing"),
        ("column_count", "column_spacing"),
    ):
        if not grid.dxf.get(spacing, 0.0):
            grid.dxf.set(count, 1)
    return grid.multi_insert()


def placed(entity, m: Matrix44) -> list:
    """Copies of ``entity`` placed by ``m``: the entity itself; for an arc or
    circle scaled unevenly, an ellipse; for a polyline with arcs scaled
    unevenly, its lines and ellipses. Raises Unplaced."""
    try:
        copy = entity.copy()
    except CopyNotSupported as exc:
        raise Unplaced from exc
    try:
        return [copy.transform(m)]
    except NonUniformScalingError:
        kind = entity.dxftype()
        if kind in ("ARC", "CIRCLE") and abs(entity.dxf.radius) > 1e-12:
            return [Ellipse.from_arc(entity).transform(m)]
        if kind in ("LWPOLYLINE", "POLYLINE"):
            return [p for part in entity.virtual_entities() for p in placed(part, m)]
        raise Unplaced from None
    except NotImplementedError as exc:
        raise Unplaced from exc


def block_name(insert) -> str:
    """The name of the block an INSERT places; for an anonymous block ("*U12":
    a dynamic block as set here, a hatch's, a dimension's) the dynamic
    block's name, or ""."""
    name = str(insert.dxf.get("name", "") or "")
    if not name.startswith("*"):
        return name
    try:
        dynamic = get_dynamic_block_definition(insert)
    except Exception:  # a broken reference is no name
        dynamic = None
    return "" if dynamic is None or dynamic.name.startswith("*") else dynamic.name
