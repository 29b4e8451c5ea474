"""Paragraphs, bullet lists and tables in the house style: fresh paragraph
styles per document, register tables whose cells start with the register's
style, label-and-value tables, the contents and shaded panels. A report's
builder is a ``DocumentKit`` (the proposal's ``Kit`` adds its data and
labels)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Table, TableStyle
from reportlab.platypus.tables import CellStyle

from compliance.documents import theme
from compliance.documents.flowables import Lines, Para, TextFitter, markup
from compliance.documents.theme import BOLD, CONTENT_WIDTH, REGULAR

CELL_PADDING = 3.5
CELL_SIZE, CELL_LEADING = 8.0, 10.4
HEAD_SIZE, HEAD_LEADING = 7.6, 9.6  # table headers
KEY_SIZE, KEY_LEADING = 8.6, 11.5  # label and value tables


def _styles() -> dict[str, ParagraphStyle]:
    """Fresh styles for one PDF: reportlab styles are mutable, so no two
    builds share them."""
    base = ParagraphStyle(
        "body",
        fontName=REGULAR,
        bulletFontName=REGULAR,
        fontSize=9.2,
        leading=13.4,
        textColor=theme.INK,
    )

    def style(name: str, **changes: Any) -> ParagraphStyle:
        return ParagraphStyle(name, parent=base, **changes)

    return {
        "body": base,
        "lead": style("lead", fontSize=10.2, leading=15, spaceAfter=6),
        "small": style("small", fontSize=7.6, leading=10.4, textColor=theme.MUTED),
        "h1": style(
            "h1",
            fontName=BOLD,
            fontSize=16,
            leading=20,
            textColor=theme.ACCENT,
            spaceAfter=3,
        ),
        "h2": style(
            "h2",
            fontName=BOLD,
            fontSize=10.6,
            leading=14,
            spaceBefore=12,
            spaceAfter=5,
            keepWithNext=1,
        ),
        "h3": style(
            "h3",
            fontName=BOLD,
            fontSize=9.2,
            leading=12,
            spaceBefore=8,
            spaceAfter=3,
            keepWithNext=1,
        ),
        "bullet": style("bullet", leftIndent=12, bulletIndent=2, spaceAfter=3),
        "cell": style("cell", fontSize=CELL_SIZE, leading=CELL_LEADING),
        "tile_label": style(
            "tile_label", fontSize=7.6, leading=10, textColor=theme.MUTED
        ),
        "tile_value": style(
            "tile_value",
            fontName=BOLD,
            fontSize=11.5,
            leading=15,
            textColor=theme.ACCENT,
        ),
        "banner": style("banner", fontSize=9, leading=12.6, textColor=theme.CRITICAL),
        "kicker": style(
            "kicker", fontName=BOLD, fontSize=10, leading=14, textColor=theme.ACCENT
        ),
        "cover_title": style(
            "cover_title", fontName=BOLD, fontSize=26, leading=33, spaceAfter=6
        ),
        # A long cell name: three lines of it where the roomy title has two.
        "cover_title_long": style(
            "cover_title_long", fontName=BOLD, fontSize=18, leading=23, spaceAfter=4
        ),
        "cover_sub": style(
            "cover_sub", fontSize=12.5, leading=17, textColor=theme.MUTED
        ),
        "cover_note": style(
            "cover_note", fontSize=7.8, leading=11, textColor=theme.MUTED
        ),
    }


class RegisterCell(CellStyle):
    """A register table's body cell as reportlab's style commands would make
    it: the cell font and colour, top-aligned, the register's padding."""

    fontname, fontsize, leading = REGULAR, CELL_SIZE, CELL_LEADING
    color = theme.INK
    valign = "TOP"
    leftPadding = rightPadding = CELL_PADDING
    topPadding, bottomPadding = 3, 3.5


class HeadCell(RegisterCell):
    """A register table's header cell: bold, smaller."""

    fontname, fontsize, leading = BOLD, HEAD_SIZE, HEAD_LEADING


