"""DXF drawings made in the tests with ezdxf, and the API clients."""

from __future__ import annotations

import io

import ezdxf
from django.core.files.uploadedfile import SimpleUploadedFile


def new_drawing(insunits: int = 4):
    """An empty R2010 drawing in the given $INSUNITS (4: mm)."""
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = insunits
    return doc


def to_bytes(doc) -> bytes:
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode(doc.output_encoding)


def fenced_square(side: float = 4000, *, layer: str = "FENCE", insunits: int = 4):
    """A closed LWPOLYLINE square of ``side`` on ``layer``, a LINE of a wall,
    an unmapped column outline (LINEs on HALL) and a CIRCLE and a TEXT."""
    doc = new_drawing(insunits)
    msp = doc.modelspace()
    msp.add_lwpolyline(
        [(0, 0), (side, 0), (side, side), (0, side)],
        close=True,
        dxfattribs={"layer": layer},
    )
    msp.add_line((0, -500), (side, -500), dxfattribs={"layer": "WALLS"})
    msp.add_line((-1000, -1000), (-1000, 5000), dxfattribs={"layer": "HALL"})
    msp.add_line((-1000, 5000), (6000, 5000), dxfattribs={"layer": "HALL"})
    msp.add_circle((side / 2, side / 2), 300, dxfattribs={"layer": "HALL"})
    msp.add_text("Robot cell", dxfattribs={"layer": layer})
    return doc


def upload(data: bytes, name: str = "cell.dxf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/dxf")
