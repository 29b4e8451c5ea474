"""The first page of an uploaded PDF (a hall's layout as the customer sent it)
drawn as a picture, to be kept and placed like an uploaded image: pure (no
Django), the same for the page and any other caller.

A PDF is recognised by its content: ``%PDF-`` within its first 1,024 bytes,
where PDF readers look for it (never by the file's name). Refused, each with
its own ``reading.ImageCheckError`` code: more than ``MAX_PDF_PAGES`` pages,
a password, a first page under ``MIN_PAGE_MM`` or over ``MAX_PAGE_MM`` on a
side, a file PDFium cannot read. The page is drawn at ``DPI`` dots per inch,
less when its longest side would pass ``MAX_SIDE_PX`` (an A2 sheet and
larger), so the picture never has more than ``reading.MAX_PIXELS``; it is
kept as a PNG of 256 colours (line drawings lose nothing visible), or as a
JPEG when that PNG is over ``reading.MAX_BYTES`` (a scanned page).

PDFium (pypdfium2) reads and draws in a child process with ``TIME_LIMIT_S``
seconds and ``MEMORY_LIMIT_MB`` of memory: PDFium is not thread-safe (a web
process may run threads), a page can hold work that no size checked
beforehand foresees (a huge embedded picture, millions of paths), and a
crash in PDFium then ends the child, not the request.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from cells.layout_image.reading import MAX_BYTES, ImageCheckError

logger = logging.getLogger(__name__)

MAX_PDF_PAGES = 100
# A page's side, in mm: from a small sketch to a 5 m plotter roll.
MIN_PAGE_MM = 10
MAX_PAGE_MM = 5000
DPI = 200
# At most 16 million pixels, within ``reading.MAX_PIXELS`` whatever the page's
# shape (tests/cells/layout_image/test_pdf_page.py checks it).
MAX_SIDE_PX = 4000
TIME_LIMIT_S = 20
MEMORY_LIMIT_MB = 512
COLOURS = 256

POINTS_PER_INCH = 72
MM_PER_POINT = 25.4 / POINTS_PER_INCH
# Where ``python -m cells.layout_image.pdf_page`` is found.
ROOT = Path(__file__).resolve().parents[2]
# What the child is given of the environment: enough to start Python.
CHILD_ENVIRONMENT = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "LANG", "TMPDIR")


@dataclass(frozen=True)
class DrawnPage:
    """A PDF's first page drawn: the picture's bytes (PNG, or JPEG for a
    scanned page) and how many pages the PDF has."""

    data: bytes
    page_count: int


def is_pdf(data: bytes) -> bool:
    """Whether ``data`` says it is a PDF, where readers look for it."""
    return b"%PDF-" in data[:1024]


def render_scale(width_pt: float, height_pt: float) -> float:
    """Pixels per PDF point for a page of ``width_pt`` × ``height_pt``:
    ``DPI``, or less so that the longest side is at most ``MAX_SIDE_PX``."""
    scale = min(DPI / POINTS_PER_INCH, MAX_SIDE_PX / max(width_pt, height_pt))
    # PDFium rounds a side up: a hair less keeps it within the bound.
    return scale * (1 - 1e-9)


def rendered_size(width_pt: float, height_pt: float) -> tuple[int, int]:
    """The picture's size in pixels, as PDFium makes it (each side rounded up)."""
    scale = render_scale(width_pt, height_pt)
    return math.ceil(width_pt * scale), math.ceil(height_pt * scale)