class DocumentKit:
    """What a report builds with: fresh styles (never shared between builds)
    and helpers for paragraphs and tables, each text broken into lines once
    per document (``TextFitter``)."""

    def __init__(self) -> None:
        self.styles = _styles()
        self.text = TextFitter()

    # --- building blocks -------------------------------------------------------------

    def para(self, text: str, style: str = "body") -> Paragraph:
        return Para(markup(text), self.styles[style])

    def paragraphs(self, text: str, style: str = "body") -> list[Flowable]:
        """A text as written: a paragraph for each block between blank
        lines, its own line breaks kept, reportlab's markup shown as text.
        A paragraph that fits on a page is kept on one."""
        blocks = [b.strip() for b in re.split(r"\n\s*\n", text.replace("\r", ""))]
        return [KeepTogether([self.para(block, style)]) for block in blocks if block]

    def bullets(self, items: Iterable[str], empty: str | None = None) -> list[Flowable]:
        shown = [
            Para(markup(item), self.styles["bullet"], bulletText="•") for item in items
        ]
        if not shown and empty:
            return [self.para(empty, "small")]
        return shown

    def measures(self, measures: Sequence[str], width: float) -> Any:
        """A cell listing measures, one bullet each with a hanging indent
        (continuation lines start with spaces as wide as the bullet)."""
        if not measures:
            return "—"
        fit = width - 2 * CELL_PADDING
        bullet = "• "
        indent = self.text.width(bullet, REGULAR, CELL_SIZE)
        pad = " " * round(indent / self.text.width(" ", REGULAR, CELL_SIZE))
        lines = []
        for measure in measures:
            wrapped = self.text.lines(measure, fit - indent, REGULAR, CELL_SIZE)
            lines.append((bullet + wrapped[0], REGULAR, theme.INK, 0.0))
            lines.extend((pad + line, REGULAR, theme.INK, 0.0) for line in wrapped[1:])
        if len(lines) == 1:
            return lines[0][0]
        return Lines(lines, CELL_SIZE, CELL_LEADING)

    def range_cell(self, low: Any, high: Any, width: float) -> str:
        """A low–high figure, broken after the dash when it would not fit."""
        text = theme.number_range(low, high)
        if self.text.width(text, REGULAR, CELL_SIZE) > width - 2 * CELL_PADDING:
            return f"{theme.number(low)}–\n{theme.number(high)}"
        return text

    def _cell(
        self,
        value: Any,
        width: float,
        *,
        font: str = REGULAR,
        size: float = CELL_SIZE,
        leading: float = CELL_LEADING,
        colour: Any = theme.INK,
        align: str = "LEFT",
    ) -> Any:
        """A table cell. Text is broken into lines here: one line stays a
        plain string, several become ``Lines`` (a long register has
        thousands of cells, and Paragraphs would dominate the build time).
        Flowables pass through."""
        if not isinstance(value, str):
            return value
        return self.rich([(value, font, colour)], width, size, leading, align)

    def rich(
        self,
        parts: Sequence[tuple[str, str, Any]],
        width: float,
        size: float = CELL_SIZE,
        leading: float = CELL_LEADING,
        align: str = "LEFT",
    ) -> Any:
        """Text in parts of their own font and colour (e.g. a rule id in bold
        over its citation), each part starting on a new line. A single line
        stays a plain string, drawn in the table's own font and colour."""
        fit = width - 2 * CELL_PADDING
        right = align == "RIGHT"
        lines = [
            (line, font, colour, self.text.width(line, font, size) if right else 0.0)
            for text, font, colour in parts
            for line in self.text.lines(text, fit, font, size)
        ]
        if len(lines) == 1:
            return lines[0][0]
        return Lines(lines, size, leading, align)

    def table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        *,
        right: Sequence[int] = (),
        extra: Sequence[tuple[Any, ...]] = (),
    ) -> Table:
        """A register table: bold header repeated on every page, hairlines
        between rows, long text wrapped; ``right`` are right-aligned columns."""
        cells = [
            [
                self._cell(
                    text,
                    width,
                    font=BOLD,
                    size=HEAD_SIZE,
                    leading=HEAD_LEADING,
                    align="RIGHT" if col in right else "LEFT",
                )
                for col, (text, width) in enumerate(zip(header, widths, strict=True))
            ]
        ]
        for row in rows:
            cells.append(
                [
                    self._cell(value, width, align="RIGHT" if col in right else "LEFT")
                    for col, (value, width) in enumerate(zip(row, widths, strict=True))
                ]
            )
        # Each cell's font, colour, padding and alignment start as the
        # register's (``RegisterCell``), not set by a command per cell: on a
        # 200-row register those commands were a tenth of the table's time.
        columns = range(len(widths))
        styles = [[HeadCell("head") for _col in columns]]
        styles += [[RegisterCell("body") for _col in columns] for _row in rows]
        style: list[tuple[Any, ...]] = [
            ("BACKGROUND", (0, 0), (-1, 0), theme.HEADER_FILL),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, theme.ACCENT),
            ("LINEBELOW", (0, 1), (-1, -1), 0.25, theme.RULE),
        ]
        style += [("ALIGN", (col, 0), (col, -1), "RIGHT") for col in right]
        table = Table(
            cells,
            colWidths=list(widths),
            repeatRows=1,
            hAlign="LEFT",
            splitByRow=1,
            cellStyles=styles,
        )
        table.setStyle(TableStyle([*style, *extra]))
        return table

    def key_values(
        self, rows: Sequence[tuple[str, str]], label_width: float = 46 * mm
    ) -> Table:
        """Label and value pairs, no header: robot data, the cover's facts."""
        widths = [label_width, CONTENT_WIDTH - label_width]
        cells = [
            [
                self._cell(
                    label,
                    widths[0],
                    size=KEY_SIZE,
                    leading=KEY_LEADING,
                    colour=theme.MUTED,
                ),
                self._cell(value, widths[1], size=KEY_SIZE, leading=KEY_LEADING),
            ]
            for label, value in rows
        ]
        table = Table(cells, colWidths=widths, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), REGULAR, KEY_SIZE, KEY_LEADING),
                    ("TEXTCOLOR", (0, 0), (0, -1), theme.MUTED),
                    ("TEXTCOLOR", (1, 0), (1, -1), theme.INK),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, theme.RULE),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
                    ("TOPPADDING", (0, 0), (-1, -1), 4),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4.5),
                ]
            )
        )
        return table

    def contents_table(self, rows: Sequence[tuple[str, Any]]) -> Table:
        """The contents: each section's title and its page at the right."""
        widths = [CONTENT_WIDTH - 16 * mm, 16 * mm]
        table = Table(
            [[self._cell(title, widths[0]), page] for title, page in rows],
            colWidths=widths,
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), REGULAR, 9.2, 12),
                    ("TEXTCOLOR", (0, 0), (-1, -1), theme.INK),
                    ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, theme.FAINT),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ]
            )
        )
        return table

    def panel(self, flowables: list[Flowable], *, border: Any = None) -> Table:
        """A shaded box around a note."""
        table = Table([[flowables]], colWidths=[CONTENT_WIDTH], hAlign="LEFT")
        style = [
            ("FONT", (0, 0), (-1, -1), REGULAR, 9),
            ("BACKGROUND", (0, 0), (-1, -1), theme.PANEL),
            ("LEFTPADDING", (0, 0), (-1, -1), 8),
            ("RIGHTPADDING", (0, 0), (-1, -1), 8),
            ("TOPPADDING", (0, 0), (-1, -1), 6),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
        ]
        if border is not None:
            style.append(("BOX", (0, 0), (-1, -1), 1, border))
            style.append(("BACKGROUND", (0, 0), (-1, -1), theme.HAZARD_FILL))
        table.setStyle(TableStyle(style))
        return table
