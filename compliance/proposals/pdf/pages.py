"""A PDF's pages as PNG images: the proposal's preview (issue 15), so the SA
sees what the customer will get before a version is built.

Pure (no Django): PDFium (pypdfium2, which ships its own PDFium build) draws
each page, Pillow writes it as a PNG of 128 colours (text and line drawings
lose nothing visible; a page is some 40 KB instead of 150) and a thumbnail.
Bounded: at most ``max_pages`` pages are drawn, each ``width_px`` wide; the
page count is the whole PDF's. PDFium, like reportlab, is not thread-safe:
run it in a worker process (STYLE.md).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

COLOURS = 128


@dataclass(frozen=True)
class PageImage:
    """One page drawn: its number (from 1), the image's size and its PNG,
    and a thumbnail's PNG."""

    number: int
    width_px: int
    height_px: int
    png: bytes
    thumbnail: bytes


@dataclass(frozen=True)
class PageImages:
    page_count: int  # the PDF's pages, drawn or not
    pages: tuple[PageImage, ...]  # the first ones, at most the bound


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE).save(
        buffer, format="PNG"
    )
    return buffer.getvalue()


def page_images(
    pdf: bytes, *, width_px: int, thumbnail_px: int, max_pages: int
) -> PageImages:
    """The first ``max_pages`` pages of ``pdf`` as PNGs ``width_px`` wide
    (and thumbnails ``thumbnail_px`` wide), in page order."""
    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document)
        pages = []
        for index in range(min(count, max_pages)):
            page = document[index]
            try:
                width_pt, _height_pt = page.get_size()
                image = page.render(scale=width_px / width_pt).to_pil()
            finally:
                page.close()
            thumbnail = image.resize(
                (
                    thumbnail_px,
                    max(1, round(thumbnail_px * image.height / image.width)),
                ),
                Image.Resampling.LANCZOS,
            )
            pages.append(
                PageImage(
                    number=index + 1,
                    width_px=image.width,
                    height_px=image.height,
                    png=_png(image),
                    thumbnail=_png(thumbnail),
                )
            )
        return PageImages(page_count=count, pages=tuple(pages))
    finally:
        document.close()
