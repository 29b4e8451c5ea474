"""The house's A4 page: the document template (same bytes for the same
content), the body frame inside the margins, and a line cut to fit a running
header."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import BaseDocTemplate, Frame

from compliance.documents import theme
from compliance.documents.theme import CONTENT_WIDTH, PAGE_HEIGHT, REGULAR


def body_frame() -> Frame:
    """The text frame of a page inside the house margins."""
    return Frame(
        theme.PAGE_MARGIN_X,
        theme.PAGE_MARGIN_BOTTOM,
        CONTENT_WIDTH,
        PAGE_HEIGHT - theme.PAGE_MARGIN_TOP - theme.PAGE_MARGIN_BOTTOM,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )


def a4_document(
    buffer: Any, *, title: str, author: str, subject: str, language: str
) -> BaseDocTemplate:
    """An A4 document of the house (the proposal, the revision report): the
    same bytes for the same content (``invariant``), its metadata set."""
    return BaseDocTemplate(
        buffer,
        pagesize=A4,
        invariant=1,
        # Else the canvas starts in Helvetica, which is then listed unembedded.
        initialFontName=REGULAR,
        initialFontSize=9,
        title=title,
        author=author,
        subject=subject,
        creator="Cell Safety Planner",
        lang=language,
    )


def fit_line(text: str, width: float, font: str, size: float) -> str:
    """``text`` cut to ``width`` with an ellipsis: a running header holds one
    line, and the cover has the whole value."""
    if stringWidth(text, font, size) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if stringWidth(text[:middle].rstrip() + "…", font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"
