"""Opening a DXF file, text or binary, as ezdxf's drawing. Pure, no Django."""

from __future__ import annotations

import io

import ezdxf
from ezdxf import recover
from ezdxf.document import Drawing
from ezdxf.filemanagement import dxf_stream_info
from ezdxf.lldxf.const import DXFError, acad_release
from ezdxf.lldxf.tagger import binary_tags_loader
from ezdxf.lldxf.validator import is_dxf_stream

from cells.layout_dxf.reading.contents import DxfError

# How a binary DXF file begins (the DXF reference, "Binary DXF Files").
BINARY_DXF = b"AutoCAD Binary DXF\r\n\x1a\x00"


def load(data: bytes) -> Drawing:
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


# Entities that belong to the one before them (a POLYLINE's vertices, an
# INSERT's attributes): ezdxf's model space counts their owner only.
_FOLLOWERS = frozenset({"VERTEX", "SEQEND", "ATTRIB", "ENDSEC"})


def count_entities(data: bytes) -> int | None:
    """How many entities the ENTITIES section of a text DXF holds, counted
    from its group codes without building them: ezdxf builds some 5,000 a
    second, and a file of 200,000 tiny entities fits in 5 MB. None for a
    binary file (read as it is: its entities are counted once built).

    DXF text is pairs of lines, a group code and its value; an entity begins
    with code 0. The names are ASCII, so any encoding reads them as Latin-1."""
    if data.startswith(BINARY_DXF):
        return None
    lines = data.decode("latin-1").splitlines()
    count = 0
    in_entities = False
    previous = ("", "")
    for index in range(0, len(lines) - 1, 2):
        code, value = lines[index].strip(), lines[index + 1].strip()
        if code == "2" and previous == ("0", "SECTION"):
            in_entities = value == "ENTITIES"
        elif code == "0" and in_entities and value not in _FOLLOWERS:
            count += 1
        elif code == "0" and value == "ENDSEC":
            in_entities = False
        previous = (code, value)
    return count