def draw_first_page(data: bytes) -> DrawnPage:
    """Read ``data`` as a PDF and draw its first page, in this process; or
    raise ImageCheckError. ``first_page`` runs this in a child process."""
    # Imported here: only the child loads PDFium.
    import pypdfium2 as pdfium
    from PIL import Image

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if exc.err_code in (pdfium.raw.FPDF_ERR_PASSWORD, pdfium.raw.FPDF_ERR_SECURITY):
            raise ImageCheckError("pdf_encrypted") from exc
        raise ImageCheckError("pdf_corrupt") from exc
    try:
        count = len(document)
        if count > MAX_PDF_PAGES:
            raise ImageCheckError("pdf_too_many_pages", pages=count)
        try:
            page = document[0]
        except pdfium.PdfiumError as exc:
            raise ImageCheckError("pdf_corrupt") from exc
        try:
            width_pt, height_pt = page.get_size()  # turned as the page says
            sides_mm = (width_pt * MM_PER_POINT, height_pt * MM_PER_POINT)
            # Written so that a side that is not a number is refused too.
            if not all(MIN_PAGE_MM <= side <= MAX_PAGE_MM for side in sides_mm):
                raise ImageCheckError(
                    "pdf_page_size",
                    width_mm=round(sides_mm[0]),
                    height_mm=round(sides_mm[1]),
                )
            picture = page.render(scale=render_scale(width_pt, height_pt)).to_pil()
        finally:
            page.close()
    finally:
        document.close()
    stream = io.BytesIO()
    picture.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE).save(
        stream, "PNG"
    )
    if stream.tell() > MAX_BYTES:
        stream = io.BytesIO()
        picture.convert("RGB").save(stream, "JPEG", quality=85)
    return DrawnPage(data=stream.getvalue(), page_count=count)


def first_page(data: bytes) -> DrawnPage:
    """``draw_first_page`` in a child process within ``TIME_LIMIT_S`` and
    ``MEMORY_LIMIT_MB``; past either, or if the child fails, the PDF is
    refused as ``pdf_not_drawn``."""
    command = [
        sys.executable,
        "-m",
        __name__,
        str(TIME_LIMIT_S),
        str(MEMORY_LIMIT_MB),
    ]
    # The child reads what a stranger sent: none of the settings' secrets.
    env = {name: os.environ[name] for name in CHILD_ENVIRONMENT if name in os.environ}
    try:
        done = subprocess.run(
            command,
            input=data,
            capture_output=True,
            timeout=TIME_LIMIT_S,
            cwd=ROOT,
            env=env,
        )
    except subprocess.TimeoutExpired as exc:
        logger.warning("A PDF's first page took over %s s to draw.", TIME_LIMIT_S)
        raise ImageCheckError("pdf_not_drawn") from exc
    header, _, payload = done.stdout.partition(b"\n")
    try:
        answer = json.loads(header) if done.returncode == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        logger.warning(
            "Drawing a PDF's first page failed (exit %s): %s",
            done.returncode,
            done.stderr[-2000:].decode(errors="replace"),
        )
        raise ImageCheckError("pdf_not_drawn")
    if "error" in answer:
        raise ImageCheckError(str(answer["error"]), **answer.get("params", {}))
    if len(payload) != answer.get("bytes"):
        raise ImageCheckError("pdf_not_drawn")
    return DrawnPage(data=payload, page_count=int(answer["page_count"]))


def _child(time_limit_s: int, memory_limit_mb: int) -> None:
    """The child's side: the PDF on stdin; on stdout one line of JSON (the
    page count and the picture's length, or the refusal) and the picture."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows: the timeout only
        pass
    else:
        limit = memory_limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (time_limit_s, time_limit_s + 1))
    data = sys.stdin.buffer.read()
    out = sys.stdout.buffer
    try:
        drawn = draw_first_page(data)
    except ImageCheckError as exc:
        answer = {"error": exc.code, "params": exc.params}
        out.write(json.dumps(answer).encode() + b"\n")
    else:
        answer = {"page_count": drawn.page_count, "bytes": len(drawn.data)}
        out.write(json.dumps(answer).encode() + b"\n" + drawn.data)
    out.flush()


if __name__ == "__main__":
    _child(max(1, math.ceil(float(sys.argv[1]))), int(sys.argv[2]))
