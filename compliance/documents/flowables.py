"""The flowables the proposal builder adds to reportlab's: fast table-cell
text, section headings that become bookmarks, and the draft marks."""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

# What a line never breaks inside (issue 30): a number and its unit (1,800 mm,
# 300 ms, 12 kg), a currency and its amount (KRW 1,500,000), a performance
# level (PL d, PLr c), a standard's number (KS B ISO 10218-2), a Korean date
# (2027년 3월 1일). The space between them
# becomes a no-break space, which reads back from the PDF as a space.
NBSP = "\u00a0"
_UNIT = (
    r"(?:mm/s|m/s|mm²|cm²|m²|mm|cm|km|m|kg|g|ms|s|h|min|N|W|kW|V|A|Hz|%|°|"
    r"weeks?|days?|hours?|years?|주|일|년|시간|개월|건|개|원)"
)
_TOGETHER = (
    (re.compile(rf"(?<=\d) (?={_UNIT}(?![\w²]))"), NBSP),
    (re.compile(r"\b(KRW|USD|EUR) (?=\d)"), rf"\1{NBSP}"),
    (re.compile(r"\b(PLr?) (?=[a-e]\b)"), rf"\1{NBSP}"),
    # A standard's number: ISO 13855, IEC 61496, KS B ISO 10218-2.
    (re.compile(r"\bKS B ISO "), f"KS{NBSP}B{NBSP}ISO{NBSP}"),
    (re.compile(r"\b(ISO(?:/TS)?|IEC|EN) (?=\d)"), rf"\1{NBSP}"),
    (re.compile(r"(?<=\d년) (?=\d+월)|(?<=\d월) (?=\d+일)"), NBSP),
)


def keep_together(text: str) -> str:
    """``text`` with no-break spaces where a line must not break."""
    for pattern, replacement in _TOGETHER:
        text = pattern.sub(replacement, text)
    return text


def markup(text: str) -> str:
    """User text made safe for a Paragraph's mini-markup, numbers kept with
    their units."""
    return escape(keep_together(text)).replace("\n", "<br/>")


_BREAKS = re.compile(r"[ \t\r\f\v]+")


class TextFitter:
    """Breaks text into lines that fit a width, remembering each word's width:
    a register repeats its words, and measuring is the slow part."""

    def __init__(self) -> None:
        self._widths: dict[tuple[str, float], dict[str, float]] = {}
        # A register repeats whole texts too (phases, tasks, measures).
        self._broken: dict[tuple[str, float, str, float], list[str]] = {}

    def _table(self, font: str, size: float) -> dict[str, float]:
        table = self._widths.get((font, size))
        if table is None:
            table = self._widths[(font, size)] = {}
        return table

    def width(self, text: str, font: str, size: float) -> float:
        table = self._table(font, size)
        found = table.get(text)
        if found is None:
            found = table[text] = stringWidth(text, font, size)
        return found

    def lines(self, text: str, width: float, font: str, size: float) -> list[str]:
        """``text`` in lines no wider than ``width``; its own line breaks are
        kept, and a word too long for a line is cut where it must be."""
        key = (text, width, font, size)
        found = self._broken.get(key)
        if found is None:
            found = self._broken[key] = self._lines(text, width, font, size)
        return list(found)

    def _lines(self, text: str, width: float, font: str, size: float) -> list[str]:
        table = self._table(font, size)
        space = self.width(" ", font, size)
        out: list[str] = []
        for paragraph in keep_together(text).split("\n"):
            line: list[str] = []
            used = 0.0
            # Words between breaking spaces: a no-break space joins.
            for word in _BREAKS.split(paragraph):
                if not word:
                    continue
                w = table.get(word)
                if w is None:
                    w = table[word] = stringWidth(word, font, size)
                if w > width:
                    if line:
                        out.append(" ".join(line))
                    pieces = self._cut(word, width, font, size)
                    out.extend(pieces[:-1])
                    line, used = [pieces[-1]], self.width(pieces[-1], font, size)
                elif line and used + space + w > width:
                    out.append(" ".join(line))
                    line, used = [word], w
                else:
                    used = used + space + w if line else w
                    line.append(word)
            out.append(" ".join(line))
        return out

    @staticmethod
    def _cut(word: str, width: float, font: str, size: float) -> list[str]:
        pieces = []
        while word:
            cut = len(word)
            while cut > 1 and stringWidth(word[:cut], font, size) > width:
                cut -= 1
            # Rather before a bracket than inside what it holds: 리드타임 / (주).
            bracket = word.rfind("(", 1, cut)
            hyphen = word.rfind("-", 1, cut - 1)
            if 0 < bracket < cut < len(word):
                cut = bracket
            elif hyphen > 0 and cut < len(word):
                # An id at its hyphens: INTL-10218-2- / risk-assessment.
                cut = hyphen + 1
            pieces.append(word[:cut])
            word = word[cut:]
        return pieces


