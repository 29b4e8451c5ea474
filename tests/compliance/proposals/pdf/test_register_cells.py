"""A register table's cells start with the register's font, colour, padding
and alignment (``RegisterCell``, ``HeadCell``) instead of a style command per
cell (issue 16: on a 200-row register those commands were a tenth of the
table's time). Each cell must come out exactly as the commands made it."""

from __future__ import annotations

from reportlab.platypus import Table, TableStyle

from compliance.documents import theme
from compliance.documents.fonts import register_fonts
from compliance.documents.kit import (
    CELL_LEADING,
    CELL_PADDING,
    CELL_SIZE,
    HEAD_LEADING,
    HEAD_SIZE,
)
from compliance.documents.theme import BOLD, REGULAR
from compliance.proposals.pdf.kit import Kit
from tests.compliance.proposals.pdf.samples import sample_proposal

ATTRIBUTES = (
    "fontname",
    "fontsize",
    "leading",
    "color",
    "alignment",
    "valign",
    "leftPadding",
    "rightPadding",
    "topPadding",
    "bottomPadding",
    "background",
)
# What a register table's cells were given by commands before.
COMMANDS = [
    ("FONT", (0, 0), (-1, -1), REGULAR, CELL_SIZE, CELL_LEADING),
    ("FONT", (0, 0), (-1, 0), BOLD, HEAD_SIZE, HEAD_LEADING),
    ("TEXTCOLOR", (0, 0), (-1, -1), theme.INK),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ("TOPPADDING", (0, 0), (-1, -1), 3),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 3.5),
]


def styles(table: Table) -> list[list[tuple]]:
    return [
        [tuple(getattr(cell, name) for name in ATTRIBUTES) for cell in row]
        for row in table._cellStyles
    ]


def test_a_register_s_cells_are_as_the_style_commands_made_them():
    register_fonts()
    kit = Kit(sample_proposal())
    right = (2,)
    extra = [("ALIGN", (1, 1), (1, -1), "CENTER"), ("TEXTCOLOR", (0, 2), (0, 2), "red")]
    header = ["#", "Hazard", "Cost"]
    rows = [[str(n), f"hazard {n} " * n, f"{n * 1000:,}"] for n in range(1, 6)]
    table = kit.table(header, rows, [20, 200, 60], right=right, extra=extra)

    before = Table(table._cellvalues, colWidths=[20, 200, 60])
    before.setStyle(
        TableStyle(
            [
                *COMMANDS,
                *[("ALIGN", (c, 0), (c, -1), "RIGHT") for c in right],
                *extra,
            ]
        )
    )
    assert styles(table) == styles(before)
    # Not every cell alike: the header, the right column and the red cell differ.
    flat = {cell for row in styles(table) for cell in row}
    assert len(flat) >= 4
    # A command for one cell changes that cell alone.
    assert table._cellStyles[2][0].color != table._cellStyles[3][0].color
