"""Checking an uploaded floor-plan image with Pillow, before anything is
kept: pure (no Django), the same for the page and any other caller.

Only PNG and JPEG are accepted, recognised by their content (never by the
file's name or the browser's word); at most ``MAX_BYTES`` and ``MAX_PIXELS``.
The pixel count is read from the header before a single pixel is decoded,
so a small file claiming a huge picture (a decompression bomb) is refused
without the memory it would cost; then the whole picture is decoded once,
so a truncated or corrupt file is refused too. The bytes are kept as sent,
unless their EXIF orientation turns them (``upright``). A PDF is drawn as a
picture first (``pdf_page``), then checked here like any other.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 25_000_000
# Pillow's name for each accepted format -> the content type it is served as.
CONTENT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg"}


class ImageCheckError(Exception):
    """Why an image is refused: ``code`` (``empty``, ``too_large``,
    ``not_an_image``, ``too_many_pixels``, ``corrupt``; for a PDF
    ``pdf_too_many_pages``, ``pdf_encrypted``, ``pdf_page_size``,
    ``pdf_corrupt``, ``pdf_not_drawn``) and its figures."""

    def __init__(self, code: str, **params) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class ImageInfo:
    """What a checked image is: its content type and size in pixels."""

    content_type: str
    width_px: int
    height_px: int


def check_image(data: bytes) -> ImageInfo:
    """Check ``data`` is a PNG or JPEG within the limits, or raise ImageCheckError."""
    if not data:
        raise ImageCheckError("empty")
    if len(data) > MAX_BYTES:
        raise ImageCheckError("too_large", limit=MAX_BYTES, size=len(data))
    with warnings.catch_warnings():
        # Pillow warns past its own MAX_IMAGE_PIXELS and refuses past twice
        # that: both are too many here, whatever the global is set to.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=list(CONTENT_TYPES)) as image:
                width, height = image.size
                kind = image.format
                if width * height > MAX_PIXELS:
                    raise ImageCheckError(
                        "too_many_pixels",
                        limit=MAX_PIXELS,
                        width=width,
                        height=height,
                    )
                if width < 1 or height < 1:
                    raise ImageCheckError("corrupt")
                image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageCheckError("too_many_pixels", limit=MAX_PIXELS) from exc
        except UnidentifiedImageError as exc:
            raise ImageCheckError("not_an_image") from exc
        except ImageCheckError:
            raise
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            # Truncated data, a bad checksum or a broken header.
            raise ImageCheckError("corrupt") from exc
    if kind not in CONTENT_TYPES:  # pragma: no cover - formats= restricts it
        raise ImageCheckError("not_an_image")
    return ImageInfo(content_type=CONTENT_TYPES[kind], width_px=width, height_px=height)


# EXIF's orientation tag: 1 is upright; browsers turn the others when showing.
ORIENTATION = 0x0112


def upright(data: bytes) -> bytes:
    """A checked image turned as its EXIF orientation says (a phone's photo),
    so that its pixels are those a browser shows and the points picked on
    it are the stored image's; the bytes as they are when already upright."""
    with Image.open(io.BytesIO(data), formats=list(CONTENT_TYPES)) as image:
        if image.getexif().get(ORIENTATION, 1) == 1:
            return data
        kind = image.format
        turned = ImageOps.exif_transpose(image)
    stream = io.BytesIO()
    turned.save(stream, kind, **({"quality": 95} if kind == "JPEG" else {}))
    return stream.getvalue()


# The longest side of the copy drawn in a PDF: a 150 mm figure at 300 dpi.
PDF_MAX_SIDE_PX = 1800


def shrunk(data: bytes, max_side_px: int = PDF_MAX_SIDE_PX) -> bytes:
    """A copy of a checked image no larger than ``max_side_px`` on its longest
    side, in its own format (the bytes as they are when already small)."""
    with Image.open(io.BytesIO(data), formats=list(CONTENT_TYPES)) as image:
        if max(image.size) <= max_side_px:
            return data
        kind = image.format
        copy = image.copy()
    if copy.mode == "P":
        # A palette (a PDF's page drawn) is shrunk pixel by pixel, which drops
        # thin lines: shrink the colours it stands for instead.
        copy = copy.convert("RGBA" if "transparency" in copy.info else "RGB")
    copy.thumbnail((max_side_px, max_side_px))
    if kind == "JPEG" and copy.mode not in ("RGB", "L"):
        copy = copy.convert("RGB")
    stream = io.BytesIO()
    copy.save(stream, kind, **({"quality": 85} if kind == "JPEG" else {}))
    return stream.getvalue()