class Para(Paragraph):
    """A Paragraph that keeps its lines while the width it is wrapped to stays
    the same. Platypus wraps a paragraph several times at one width (a
    ``KeepTogether`` measures it, then the frame lays it out; a table wraps
    its cells again at each split), and each wrap broke its lines anew: a
    third of a demo proposal's paragraph work. The lines do not depend on the
    height offered, so they are the same each time."""

    _wrapped_width: float | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # A split that gives up on the paragraph drops its lines.
        if availWidth == self._wrapped_width and "blPara" in self.__dict__:
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        self._wrapped_width = availWidth
        return size


class Lines(Flowable):
    """Lines already broken to fit, set as one PDF text object: a table cell
    that reportlab lays out and draws several times faster than a Paragraph
    or a multi-line string. Each line is (text, font, colour, width; the
    width only matters right-aligned). The first baseline sits where a string
    cell's would, and the font, leading and colour the table has set for the
    cell are used without being set again."""

    def __init__(
        self,
        lines: list[tuple[str, str, Any, float]],
        size: float,
        leading: float,
        align: str = "LEFT",
    ):
        super().__init__()
        self.lines, self.size, self.leading, self.align = lines, size, leading, align
        self.height = len(lines) * leading
        self.width = 0.0

    def wrap(self, available_width: float, available_height: float):
        self.width = available_width
        return available_width, self.height

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        # Drawn in place: no graphics state saved and no translation per cell.
        same = canvas._fontsize == self.size and canvas._leading == self.leading
        font = canvas._fontname if same else None
        current: Any = canvas._fillColorObj  # what the table set for this cell
        colour = current
        right = self.align == "RIGHT"
        top = y + self.height - self.size
        text = canvas.beginText(x, top)  # the first line's origin
        for index, (line, line_font, line_colour, width) in enumerate(self.lines):
            if line_font != font:
                text.setFont(line_font, self.size, self.leading)
                font = line_font
            if line_colour is not colour:  # the theme's colours are shared objects
                text.setFillColor(line_colour)
                colour = line_colour
            if right:
                text.setTextOrigin(x + self.width - width, top - index * self.leading)
                text.textOut(line)
            else:
                text.textLine(line)  # moves down by the leading: no coordinates
        if colour is not current:  # the colour outlives the text object
            text.setFillColor(current)
        canvas.drawText(text)


class Heading(Paragraph):
    """A section heading that also becomes a PDF bookmark."""

    def __init__(self, text: str, style: ParagraphStyle, key: str, title: str):
        super().__init__(text, style)
        self._key, self._title = key, title

    def draw(self) -> None:
        super().draw()
        self.canv.bookmarkPage(self._key)
        self.canv.addOutlineEntry(self._title, self._key, level=0)


class PageRef(Flowable):
    """A page number known only once the document is laid out (a contents
    line's): draws a form of that name, which the canvas makes at save."""

    WIDTH = 16 * mm
    BASELINE = 2.6

    def __init__(self, form: str):
        super().__init__()
        self.form = form
        self.width, self.height = self.WIDTH, 9.2

    def wrap(self, available_width: float, available_height: float):
        return self.width, self.height

    def draw(self) -> None:
        self.canv.doForm(self.form)


class DraftMark(Flowable):
    """Marks where the draft register starts and ends, for the watermark."""

    def __init__(self, on: bool):
        super().__init__()
        self.on = on
        self.width = self.height = 0

    def wrap(self, available_width: float, available_height: float):
        return 0, 0

    def draw(self) -> None:
        self.canv._csp_draft = self.on
        if self.on:
            self.canv._csp_draft_on_page = True
